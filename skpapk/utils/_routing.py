"""Warn when a ranker gets no ``groups`` where they were most likely dropped.

Metadata routing is off by default in scikit-learn. Then
``GridSearchCV(ranker, grid, cv=GroupKFold()).fit(X, y, groups=g)`` gives
``groups`` to the splitter only: every candidate is fitted on its training
rows as ONE group and every test fold is scored as ONE list. Nothing fails, the
search just ranks the candidates on the wrong quantity. :func:`check_groups_routing`,
called by every ranker's ``fit``, ``partial_fit`` and ``score``, turns that into
a :class:`~skpapk.exceptions.MissingGroupsWarning`.
"""

import sys
import threading
import warnings

import sklearn

from ..exceptions import MissingGroupsWarning

#: Modules of scikit-learn's model-selection routines: a frame of one of them on
#: the stack means the ranker is fitted or scored by GridSearchCV,
#: RandomizedSearchCV, the halving searches (their refit included),
#: cross_validate, cross_val_score, cross_val_predict, learning_curve,
#: validation_curve or permutation_test_score -- or that a fitted search's own
#: ``score`` scores its ``best_estimator_`` (told apart by
#: :func:`_model_selection_call`).
_MODEL_SELECTION_MODULES = frozenset({
    "sklearn.model_selection._validation",
    "sklearn.model_selection._search",
    "sklearn.model_selection._search_successive_halving",
})

#: The modules of the searches: their ``score`` method is a call of the
#: user's, on the refitted ``best_estimator_``, not a cross-validation fold.
_SEARCH_MODULES = frozenset({
    "sklearn.model_selection._search",
    "sklearn.model_selection._search_successive_halving",
})

#: RFECV's module: its ``fit`` cross-validates the estimator (the folds, in
#: ``_rfe_single_fit``, and the final fits), but the plain RFE of the same
#: module fits it as the user asked.
_RFE_MODULE = "sklearn.feature_selection._rfe"


def _per_thread_note():
    """What to add to "routing is off" in a thread other than the main one
    (empty in the main thread): scikit-learn's configuration is per thread."""
    if threading.current_thread() is threading.main_thread():
        return ""
    return (" (scikit-learn's configuration is per thread: set_config in "
            "another thread does not turn routing on in this one; call it, or "
            "sklearn.config_context, in the thread that runs the search)")


_ROUTING_FIX = (
    "turn metadata routing on, sklearn.set_config(enable_metadata_routing=True) "
    "(or `with sklearn.config_context(enable_metadata_routing=True):` around the "
    "call), and pass groups to a search's fit, search.fit(X, y, groups=groups), "
    "or to cross_validate, cross_val_score, learning_curve... as "
    "params={'groups': groups} (with routing on, they refuse groups=): the "
    "rankers request groups for fit and score themselves."
)


def _in_module(*modules):
    """Whether a frame of one of ``modules`` is on the call stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") in modules:
            return True
        frame = frame.f_back
    return False


def _is_rfecv_fit(frame):
    """Whether ``frame`` is :class:`~sklearn.feature_selection.RFECV`'s ``fit``."""
    if (frame.f_globals.get("__name__") != _RFE_MODULE
            or frame.f_code.co_name != "fit"):
        return False
    from sklearn.feature_selection import RFECV

    return isinstance(frame.f_locals.get("self"), RFECV)


def _model_selection_call():
    """Which scikit-learn model-selection call, if any, is on the call stack.

    Returns
    -------
    call : None, "cv" or str
        None: no model-selection routine. ``"cv"``: a routine that fits or
        scores cross-validation folds (a search's ``fit``, its refit
        included, ``cross_validate``, ``learning_curve``, RFECV's ``fit``...).
        Else the name of the search class whose ``score`` the user called
        (``"GridSearchCV"``): the only model-selection frames are those of a
        fitted search's ``score``, not of a fold (a search's ``score`` called
        by an outer ``cross_validate`` is a fold).
    """
    search = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__")
        if module in _SEARCH_MODULES and frame.f_code.co_name == "score":
            search = type(frame.f_locals.get("self")).__name__
        elif module in _MODEL_SELECTION_MODULES or _is_rfecv_fit(frame):
            return "cv"
        frame = frame.f_back
    return search


