"""scikit-learn scorers for pAp@k: the fold as one list, or per group.

:func:`micro_papk_scorer` needs each test fold's groups. scikit-learn sends
them to a scorer only through metadata routing, so the scorer requests
``groups`` itself and refuses to score a fold without them.

The scorers rank by the estimator's ``decision_function`` when it has one,
else (classifiers) the relevant class's ``predict_proba``, else ``predict``
(regressors, ``lightgbm.LGBMRanker``, ``xgboost.XGBRanker``). They resolve
that themselves instead of through :func:`sklearn.metrics.make_scorer`,
whose ``response_method="decision_function"`` treats an estimator that is
not a classifier as a regressor and refuses it before scikit-learn 1.9.
"""

import functools

import numpy as np
import sklearn
from sklearn.base import is_classifier
from sklearn.utils.metadata_routing import UNCHANGED, MetadataRequest

from ..utils._arrays import exact_values
from ..utils._labels import check_fitted_labels, python_value
from ..utils._routing import _per_thread_note
from ..utils._validation import check_k
from ._common import ZERO_DIVISION_ADVICE, _check_options
from ._ranking import papk_score

ROUTING_LINE = "sklearn.set_config(enable_metadata_routing=True)"


def _missing_groups_message():
    routing = sklearn.get_config().get("enable_metadata_routing", False)
    if routing:
        why = (
            f"Metadata routing is on ({ROUTING_LINE}) but no groups reached "
            "the scorer: pass them to the call that scores, with the rows it "
            "scores: to fit for a search's folds (GridSearchCV(...).fit(X, y, "
            "groups=groups)), to the search's own score on other rows "
            "(search.score(X_test, y_test, groups=groups_test)), or "
            "params={'groups': groups} to cross_val_score / cross_validate."
        )
    else:
        why = (
            "scikit-learn passes groups to a scorer only through metadata "
            f"routing, which is off{_per_thread_note()}. Add this line "
            "before fitting:\n"
            f"    {ROUTING_LINE}\n"
            "and pass groups to fit (GridSearchCV(...).fit(X, y, "
            "groups=groups)) or params={'groups': groups} to cross_val_score "
            "/ cross_validate."
        )
    return (
        "micro_papk_scorer needs the group (user) of every test row and got "
        f"groups=None. {why} A function that passes no metadata to its "
        "scorer (permutation_importance) cannot route groups; where it scores "
        "every row in place, pass scoring=lambda est, X, y: "
        "micro_papk_scorer(k)(est, X, y, groups=groups). To score each fold "
        "as one list instead, use papk_scorer(k)."
    )


def _is_classifier(estimator):
    """``is_classifier``; an object without scikit-learn's tags (any object
    with ``decision_function`` or ``predict`` can be scored) by its
    ``_estimator_type``, as scikit-learn did before tags (its
    ``is_classifier`` raises on such objects, or warns before 1.8)."""
    if not hasattr(estimator, "__sklearn_tags__"):
        return getattr(estimator, "_estimator_type", None) == "classifier"
    return is_classifier(estimator)


def _ranker_classes(estimator):
    """The two fitted ``classes_`` of a ranker that is not a classifier (the
    relevant one last, as skpapk's rankers order them), else None."""
    classes = getattr(estimator, "classes_", None)
    if (classes is None or len(classes) != 2
            or not hasattr(estimator, "decision_function")
            or _is_classifier(estimator)):
        return None
    return np.asarray(classes).tolist()  # Python values: compared exactly


def fitted_relevant_label(estimator):
    """The relevant label a fitted ranker was fitted with, else None.

    skpapk's rankers keep their two ``classes_`` with the relevant one last
    (``pos_label`` at fit) and rank it first; a scorer or display without a
    ``pos_label`` of its own scores the labels with that one. Classifiers
    (sorted ``classes_``) and estimators without ``classes_`` give None: the
    metrics' own rule (the greater of two numbers) applies.

    Parameters
    ----------
    estimator : object
        A fitted estimator (a pipeline works: its last step decides).

    Returns
    -------
    label : scalar or None
    """
    classes = _ranker_classes(estimator)
    return None if classes is None else np.asarray(classes).tolist()[-1]


