"""LightGBM as the boosted ranker's engine: its import, its printing, and
the callbacks and evaluation function of a training (the check for
features it can split on, micro-pAp@k of held-out rows, early stopping by
the linear rankers' rule), shared by :class:`~skpapk.PApKBoostRanker` and
:class:`skpapk.dask.PApKBoostRanker`."""

import collections
import contextlib
import inspect
import sys
import threading

import numpy as np

from ._solver import BestRound

#: The threads of the fits that silence LightGBM (:func:`_quiet`): each
#: thread's number of open contexts, of those that silence its information
#: messages, and the warnings it drops; the logger installed meanwhile.
_USERS = collections.Counter()
_SILENCED = collections.Counter()
_DROPPED = collections.defaultdict(list)
_SILENCED_LOCK = threading.Lock()
_INSTALLED = [None]


class _QuietInThreads:
    """A LightGBM logger: the one it replaces (``logger``), but for the
    information messages of the threads in ``_SILENCED`` and the warnings
    that the threads in ``_DROPPED`` drop."""

    def __init__(self, logger, info_name, warning_name):
        self.logger, self.info_name = logger, info_name
        self.warning_name = warning_name

    def info(self, msg):
        if threading.get_ident() not in _SILENCED:
            getattr(self.logger, self.info_name)(msg)

    @property
    def warning(self):
        """The replaced logger's warning (as is: its stack level), or in a
        thread that drops warnings, a function that drops them."""
        warn = getattr(self.logger, self.warning_name)
        drops = [d for ds in _DROPPED.get(threading.get_ident(), ()) for d in ds]
        if not drops:
            return warn
        return lambda msg: None if str(msg).startswith(tuple(drops)) else warn(msg)


@contextlib.contextmanager
def _quiet(verbose, drop=()):
    """Silence LightGBM's own information messages (such as the Dask
    interface's "Finding random open ports for workers", whatever its
    verbosity) in this thread, below ``verbose=2``, and its warnings that
    start with one of ``drop`` (whatever ``verbose``).

    They go through LightGBM's logger (``lightgbm.register_logger``), which
    is replaced while a quiet fit runs by one that drops this thread's
    messages only; ``sys.stdout`` and the warning filters, the process's,
    are left alone (swapping them lost other threads' output or warnings,
    and fits that overlapped in time could leave them swapped for good)."""
    basic = sys.modules.get("lightgbm.basic")
    names = ("_LOGGER", "_INFO_METHOD_NAME", "_WARNING_METHOD_NAME")
    if isinstance(drop, str):  # not its characters
        raise TypeError(f"drop={drop!r} must be a tuple of message starts.")
    silence, drop = verbose < 2, tuple(drop)
    if not (silence or drop) or not all(hasattr(basic, name) for name in names):
        yield  # (a LightGBM without these: its messages are printed)
        return
    ident = threading.get_ident()
    with _SILENCED_LOCK:
        if not _USERS:
            _INSTALLED[0] = _QuietInThreads(*(getattr(basic, n) for n in names))
            basic.register_logger(_INSTALLED[0])
        _USERS[ident] += 1
        if silence:  # (a key of _SILENCED silences its thread)
            _SILENCED[ident] += 1
        if drop:
            _DROPPED[ident].append(drop)
    try:
        yield
    finally:
        with _SILENCED_LOCK:
            for counter in (_USERS, _SILENCED) if silence else (_USERS,):
                counter[ident] -= 1
                if not counter[ident]:
                    del counter[ident]
            if drop:  # this context's own (contexts may end out of order)
                mine = _DROPPED[ident]
                del mine[next(i for i, d in enumerate(mine) if d is drop)]
                if not mine:
                    del _DROPPED[ident]
            if not _USERS:
                installed, _INSTALLED[0] = _INSTALLED[0], None
                if basic._LOGGER is installed:  # else one registered meanwhile
                    basic.register_logger(installed.logger, installed.info_name,
                                          installed.warning_name)


def _quietly(verbose, function, *args, drop=(), **kwargs):
    """``function(*args, **kwargs)`` in :func:`_quiet`, in the calling thread."""
    with _quiet(verbose, drop):
        return function(*args, **kwargs)


def _no_usable_feature(error):
    """Whether a ``LightGBMError`` says that no feature of ``X`` can be split
    on (LightGBM refuses a custom objective then; it has no error type or
    code for it, only the message)."""
    return "num_features" in str(error)


class _NoUsableFeature(Exception):
    """Raised by :class:`_CheckUsableFeatures` to end a fit before LightGBM
    fails on it."""


class _CheckUsableFeatures:
    """LightGBM callback, before the first round: whether any feature of the
    training ``Dataset`` can be split on.

    LightGBM drops the features it cannot split on (constant over the
    rows, or with too few rows per bin or leaf) when it builds the
    ``Dataset``; with none left, its first round of a custom objective
    fails, and its C++ code writes ``[LightGBM] [Fatal] Check failed:
    (train_data->num_features()) > (0)`` to the process's stderr whatever
    ``verbosity`` says. The ``Dataset`` is built by then (with LightGBM's
    own parameters, so the check is exact): a dropped feature has no bins
    (``Dataset.feature_num_bin``). With ``stop`` (a custom objective) this
    callback raises :class:`_NoUsableFeature` before that round, which
    prints nothing; else (LightGBM's own objectives, which fit a constant
    tree) it sets ``none_usable`` for the ranker's warning.
    """

    def __init__(self, stop):
        self.order = 0  # as ``_EarlyStopping.order``
        self.before_iteration = True
        self.stop, self.none_usable = stop, False

    def __call__(self, env):
        if env.iteration != env.begin_iteration:
            return
        dataset = env.model.train_set
        if not any(dataset.feature_num_bin(j) > 0
                   for j in range(dataset.num_feature())):
            if self.stop:
                raise _NoUsableFeature
            self.none_usable = True