def _in_model_selection():
    """Whether a scikit-learn model-selection routine fits or scores folds."""
    return _model_selection_call() == "cv"


#: scikit-learn's modules of the wrappers around skpapk's methods and
#: functions, skipped by :func:`_stacklevel`.
_WRAPPERS = ("sklearn.base", "sklearn.utils._param_validation")


def _stacklevel():
    """``stacklevel`` pointing at the first caller outside the ranker's code.

    Skips the frames of skpapk's modules (but not of its tests), of
    ``sklearn.base`` (the ``_fit_context`` wrapper), of
    ``sklearn.utils._param_validation`` (the ``validate_params`` wrapper of
    the public functions) and of LightGBM (which calls
    :class:`~skpapk.losses.LightGBMObjective` every round), so that the
    warning names the user's line, or scikit-learn's line that called the
    ranker or metric.
    """
    level, frame = 2, sys._getframe(2)  # 1: the warn call; 2: its caller
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        ours = module == "skpapk" or (module.startswith("skpapk.")
                                      and ".tests" not in module)
        if not (ours or module in _WRAPPERS or module.partition(".")[0] == "lightgbm"):
            break
        frame, level = frame.f_back, level + 1
    return level


def warn_again(record):
    """Warn the ``warnings.WarningMessage`` ``record`` again, where it was warned."""
    warnings.warn_explicit(record.message, record.category, record.filename,
                           record.lineno, source=record.source)


#: Rows from which ``fit(X, y)`` without ``groups`` (one list of them all)
#: is most likely a forgotten ``groups=``, and is told so.
ONE_LIST_ROWS = 10_000