def _relevant_label_of(estimator, y_true):
    """:func:`fitted_relevant_label` when ``y_true``'s labels are among the
    ranker's classes (a fold may hold its irrelevant one only); None when
    none of them is (labels recoded since the fit, such as words: the
    metric's rule and its message apply). Some of them but not all (0/1
    recoded to 1/2) raise the ``ValueError`` of the ranker's ``score``: the
    fitted irrelevant label would be taken as the relevant one."""
    relevant = fitted_relevant_label(estimator)
    if relevant is None:
        return None
    try:
        labels = np.unique(exact_values(y_true, "y_true")).tolist()
    except TypeError:  # mixed label types: the metric says so
        return None
    classes = np.asarray(_ranker_classes(estimator)).tolist()
    known = [label in classes for label in labels]
    if all(known):
        return relevant
    if any(known):
        check_fitted_labels(y_true, np.asarray(_ranker_classes(estimator)),
                            estimator_name=type(estimator).__name__)
    return None


def ranking_scores(estimator, X, pos_label=None):
    """The scores an estimator ranks ``X`` by, higher first.

    ``decision_function`` when the estimator has it; else, for a classifier,
    ``predict_proba`` of its class ``pos_label`` (by default its greater
    class, the relevant one of numeric labels); else ``predict``. A binary
    classifier's ``decision_function`` scores its greater class, a ranker's
    (with ``classes_``) its relevant class, ``classes_[-1]``: it is negated
    when ``pos_label`` is the other one (a ``pos_label`` that is not one of
    a ranker's classes leaves its scores as they are).

    Parameters
    ----------
    estimator : object
        A fitted estimator (a pipeline works: its last step decides).
    X : array-like of shape (n_samples, n_features)
    pos_label : int, float, bool, str or None, default=None
        The relevant class of a classifier or ranker.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
    """
    column = 1
    pos_label = python_value(pos_label)  # compared with classes exactly
    classifier = _is_classifier(estimator)
    # Python values: compared with pos_label exactly (2.0**53 is not the
    # class 2**53 + 1, as a NumPy scalar compares it in float64)
    classes = (np.asarray(getattr(estimator, "classes_", [])).tolist()
               if classifier else _ranker_classes(estimator))
    if not classifier and classes is not None and pos_label not in classes:
        classes = None  # labels recoded since the fit: its relevant rows first
    if pos_label is not None and classes is not None:
        if pos_label not in classes:
            raise ValueError(
                f"pos_label={pos_label!r} is not a class of "
                f"{type(estimator).__name__} (classes_="
                f"{np.asarray(classes).tolist()}); pass the relevant class as "
                f"pos_label."
            )
        column = classes.index(pos_label)
    if hasattr(estimator, "decision_function"):
        scores = estimator.decision_function(X)
        shape = np.shape(scores)
        if len(shape) == 2 and shape[1] != 1:
            raise ValueError(
                f"{type(estimator).__name__}.decision_function returned shape "
                f"{shape} (one column per class: a multiclass or multilabel "
                f"model); a ranking scorer needs a binary classifier (two "
                f"classes) or an estimator with a 1-d decision_function or "
                f"predict. Fit the classifier on the binary relevance labels."
            )
        return -scores if column == 0 else scores
    if _is_classifier(estimator) and hasattr(estimator, "predict_proba"):
        proba = estimator.predict_proba(X)
        if proba.ndim != 2 or proba.shape[1] != 2:
            raise ValueError(
                f"{type(estimator).__name__}.predict_proba returned shape "
                f"{proba.shape}; a ranking scorer needs a binary classifier "
                f"(two classes) or an estimator with decision_function or "
                f"predict."
            )
        return proba[:, column]
    if hasattr(estimator, "predict"):
        return estimator.predict(X)
    raise TypeError(
        f"{type(estimator).__name__} has no decision_function, predict_proba or "
        f"predict method: a scorer needs one of them to rank the rows."
    )


