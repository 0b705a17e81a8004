"""Distribution of a per-group (per-user) ranking metric: GroupScoreDisplay."""

import warnings
from collections.abc import Iterator, Mapping

import numpy as np
from sklearn.utils._plotting import _validate_style_kwargs

from ..exceptions import MissingGroupsWarning
from ..metrics import (
    expected_average_precision,
    expected_papk,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    mean_average_precision_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)
from ..metrics._common import _check_zero_division
from ..metrics._scorer import _relevant_label_of
from ..utils._labels import check_binary_target
from ..utils._routing import _stacklevel
from ..utils._validation import check_groups, check_k
from ._base import (
    _get_ax,
    _inner_estimator,
    _response,
    _unique_names,
    check_matplotlib_support,
    closes_new_figure_on_error,
)

#: metric -> (function, label template, uses k, has a ``ties`` option, has
#: a ``zero_division`` option: groups where it is undefined)
_METRICS = {
    "papk": (papk_score, "pAp@{k}", True, True, True),
    "precision_at_k": (precision_at_k_score, "prec@{k}", True, True, False),
    "partial_auc": (partial_auc_score, "pAUC(0, {k}/n-]", True, True, True),
    "average_precision": (mean_average_precision_score, "AP", False, True, True),
}
_KINDS = ("box", "hist", "scatter")
_BASELINE_NAME = "random ranking"


def _check_metric(metric, k):
    if metric not in _METRICS:
        raise ValueError(
            f"metric must be one of {sorted(_METRICS)}, got {metric!r}."
        )
    if _METRICS[metric][2]:
        if k is None:
            raise ValueError(
                f"metric={metric!r} needs k, the number of items shown to each "
                f"user: pass k=... (e.g. k=10)."
            )
        return check_k(k)
    return None  # average precision has no k


def _by_label(models, what):
    """``models`` with each key turned into its label, ``str(key)``; keys
    that give one label (``1`` and ``"1"``) raise."""
    labelled = {str(key): value for key, value in models.items()}
    if len(labelled) != len(models):
        keys = [repr(key) for key in models]
        raise ValueError(
            f"the model names must be distinct, but the keys of {what}, "
            f"{', '.join(keys)}, give the labels {list(map(str, models))}: "
            f"rename the models that share a label.")
    return labelled


def _check_labels(labels, baseline_shown):
    """Fail unless the models' ``labels`` are distinct strings, none of them
    the baseline's name when the baseline is drawn (each would hide one)."""
    for label in labels:
        if not isinstance(label, str):
            raise TypeError(f"name must be a str or a list of str (one per "
                            f"model), got {label!r} of type "
                            f"{type(label).__name__}.")
    if len(set(labels)) != len(labels):
        raise ValueError(f"name must give distinct names, got {labels}: one "
                         f"model would hide another.")
    if baseline_shown and _BASELINE_NAME in labels:
        raise ValueError(f"{_BASELINE_NAME!r} names the random baseline: rename "
                         f"the model, or pass show_baseline=False.")


#: what the GroupScoreDisplays drew on an Axes, kept on the Axes: one entry
#: per model or baseline, dropped once its artist is no longer on the Axes
_DRAWN = "_skpapk_group_score_drawn"


def _drawn_on(ax, kind, horizontal, metric_label, labels):
    """The entries of what earlier calls drew on ``ax`` and still show (the
    kind, the metric label, the model's label or None for a random
    baseline, the baseline's ``(n_pos, values)``, a box's position and tick
    label, an artist); refuses a call that would mix kinds or metrics on one
    axis or repeat a model's name."""
    children = ax.get_children()
    drawn = [entry for entry in getattr(ax, _DRAWN, [])
             if any(artist in children for artist in entry["artists"])]
    setattr(ax, _DRAWN, drawn)
    for entry in drawn[:1]:
        if entry["kind"] != (kind, horizontal):
            old, new = (f"kind={k!r}" + (" (horizontal)" if h else "")
                        for k, h in (entry["kind"], (kind, horizontal)))
            raise ValueError(
                f"ax already shows a GroupScoreDisplay of {old}; this one has "
                f"{new}: plot it on other axes, or pass the scores of every "
                f"model as one dict to a single call.")
        if entry["metric"] != metric_label:
            raise ValueError(
                f"ax already shows the {entry['metric']} of each user; this "
                f"display's {metric_label} would share its axis: plot it on "
                f"other axes.")
    shown = [entry["label"] for entry in drawn if entry["label"] in labels]
    if shown:
        raise ValueError(
            f"ax already shows a model named {shown[0]!r}: pass another name "
            f"(name=...) so that one model does not hide the other.")
    return drawn

