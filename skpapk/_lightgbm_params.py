"""LightGBM's parameters as :class:`~skpapk.PApKBoostRanker` passes them on.

The ranker translates its own parameters once (``_translated``) and passes
LightGBM's other parameters through (``**kwargs``). Here: how the two are
merged (an alias given sets the key it stands for), the arguments of
``LGBMRanker.fit`` that users give among the parameters (``eval_at``,
``categorical_feature``), the booster's feature names, and the warnings
about names LightGBM would ignore or read instead of the ranker's. LightGBM
lists its parameters and their aliases in a private table
(``lightgbm.basic._ConfigAliases``); without it, nothing is checked.
"""

import difflib
import inspect
import re
import warnings
from numbers import Integral

import numpy as np

from .utils._messages import cut
from .utils._routing import _stacklevel

_CATEGORICAL_ALIASES = ("categorical_feature", "cat_feature", "categorical_column",
                        "cat_column", "categorical_features")
#: ``eval_at`` and its aliases: a fit argument of ``LGBMRanker`` (given among
#: the parameters, LightGBM warns that it prefers them to the argument).
_EVAL_AT_ALIASES = ("eval_at", "ndcg_eval_at", "ndcg_at", "map_eval_at", "map_at")
#: LightGBM's names of its ``boosting`` parameter (``boosting_type`` of its
#: scikit-learn estimators), passed through ``**kwargs``.
_BOOSTING_ALIASES = ("boosting_type", "boosting", "boost")
#: LightGBM's names of ``early_stopping_round`` (its own early stopping) that
#: reach it through ``**kwargs``; its other two, ``early_stopping`` and
#: ``n_iter_no_change``, are the ranker's own parameters.
_EARLY_STOPPING_ROUND_ALIASES = ("early_stopping_round", "early_stopping_rounds")
#: LightGBM's settings of its own early stopping, which the ranker refuses.
_LIGHTGBM_EARLY_STOPPING = (*_EARLY_STOPPING_ROUND_ALIASES,
                            "early_stopping_min_delta", "first_metric_only")


def _aliases(name):
    """The other names of LightGBM's parameter ``name`` (empty when LightGBM
    does not list them)."""
    return next((group - {name} for group in _alias_groups() or ()
                 if name in group), frozenset())


def _same(a, b):
    """Whether two parameter values are equal (False when not comparable)."""
    try:
        return bool(a == b)
    except Exception:  # arrays, callables...
        return False


def _alias_groups():
    """LightGBM's parameters, each as the set of its names (its aliases, its
    scikit-learn name), as LightGBM lists them; None when this LightGBM does
    not (the table is private)."""
    try:
        from lightgbm.basic import _ConfigAliases

        _ConfigAliases.get("num_iterations")  # loads the table
        return [frozenset(names) for names in _ConfigAliases.aliases.values()]
    except Exception:  # pragma: no cover - a LightGBM without the table
        return None


#: What LightGBM refuses in a feature name (JSON's special characters) or
#: rewrites (spaces); the booster's text must stay ASCII to be saved.
_NAME = re.compile(r"[!#-+\--9;-Z^-z|~]+")  # printable ASCII but ,:[]{}"\ and space


def booster_feature_names(names):
    """``feature_name`` of LightGBM's fit: the DataFrame's column names when
    LightGBM keeps them as they are, else ``"auto"`` (``Column_0``...)."""
    if names is None or not all(_NAME.fullmatch(name) for name in names):
        return "auto"
    return [str(name) for name in names]


def _pop_alias(params, aliases):
    """``(alias, value)`` of the one of ``aliases`` (LightGBM's names of one
    parameter, its own first) in ``params``, taken out of them; ``(None,
    None)`` when none is there, a ValueError when several are."""
    given = [alias for alias in aliases if alias in params]
    if len(given) > 1:
        raise ValueError(f"{' and '.join(given)} are aliases of LightGBM's "
                         f"{aliases[0]}; give only one.")
    return (given[0], params.pop(given[0])) if given else (None, None)


#: LightGBM's metrics that read ``eval_at`` (and their aliases).
_CUT_OFF_METRICS = frozenset({
    "ndcg", "lambdarank", "rank_xendcg", "xendcg", "xe_ndcg", "xe_ndcg_mart",
    "xendcg_mart", "map", "mean_average_precision"})


