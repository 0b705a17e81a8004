"""Which label is relevant: never by alphabetical order of words."""

from unittest import mock

import numpy as np
import pytest

from skpapk.cli._csv import choose_relevant, relevant_rows
from skpapk.cli._output import CLIError


def choose(values, pos_label=None):
    return choose_relevant(values, pos_label, path="f.csv", label_col="label")


@pytest.mark.parametrize("values, expected, announce", [
    (["0", "1"], ["0", "1"], False),
    (["1", "0"], ["0", "1"], False),
    (["1.0", "0.0"], ["0.0", "1.0"], False),
    (["-1", "1"], ["-1", "1"], True),        # numbers, not text: 1 > -1
    (["2", "10"], ["2", "10"], True),        # and 10 > 2
    # two numbers that float64 merges: compared exactly
    (["9007199254740993", "9007199254740992"],
     ["9007199254740992", "9007199254740993"], True),
    (["0.1", "0.10000000000000001"], ["0.1", "0.10000000000000001"], True),
    (["1e-10000000", "0"], ["0", "1e-10000000"], True),  # float64's 0.0 too
    (["True", "False"], ["False", "True"], False),
    (["false", "TRUE"], ["false", "TRUE"], False),
    (["yes", "no"], ["no", "yes"], True),
    (["Y", "N"], ["N", "Y"], True),
    (["irrelevant", "relevant"], ["irrelevant", "relevant"], True),
])
def test_obvious_labels(values, expected, announce):
    assert choose(values) == (expected, announce)


@pytest.mark.parametrize("values", [["clicked", "not_clicked"],
                                    ["not_clicked", "clicked"], ["a", "b"]])
def test_other_words_need_pos_label(values):
    # the hint lists both words: it does not assume which one is relevant
    with pytest.raises(CLIError, match="say which one is relevant: --pos-label "
                       f"{values[0]} or --pos-label {values[1]}\\."):
        choose(values)
    assert choose(values, "clicked" if "clicked" in values else "a")[0][1] in (
        "clicked", "a")


@pytest.mark.parametrize("values", [["0", "nan"], ["nan", "0"], ["1", "inf"],
                                    ["-inf", "NaN"]])
def test_non_finite_labels_are_words(values):
    # float('nan') is no number to compare: the order of rows chose before
    with pytest.raises(CLIError, match="are words; say which one is relevant"):
        choose(values)
    assert choose(values, values[0]) == ([values[1], values[0]], True)


def test_a_number_beyond_decimal_is_a_word_not_zero():
    # (review) its fallback read 1e-9999999999999999999 as 0: one label with 0
    with pytest.raises(CLIError, match="are words; say which one is relevant"):
        choose(["1e-9999999999999999999", "0"])


@pytest.mark.parametrize("values", [["1", "1.0"], ["0.0", "0"], ["-0", "0e3"]])
def test_one_number_written_two_ways_is_a_single_value(values):
    # fit took '1' as relevant and '1.0' not, where score takes both
    with pytest.raises(CLIError, match=f"single value '{values[0]}' \\(written"):
        choose(values)
    with pytest.raises(CLIError, match="single value"):
        choose(values, values[1])


def test_pos_label_overrides_and_is_checked():
    assert choose(["0", "1"], "0") == (["1", "0"], True)
    assert choose(["0.0", "1.0"], "1") == (["0.0", "1.0"], True)  # as numbers
    assert choose(["yes", "no"], " no ") == (["yes", "no"], True)
    with pytest.raises(CLIError, match="--pos-label 'maybe' is not a label"):
        choose(["yes", "no"], "maybe")
    with pytest.raises(CLIError, match="single value 'yes'"):
        choose(["yes"])


def test_relevance_of_a_scored_file():
    labels, pos = ["not_clicked", "clicked"], "clicked"
    column = np.array(["clicked", "not_clicked", "clicked"], dtype=object)
    assert relevant_rows(column, labels, pos, path="f", delimiter=",",
                         label_col="c").tolist() == [1, 0, 1]
    column = np.array(["1.0", "0", "1"], dtype=object)  # 1 and 1.0 alike
    assert relevant_rows(column, ["0", "1"], "1", path="f", delimiter=",",
                         label_col="c").tolist() == [1, 0, 1]
    with pytest.raises(CLIError, match="trained on the labels not_clicked, "
                                       "clicked"), \
            mock.patch("skpapk.cli._csv._row", return_value=(3, {})):
        relevant_rows(np.array(["yes", "no"], dtype=object), labels, pos,
                      delimiter=",", path="f", label_col="c")
    # any case (TRUE for True), unless the two labels differ only by case
    column = np.array(["TRUE", "false", "True"], dtype=object)
    assert relevant_rows(column, ["False", "True"], "True", path="f",
                         delimiter=",", label_col="c").tolist() == [1, 0, 1]
    column = np.array(["YES", "yes", "YES"], dtype=object)
    assert relevant_rows(column, ["yes", "YES"], "YES", path="f", delimiter=",",
                         label_col="c").tolist() == [1, 0, 1]
    with pytest.raises(CLIError, match="holds 'Yes', but the model was trained "
                                       "on the labels yes, YES"), \
            mock.patch("skpapk.cli._csv._row", return_value=(3, {})):
        relevant_rows(np.array(["YES", "Yes"], dtype=object), ["yes", "YES"],
                      "YES", delimiter=",", path="f", label_col="c")


def test_words_of_a_file_are_escaped_in_the_pos_label_hint():
    # (review) "--pos-label {value}" wrote a label's terminal codes raw
    with pytest.raises(CLIError) as info:
        choose_relevant(["\x1b[31mred", "blue"], path="f.csv", label_col="rel")
    assert "\x1b" not in str(info.value)
    assert "--pos-label '\\x1b[31mred' or --pos-label blue" in str(info.value)


def test_a_pos_label_in_another_unicode_form_is_named_so():
    import unicodedata

    nfd = unicodedata.normalize("NFD", "élu")
    with pytest.raises(CLIError) as exc:
        choose_relevant(["non", nfd], "élu", path="f.csv", label_col="label")
    assert str(exc.value) == (
        f"--pos-label 'élu' is not a label of f.csv: its column 'label' holds "
        f"'non' and '{nfd}'; '{nfd}' looks the same, in other Unicode "
        f"characters ('\\xe9lu' in --pos-label, 'e\\u0301lu' in the file): "
        f"write it as the file does, or save the file in Unicode's NFC form.")
    assert choose_relevant(["non", nfd], nfd, path="f.csv", label_col="label") \
        == (["non", nfd], True)