def _check_kind(kind):
    if kind not in _KINDS:
        raise ValueError(
            f"kind must be 'box' or 'hist' (the distribution over users) or "
            f"'scatter' (each user's value against its number of relevant "
            f"items), got {kind!r}."
        )


def _per_group_scores(y_true, scores, groups, *, k, metric, ties, pos_label,
                      zero_division):
    """Per-group values of every model, counts and random baseline per group."""
    func, _, uses_k, has_ties, undefined = _METRICS[metric]
    _check_zero_division(zero_division)  # also where it does not apply
    options = {"groups": groups, "average": None, "pos_label": pos_label}
    if uses_k:
        options["k"] = k
    if has_ties:
        options["ties"] = ties
    if undefined:
        options["zero_division"] = zero_division
    values = {name: np.asarray(func(y_true, s, **options), dtype=np.float64)
              for name, s in scores.items()}
    y_pos, _ = check_binary_target(y_true, pos_label=pos_label)
    codes, labels = check_groups(groups, y_pos.shape[0])
    n_groups = labels.shape[0]
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups).astype(np.intp)
    n_neg = np.bincount(codes, minlength=n_groups) - n_pos
    baseline = None
    if metric == "papk":
        baseline = np.asarray(expected_papk(n_pos, n_neg, k), dtype=np.float64)
    elif metric == "average_precision":
        baseline = np.asarray(expected_average_precision(n_pos + n_neg, n_pos),
                              dtype=np.float64)
    else:
        expected = {"precision_at_k": expected_precision_at_k_score,
                    "partial_auc": expected_partial_auc_score}[metric]
        options = {"zero_division": np.nan} if undefined else {}
        baseline = np.asarray(expected(y_true, k=k, groups=groups, average=None,
                                       pos_label=pos_label, **options),
                              dtype=np.float64)
    if undefined and not isinstance(zero_division, str):
        # where the metric is undefined, a random ranking scores as the models
        baseline = np.where(np.isnan(baseline), zero_division, baseline)
    return values, labels, n_pos, n_neg, baseline


def _attribute_of(estimator, name):
    """Attribute ``name`` of a ranker, else of a pipeline's last step or of a
    search's ``best_estimator_``; None when none has it (``k``, or
    ``_n_fit_groups``, the number of groups a ranker was fitted on)."""
    value = getattr(estimator, name, None)
    inner, _ = _inner_estimator(estimator)
    return _attribute_of(inner, name) if value is None and inner is not None \
        else value


def _model_name(estimator):
    """The class name of ``estimator``, or of the model it wraps (a
    pipeline's last step, a search's ``best_estimator_``)."""
    inner, _ = _inner_estimator(estimator)
    return type(estimator).__name__ if inner is None else _model_name(inner)