def _constant_booster(lightgbm, params, n_features):
    """A one-tree booster scoring every row 0: the model when no feature of
    ``X`` can be split on (LightGBM cannot train a custom objective then)."""
    core = {key: value for key, value in params.items()
            if key not in ("objective", "n_estimators", "metric")}
    return lightgbm.train(
        dict(core, objective="regression", boost_from_average=False,
             verbose=-1),
        lightgbm.Dataset(np.zeros((2, n_features)), label=np.zeros(2),
                         params=core),
        num_boost_round=1)


def _trees_up_to(lightgbm, booster, n_trees):
    """``booster`` with its first ``n_trees`` rounds only (itself when it has
    no more), as ``LGBMRanker.fit`` keeps them after early stopping."""
    if booster.current_iteration() <= n_trees:
        return booster
    return lightgbm.Booster(model_str=booster.model_to_string(num_iteration=n_trees))


def _eval_rows(lightgbm, X, y):
    """``LGBMRanker.fit``'s keywords for one held-out set: ``eval_X`` and
    ``eval_y`` where LightGBM has them (4.7 on), else ``eval_set``."""
    if "eval_X" in inspect.signature(lightgbm.LGBMRanker.fit).parameters:
        return {"eval_X": (X,), "eval_y": (y,)}
    return {"eval_set": [(X, y)]}


def _print_round(iteration, k, score, file=None):
    """Print round ``iteration``'s validation micro-pAp@``k`` (``verbose=1``)."""
    print(f"[{iteration}] validation micro-pAp@{k}: {score:.4f}", file=file)


class _EarlyStopping(BestRound):
    """LightGBM callback: stop the boosting by the linear rankers' rule.

    Reads the micro-pAp@k of the held-out rows that LightGBM computed this
    round (:func:`~skpapk.metrics.micro_papk_lightgbm`, found by its name
    among the results of the round: LightGBM also evaluates the metrics of
    its ``metric``
    parameter, passed through ``**kwargs``), records it and ends the
    training (LightGBM's ``EarlyStopException``) when it has not reached
    its best plus ``tol`` for ``n_iter_no_change`` rounds in a row, as the
    linear rankers' ``early_stopping`` (scikit-learn's ``SGDClassifier``
    rule; the Dask ranker replays the same rule on the scores of its
    trees).

    A round in which LightGBM added no tree (no leaf met the split
    requirements; ``lightgbm.train`` goes on calling the objective) is not
    recorded: its index goes to ``empty_rounds``, so that every recorded
    score is that of one more tree; it counts as a round without
    improvement. ``best_results`` holds the evaluation
    results of the best round, LightGBM's ``best_score``.
    """

    def __init__(self, name, tol, n_iter_no_change, verbose):
        super().__init__(tol, n_iter_no_change)
        # after LightGBM's own callbacks of the round (``record_evaluation``
        # included); an attribute of the instance, which ``lightgbm.train``
        # would otherwise set to the callback's position in the list
        self.order = 30
        self.name = name
        self.verbose = verbose
        self.out = sys.stdout
        self.empty_rounds, self.best_results = [], []

    def __call__(self, env):
        import lightgbm

        if env.model.current_iteration() == len(self.scores):  # no new tree
            # not recorded, but a round without improvement: once LightGBM
            # stops adding trees (no leaf meets the split requirements), the
            # training ends n_iter_no_change rounds later, as it would
            self.empty_rounds.append(env.iteration - env.begin_iteration)
            self.n_no_improvement += 1
            if self.n_no_improvement >= self.n_iter_no_change:
                raise lightgbm.callback.EarlyStopException(
                    env.iteration, self.best_results)
            return
        score, = [result[2] for result in env.evaluation_result_list
                  if result[1] == self.name]
        if self.verbose > 0:
            _print_round(len(self.scores) + 1, self.name.partition("@")[2],
                         score, file=self.out)
        stop = self.record(score)
        if self.best_iteration == len(self.scores) - 1:
            self.best_results = env.evaluation_result_list
        if stop:
            # named as the last round, so that LightGBM keeps every tree
            # fitted (``booster_`` holds ``n_iter_`` trees, as the Dask
            # ranker's); the ranker sets ``best_iteration_`` itself
            raise lightgbm.callback.EarlyStopException(
                env.iteration, self.best_results)

    def booster_best_score(self):
        """``best_results`` as ``Booster.best_score``: ``{data: {metric:
        value}}``."""
        best = collections.defaultdict(collections.OrderedDict)
        for data, metric, value, _ in self.best_results:
            best[data][metric] = value
        return best

    def recorded(self, evals_result):
        """LightGBM's ``evals_result_`` without the empty rounds."""
        empty = set(self.empty_rounds)
        return {data: {metric: [v for i, v in enumerate(values)
                                if i not in empty]
                       for metric, values in metrics.items()}
                for data, metrics in evals_result.items()}