def check_groups_routing(estimator, groups, *, method, n_groups=None, reset=True,
                         n_rows=None):
    """Warn when ``groups=None`` most likely lost the groups; record fit groups.

    Every ranker calls this in ``fit``, ``partial_fit`` and ``score``. A
    :class:`~skpapk.exceptions.MissingGroupsWarning` is issued when
    ``groups`` is None and

    - metadata routing is off and a scikit-learn model-selection routine
      (a search, ``cross_validate``, ``learning_curve``, RFECV's ``fit``...)
      fits or scores a fold (or a search refits): that routine gave
      ``groups`` to its splitter only; the message names
      ``sklearn.set_config(enable_metadata_routing=True)``;
    - ``method="score"`` is called by a fitted search's own ``score``
      (``search.score(X, y)``, not a fold), with routing off, or with
      routing on and a ranker fitted on more than one group: the message
      says how to pass ``groups`` to that call; or
    - ``method="score"`` and the ranker was fitted on more than one group
      (the message says so when a scikit-learn ``Pipeline`` with routing
      off called it: ``Pipeline.score`` passes its last step no ``groups``,
      even when given some; and when ``permutation_importance`` did, which
      passes none, routing or not). Routing advice is given only while
      routing is off.

    Inside joblib workers (``n_jobs`` > 1 with a process-based backend,
    scikit-learn's default) the warning is issued in the worker: it is
    printed there but never reaches the caller's ``warnings.catch_warnings``
    or ``pytest.warns``.

    Parameters
    ----------
    estimator : ranker
        The ranker being fitted or scored.
    groups : array-like or None
        The ``groups`` argument the ranker got.
    method : {"fit", "partial_fit", "score"}
        The ranker's method that calls this.
    n_groups : int, default=None
        With ``method="fit"`` or ``"partial_fit"``: the number of groups of
        this call's rows, recorded on the estimator (``_n_fit_groups``) for
        the check of ``score``.
    reset : bool, default=True
        Whether ``n_groups`` replaces the recorded count (a ``fit``, a first
        ``partial_fit``) or adds to it (later ``partial_fit`` calls, each on
        other groups).
    n_rows : int, default=None
        With ``method="fit"`` or ``"partial_fit"``: the number of rows.
        Outside model selection, a ``fit`` or ``partial_fit`` without
        ``groups`` on more than :data:`ONE_LIST_ROWS` rows warns too: one
        list of that many rows is most likely a forgotten ``groups=`` (and,
        with the pairwise surrogates, slow: every
        relevant row against every irrelevant one).

    Examples
    --------
    >>> from skpapk import PApKAvgRanker
    >>> from skpapk.utils._routing import check_groups_routing
    >>> ranker = PApKAvgRanker()
    >>> check_groups_routing(ranker, [0, 0, 1], method="fit", n_groups=2)
    >>> ranker._n_fit_groups
    2
    """
    if n_groups is not None:
        previous = 0 if reset else getattr(estimator, "_n_fit_groups", 0)
        estimator._n_fit_groups = previous + int(n_groups)
    if groups is not None:
        return
    name = f"{type(estimator).__name__}.{method}"
    routing = sklearn.get_config()["enable_metadata_routing"]
    call = _model_selection_call()
    if not routing and call == "cv":
        what = ("fitted the ranker on all its training rows as ONE group (user)"
                if method != "score" else
                "scored each test fold as ONE list, not per group (user)")
        message = (
            f"{name} got groups=None inside a scikit-learn model-selection "
            f"routine (GridSearchCV, cross_validate, RFECV, ...) while metadata "
            f"routing is off{_per_thread_note()}: scikit-learn then passes "
            f"groups to the splitter "
            f"only, so it {what} and the scores, and the model a search picks, "
            f"are not the per-user ones. {_ROUTING_FIX[0].upper()}"
            f"{_ROUTING_FIX[1:]} If all the rows really "
            f"form one list, ignore this warning."
        )
    elif method == "score" and call not in (None, "cv") and (
            not routing or getattr(estimator, "_n_fit_groups", 1) > 1):
        # a fitted search's own score, on the user's rows: not a fold (with
        # routing off, its refit saw no groups either: no count to go by)
        if routing:
            fix = (f"search.score(X, y, groups=groups) (the {call} routes "
                   f"them). If X holds a single group's rows, pass "
                   f"groups=np.zeros(len(X)) to say so.")
        else:
            fix = (f"turn metadata routing on, sklearn.set_config("
                   f"enable_metadata_routing=True), fit the search with "
                   f"groups=groups (with routing off, its refit got no groups "
                   f"either, nor did a Pipeline's score) and call "
                   f"search.score(X, y, groups=groups): with routing off, "
                   f"{call}.score passes no groups (and refuses them).")
        message = (
            f"{name} got groups=None from {call}.score, so the rows are scored "
            f"as ONE list, not per group (user): pass groups to score each "
            f"group's list (micro-pAp@k): {fix}"
        )
    elif method == "score" and getattr(estimator, "_n_fit_groups", 1) > 1:
        fix = "score each group's list (micro-pAp@k)"
        if _in_module("sklearn.inspection._permutation_importance"):
            k = getattr(estimator, "k", "k")
            fix += (". permutation_importance passes its scorer no groups, "
                    "with metadata routing on or off; with max_samples=1.0 "
                    "(the default) it keeps every row in place, so pass "
                    f"scoring=lambda est, X, y: micro_papk_scorer({k})(est, X, "
                    f"y, groups=groups), with skpapk.metrics.micro_papk_scorer "
                    f"(est.score(X, y, groups=groups) would not reach a ranker "
                    f"inside a Pipeline while routing is off).")
        elif _in_module("sklearn.pipeline") and not routing:
            fix += (". A scikit-learn Pipeline gives its last step no groups "
                    "while metadata routing is off, even when its score got "
                    "some: turn routing on, sklearn.set_config("
                    "enable_metadata_routing=True), and pass groups to the "
                    "pipeline's score.")
        elif routing:
            fix += "."
        else:
            fix += f". Inside a search or cross_validate: {_ROUTING_FIX}"
        message = (
            f"{name} got groups=None, so the rows are scored as ONE list, but "
            f"the ranker was fitted on {estimator._n_fit_groups} groups: pass "
            f"groups=... to {fix} If X holds a single group's rows, pass "
            f"groups=np.zeros(len(X)) to say so."
        )
    elif (method in ("fit", "partial_fit") and call is None
          and n_rows is not None and n_rows > ONE_LIST_ROWS):
        message = (
            f"{name} got groups=None, so its {n_rows} rows are fitted as ONE "
            f"group (user), one ranked list: pass groups=... (the user of "
            f"every row) to rank each user's items, as pAp@k does. If the rows "
            f"really are one list, pass groups=np.zeros(len(X)) to say so."
        )
    else:
        return
    warnings.warn(message, MissingGroupsWarning, stacklevel=_stacklevel())