def _eval_at(params):
    """``eval_at`` given among the parameters, taken out of ``params`` (the
    cut-offs of LightGBM's ``ndcg`` and ``map`` metrics, a fit argument)."""
    alias, value = _pop_alias(params, _EVAL_AT_ALIASES)
    return {} if alias is None else {"eval_at": value}


def with_passed_through(translated, passed):
    """The keyword arguments of ``LGBMRanker``: the ranker's ``translated``
    parameters, each given the value of its alias ``passed`` through (under
    the ranker's key: ``LGBMRanker`` would give its own default of the key
    precedence over the alias), then the other ``passed`` ones but the
    arguments of ``LGBMRanker.fit`` that the ranker does not pass on
    (:data:`_FIT_ARGUMENT_HINTS`, warned about by :func:`fit_arguments`;
    LightGBM would ignore them with a warning of its own). An alias passed
    as None is not given (LightGBM skips it); an alias of ``objective``,
    which chooses the ranker's loss, is refused."""
    passed = {key: value for key, value in passed.items()
              if key not in _FIT_ARGUMENT_HINTS}
    params = dict(translated)
    for key in translated:
        aliases = sorted(_aliases(key))
        for alias in aliases:
            if alias in passed and passed[alias] is None:
                del passed[alias]
        alias, value = _pop_alias(passed, (key, *aliases))
        if alias is None:
            continue
        if key == "objective":
            raise ValueError(
                f"{alias}={value!r} is LightGBM's alias of objective, the "
                f"loss the trees are fitted to: set objective instead of "
                f"{alias}.")
        params[key] = value
    params.update(passed)
    return params


def fit_arguments(ranker, lgb, params, categorical, n_features, seed):
    """``LGBMRanker.fit``'s ``categorical_feature``, ``feature_name`` and
    ``eval_at``, the first and the last taken out of ``params``; warns
    about the names passed through (see :func:`_check_passed_through`).
    ``categorical``: the positions of the unordered pandas ``category``
    columns."""
    _check_passed_through(ranker, lgb, seed)
    names = getattr(ranker, "feature_names_in_", None)
    arguments = {"feature_name": booster_feature_names(names), **_eval_at(params)}
    metric = params.get("metric")
    metrics = [metric] if isinstance(metric, str) else list(metric or ())
    if "eval_at" in arguments and not any(
            str(m).lower() in _CUT_OFF_METRICS for m in metrics):
        shown = cut(" ".join(repr(arguments["eval_at"]).split()), 40, quote=False)
        warnings.warn(
            f"{type(ranker).__name__} got eval_at={shown}, the cut-offs of "
            f"LightGBM's ndcg and map metrics, but no such metric is asked for: "
            f"the validation rows are scored by micro-pAp@k only (the ranker "
            f"sets metric='None', where LGBMRanker would compute ndcg); pass "
            f"metric='ndcg' (or 'map') too.", UserWarning,
            stacklevel=_stacklevel())
    categorical = _categorical_feature(params, categorical, n_features, names)
    if categorical:
        arguments["categorical_feature"] = categorical
    return arguments


#: What to do instead of passing an argument of ``LGBMRanker.fit`` to the
#: ranker's constructor.
_VALIDATION = ("give the validation rows to fit as X_val, y_val and groups_val "
               "(with early_stopping=True), scored by micro-pAp@k and "
               "LightGBM's metric=")
_FIT_ARGUMENT_HINTS = {
    "sample_weight": "pass it to fit (fit(X, y, groups=groups, "
                     "sample_weight=w))",
    "group": "pass the group of every row to fit as groups= (one id per row, "
             "not group sizes)",
    **dict.fromkeys(("eval_set", "eval_X", "eval_y", "eval_group",
                     "eval_names", "eval_sample_weight", "eval_metric"),
                    _VALIDATION),
    **dict.fromkeys(("init_score", "eval_init_score", "init_model"),
                    "every fit starts from zero scores: drop it"),
    "feature_name": "the feature names are those of a DataFrame's columns: "
                    "fit on a DataFrame",
    "callbacks": "drop it (early_stopping=True stops on the validation "
                 "micro-pAp@k; verbose=1 prints every round's score)",
}


#: The arguments of ``LGBMRanker.fit`` that the ranker's constructor takes
#: (among LightGBM's parameters, ``**kwargs``).
_CONSTRUCTOR_ARGUMENTS = ("eval_at", "categorical_feature")