class _RankingScorer:
    """Scorer ``scorer(estimator, X, y_true, **metadata)`` of a ranking metric.

    Calls ``metric(y_true, ranking_scores(estimator, X), **kwargs,
    **metadata)``; greater is better. It works with any scikit-learn tool
    that takes ``scoring=``: it holds its own metadata request (which
    metadata its ``score`` consumes), returned by ``get_metadata_routing``
    and changed by ``set_score_request``, as scikit-learn's scorers do.

    Parameters
    ----------
    metric : callable
    kwargs : dict
        Fixed keyword arguments of ``metric``.
    name : str
        How the scorer was made, for ``repr`` and routing messages.
    metadata : tuple of str
        Metadata ``metric`` accepts (requested by default).
    """

    def __init__(self, metric, kwargs, *, name, metadata=()):
        self._pos_label = kwargs.get("pos_label")
        self._metric = metric
        self._kwargs = kwargs
        self._name = name
        self._metadata = tuple(metadata)
        self._metadata_request = MetadataRequest(owner=name)
        for param in self._metadata:
            self._metadata_request.score.add_request(param=param, alias=True)

    def __repr__(self):
        return self._name

    def _routing_repr(self):
        return self._name

    def __call__(self, estimator, X, y_true, **metadata):
        unknown = sorted(set(metadata) - set(self._metadata))
        if unknown:
            accepted = (f"only {', '.join(self._metadata)}" if self._metadata
                        else "no metadata")
            raise TypeError(
                f"{self._name} got unexpected metadata {unknown}; it accepts "
                f"{accepted}."
            )
        refused = [p for p in self._metadata if p not in metadata
                   and self._metadata_request.score.requests.get(p) is False]
        if refused:
            raise ValueError(
                f"{self._name} needs {refused[0]}, which its "
                f"set_score_request({refused[0]}=False) refuses; call "
                f"set_score_request({refused[0]}=True) again, or use "
                f"papk_scorer(k) to score each fold as one list."
            )
        kwargs = self._kwargs
        relevant = (_relevant_label_of(estimator, y_true) if self._pos_label is None
                    else None)
        if relevant is not None:  # a ranker fitted with pos_label ranks it first
            kwargs = {**kwargs, "pos_label": relevant}
        scores = ranking_scores(estimator, X, self._pos_label)
        # the metric's advice on undefined groups names the scorer's option
        advice = ZERO_DIVISION_ADVICE.set(
            f" Make the scorer with zero_division=0.0 to count them as 0 (as "
            f"ranx and pytrec_eval do), or zero_division=np.nan to leave them "
            f"out without this warning, e.g. {self._name.partition('(')[0]}("
            f"k, zero_division=np.nan).")
        try:
            return self._metric(y_true, scores, **kwargs, **metadata)
        finally:
            ZERO_DIVISION_ADVICE.reset(advice)

    def get_metadata_routing(self):
        """The metadata the scorer requests (scikit-learn's routing API).

        Returns
        -------
        request : sklearn.utils.metadata_routing.MetadataRequest
        """
        return self._metadata_request

    def set_score_request(self, **requests):
        """Request or refuse metadata, as ``make_scorer(...).set_score_request``.

        Parameters
        ----------
        **requests : {True, False, None, str}
            ``groups=False`` stops the scorer from asking for groups (a
            :func:`micro_papk_scorer` then refuses to score: it needs
            them), a string takes them from metadata of that name.

        Returns
        -------
        self : object
        """
        if not sklearn.get_config().get("enable_metadata_routing", False):
            raise RuntimeError(
                "This method is only available when metadata routing is "
                f"enabled. You can enable it using {ROUTING_LINE}."
            )
        for param, alias in requests.items():
            if param not in self._metadata:
                raise TypeError(
                    f"{self._name} cannot request {param!r}; it consumes "
                    f"{list(self._metadata)}."
                )
            if alias is not UNCHANGED:
                self._metadata_request.score.add_request(param=param,
                                                         alias=alias)
        return self


def _scorer_factory(factory):
    """Refuse ``scoring=factory`` (uncalled): scikit-learn then calls the
    factory as a scorer, ``factory(estimator, X, y)``."""

    @functools.wraps(factory)
    def make(*args, **kwargs):
        if args and hasattr(args[0], "fit"):
            raise TypeError(
                f"{factory.__name__} makes a scorer; it is not one. It was "
                f"called with an estimator, as when it is passed uncalled: "
                f"pass scoring={factory.__name__}(k=10) (with your k), not "
                f"scoring={factory.__name__}."
            )
        return factory(*args, **kwargs)

    return make


def _papk_score_per_group(y_true, y_score, *, groups=None, **kwargs):
    """:func:`papk_score` that refuses to treat the fold as one group."""
    if groups is None:
        raise ValueError(_missing_groups_message())
    return papk_score(y_true, y_score, groups=groups, **kwargs)


