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
import warnings

import sklearn

from ..exceptions import MissingGroupsWarning

#: Modules of scikit-learn's model-selection routines: a frame of one of them on
#: the stack means the ranker is fitted or scored by GridSearchCV,
#: RandomizedSearchCV, the halving searches (their refit included),
#: cross_validate, cross_val_score, cross_val_predict, learning_curve,
#: validation_curve or permutation_test_score.
_MODEL_SELECTION_MODULES = frozenset({
    "sklearn.model_selection._validation",
    "sklearn.model_selection._search",
    "sklearn.model_selection._search_successive_halving",
})

_ROUTING_FIX = (
    "Turn metadata routing on, sklearn.set_config(enable_metadata_routing=True) "
    "(or `with sklearn.config_context(enable_metadata_routing=True):` around the "
    "search), and pass groups to the search's fit: the rankers request groups "
    "for fit and score themselves."
)


def _in_module(*modules):
    """Whether a frame of one of ``modules`` is on the call stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") in modules:
            return True
        frame = frame.f_back
    return False


def _in_model_selection():
    """Whether a scikit-learn model-selection routine is on the call stack."""
    return _in_module(*_MODEL_SELECTION_MODULES)


#: scikit-learn's modules of the wrappers around skpapk's methods and
#: functions, skipped by :func:`_stacklevel`.
_WRAPPERS = ("sklearn.base", "sklearn.utils._param_validation")


def _stacklevel():
    """``stacklevel`` pointing at the first caller outside the ranker's code.

    Skips the frames of skpapk's modules (but not of its tests), of
    ``sklearn.base`` (the ``_fit_context`` wrapper) and of
    ``sklearn.utils._param_validation`` (the ``validate_params`` wrapper of
    the public functions), so that the warning names the user's line, or
    scikit-learn's line that called the ranker or metric.
    """
    level, frame = 2, sys._getframe(2)  # 1: the warn call; 2: its caller
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        ours = module == "skpapk" or (module.startswith("skpapk.")
                                      and ".tests" not in module)
        if not (ours or module in _WRAPPERS):
            break
        frame, level = frame.f_back, level + 1
    return level


def warn_again(record):
    """Warn the ``warnings.WarningMessage`` ``record`` again, where it was warned."""
    warnings.warn_explicit(record.message, record.category, record.filename,
                           record.lineno, source=record.source)


def check_groups_routing(estimator, groups, *, method, n_groups=None, reset=True):
    """Warn when ``groups=None`` most likely lost the groups; record fit groups.

    Every ranker calls this in ``fit``, ``partial_fit`` and ``score``. A
    :class:`~skpapk.exceptions.MissingGroupsWarning` naming
    ``sklearn.set_config(enable_metadata_routing=True)`` is issued when
    ``groups`` is None and

    - metadata routing is off and a scikit-learn model-selection routine
      (a search, ``cross_validate``, ``learning_curve``...) is on the call
      stack: that routine gave ``groups`` to its splitter only; or
    - ``method="score"`` and the ranker was fitted on more than one group
      (the message says so when a scikit-learn ``Pipeline`` with routing
      off called it: ``Pipeline.score`` passes its last step no ``groups``,
      even when given some).

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
    if not sklearn.get_config()["enable_metadata_routing"] and _in_model_selection():
        what = ("fitted the ranker on all its training rows as ONE group (user)"
                if method != "score" else
                "scored each test fold as ONE list, not per group (user)")
        message = (
            f"{name} got groups=None inside a scikit-learn model-selection "
            f"routine (GridSearchCV, cross_validate, ...) while metadata routing "
            f"is off: scikit-learn then passes groups to the splitter only, so "
            f"it {what} and the scores, and the model a search picks, are not "
            f"the per-user ones. {_ROUTING_FIX} If all the rows really form one "
            f"list, ignore this warning."
        )
    elif method == "score" and getattr(estimator, "_n_fit_groups", 1) > 1:
        fix = "score each group's list (micro-pAp@k)"
        if (_in_module("sklearn.pipeline")
                and not sklearn.get_config()["enable_metadata_routing"]):
            fix += (". A scikit-learn Pipeline gives its last step no groups "
                    "while metadata routing is off, even when its score got "
                    "some: turn routing on, sklearn.set_config("
                    "enable_metadata_routing=True), and pass groups to the "
                    "pipeline's score.")
        else:
            fix += f". Inside a search or cross_validate: {_ROUTING_FIX}"
        message = (
            f"{name} got groups=None, so the rows are scored as ONE list, but "
            f"the ranker was fitted on {estimator._n_fit_groups} groups: pass "
            f"groups=... to {fix} If X holds a single group's rows, pass "
            f"groups=np.zeros(len(X)) to say so."
        )
    else:
        return
    warnings.warn(message, MissingGroupsWarning, stacklevel=_stacklevel())
