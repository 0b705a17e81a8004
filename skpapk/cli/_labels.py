"""Which label is relevant: ``--pos-label``, or a rule that cannot invert.

Labels are read as text. Without ``--pos-label``:

- ``0`` / ``1`` (and any two numbers): the greater number is relevant;
- ``False`` / ``True`` (any case): ``True``;
- well-known word pairs (``no`` / ``yes``, ``negative`` / ``positive``,
  ``irrelevant`` / ``relevant``, ...): the positive word;
- any other pair of words (``clicked`` / ``not_clicked``) is an error that
  asks for ``--pos-label``: comparing words (alphabetically) would silently
  invert the model whenever the relevant one sorts first.

When the labels are not ``0``/``1`` or ``False``/``True``, the command says
which label it took as relevant; the model file records it.
"""

from ._output import CLIError, cut

#: Word pairs with an obvious relevant word (lowercase): relevant -> other.
_WORD_PAIRS = {"yes": "no", "y": "n", "t": "f", "positive": "negative",
               "pos": "neg", "relevant": "irrelevant", "+": "-"}


def _number(text):
    try:
        value = float(text)
    except ValueError:
        return None
    return value


def _same_label(a, b):
    """Equal as text, or as numbers when both are numbers (``1`` and ``1.0``)."""
    if a == b:
        return True
    x, y = _number(a), _number(b)
    return x is not None and y is not None and x == y


def choose_relevant(values, pos_label=None, *, path, label_col):
    """Order the two labels of a training file as ``[irrelevant, relevant]``.

    Parameters
    ----------
    values : list of str
        The distinct labels of the file (stripped text), one or two.
    pos_label : str or None
        The ``--pos-label`` option.
    path, label_col : str
        For messages.

    Returns
    -------
    labels : list of str
        ``[irrelevant, relevant]``.
    announce : bool
        Whether to say which label was taken as relevant (labels other than
        ``0``/``1`` and ``False``/``True``, or ``--pos-label`` given).

    Examples
    --------
    >>> from skpapk.cli._labels import choose_relevant
    >>> choose_relevant(["1", "0"], path="f.csv", label_col="label")
    (['0', '1'], False)
    >>> choose_relevant(["no", "yes"], path="f.csv", label_col="label")
    (['no', 'yes'], True)
    >>> choose_relevant(["clicked", "not_clicked"], "clicked", path="f.csv",
    ...                 label_col="label")
    (['not_clicked', 'clicked'], True)
    """
    shown = " and ".join(cut(v) for v in values)
    if len(values) < 2:
        raise CLIError(
            f"{path}: label column {label_col!r} has the single value "
            f"{cut(values[0])}; training needs both relevant and irrelevant rows.")
    if pos_label is not None:
        pos_label = pos_label.strip()
        matches = [v for v in values if _same_label(v, pos_label)]
        if not matches:
            raise CLIError(f"--pos-label {cut(pos_label)} is not a label of {path}: "
                           f"its column {label_col!r} holds {shown}.")
        other = [v for v in values if v != matches[0]][0]
        return [other, matches[0]], True
    numbers = [_number(v) for v in values]
    if all(n is not None for n in numbers):
        low, high = sorted(values, key=_number)
        return [low, high], sorted(numbers) != [0.0, 1.0]
    lower = [v.lower() for v in values]
    if sorted(lower) == ["false", "true"]:
        relevant = values[lower.index("true")]
        return [v for v in values if v != relevant] + [relevant], False
    for word, other in _WORD_PAIRS.items():
        if sorted(lower) == sorted([word, other]):
            relevant = values[lower.index(word)]
            return [v for v in values if v != relevant] + [relevant], True
    raise CLIError(
        f"{path}: the labels {shown} in column {label_col!r} are words; say "
        f"which one is relevant: --pos-label {values[0]} or --pos-label "
        f"{values[1]}. Words are not compared: alphabetical order would "
        f"invert the model whenever the relevant word sorts first.")


def relevance(values, labels, pos_label, *, path, label_col):
    """Map the distinct labels of a file to relevant (True) or not.

    ``labels`` are a model's two labels and ``pos_label`` its relevant one;
    a file label must match one of them (as text, or as a number).

    Returns
    -------
    relevant : list of bool
        One per entry of ``values``.
    """
    out = []
    for value in values:
        if _same_label(value, pos_label):
            out.append(True)
        elif any(_same_label(value, label) for label in labels):
            out.append(False)
        else:
            seen = ", ".join(cut(v, 20) for v in values[:5])
            raise CLIError(
                f"{path}: label column {label_col!r} holds {seen}, but the model "
                f"was trained on the labels {', '.join(labels)}.")
    return out
