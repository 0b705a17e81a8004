"""scikit-learn scorers for pAp@k: the fold as one list, or per group.

:func:`micro_papk_scorer` needs each test fold's groups. scikit-learn sends
them to a scorer only through metadata routing, so the scorer requests
``groups`` itself and refuses to score a fold without them.
"""

import sklearn
from sklearn.metrics import make_scorer

from ._common import _check_options
from ._ranking import papk_score
from ..utils._validation import check_k

ROUTING_LINE = "sklearn.set_config(enable_metadata_routing=True)"


def _missing_groups_message():
    routing = sklearn.get_config().get("enable_metadata_routing", False)
    if routing:
        why = (
            f"Metadata routing is on ({ROUTING_LINE}) but no groups reached "
            "the scorer: pass them to fit, e.g. GridSearchCV(...).fit(X, y, "
            "groups=groups), or params={'groups': groups} to cross_val_score "
            "/ cross_validate."
        )
    else:
        why = (
            "scikit-learn passes groups to a scorer only through metadata "
            "routing, which is off. Add this line before fitting:\n"
            f"    {ROUTING_LINE}\n"
            "and pass groups to fit (GridSearchCV(...).fit(X, y, "
            "groups=groups)) or params={'groups': groups} to cross_val_score "
            "/ cross_validate."
        )
    return (
        "micro_papk_scorer needs the group (user) of every test row and got "
        f"groups=None. {why} To score each fold as one list instead, use "
        "papk_scorer(k)."
    )


def _papk_score_per_group(y_true, y_score, *, k, groups=None, ties="half",
                          average="micro"):
    """:func:`papk_score` that refuses to treat the fold as one group."""
    if groups is None:
        raise ValueError(_missing_groups_message())
    return papk_score(y_true, y_score, k=k, groups=groups, average=average,
                      ties=ties)


def papk_scorer(k, *, ties="half"):
    """Scorer of pAp@k with the whole test fold as one list (one group).

    Made with :func:`sklearn.metrics.make_scorer` on the estimator's
    ``decision_function``. Use :func:`micro_papk_scorer` to score each user
    separately.

    Parameters
    ----------
    k : int
        Number of items shown.
    ties : {"half", "error"}, default="half"
        As in :func:`papk_score`.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y)``; greater is better.

    See Also
    --------
    micro_papk_scorer : pAp@k per group, averaged (paper eq. 17).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skpapk.metrics import papk_scorer
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> papk_scorer(k=2)(LogisticRegression().fit(X, y), X, y)
    1.0
    """
    _check_options("micro", ties)
    k = check_k(k)
    return make_scorer(papk_score, response_method="decision_function", k=k,
                       ties=ties)


def micro_papk_scorer(k, *, ties="half", average="micro"):
    """Scorer of micro-pAp@k (paper eq. 17): pAp@k per group, mean over groups.

    The scorer requests ``groups`` through scikit-learn's metadata routing
    (as if ``.set_score_request(groups=True)`` had been called), so with
    ``sklearn.set_config(enable_metadata_routing=True)``:

    - ``GridSearchCV(est, grid, scoring=micro_papk_scorer(k), cv=GroupKFold())
      .fit(X, y, groups=groups)`` scores each test fold with its groups;
    - ``cross_val_score(est, X, y, scoring=micro_papk_scorer(k),
      cv=GroupKFold(), params={"groups": groups})`` likewise
      (``cross_validate`` too).

    Without routing (or without groups) the scorer raises a ``ValueError``
    that names the line ``sklearn.set_config(enable_metadata_routing=True)``;
    it never scores a fold as a single list. Note that ``GridSearchCV``,
    ``cross_val_score`` and ``cross_validate`` catch scorer errors under
    their default ``error_score=np.nan``: the fold's score becomes NaN and
    the message comes as a ``UserWarning`` ("Scoring failed ..."). Pass
    ``error_score="raise"`` to get the error itself.

    Parameters
    ----------
    k : int
        Number of items shown to each user.
    ties : {"half", "error"}, default="half"
        As in :func:`papk_score`.
    average : {"micro", "pooled"}, default="micro"
        ``"micro"`` is the paper's eq. 17 (unweighted mean over groups);
        ``"pooled"`` pools the pairs of all groups.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y, groups=groups)``; greater is better.
        Groups with no relevant or no irrelevant item in a fold are left out
        with an ``UndefinedMetricWarning``.

    See Also
    --------
    papk_scorer : the fold as one list.
    papk_score : the metric.

    Examples
    --------
    >>> import numpy as np
    >>> import sklearn
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GroupKFold, cross_val_score
    >>> from skpapk.metrics import micro_papk_scorer
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(60, 3))
    >>> y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    >>> groups = np.repeat(np.arange(6), 10)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     scores = cross_val_score(LogisticRegression(), X, y,
    ...                              scoring=micro_papk_scorer(k=3),
    ...                              cv=GroupKFold(n_splits=3),
    ...                              params={"groups": groups})
    >>> scores.shape
    (3,)
    >>> bool(np.all((scores >= 0) & (scores <= 1)))
    True
    """
    if average not in ("micro", "pooled"):
        raise ValueError(
            f"average must be 'micro' or 'pooled' for a scorer (it must return "
            f"one number), got {average!r}."
        )
    _check_options(average, ties)
    k = check_k(k)
    scorer = make_scorer(_papk_score_per_group,
                         response_method="decision_function", k=k, ties=ties,
                         average=average)
    # The request is stored on the scorer instance: it stays after the context.
    with sklearn.config_context(enable_metadata_routing=True):
        scorer.set_score_request(groups=True)
    return scorer
