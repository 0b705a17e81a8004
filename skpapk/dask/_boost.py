"""The boosted ranker fitted on dask collections, with LightGBM's Dask interface.

A distributed ``fit``:

1. loads and checks every partition on its worker, and checks on the client
   that no group (user) has rows in two partitions (as the linear rankers);
2. prepares every partition on its worker (relevance, the early-stopping
   split, the training rows sorted by user with the sizes of its users,
   the total weight of its users) and persists it; the client adds up the
   users' weights and the rows: one pass over the partitions;
3. trains with ``lightgbm.dask.DaskLGBMRanker``: every Dask worker
   concatenates its own partitions and runs LightGBM's data-parallel
   training on them, with a :class:`~skpapk.losses.LightGBMObjective` that
   divides by the weight of ALL the users, so each worker's gradients are
   its rows' share of the in-memory objective's;
4. with early stopping, scores every round on the held-out rows of every
   partition afterwards and applies the in-memory stopping rule.
"""

from dataclasses import dataclass
from functools import partial

import dask
import dask.array as da
import numpy as np
import scipy.sparse as sp
from sklearn.base import _fit_context
from sklearn.utils import check_random_state

from .. import _boost
from .. import _lightgbm_engine as _engine
from .._base import check_defined_groups
from .._categorical import _category_columns
from .._lightgbm_params import (
    _EVAL_AT_ALIASES,
    _aliases,
    fit_arguments,
    refuse_fit_keywords,
)
from .._solver import BestRound
from ..losses import (
    SMOOTH_SURROGATES,
    group_weights,
    make_pair_layout,
)
from ..metrics._lightgbm import micro_papk_lightgbm
from ..utils._groups import stable_sort_by_codes
from ..utils._lightgbm import _import_lightgbm
from ..utils._parallel import effective_n_threads
from ..utils._validation import check_k
from . import _worker
from ._common import (
    DaskRankerMixin,
    any_dask,
    check_partitions,
    check_validation_counts,
    load_partitions,
    local_sections,
    partition_seeds,
    reject_validation_rows,
)
from ._oracle import PersistedPartitions
from ._watchdog import guard_training

# --------------------------------------------------------------------------
# On the workers


@dataclass
class BoostPartition:
    """A partition's training rows for LightGBM, and its held-out rows.

    ``X`` and ``label`` are the training rows sorted by user, ``group`` the
    numbers of rows of its users (in that order, none empty);
    ``weight_total`` the sum of the group weights of its users with a
    relevant and an irrelevant row (``n_defined``); ``val`` the held-out
    ``(X, y_pos, codes)`` of early stopping, or ``None``.
    """

    X: object
    label: np.ndarray
    group: np.ndarray
    n_groups: int
    n_defined: int
    weight_total: float
    val: tuple = None


def prepare_boost_partition(part, pos_label, group_weight, *,
                            validation_fraction=None, seed=None):
    """Sort a loaded partition's training rows by user (see BoostPartition)."""
    prepared = _worker.prepare_partition(
        part, pos_label, None, validation_fraction=validation_fraction, seed=seed)
    y_pos, codes, n_groups = prepared.y_pos, prepared.codes, prepared.n_groups
    layout = make_pair_layout(y_pos, codes, n_groups)
    order = stable_sort_by_codes(codes, n_groups)
    sizes = np.bincount(codes, minlength=n_groups)
    X = prepared.X[order]
    if sp.issparse(X):  # lightgbm.dask concatenates scipy.sparse.spmatrix
        X = sp.csr_matrix(X)
    return BoostPartition(
        X=X, label=y_pos[order].astype(np.float64), group=sizes[sizes > 0],
        n_groups=n_groups, n_defined=layout.n_defined,
        weight_total=float(group_weights(layout, group_weight).sum()),
        val=prepared.val)


def summarize_boost_partition(part):
    """What the client needs of a prepared partition (small): with every
    feature's smallest and largest training value (NaN: it may be missing)."""
    X = part.X
    if X.shape[0] == 0:
        low = high = np.full(X.shape[1], np.nan)
    elif sp.issparse(X):  # implicit zeros included
        low, high = (np.asarray(m(axis=0).todense()).ravel()
                     for m in (X.min, X.max))
        if np.isnan(X.data).any():
            low = high = np.full(X.shape[1], np.nan)
    else:
        low, high = X.min(axis=0), X.max(axis=0)  # NaN where a value is
    return {"n_rows": X.shape[0], "n_user_rows": part.group.shape[0],
            "n_defined": part.n_defined, "weight_total": part.weight_total,
            "n_val_defined": _worker.n_val_defined(part.val, part.n_groups),
            "dtype": X.dtype, "sparse": sp.issparse(X), "low": low, "high": high}