def _options(k, ties, pos_label, zero_division, average=None):
    """The checked keyword arguments of a scorer's :func:`papk_score` and its
    ``repr`` (``pos_label`` and ``zero_division`` shown when not defaults)."""
    _check_options(average or "micro", ties, zero_division=zero_division)
    kwargs = {"k": check_k(k), "ties": ties}
    if average is not None:
        kwargs["average"] = average
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    if not (isinstance(zero_division, str) and zero_division == "warn"):
        kwargs["zero_division"] = zero_division
    shown = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
    return kwargs, shown


@_scorer_factory
def papk_scorer(k, *, ties="random", pos_label=None, zero_division="warn"):
    """Scorer of pAp@k with the whole test fold as one list (one group).

    Scores the estimator's ``decision_function``, or, without one, a
    classifier's ``predict_proba`` of its greater class, or ``predict``
    (regressors, ``lightgbm.LGBMRanker``, ``xgboost.XGBRanker``). Use
    :func:`micro_papk_scorer` to score each user separately.

    Parameters
    ----------
    k : int
        Number of items shown.
    ties : {"random", "half", "error"}, default="random"
        As in :func:`papk_score`: by default tied scores count as the
        expectation over a random order of the tied items, so a model that
        gives every item the same score scores as a random ranking.
    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y`` and the class of a classifier's
        ``predict_proba`` to rank by. None: the label a skpapk ranker was
        fitted as relevant (its ``pos_label``, the last of its ``classes_``),
        else the greater of two numbers (other labels need ``pos_label``).
    zero_division : "warn", float or np.nan, default="warn"
        What a fold without a relevant or an irrelevant item scores, as in
        :func:`papk_score`.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y)``; greater is better.

    See Also
    --------
    micro_papk_scorer : The pAp@k of every group, averaged (paper eq. 17).

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
    kwargs, shown = _options(k, ties, pos_label, zero_division)
    return _RankingScorer(papk_score, kwargs, name=f"papk_scorer({shown})")


@_scorer_factory
def micro_papk_scorer(k, *, ties="random", average="micro", pos_label=None,
                      zero_division="warn"):
    """Scorer of micro-pAp@k, the mean over groups of pAp@k (equation 17).

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

    The estimator's scores are its ``decision_function``, or, without one, a
    classifier's ``predict_proba`` of its greater class, or ``predict``:
    predict-only rankers such as ``lightgbm.LGBMRanker`` and
    ``xgboost.XGBRanker`` are scored too.

    Parameters
    ----------
    k : int
        Number of items shown to each user.
    ties : {"random", "half", "error"}, default="random"
        As in :func:`papk_score`: by default tied scores count as the
        expectation over a random order of the tied items, so a model that
        gives every item the same score scores as a random ranking
        (:func:`expected_papk_score`) and cannot win a model selection
        against better-than-random models.
    average : {"micro", "pooled"}, default="micro"
        ``"micro"`` is the paper's eq. 17 (unweighted mean over groups);
        ``"pooled"`` pools the pairs of all groups.
    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y`` and the class of a classifier's
        ``predict_proba`` to rank by. None: the label a skpapk ranker was
        fitted as relevant (its ``pos_label``, the last of its ``classes_``),
        else the greater of two numbers (other labels need ``pos_label``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group without a relevant or an irrelevant item in a fold
        counts as, as in :func:`papk_score`: left out with an
        ``UndefinedMetricWarning`` by default, ``0.0`` for ranx's and
        pytrec_eval's convention.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y, groups=groups)``; greater is better.

    See Also
    --------
    papk_scorer : The fold as one list.
    papk_score : The metric.

    Notes
    -----
    ``LGBMRanker`` and ``XGBRanker`` themselves cannot be tuned with
    per-fold groups by ``GridSearchCV``: their ``fit`` takes the group
    *sizes* of rows sorted by group (``group=``) or query ids (``qid=``),
    and scikit-learn routes only per-row metadata, cut to the fold's rows.
    The scorer works for them in a direct call or in ``cross_val_score``
    with an estimator whose ``fit`` takes one group id per row (for
    instance a wrapper that sorts the rows and passes the sizes on).

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
    kwargs, shown = _options(k, ties, pos_label, zero_division, average)
    return _RankingScorer(_papk_score_per_group, kwargs,
                          name=f"micro_papk_scorer({shown})", metadata=("groups",))
