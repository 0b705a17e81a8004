"""The commands that apply a saved model: ``score`` and ``recommend``.

They import no scikit-learn (nor the estimators): a linear model file is
plain data, applied with numpy (:mod:`skpapk.cli._model_io`), and the
metrics go to the metric kernels (:mod:`skpapk.cli._metrics`), so that
scoring a large file costs little more than reading it.
"""

import sys

import numpy as np

from ..utils._groups import rank_within_segments
from ._csv import check_input_file, read_csv, read_rows
from ._files import atomic_write, check_output
from ._labels import relevance
from ._metrics import describe_groups, random_metrics, ranking_metrics
from ._model_io import load_model
from ._output import Progress, format_value, render


def _read_for_model(args, model, *, require_label, progress):
    return read_csv(args.file, group_col=model["group_col"],
                    label_col=model["label_col"], features=model["feature_cols"],
                    require_label=require_label, delimiter=args.delimiter,
                    for_model=True, progress=progress)


def cmd_score(args):
    progress = Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    data = _read_for_model(args, model, require_label=True, progress=progress)
    relevant = np.array(relevance(data.label_values, model["labels"],
                                  model["pos_label"], path=data.path,
                                  label_col=model["label_col"]), dtype=bool)
    y_pos = relevant[data.label_codes]
    groups = data.group_codes
    progress(f"read {data.path}: {describe_groups(y_pos, groups)}")
    if _announced(model["labels"]):
        progress(f"relevant label: {model['pos_label']!r} (recorded in the model)")
    scores = model.decision_function(data.X)
    data.X = None  # not needed any more: the metrics' memory can reuse it
    values = ranking_metrics(y_pos, scores, groups, k)
    randoms = random_metrics(y_pos, groups, k)
    names = [f"micro-pAp@{k}", f"prec@{k}", f"pAUC(0, {k}/n-]"]
    rows = [[name, format_value(v), format_value(r)]
            for name, v, r in zip(names, values, randoms)]
    sys.stdout.write(render(["metric", "model", "random"], rows, args.format))
    return 0


def _announced(labels):
    """Whether labels are other than 0/1 and False/True (then say which is
    relevant)."""
    return sorted(v.lower() for v in labels) not in (["0", "1"], ["false", "true"])


def _unique_name(name, taken):
    while name in taken:
        name = f"skpapk_{name}"
    return name


def top_k_rows(scores, codes, k):
    """Each group's ``k`` highest scored rows: ``(rows, ranks)``.

    Groups in code order, rows by decreasing score (ties: file order).
    """
    n_groups = int(codes.max()) + 1 if codes.size else 0
    ranking = rank_within_segments(scores, codes, n_groups)
    rank = ranking.rank[ranking.order]
    keep = rank < k
    return ranking.order[keep], rank[keep] + 1


def cmd_recommend(args):
    progress = Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    to_stdout = args.out in (None, "-")
    check_input_file(args.file)
    if not to_stdout:
        check_output(args.out, option="--out", inputs=[args.file, args.model],
                     force=args.force)
    data = _read_for_model(args, model, require_label=False, progress=progress)
    with progress.task("scoring"):
        scores = model.decision_function(data.X)
        data.X = None
        rows, ranks = top_k_rows(scores, data.group_codes, k)
    table = read_rows(data.path, data.header, rows, delimiter=args.delimiter,
                      progress=progress)
    group_col = model["group_col"]
    others = [name for name in data.header if name != group_col]
    taken = set(data.header)
    table.insert(0, _unique_name("score", taken), [repr(float(s))
                                                   for s in scores[rows]])
    table.insert(0, _unique_name("rank", taken), ranks)
    table = table[[group_col, *table.columns[:2], *others]]
    n_groups = int(np.unique(data.group_codes[rows]).shape[0])
    with progress.task("writing", total=len(table), unit="rows") as bar:
        if to_stdout:
            _write_table(table, sys.stdout, bar)
        else:
            with atomic_write(args.out, newline="") as handle:
                _write_table(table, handle, bar)
    where = "stdout" if to_stdout else args.out
    progress(f"wrote the top {k} rows of {n_groups} groups ({len(table)} rows) "
             f"to {where}")
    return 0


def _write_table(table, handle, bar, chunk=100_000):
    for start in range(0, len(table), chunk):
        part = table.iloc[start:start + chunk]
        part.to_csv(handle, index=False, header=start == 0, lineterminator="\n")
        bar.advance(len(part))
    if not len(table):
        table.to_csv(handle, index=False, lineterminator="\n")
    handle.flush()