def _no_feature_varies(info):
    """Whether every feature holds one value, never missing, in the training
    rows of every partition: LightGBM could not split (its distributed
    training then fails on the workers, and the next fit on the cluster
    could hang)."""
    used = [i for i in info if i["n_rows"]]
    low = np.min([i["low"] for i in used], axis=0)  # NaN stays NaN
    high = np.max([i["high"] for i in used], axis=0)
    return bool(np.all(low == high))


def training_rows(part, sparse):
    """The partition's sorted training rows (CSR when any partition is)."""
    return sp.csr_matrix(part.X) if sparse and not sp.issparse(part.X) else part.X


def validation_gains(part, model, n_rounds, k):
    """pAp@k gain sums of the held-out rows after every round.

    Adds the trees one round at a time, as the in-memory early stopping's
    monitor does. Returns the ``(n_rounds,)`` sums and the number of
    held-out groups with both labels.
    """
    import lightgbm

    X_val, y_val, codes_val = part.val
    gains = np.zeros(n_rounds)
    if X_val.shape[0] == 0:
        return gains, 0
    booster = lightgbm.Booster(model_str=model)
    raw = np.zeros(X_val.shape[0])
    count = 0
    for t in range(n_rounds):
        raw += booster.predict(X_val, start_iteration=t, num_iteration=1,
                               raw_score=True)
        gains[t], count = _worker._gain_sums(y_val, raw, codes_val, part.n_groups, k)
    return gains, count


def booster_scores(X, booster, num_iteration, n_jobs):
    """Raw scores of the first ``num_iteration`` rounds' trees, with the
    threads of ``n_jobs`` on this worker (as the in-memory ranker's)."""
    return booster.predict(X, num_iteration=num_iteration, raw_score=True,
                           num_threads=effective_n_threads(n_jobs))


# --------------------------------------------------------------------------
# On the client


def _means_none(value):
    """Whether a parameter passed through asks for nothing: None, or a
    metric of ``"None"``, ``""`` or ``[]`` (LightGBM's "no metric")."""
    if value is None:
        return True
    if isinstance(value, str):
        return value in ("", "None", "none", "null", "na")
    return isinstance(value, (list, tuple)) and len(value) == 0


def _client():
    """The ``distributed.Client`` LightGBM's Dask interface trains on."""
    try:
        from distributed import default_client
    except ImportError as exc:  # pragma: no cover - the extra installs it
        raise ImportError(
            "skpapk.dask.PApKBoostRanker needs dask.distributed: pip install "
            "'skpapk[dask]'."
        ) from exc
    try:
        return default_client()
    except ValueError as exc:
        raise ValueError(
            "skpapk.dask.PApKBoostRanker trains with LightGBM's Dask interface "
            "(lightgbm.dask), which runs on a dask.distributed cluster: create "
            "a client first, e.g. distributed.Client(distributed.LocalCluster()) "
            "on one machine or distributed.Client('tcp://scheduler:8786'); or "
            "fit skpapk.PApKBoostRanker on in-memory arrays."
        ) from exc


def _stopping_round(scores, tol, n_iter_no_change):
    """``(n_iter, best_round)``: where the in-memory monitor would stop on
    ``scores``, and the best round before it (0-based)."""
    rounds = BestRound(tol, n_iter_no_change)
    for score in scores:
        if rounds.record(score):
            break
    return len(rounds.scores), rounds.best_iteration


