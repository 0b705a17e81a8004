"""Which label is relevant: ``--pos-label``, or a rule that cannot invert.

Labels are read as text. Without ``--pos-label``: of two finite numbers
the greater, of ``False``/``True`` (any case) ``True``, of a well-known
word pair (``no``/``yes``, ...) the positive word; other words (``nan``
too) are an error asking for ``--pos-label`` (an alphabetical order would
silently invert the model whenever the relevant word sorts first).
"""

import math

import numpy as np
import pandas as pd

from ..io._csv import _row
from ..utils._messages import cut
from ._output import CLIError

#: Word pairs with an obvious relevant word (lowercase): relevant -> other.
_WORD_PAIRS = {"yes": "no", "y": "n", "t": "f", "true": "false",
               "positive": "negative", "pos": "neg", "relevant": "irrelevant",
               "+": "-"}


def _number(text):
    try:
        return float(text) if math.isfinite(float(text)) else None
    except ValueError:
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
    >>> from skpapk.cli._labels import choose_relevant
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
            raise CLIError(f"--pos-label {cut(pos_label.strip())} is not a label "
                           f"of {path}: its column {label_col!r} holds {shown}.")
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
        f"which one is relevant: --pos-label {values[0]} or --pos-label "
        f"{values[1]}. Words are not compared: alphabetical order would "
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
                       f"the labels {', '.join(labels)}; write the labels as "
                       f"at training, or train a model on these labels.")
    relevant = [v for v in values if same(v, pos_label)]
    return np.isin(column, relevant).astype(np.int64)