def refuse_fit_keywords(ranker, lgb, keywords, arguments):
    """A ``TypeError`` for the first of ``keywords`` given to the ranker's
    ``fit``, which takes none but its ``arguments``: for an argument of
    ``LGBMRanker.fit``, what to do instead (:data:`_FIT_ARGUMENT_HINTS`),
    for a LightGBM parameter, to give it to the constructor; else
    Python's message, with the arguments ``fit`` takes."""
    if not keywords:
        return
    key, value = next(iter(keywords.items()))
    name = type(ranker).__name__
    shown = cut(" ".join(repr(value).split()), 60, quote=False)
    if key in _CONSTRUCTOR_ARGUMENTS:
        problem = (f"an argument of LGBMRanker.fit that it does not take; "
                   f"give it to the constructor ({name}({key}=...)) or to "
                   f"set_params")
    elif key in _FIT_ARGUMENT_HINTS or key in inspect.signature(
            lgb.LGBMRanker.fit).parameters:
        problem = (f"an argument of LGBMRanker.fit that it does not take; "
                   f"{_FIT_ARGUMENT_HINTS.get(key, 'drop it')}")
    elif key in _LIGHTGBM_EARLY_STOPPING:  # LightGBM's, not the ranker's
        problem = (f"a setting of LightGBM's own early stopping, which {name} "
                   f"does not use; it stops on the validation micro-pAp@k: "
                   f"{name}(early_stopping=True, n_iter_no_change=ROUNDS, "
                   f"tol=MIN_DELTA)")
    elif key in set().union(*(_alias_groups() or ()), inspect.signature(
            lgb.LGBMModel.__init__).parameters) - {"self", "kwargs"}:
        # one of the ranker's own parameters, or an alias of one: its name
        # (LightGBM's early_stopping and n_iter_no_change are the ranker's)
        own_names = ranker.get_params(deep=False)
        own = key if key in own_names else next(
            (param for param in own_names if key in _aliases(param)), key)
        problem = (f"{'its' if key in own_names else 'a LightGBM'} parameter: "
                   f"give it to the constructor "
                   f"{f'as {own} ' if own != key else ''}"
                   f"({name}({own}={shown})) or to set_params")
    else:
        raise TypeError(
            f"{name}.fit() got an unexpected keyword argument {key!r}; it "
            f"takes {', '.join(arguments[:-1])} and {arguments[-1]}.")
    raise TypeError(f"{name}.fit got {key}={shown}, {problem}.")


def refuse_predict_keywords(ranker, keywords):
    """A ``TypeError`` for the first of ``keywords`` given to the ranker's
    ``predict``, which takes none of LightGBM's prediction parameters but
    ``num_threads`` (``LGBMRanker.predict`` passes them to the booster)."""
    if not keywords:
        return
    key, value = next(iter(keywords.items()))
    name = type(ranker).__name__
    shown = cut(" ".join(repr(value).split()), 60, quote=False)
    if key in _aliases("num_threads"):
        raise TypeError(f"{name}.predict got {key}={shown}, LightGBM's alias "
                        f"of num_threads: give num_threads={shown} instead.")
    if key in set().union(*(_alias_groups() or ())):
        raise TypeError(
            f"{name}.predict got {key}={shown}, a LightGBM parameter that it "
            f"does not take; of LGBMRanker.predict's keywords it takes "
            f"validate_features and num_threads (with raw_score, "
            f"start_iteration, num_iteration, pred_leaf and pred_contrib).")
    raise TypeError(f"{name}.predict() got an unexpected keyword argument "
                    f"{key!r}.")


