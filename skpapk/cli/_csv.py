"""The command line's CSV files: :func:`skpapk.io.read_ranking_csv`, whose
errors name the options, and binary labels."""

import numpy as np
import pandas as pd

from ..io._csv import CSVFormatError, _row, read_ranking_csv
from ..utils._messages import cut
from ._files import check_input_file
from ._labels import distinct_labels
from ._output import CLIError

#: The reader's arguments -> the options that set them, for its messages.
OPTIONS = {"group_col": "--group-col", "label_col": "--label-col",
           "features": "--features", "ignore_cols": "--ignore-cols",
           "delimiter": "--delimiter"}


def split_names(values, option):
    """Column names from repeated and/or comma-separated option values."""
    if values is None:
        return None
    names = [n.strip(" \t") for value in values for n in value.split(",")
             if n.strip(" \t")]  # as the reader strips the header's names
    if not names:
        raise CLIError(f"{option} {cut(','.join(values))} names no column; give "
                       f"comma-separated column names, e.g. {option} f1,f2.")
    return names


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
        data = read_ranking_csv(path, group_col=group_col, label_col=label_col,
                                features=features, ignore_cols=ignore_cols,
                                delimiter=delimiter, require_label=require_label)
    except CSVFormatError as exc:
        hint = None if not for_model else (  # not the user's columns
            "the model was trained with it" if exc.argument else
            "fit the model again without the column (skpapk fit --ignore-cols)")
        raise CLIError(exc.with_names(OPTIONS, hint=hint)) from None
    if data.labels is not None:
        values = distinct_labels([str(v) for v in pd.unique(data.labels)])
        if len(values) > 2:
            line, _ = _row(path, delimiter, int(np.argmax(data.labels == values[2])))
            shown = ", ".join(cut(v, 20) for v in values[:3])
            raise CLIError(
                f"{path}, line {line}: label column {label_col!r} must be binary "
                f"(two values: relevant or not), but it holds a third value "
                f"({shown}); threshold it first, e.g. 1 for rating 5 and 0 "
                f"otherwise.")
    return data
