"""The command line's CSV files: :func:`skpapk.io.read_ranking_csv`, whose
errors name the options, and which label is relevant.

Labels are read as text. Without ``--pos-label``: of two finite numbers
the greater, of ``False``/``True`` (any case) ``True``, of a well-known
word pair (``no``/``yes``, ...) the positive word; other words (``nan``
too) are an error asking for ``--pos-label`` (an alphabetical order would
silently invert the model whenever the relevant word sorts first).
"""

import csv
import math
import unicodedata
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd

from ..io._csv import ARGUMENTS, CSVFormatError, _row
from ..io._ranking_csv import read_ranking_csv
from ..utils._messages import cut
from ._files import check_input_file
from ._output import CLIError

#: The reader's arguments -> the options that set them, for its messages.
OPTIONS = {name: f"--{name.replace('_', '-')}" for name in ARGUMENTS}
#: Word pairs with an obvious relevant word (lowercase): relevant -> other.
_WORD_PAIRS = {"yes": "no", "y": "n", "t": "f", "true": "false",
               "positive": "negative", "pos": "neg", "relevant": "irrelevant",
               "+": "-"}


def split_names(values, option):
    """Column names from repeated and/or comma-separated option values; a
    name that holds a comma is quoted as in a CSV file (``'"price, eur",f2'``)."""
    if values is None:
        return None
    names = [n.strip(" \t") for value in values  # as the header's names
             for n in next(csv.reader([value], skipinitialspace=True), [])
             if n.strip(" \t")]
    if not names:
        raise CLIError(f"{option} {cut(','.join(values))} names no column; give "
                       f"comma-separated column names, e.g. {option} f1,f2.")
    return names


def _shown(value):
    """A value from a file as text, escaped when not printable (a label may
    hold terminal codes)."""
    return cut(value, 40, quote=not str(value).isprintable())


def listed(names, most=10):
    """The first ``most`` of ``names`` (each cut), and their count if more."""
    more = f", ... ({len(names)} in all)" if len(names) > most else ""
    # quoted (escaped) when not printable: a name may hold terminal codes
    return ", ".join(_shown(n) for n in names[:most]) + more


def read_csv(path, *, group_col, label_col=None, features=None, ignore_cols=(),
             require_label=True, delimiter=",", for_model=False):
    """:func:`~skpapk.io.read_ranking_csv`, with binary labels.

    ``for_model``: the columns are those of a saved model, not options.

    Raises
    ------
    CLIError
        For every problem in the file, with its line.
    """
    check_input_file(path)
    try:
        with warnings.catch_warnings():  # (commands run one at a time)
            # pandas' advice (its dtype= and low_memory=) is no option here,
            # and a feature's cells are checked apart
            warnings.simplefilter("ignore", pd.errors.DtypeWarning)
            data = read_ranking_csv(path, group_col=group_col,
                                    label_col=label_col, features=features,
                                    ignore_cols=ignore_cols, delimiter=delimiter,
                                    require_label=require_label)
    except CSVFormatError as exc:
        hint = None if not for_model else (  # not the user's columns
            "the model was trained with it" if exc.argument else
            "fit the model again without the column (skpapk fit --ignore-cols)")
        raise CLIError(exc.with_names(OPTIONS, hint=hint)) from None
    if data.labels is not None:
        values = distinct_labels([str(v) for v in pd.unique(data.labels)])
        if len(values) > 2:  # each value's first line: which is odd is theirs
            shown = ", ".join(
                f"{cut(v, 20)} on line "
                f"{_row(path, delimiter, int(np.argmax(data.labels == v)))[0]}"
                for v in values[:3])
            raise CLIError(
                f"{path}: label column {label_col!r} must be binary (two "
                f"values: relevant or not), but it holds a third value (first "
                f"seen: {shown}); threshold it first, e.g. 1 for rating 5 and "
                f"0 otherwise.")
    return data


def _number(text):
    """A label's finite number, exactly (``9007199254740993`` is not
    ``9007199254740992``, which float64 merges), read as the feature cells
    are (ASCII, no ``1_000``: Python's float takes ``1_0`` for 10 and
    full-width digits)."""
    try:
        value = float(text) if text.isascii() and "_" not in text else None
    except ValueError:
        return None
    if value is None or not math.isfinite(value):
        return None
    try:  # a Decimal: exact, and cheap for 1e-10000000 (a Fraction is not)
        return Decimal(text.strip())
    except ArithmeticError:  # an exponent beyond Decimal's: a word, not 0
        return None