class DaskBoostMixin(DaskRankerMixin):
    """``fit`` of :class:`skpapk.PApKBoostRanker` on dask input."""

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, *, groups=None, sample_weight=None, X_val=None,
            y_val=None, groups_val=None, **kwargs):
        """Fit on the workers holding ``X``'s partitions, or in memory.

        Parameters
        ----------
        X : dask array or dask DataFrame of shape (n_samples, n_features)
            Features: a dask array with dense or SciPy CSR chunks, or a
            dask DataFrame of numeric columns. In-memory ``X`` (with
            in-memory ``y`` and ``groups``) is fitted in memory, as
            :class:`skpapk.PApKBoostRanker` does.
        y : dask array, dask Series or array-like of shape (n_samples,)
            Binary relevance labels (``pos_label``, else the greater of two
            numbers, is relevant),
            partitioned like ``X`` (see :class:`skpapk.dask.PApKRanker`).
        groups : dask array, dask Series or array-like of shape (n_samples,)
            User of every row, partitioned like ``X``, with every user's
            rows in one partition (else a ``ValueError``: see
            :func:`~skpapk.dask.partition_by_group`). ``None``: all rows
            form one group, which must then lie in one partition.
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, for in-memory input only (a ``ValueError`` with
            dask input, as ``class_weight``).
        X_val, y_val, groups_val : default=None
            Validation rows of early stopping, for in-memory input only (a
            ``ValueError`` with dask input): see
            :meth:`skpapk.PApKBoostRanker.fit`.
        **kwargs : dict
            None taken: the arguments of ``LGBMRanker.fit`` (``group``,
            ``eval_set``...) and LightGBM's parameters raise a
            ``TypeError`` that says what to do instead, as
            :meth:`skpapk.PApKBoostRanker.fit`.

        Returns
        -------
        self : object
            Fitted ranker (an in-memory one: ``booster_`` is a
            ``lightgbm.Booster``).
        """
        refuse_fit_keywords(self, _import_lightgbm(), kwargs,
                            _boost._FIT_ARGUMENTS)
        if not any_dask(X, y, groups, sample_weight, X_val, y_val, groups_val):
            return self._local_class.fit(
                self, X, y, groups=groups, sample_weight=sample_weight,
                X_val=X_val, y_val=y_val, groups_val=groups_val)
        reject_validation_rows(self, X_val, y_val, groups_val)
        if sample_weight is not None:
            raise ValueError(
                f"{type(self).__name__}.fit takes no sample_weight with dask "
                f"input (the distributed fit is unweighted); drop it, or "
                f"repeat the rows to weigh them."
            )
        if self._other_params.get("class_weight") is not None:
            raise ValueError(
                f"{type(self).__name__}.fit takes no class_weight with dask "
                f"input (the distributed fit is unweighted); drop it "
                f"(set_params(class_weight=None)), or fit in memory."
            )
        self._refuse_in_memory_params()
        return self._fit_dask(X, y, groups)

    def _refuse_in_memory_params(self):
        """Refuse the parameters passed through that a distributed fit would
        drop: DaskLGBMRanker's ``client``, LightGBM's metrics and thread
        counts."""
        name = type(self).__name__
        given = [key for key, value in self._other_params.items()
                 if not _means_none(value)]
        for key in given:
            if key == "client":
                problem = ("it trains on the current client (the one made last, "
                           "or that of `with client.as_current():`)")
            elif key in {"metric", *_aliases("metric"), *_EVAL_AT_ALIASES}:
                problem = ("with dask input evals_result_ holds the validation "
                           "micro-pAp@k only (LightGBM's metrics are computed "
                           "in memory)")
            elif key in {"num_threads", *_aliases("num_threads")}:
                problem = ("with dask input LightGBM trains with each worker's "
                           "threads (its nthreads)")
            else:
                continue
            raise TypeError(f"{name} got {key}=..., which a fit on dask input "
                            f"does not use: {problem}; drop it, or fit in "
                            f"memory.")

    def _predict_booster(self, X, **options):
        if any_dask(X):
            raise TypeError(
                f"{type(self).__name__}.predict with start_iteration, "
                f"num_iteration, pred_leaf, pred_contrib, validate_features "
                f"or num_threads takes in-memory X; "
                f"for dask X, predict the scores (no option), or compute X "
                f"block by block with the in-memory ranker (to_local())."
            )
        return self._local_class._predict_booster(self, X, **options)

    def _fit_dask(self, X, y, groups):
        lgb = _import_lightgbm()
        import lightgbm.dask

        check_k(self.k)
        if _category_columns(getattr(X, "_meta", None)):
            raise TypeError(
                f"{type(self).__name__} splits pandas 'category' columns as "
                f"categories in memory only; on a dask DataFrame give their "
                f"codes (X[col].cat.codes, -1 as NaN) and their positions as "
                f"categorical_feature=[...].")
        client = _client()
        X, loaded, summaries = load_partitions(self, X, y, groups)
        classes, n_groups = check_partitions(self, X, summaries, groups)
        self.classes_ = classes
        self._category_positions = []  # none on dask input (refused above)
        n_samples = sum(s["n_rows"] for s in summaries)
        early_stopping = self._uses_early_stopping(n_samples)
        rng = check_random_state(self.random_state)
        fraction = self.validation_fraction if early_stopping else None
        seeds = partition_seeds(rng, len(loaded), early_stopping)
        parts = PersistedPartitions([
            dask.delayed(prepare_boost_partition)(
                part, classes[-1], self.group_weight, validation_fraction=fraction,
                seed=seed)
            for part, seed in zip(loaded.parts, seeds)])
        loaded.release()
        try:
            info = parts.map(summarize_boost_partition)
            n_defined = sum(i["n_defined"] for i in info)
            self.n_groups_skipped_ = int(n_groups - n_defined)
            if early_stopping:
                check_validation_counts(self.validation_fraction, n_defined,
                                        sum(i["n_val_defined"] for i in info))
            else:
                check_defined_groups(n_defined, n_groups, classes)
            seed = self._lightgbm_seed(rng)
            if self.verbose > 0:
                print(f"Fitting {type(self).__name__} (objective="
                      f"{self.objective!r}, k={self.k}) on "
                      f"{sum(i['n_rows'] for i in info)} rows in {len(parts)} "
                      f"partitions, {n_groups} groups; {self.n_groups_skipped_} "
                      f"groups skipped (no relevant or no irrelevant row).")
            booster = self._train(lgb, lightgbm.dask, client, parts, info, seed)
            self._set_rounds(booster, parts if early_stopping else None)
        finally:
            parts.release()
        return self

    def _train(self, lgb, lgb_dask, client, parts, info, seed):
        """Train with ``DaskLGBMRanker`` on the prepared partitions."""
        params = self._lightgbm_params(seed)
        arguments = fit_arguments(self, lgb, params, [], self.n_features_in_, seed)
        params.pop("n_jobs", None)  # the Dask interface uses each worker's nthreads
        if _no_feature_varies(info):  # LightGBM is not started
            self._warn_no_split()
            return _engine._constant_booster(lgb, params, self.n_features_in_)
        if self.objective in SMOOTH_SURROGATES:  # each worker's share
            params["objective"] = self._lightgbm_objective(
                # the kernel's threads: each worker's (as LightGBM's)
                n_jobs=max(1, min(client.nthreads().values())),
                scale=float(sum(i["n_rows"] for i in info)),
                weight_total=float(sum(i["weight_total"] for i in info)))
        used = [(part, i) for part, i in zip(parts.parts, info) if i["n_rows"]]
        n_features = self.n_features_in_
        dtype = np.result_type(*[i["dtype"] for _, i in used])
        sparse = any(i["sparse"] for _, i in used)
        meta = (sp.csr_matrix((0, n_features), dtype=dtype) if sparse
                else np.empty((0, n_features), dtype=dtype))
        X = da.concatenate([
            da.from_delayed(dask.delayed(training_rows)(part, sparse),
                            shape=(i["n_rows"], n_features), dtype=dtype, meta=meta)
            for part, i in used])
        label = da.concatenate([
            da.from_delayed(dask.delayed(getattr)(part, "label"),
                            shape=(i["n_rows"],), dtype=np.float64)
            for part, i in used])
        group = da.concatenate([
            da.from_delayed(dask.delayed(getattr)(part, "group"),
                            shape=(i["n_user_rows"],), dtype=np.intp)
            for part, i in used])
        model = lgb_dask.DaskLGBMRanker(client=client, **params)
        # LightGBM prints "Finding random open ports..." whatever its
        # verbosity (its network setup's [Info] lines, written by its C++
        # threads to the workers' stdout, cannot be caught here)
        try:
            # silenced in the thread that trains (guard_training's); dropped:
            # the warning about DaskLGBMRanker's own n_jobs=None, replaced by
            # the workers' nthreads (n_jobs is not passed on: see the class
            # docstring)
            guard_training(client, partial(
                _engine._quietly, self.verbose, model.fit, X, label,
                drop=("Parameter n_jobs will be ignored",), group=group,
                **arguments), name=type(self).__name__)
        except lgb.basic.LightGBMError as exc:
            if not _engine._no_usable_feature(exc):
                raise
            # no feature can be split on: the in-memory ranker's warning and
            # constant model (LightGBM's distributed training stops there)
            self._warn_no_split("the training rows of a worker, where "
                                "LightGBM finds each feature's bins")
            return _engine._constant_booster(lgb, params, n_features)
        return model.booster_

    def _set_rounds(self, booster, parts):
        """``booster_``, ``n_iter_``, ``best_iteration_``, ``validation_scores_``
        and ``evals_result_``.

        With early stopping (``parts`` given), every round's micro-pAp@k of
        the held-out rows of all partitions, the in-memory stopping rule
        replayed on them, and the booster cut after the best round.
        """
        n_rounds = booster.current_iteration()
        if parts is None:
            self.n_iter_ = self.best_iteration_ = n_rounds
            self.validation_scores_ = self.evals_result_ = None
        else:
            model = dask.delayed(booster.model_to_string(), pure=True)
            sums = parts.map(validation_gains, model, n_rounds, self.k)
            gains = np.sum([s[0] for s in sums], axis=0)
            scores = gains / sum(s[1] for s in sums)
            n_iter, best_round = _stopping_round(scores, self.tol,
                                                 self.n_iter_no_change)
            if self.verbose > 0:
                for t in range(n_iter):
                    _engine._print_round(t + 1, self.k, scores[t])
            # the trees after the best round dropped, as the in-memory ranker
            booster = _engine._trees_up_to(_import_lightgbm(), booster,
                                           best_round + 1)
            self.validation_scores_ = scores[:n_iter]
            # the in-memory ranker's record, of its own metric only (the
            # Dask interface evaluates no validation rows)
            self.evals_result_ = {"valid_0": {
                micro_papk_lightgbm(self.k).__name__:
                    self.validation_scores_.tolist()}}
            self.n_iter_ = n_iter
            self.best_iteration_ = best_round + 1
            booster.best_score = self.best_score_  # as the in-memory ranker's
        booster.best_iteration = self.best_iteration_
        self.booster_ = booster

    def _fitted_categories(self):
        return self.booster_.pandas_categorical or []

    def _block_scorer(self):
        return partial(booster_scores, booster=self.booster_,
                       num_iteration=self.best_iteration_, n_jobs=self.n_jobs)


