"""micro-pAp@k as a LightGBM evaluation function (``feval``, ``eval_metric``).

LightGBM computes its own metrics (``ndcg``, ``map``) in C++; a custom one
is a Python function of the scores that it calls after each round on each
evaluation set, for its records and its early stopping. This module gives
micro-pAp@k (paper eq. 17) in both of LightGBM's calling conventions, as
:class:`~skpapk.losses.LightGBMObjective` gives the objective.
"""

import numpy as np

from ..losses._lightgbm import (
    _is_dataset,
    check_group_sizes,
    codes_from_sizes,
    relevant_rows,
)
from ..utils._validation import check_k
from ._ranking import papk_score


def micro_papk_lightgbm(k=10):
    """The micro-pAp@k of an evaluation set, as a LightGBM evaluation function.

    The mean over the evaluation set's groups (LightGBM's queries: users) of
    their pAp@k under the round's scores (paper eq. 17), higher is better;
    a row is relevant when its label is greater than 0 (0/1 or graded
    relevance labels, as :class:`~skpapk.losses.LightGBMObjective` reads
    them); groups without a relevant or an irrelevant row are left out
    (NaN when no group has both). Row weights are not read: micro-pAp@k
    weighs every user alike. For ``lightgbm.train`` and ``lightgbm.cv`` (``feval=``) and
    for LightGBM's scikit-learn interface (``eval_metric=``, with
    ``eval_group``); with ``lightgbm.early_stopping``, the round of the
    best held-out micro-pAp@k is kept.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user.

    Returns
    -------
    metric : callable
        ``metric(preds, eval_data)`` (``lightgbm.train``'s convention, the
        ``Dataset`` holding the labels and ``group``) or ``metric(y_true,
        y_pred, weight, group)`` (the scikit-learn interface's), returning
        ``("micro_papk@k", value, True)``.

    See Also
    --------
    skpapk.losses.LightGBMObjective : The surrogates of pAp@k as LightGBM's
        objective.
    micro_papk_scorer : The same metric for scikit-learn's searches.
    papk_score : The metric.

    Examples
    --------
    >>> import numpy as np
    >>> import lightgbm as lgb
    >>> from skpapk.losses import LightGBMObjective
    >>> from skpapk.metrics import micro_papk_lightgbm
    >>> rng = np.random.default_rng(0)
    >>> group = np.full(20, 30)                  # 20 users of 30 rows each
    >>> y = (rng.random(600) < 0.3).astype(int)
    >>> X = rng.normal(size=(600, 4)) + y[:, None]
    >>> train = lgb.Dataset(X[:450], y[:450], group=group[:15])
    >>> valid = lgb.Dataset(X[450:], y[450:], group=group[15:], reference=train)
    >>> record = {}
    >>> booster = lgb.train(
    ...     {"objective": LightGBMObjective(k=5), "verbose": -1}, train,
    ...     num_boost_round=30, valid_sets=[valid], feval=micro_papk_lightgbm(5),
    ...     callbacks=[lgb.early_stopping(5, verbose=False),
    ...                lgb.record_evaluation(record)])
    >>> scores = record["valid_0"]["micro_papk@5"]
    >>> bool(scores[booster.best_iteration - 1] == max(scores))
    True
    """
    return _MicroPApKLightGBM(check_k(k))


class _MicroPApKLightGBM:
    """The callable of :func:`micro_papk_lightgbm` (its ``__name__``, the
    metric's name, is how LightGBM's scikit-learn interface records it)."""

    def __init__(self, k):
        self.k = k
        self.__name__ = f"micro_papk@{k}"

    def __repr__(self):
        return f"micro_papk_lightgbm(k={self.k})"

    def __call__(self, y_true, y_pred, weight=None, group=None):
        if _is_dataset(y_pred):  # lightgbm.train's feval(preds, eval_data)
            dataset = y_pred
            y_pred, y_true, group = y_true, dataset.get_label(), dataset.get_group()
        if group is None:
            raise ValueError(
                f"{self!r} needs the groups (users) of the evaluation rows: "
                f"lightgbm.Dataset(X, y, group=sizes), or eval_group= in "
                f"LGBMRanker.fit (the sizes of consecutive groups).")
        y_pred = np.asarray(y_pred)
        y_true = np.asarray(y_true)
        if y_true.shape != y_pred.shape:
            raise ValueError(f"{self!r}: y_true has shape {y_true.shape} but the "
                             f"scores have shape {y_pred.shape}; pass one label "
                             f"per row.")
        codes = codes_from_sizes(check_group_sizes(group, y_pred.shape[0]))
        score = papk_score(relevant_rows(y_true), y_pred, k=self.k, groups=codes,
                           pos_label=True, zero_division=np.nan)
        return self.__name__, float(score), True