class GroupScoreDisplay:
    """Distribution over groups (users) of a ranking metric, one or several models.

    Shows which users a recommender serves badly: each user's pAp@k (or
    prec@k, pAUC(0, k/n-], average precision), of one or several models,
    beside each user's exact random-ranking baseline, as box plots or
    histograms of the distribution, or as a scatter plot against the user's
    number of relevant items (the heterogeneous engagement that motivates
    pAp@k in the paper's Section 1 and Section 3).

    Build it with :meth:`from_estimator` or :meth:`from_predictions`; the
    constructor only stores the numbers. The per-group values are those of
    the metric function with ``average=None`` (groups in sorted label
    order); the mean of a model's defined values is its micro average (the
    paper's eq. 17 for pAp@k), shown in the legend (box plots: under each
    box, and as its mean marker).

    To compare models, pass their scores as one dict (``{name: scores}``,
    or a dict or list of estimators). A later call on the same ``ax`` adds
    its models to those already drawn there, as scikit-learn's Displays do:
    its boxes go after the earlier ones, whose tick labels stay, and its
    histograms or points join the legend. The random baseline is not drawn
    again where an equal one (the same users) is already shown. That call
    must have the same ``kind`` (and box orientation) and the same metric
    and ``k``, and new model names, else it raises a ``ValueError``.

    Parameters
    ----------
    scores : dict of str to ndarray of shape (n_groups,)
        Per-group metric value of each model (NaN where undefined).
    n_pos : ndarray of int of shape (n_groups,)
        Number of relevant rows of each group.
    n_neg : ndarray of int of shape (n_groups,), default=None
        Number of irrelevant rows of each group.
    groups : ndarray of shape (n_groups,), default=None
        The sorted group labels.
    baseline : ndarray of shape (n_groups,), default=None
        Each group's expected metric under a uniformly random ranking
        (:func:`~skpapk.metrics.expected_papk` for pAp@k,
        :func:`~skpapk.metrics.expected_precision_at_k_score`,
        :func:`~skpapk.metrics.expected_partial_auc_score`,
        :func:`~skpapk.metrics.expected_average_precision` for AP); ``None``
        draws no baseline.
    metric : {"papk", "precision_at_k", "partial_auc", "average_precision"}, \
default="papk"
        The metric, for the labels.
    k : int, default=None
        The ``k`` of the metric, for the labels.

    Attributes
    ----------
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.
    artists_ : dict of str to matplotlib artist(s)
        What was drawn for each model (and for ``"random ranking"`` when the
        baseline is drawn, not when an equal one was already on the Axes):
        the patches of its histogram (``kind="hist"``),
        its box (``kind="box"``) or its ``PathCollection`` (``kind="scatter"``).
    boxes_ : dict or None
        With ``kind="box"``, the dict returned by ``Axes.boxplot`` (keys
        ``"boxes"``, ``"medians"``, ``"whiskers"``, ...); ``None`` otherwise.

    See Also
    --------
    sklearn.metrics.RocCurveDisplay : The Display API this follows.
    skpapk.metrics.papk_score : The pAp@k of every group, with ``average=None``.
    skpapk.metrics.expected_papk : The random-ranking baseline of a group.
    TrainingCurveDisplay : Objective and scores per epoch of a fit.
    SurrogateDisplay : Surrogates and pAp@k risk along a fit.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from skpapk.inspection import GroupScoreDisplay
    >>> y = [1, 0, 0, 1, 1, 0, 0]
    >>> s = [3, 2, 1, 1, 2, 3, 0]
    >>> g = [0, 0, 0, 1, 1, 1, 1]
    >>> disp = GroupScoreDisplay.from_predictions(y, s, groups=g, k=2)
    >>> disp.scores["Ranker"]          # papk_score(y, s, ..., average=None)
    array([1. , 0.5])
    >>> disp.baseline                  # expected_papk(n_pos, n_neg, k=2)
    array([0.5, 0.5])
    >>> disp.n_pos
    array([1, 2])
    >>> disp = disp.plot(kind="scatter")
    >>> sorted(disp.artists_)
    ['Ranker', 'random ranking']
    """

    def __init__(self, *, scores, n_pos, n_neg=None, groups=None, baseline=None,
                 metric="papk", k=None):
        if not isinstance(scores, Mapping):
            scores = {"Ranker": scores}
        self.scores = {name: np.asarray(v, dtype=np.float64)
                       for name, v in _by_label(scores, "scores").items()}
        self.n_pos = np.asarray(n_pos)
        for name, values in self.scores.items():
            if values.shape != self.n_pos.shape:
                raise ValueError(
                    f"scores[{name!r}] has shape {values.shape} but n_pos has "
                    f"shape {self.n_pos.shape}: give one value per group."
                )
        self.n_neg = None if n_neg is None else np.asarray(n_neg)
        self.groups = None if groups is None else np.asarray(groups)
        self.baseline = None if baseline is None else np.asarray(baseline,
                                                                 dtype=np.float64)
        self.metric = metric
        self.k = k

    def _metric_label(self):
        template = _METRICS.get(self.metric, (None, str(self.metric)))[1]
        return template.format(k=self.k if self.k is not None else "k")

    @closes_new_figure_on_error
    def plot(self, ax=None, *, name=None, kind="box", show_baseline=True, **kwargs):
        """Plot the per-group values.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; ``None`` creates a figure and axes. Axes where
            a GroupScoreDisplay has drawn keep its models: this call adds
            after them (see the class docstring).
        name : str or list of str, default=None
            Labels of the models, replacing the keys of ``scores`` (one per
            model).
        kind : {"box", "hist", "scatter"}, default="box"
            ``"box"``: one box per model (and one for the random baseline);
            ``"hist"``: overlaid histograms over ``[0, 1]``; ``"scatter"``:
            each group's value against its number of relevant rows ``n+``.
            Groups where the metric is undefined (NaN) are not drawn (the
            metric function warned about them).
        show_baseline : bool, default=True
            Draw the random-ranking baseline when ``baseline`` is known.
        **kwargs : dict
            Passed to ``Axes.hist`` / ``Axes.boxplot`` / ``Axes.scatter``.
            With ``kind="hist"`` or ``"scatter"``, the style keywords and
            ``label`` apply to the models; the random baseline keeps its
            gray dashes and its own label.

        Returns
        -------
        display : GroupScoreDisplay
            Object that stores the computed values; ``artists_`` and
            ``boxes_`` hold what this call drew.
        """
        _check_kind(kind)
        if not isinstance(show_baseline, (bool, np.bool_)):
            raise TypeError(f"show_baseline must be True or False, got "
                            f"{show_baseline!r}.")
        self.ax_, self.figure_ = _get_ax(ax, f"{type(self).__name__}.plot")
        labels = list(self.scores)
        if name is not None:
            labels = ([name] if isinstance(name, str) or not np.iterable(name)
                      else list(name))
            if len(labels) != len(self.scores):
                raise ValueError(
                    f"name has {len(labels)} entries for {len(self.scores)} "
                    f"models: give one name per model."
                )
        _check_labels(labels, show_baseline and self.baseline is not None)
        metric_label = self._metric_label()
        horizontal = kind == "box" and (kwargs.get("orientation") == "horizontal"
                                        or kwargs.get("vert") is False)
        drawn = _drawn_on(self.ax_, kind, horizontal, metric_label, labels)
        series = {label: values for label, values in zip(labels, self.scores.values())}
        legend = {label: f"{label} (micro = {np.nanmean(v):.3f})"
                  if np.any(np.isfinite(v)) else label
                  for label, v in series.items()}
        baseline_drawn = self.baseline is not None and any(
            entry["label"] is None
            and np.array_equal(entry["n_pos"], self.n_pos)
            and np.array_equal(entry["baseline"], self.baseline, equal_nan=True)
            for entry in drawn)
        if show_baseline and self.baseline is not None and not baseline_drawn:
            series[_BASELINE_NAME] = self.baseline
            legend[_BASELINE_NAME] = (
                f"{_BASELINE_NAME} (micro = {np.nanmean(self.baseline):.3f})"
                if np.any(np.isfinite(self.baseline)) else _BASELINE_NAME)
        self.artists_ = {}
        self.boxes_ = None
        if kind == "box":
            data = [v[np.isfinite(v)] for v in series.values()]
            # after the boxes of earlier calls on these axes
            ticked = [entry["tick"] for entry in drawn if entry["tick"] is not None]
            start = max((position for position, _ in ticked), default=0)
            positions = list(kwargs.get("positions",
                                        np.arange(start + 1, start + len(data) + 1)))
            # the micro average: each box's mean, marked and under its name
            self.boxes_ = self.ax_.boxplot(
                data, **{"showmeans": True, "positions": positions, **kwargs})
            user_ticks = next((kwargs[key] for key in ("tick_labels", "labels")
                               if kwargs.get(key) is not None), None)
            if user_ticks is None:
                ticks = [f"{label}\nmicro = {np.mean(values):.3f}"
                         if values.size else label
                         for label, values in zip(series, data)]
            else:
                ticks = [str(tick) for tick in user_ticks]
            ticked.extend(zip(positions, ticks))
            if kwargs.get("manage_ticks", True):
                all_positions = [position for position, _ in ticked]
                all_ticks = [tick for _, tick in ticked]
                # side by side, more than three two-line labels overlap
                tilt = ({} if horizontal or len(all_ticks) <= 3 else
                        {"rotation": 30, "ha": "right", "rotation_mode": "anchor"})
                (self.ax_.set_yticks if horizontal else self.ax_.set_xticks)(
                    all_positions, all_ticks, **tilt)
            # the boxes; their medians (or means) with showbox=False
            shown = next((self.boxes_[key] for key in ("boxes", "medians", "means")
                          if self.boxes_.get(key)), [])
            self.artists_ = dict(zip(series, shown))
            (self.ax_.set_xlabel if horizontal else self.ax_.set_ylabel)(
                f"{metric_label} of each user")
        elif kind == "hist":
            options = _validate_style_kwargs(
                {"bins": np.linspace(0.0, 1.0, 21), "histtype": "step",
                 "linewidth": 1.5}, kwargs)
            for label, values in series.items():
                if label == _BASELINE_NAME:  # the user's label is a model's
                    style = {**options, "linestyle": "--", "color": "0.4",
                             "label": legend[label]}
                else:
                    style = {"label": legend[label], **options}
                _, _, patches = self.ax_.hist(values[np.isfinite(values)], **style)
                self.artists_[label] = patches
            self.ax_.set_xlabel(f"{metric_label} of a user")
            self.ax_.set_ylabel("number of users")
            self.ax_.legend()
        else:
            options = _validate_style_kwargs({"alpha": 0.7, "s": 16}, kwargs)
            baseline_options = {key: value for key, value in options.items()
                                if key not in ("edgecolor", "facecolor")}
            for label, values in series.items():
                if label == _BASELINE_NAME:  # gray dashes ('_' has no face)
                    style = {**baseline_options, "marker": "_", "color": "0.4",
                             "label": legend[label]}
                else:
                    style = {"label": legend[label], **options}
                self.artists_[label] = self.ax_.scatter(self.n_pos, values, **style)
            self.ax_.set_xlabel("number of relevant items of the user (n+)")
            self.ax_.set_ylabel(f"{metric_label} of the user")
            # above the axes of a figure made here: points fill the axes
            self.ax_.legend(**({} if ax is not None else {
                "loc": "lower center", "bbox_to_anchor": (0.5, 1.0),
                "ncols": min(2, len(series)), "frameon": False}))
        for i, (label, artists) in enumerate(self.artists_.items()):
            baseline = label == _BASELINE_NAME
            drawn.append({
                "kind": (kind, horizontal), "metric": metric_label,
                "label": None if baseline else label,
                "n_pos": self.n_pos if baseline else None,
                "baseline": self.baseline if baseline else None,
                "tick": ticked[len(ticked) - len(series) + i] if kind == "box"
                else None,
                "artists": list(artists) if kind == "hist" else [artists]})
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, groups=None, k=None, metric="papk",
                         ties="random", pos_label=None, zero_division="warn",
                         name=None, kind="box", show_baseline=True, ax=None,
                         **kwargs):
        """Plot the per-group metric of given scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary relevance labels: ``pos_label``, else the greater of two
            numbers, is relevant (labels that are not numbers need ``pos_label``).
        y_score : array-like of shape (n_samples,) or dict of str to array-like
            Scores of one model, or ``{name: scores}`` of several.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.
        k : int, default=None
            Number of items shown to each user; required except for
            ``metric="average_precision"`` (which ignores it).
        metric : {"papk", "precision_at_k", "partial_auc", \
"average_precision"}, default="papk"
            :func:`~skpapk.metrics.papk_score`,
            :func:`~skpapk.metrics.precision_at_k_score`,
            :func:`~skpapk.metrics.partial_auc_score` or
            :func:`~skpapk.metrics.mean_average_precision_score`, each with
            ``average=None``.
        ties : {"random", "half", "error"}, default="random"
            Passed to the metric (see :func:`~skpapk.metrics.papk_score`):
            ``"random"`` is the expectation over random tie-breaking, the
            metrics' default (average precision also takes ``"threshold"``,
            not ``"half"``).
        pos_label : int, float, bool or str, default=None
            The relevant label; needed when the labels are not numbers
            (e.g. ``"clicked"``/``"not_clicked"``).
        zero_division : "warn", 0.0, 1.0 or np.nan, default="warn"
            The value of a group where the metric is undefined (no relevant
            or, except for average precision, no irrelevant item), for the
            models and the baseline alike: ``"warn"`` leaves it out (NaN) with
            an ``UndefinedMetricWarning``, ``np.nan`` without one (see
            :func:`~skpapk.metrics.papk_score`). prec@k is always defined and
            ignores it.
        name : str, default=None
            Name of the model when ``y_score`` is one array (default
            ``"Ranker"``); must be ``None`` with a dict.
        kind : {"box", "hist", "scatter"}, default="box"
            See :meth:`plot`.
        show_baseline : bool, default=True
            See :meth:`plot`.
        ax : matplotlib Axes, default=None
            Axes to plot on; see :meth:`plot` for axes already drawn on.
        **kwargs : dict
            Passed to the matplotlib call.

        Returns
        -------
        display : GroupScoreDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_predictions")
        _check_kind(kind)
        k = _check_metric(metric, k)
        if isinstance(y_score, Mapping):
            if name is not None:
                raise ValueError(
                    "name must be None when y_score is a dict: its keys are the "
                    "model names."
                )
            if not y_score:
                raise ValueError("y_score is an empty dict: give at least one model.")
            scores = _by_label(y_score, "y_score")
        else:
            if not (name is None or isinstance(name, str)):
                raise TypeError(f"name must be a str (the model's name) or None, "
                                f"got {name!r}; pass a dict of scores to name "
                                f"several models.")
            scores = {"Ranker" if name is None else name: y_score}
        values, labels, n_pos, n_neg, baseline = _per_group_scores(
            y_true, scores, groups, k=k, metric=metric, ties=ties,
            pos_label=pos_label, zero_division=zero_division)
        display = cls(scores=values, n_pos=n_pos, n_neg=n_neg, groups=labels,
                      baseline=baseline, metric=metric, k=k)
        return display.plot(ax=ax, kind=kind, show_baseline=show_baseline, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, groups=None, k=None, metric="papk",
                       ties="random", pos_label=None, zero_division="warn",
                       name=None, kind="box", show_baseline=True, ax=None,
                       **kwargs):
        """Plot the per-group metric of one or several fitted models on ``X``.

        Parameters
        ----------
        estimator : estimator, list of estimators or dict of str to estimator
            Fitted ranker(s) (or classifiers, pipelines), ranked as the
            scorers of :mod:`skpapk.metrics` rank them, ``pos_label``
            first: by ``decision_function(X)`` (negated when it scores the
            other label), else the probability of ``pos_label`` from
            ``predict_proba(X)``, else ``predict(X)``.
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Rows to score.
        y : array-like of shape (n_samples,)
            Binary relevance labels.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group (with a
            ``MissingGroupsWarning`` when a model was fitted on several).
        k : int, default=None
            Number of items shown to each user; ``None`` takes the
            estimators' ``k`` attribute (a pipeline's last step's, a
            search's ``best_estimator_``'s; they must agree).
        metric : {"papk", "precision_at_k", "partial_auc", \
"average_precision"}, default="papk"
            See :meth:`from_predictions`.
        ties : {"random", "half", "error"}, default="random"
            Passed to the metric.
        pos_label : int, float, bool or str, default=None
            The relevant label, ranked first by the models. None: the one
            the skpapk rankers were fitted as relevant (their ``pos_label``),
            else the greater of two numbers; other labels (e.g.
            ``"clicked"``/``"not_clicked"``) need it.
        zero_division : "warn", 0.0, 1.0 or np.nan, default="warn"
            See :meth:`from_predictions`.
        name : str or list of str, default=None
            Model names; ``None``: the class names (the keys of a dict); of
            a pipeline or a search, the class of its last step or of its
            ``best_estimator_`` (``"LogisticRegression"``, not ``"Pipeline"``).
        kind : {"box", "hist", "scatter"}, default="box"
            See :meth:`plot`.
        show_baseline : bool, default=True
            See :meth:`plot`.
        ax : matplotlib Axes, default=None
            Axes to plot on; see :meth:`plot` for axes already drawn on.
        **kwargs : dict
            Passed to the matplotlib call.

        Returns
        -------
        display : GroupScoreDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        if isinstance(estimator, Mapping):
            if name is not None:
                raise ValueError(
                    "name must be None when estimator is a dict: its keys are "
                    "the model names."
                )
            named = _by_label(estimator, "estimator")
            names, estimators = list(named), list(named.values())
        else:
            if isinstance(estimator, Iterator):  # read once, then empty
                raise TypeError(
                    f"estimator must be a fitted model, a list or tuple of "
                    f"them or a dict {{name: model}}, not a "
                    f"{type(estimator).__name__}: pass list(...) of it.")
            estimators = (list(estimator) if isinstance(estimator, (list, tuple))
                          else [estimator])
            if name is None:
                names = _unique_names([_model_name(e) for e in estimators])
            else:
                names = ([name] if isinstance(name, str) or not np.iterable(name)
                         else list(name))
                _check_labels(names, False)  # str only: 1 is not "1"
        if not estimators:
            raise ValueError("estimator is empty: give at least one fitted model.")
        if len(names) != len(estimators):
            raise ValueError(
                f"name has {len(names)} entries for {len(estimators)} "
                f"estimators: give one name per estimator."
            )
        if len(set(names)) != len(names):
            raise ValueError(f"the model names must be distinct, got {names}.")
        if k is None and _METRICS.get(metric, (None, None, False))[2]:
            ks = {_attribute_of(e, "k") for e in estimators}
            if None in ks:
                raise ValueError(
                    "k is None and an estimator has no k attribute (nor has "
                    "its pipeline's last step or its search's best_estimator_): "
                    "pass k=..."
                )
            if len(ks) > 1:
                raise ValueError(
                    f"the estimators have different k ({sorted(ks)}): pass the "
                    f"k to compare them at, e.g. k={min(ks)}."
                )
            (k,) = ks
        if pos_label is None:  # the label the rankers were fitted as relevant
            relevant = {_relevant_label_of(e, y) for e in estimators} - {None}
            if len(relevant) > 1:
                raise ValueError(
                    f"the rankers were fitted with different relevant labels "
                    f"({sorted(map(repr, relevant))}): pass the relevant label "
                    f"of y as pos_label."
                )
            pos_label = relevant.pop() if relevant else None
        fitted = max((_attribute_of(e, "_n_fit_groups") or 1 for e in estimators),
                     default=1)
        if groups is None and fitted > 1:  # as the rankers' own score warns
            warnings.warn(
                f"{cls.__name__}.from_estimator got groups=None, so all the rows "
                f"are ONE group and each model has one value, but a model was "
                f"fitted on {fitted} groups: pass groups=... to plot each "
                f"group's (user's) value. If X holds a single group's rows, "
                f"pass groups=np.zeros(len(X)) to say so.",
                MissingGroupsWarning, stacklevel=_stacklevel())
        scores = {n: _response(e, X, pos_label) for n, e in zip(names, estimators)}
        return cls.from_predictions(
            y, scores, groups=groups, k=k, metric=metric, ties=ties,
            pos_label=pos_label, zero_division=zero_division, kind=kind,
            show_baseline=show_baseline, ax=ax, **kwargs)