_DOC = """Distributed :class:`skpapk.PApKBoostRanker`: the boosted ranker on dask input.

    ``fit(X, y, groups=groups)`` with ``X`` a dask array (dense or SciPy CSR
    chunks) or a dask DataFrame, and ``y`` and ``groups`` partitioned like
    it, trains the trees with LightGBM's Dask interface
    (``lightgbm.dask.DaskLGBMRanker``) on the ``dask.distributed`` cluster
    of the current client: every worker trains on its own partitions, with
    LightGBM's data-parallel tree learner. Every user's rows must sit in
    one partition (a user's loss is not a sum over its rows); ``fit``
    raises a ``ValueError`` otherwise: repartition with
    :func:`skpapk.dask.partition_by_group`. Needs a
    :class:`distributed.Client` (``fit`` says so without one) and LightGBM.

    The skpapk objectives are means over ALL users: before boosting, one
    pass over the partitions adds up the weights of their users, and every
    worker's :class:`~skpapk.losses.LightGBMObjective` divides its users'
    losses by that total (``weight_total``) and scales by the total number
    of rows (``scale``), so the workers' gradients and Hessians are their
    rows' values of the in-memory objective (equal up to rounding).
    LightGBM's ``"binary"``, ``"lambdarank"`` and ``"rank_xendcg"`` are
    passed through (their gradients are per row or per user).

    The trees are not the in-memory ones, though: LightGBM's distributed
    training adds up the workers' gradient histograms, but finds each
    feature's bin boundaries on one worker, from a sample of that worker's
    rows, and the rows (and bagging draws) come in another order. Expect
    the test micro-pAp@k of the in-memory model within the noise of a
    change of seed, not the same trees. On two workers or more, two fits
    with the same ``random_state`` may differ too, with or without row
    sampling: LightGBM's Dask interface trains each worker on the
    partitions it holds, and which worker holds which (prepared) partition
    can change from one fit to the next, for a persisted ``X`` too; the
    bin boundaries, which LightGBM finds from one worker's rows, and the
    rows that a seed draws (``subsample < 1``, ``boosting_type="goss"``)
    change with it. Two partitions on two workers gave scores up to 0.8
    apart from one fit to the next; on one worker, five fits were the same
    model. For a repeatable model, fit on one worker, or in memory
    (:class:`skpapk.PApKBoostRanker`).

    A round in which LightGBM adds no tree is not replayed: the rule sees
    the scores of the trees, one after another (the in-memory ranker also
    counts such a round as one without improvement, so it may stop earlier
    when that happens).

    With ``early_stopping``, ``validation_fraction`` of every user's rows
    of each label is held out inside its partition (seeded per partition
    from ``random_state``, as :class:`skpapk.dask.PApKRanker`). LightGBM's
    Dask interface cannot stop every worker on a score summed over all of
    them (``DaskLGBMRanker`` supports no early stopping), so all
    ``n_estimators`` rounds are trained, then the held-out micro-pAp@k of
    every round is computed on the workers and the in-memory stopping rule
    is applied to it: ``validation_scores_``, ``n_iter_`` and
    ``best_iteration_`` are those the in-memory rule gives on these
    scores, and ``booster_`` is cut after round ``best_iteration_``, as the
    in-memory ranker's. The rounds after the stop cost training time only.

    The fitted ranker is an in-memory one: ``decision_function``,
    ``score`` and ``recommend`` take NumPy or SciPy input and it pickles
    (:meth:`to_local` gives the :class:`skpapk.PApKBoostRanker` itself).
    ``decision_function`` on a dask collection returns a dask array, and
    ``score`` on dask input adds up every partition's users. In-memory
    input to ``fit`` fits in memory, as :class:`skpapk.PApKBoostRanker`.

    The parameters and fitted attributes are those of
    :class:`skpapk.PApKBoostRanker`, whose docstring gives the two sections
    below. ``n_jobs`` sets the threads of ``decision_function``; training
    runs as many LightGBM threads on each worker as it has Dask threads
    (``nthreads``), as ``lightgbm.dask`` does. ``sample_weight`` and
    ``class_weight`` are for in-memory input only, and so are the
    parameters passed through that a distributed fit would drop
    (LightGBM's ``metric`` and ``eval_at``: ``evals_result_`` holds the
    validation micro-pAp@k only; an alias of ``num_threads``): with dask
    input they raise a ``TypeError``, as ``client`` does (the fit uses the
    current client, that of ``with client.as_current():`` too). Whatever ``verbose``,
    the workers' LightGBM prints the lines of its network setup
    (``[LightGBM] [Info] Trying to bind port ...``, ``Connected to rank
    0``): LightGBM writes them from its own threads, before it reads its
    ``verbosity``, straight to the workers' standard output.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    See Also
    --------
    skpapk.PApKBoostRanker : The in-memory ranker.
    skpapk.dask.partition_by_group : Every user's rows in one partition.
    skpapk.losses.LightGBMObjective : The objective, with ``weight_total``.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from distributed import Client, LocalCluster
    >>> from skpapk.dask import PApKBoostRanker
    >>> from skpapk.datasets import make_papk_simulation
    >>> X, y, groups = make_papk_simulation(n_users=40, n_pos=(2, 10),
    ...                                     n_neg=(20, 60), shuffle=False,
    ...                                     random_state=0)
    >>> cut = int(np.searchsorted(groups, 20))       # users 0-19 | 20-39
    >>> chunks = (cut, X.shape[0] - cut)
    >>> dX = da.from_array(X, chunks=(chunks, X.shape[1]))
    >>> dy, dgroups = da.from_array(y, chunks), da.from_array(groups, chunks)
    >>> with LocalCluster(n_workers=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster):
    ...     ranker = PApKBoostRanker(k=5, n_estimators=20, random_state=0)
    ...     ranker = ranker.fit(dX, dy, groups=dgroups)
    >>> ranker.booster_.num_trees()
    20
    >>> 0.5 < ranker.score(X, y, groups=groups) <= 1.0
    True
    >>> type(ranker.to_local()).__name__
    'PApKBoostRanker'
    """


class PApKBoostRanker(DaskBoostMixin, _boost.PApKBoostRanker):
    _parameters, _attributes = local_sections(_boost.PApKBoostRanker)
    __doc__ = _DOC.format(parameters=_parameters, attributes=_attributes)
    del _parameters, _attributes
    _local_class = _boost.PApKBoostRanker