def _check_passed_through(ranker, lgb, seed):
    """Warn about a LightGBM parameter passed through that LightGBM does
    not know (a typo: LightGBM ignores it, silently at ``verbose=0``),
    that is an argument of ``LGBMRanker.fit`` the ranker does not pass
    on, or that is an alias of one of the ranker's parameters with
    another value (LightGBM reads it instead)."""
    groups = _alias_groups()
    if groups is None:  # pragma: no cover - a LightGBM without the table
        return
    known = set().union(*groups, inspect.signature(
        lgb.LGBMModel.__init__).parameters)
    fit_arguments = set(inspect.signature(lgb.LGBMRanker.fit).parameters)
    own = ranker._translated(seed)
    # the ranker's parameters that LightGBM reads too (an alias given
    # through ``**kwargs`` overrides them)
    own_names = set(ranker._get_param_names())
    translated = [key for key in own if key in own_names]
    name = type(ranker).__name__
    for key, value in ranker._other_params.items():
        if key in fit_arguments and (key not in known
                                     or key in _FIT_ARGUMENT_HINTS):
            problem = (f"an argument of LGBMRanker.fit that {name} does "
                       f"not pass on: the ranker drops it; "
                       f"{_FIT_ARGUMENT_HINTS.get(key, 'drop it')}")
        elif key not in known:
            close = difflib.get_close_matches(key, sorted(known | own_names), n=1)
            # an alias of the ranker's own parameter: that one's name (the
            # alias would draw a warning of its own); LightGBM's aliases of
            # early_stopping_round (its early_stopping and n_iter_no_change
            # among them) are not the ranker's early_stopping
            owner = None
            if close and close[0] not in own_names:
                owner = ("n_iter_no_change" if close[0] in _EARLY_STOPPING_ROUND_ALIASES
                         else "tol" if close[0] == "early_stopping_min_delta"
                         else None if close[0] in _LIGHTGBM_EARLY_STOPPING
                         else next((p for p in own_names
                                    if close[0] in _aliases(p)), None))
            shown_name = (f"{owner} (LightGBM's {close[0]})" if owner
                          else close[0] if close else None)
            guess = f" (did you mean {shown_name}?)" if close else ""
            if not _is_parameter_value(lgb, value):  # LightGBM fails on it
                shown = cut(" ".join(repr(value).split()), 60, quote=False)
                fix = (f"pass LightGBM's parameters as keywords, "
                       f"{name}(num_leaves=15, ...) or {name}(**params), not "
                       f"as one dict" if isinstance(value, dict) else
                       "a parameter's value is a string, a number or a list")
                guess = "" if isinstance(value, dict) else guess  # params=...
                raise TypeError(
                    f"{name} got {key}={shown}, not a LightGBM parameter"
                    f"{guess}, and LightGBM refuses its value (of type "
                    f"{type(value).__name__}); {fix}.")
            problem = "not a LightGBM parameter: LightGBM ignores it" + guess
        else:
            same = [p for p in translated if p != key and key in _aliases(p)
                    and value is not None and not _same(value, own[p])]
            if not same:
                continue
            problem = (f"LightGBM's alias of {same[0]}, which LightGBM then "
                       f"reads instead of {same[0]}={getattr(ranker, same[0])!r}"
                       f"; set {same[0]} instead of {key}")
        shown = cut(" ".join(repr(value).split()), 60, quote=False)
        warnings.warn(f"{name} got {key}={shown}, {problem}.", UserWarning,
                      stacklevel=_stacklevel())


def _is_parameter_value(lgb, value):
    """Whether LightGBM takes ``value`` as a parameter's value (a string, a
    number, a sequence...), as its own conversion of the parameters tells
    (True when this LightGBM has no such function)."""
    try:
        lgb.basic._param_dict_to_str({"key": value})
    except TypeError:
        return False
    except Exception:  # pragma: no cover - another LightGBM's internals
        return True
    return True


def _categorical_feature(params, categorical, n_features, names):
    """``categorical_feature`` of the fit: the positions of the columns
    passed through as LightGBM's ``categorical_feature`` (or an alias;
    taken out of ``params``: LightGBM warns that it ignores it there),
    as positions or the ``names`` of a DataFrame's columns, with those of
    the unordered pandas ``category`` columns (``categorical``)."""
    alias, value = _pop_alias(params, _CATEGORICAL_ALIASES)
    if value is None or isinstance(value, str) and value == "auto":
        return categorical
    positions = set(categorical)
    for column in [value] if isinstance(value, (str, Integral)) else value:
        if isinstance(column, str) and names is not None and column in names:
            positions.add(int(np.flatnonzero(names == column)[0]))
        elif (isinstance(column, Integral) and not isinstance(column, bool)
                and 0 <= column < n_features):
            positions.add(int(column))
        else:
            raise ValueError(
                f"{alias}={value!r} holds {column!r}, which is not "
                f"the position (0 to {n_features - 1}) of a column of X"
                + ("" if names is None else " nor the name of one")
                + "; give positions" + ("" if names is None else " or "
                                        "column names") + ".")
    return sorted(positions)