def _same_label(a, b):
    """Equal as text, or as numbers (``1`` and ``1.0``)."""
    x, y = _number(a), _number(b)
    return a == b or (x is not None and x == y)


def distinct_labels(values):
    """``values`` without the later spellings of a number (``1.0`` after
    ``1``)."""
    return [v for i, v in enumerate(values)
            if not any(_same_label(v, u) for u in values[:i])]


def choose_relevant(values, pos_label=None, *, path, label_col):
    """Order the one or two labels ``values`` of a training file.

    Returns ``([irrelevant, relevant], announce)``: ``announce`` says
    whether to name the relevant label (not ``0``/``1`` nor
    ``False``/``True``, or ``--pos-label`` given).

    Examples
    --------
    >>> from skpapk.cli._csv import choose_relevant
    >>> choose_relevant(["1", "0"], path="f.csv", label_col="label")
    (['0', '1'], False)
    >>> choose_relevant(["no", "yes"], path="f.csv", label_col="label")
    (['no', 'yes'], True)
    """
    shown = " and ".join(cut(v) for v in values)
    spellings, values = values, distinct_labels(values)  # 1 and 1.0: one value
    if len(values) < 2:
        written = f" (written {shown})" if len(spellings) > 1 else ""
        raise CLIError(f"{path}: label column {label_col!r} has the single value "
                       f"{cut(values[0])}{written}; training needs both relevant "
                       f"and irrelevant rows.")
    if pos_label is not None:
        matches = [v for v in values if _same_label(v, pos_label.strip())]
        if not matches:
            nfc = [v for v in values if unicodedata.normalize("NFC", v)
                   == unicodedata.normalize("NFC", pos_label.strip())]
            same = (f"; {cut(nfc[0])} looks the same, in other Unicode "
                    f"characters ({ascii(pos_label.strip())} in --pos-label, "
                    f"{ascii(nfc[0])} in the file): write it as the file "
                    f"does, or save the file in Unicode's NFC form") if nfc else ""
            raise CLIError(f"--pos-label {cut(pos_label.strip())} is not a label "
                           f"of {path}: its column {label_col!r} holds "
                           f"{shown}{same}.")
        return [v for v in values if v != matches[0]] + matches[:1], True
    if all(_number(v) is not None for v in values):
        low, high = sorted(values, key=_number)
        return [low, high], sorted(map(_number, values)) != [0.0, 1.0]
    lower = [v.lower() for v in values]
    for word, other in _WORD_PAIRS.items():
        if sorted(lower) == sorted([word, other]):
            relevant = values[lower.index(word)]
            return [v for v in values if v != relevant] + [relevant], word != "true"
    raise CLIError(
        f"{path}: the labels {shown} in column {label_col!r} are words; say "
        f"which one is relevant: --pos-label {_shown(values[0])} or --pos-label "
        f"{_shown(values[1])}. Words are not compared: alphabetical order would "
        f"invert the model whenever the relevant word sorts first.")


def relevant_rows(column, labels, pos_label, *, path, label_col, delimiter):
    """1 where the label ``column`` holds ``pos_label`` (in any spelling of
    it: ``1.0`` for ``1``, ``TRUE`` for ``true`` unless the two labels
    differ only by case), else 0; every value must be one of a model's two
    ``labels``, as text or as a number."""
    values = [str(v) for v in pd.unique(column)]
    fold = len({label.lower() for label in labels}) == len(labels)

    def same(value, label):
        return _same_label(value, label) or fold and value.lower() == label.lower()

    unknown = [v for v in values if not any(same(v, label) for label in labels)]
    if unknown:
        line = _row(path, delimiter, int(np.argmax(column == unknown[0])))[0]
        raise CLIError(f"{path}, line {line}: label column {label_col!r} holds "
                       f"{cut(unknown[0], 20)}, but the model was trained on "
                       f"the labels {listed(labels)}; write the labels as "
                       f"at training, or train a model on these labels.")
    relevant = [v for v in values if same(v, pos_label)]
    return np.isin(column, relevant).astype(np.int64)
