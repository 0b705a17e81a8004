"""Objective and pAp@k per epoch of a fitted ranker: TrainingCurveDisplay."""

import itertools

import numpy as np
from sklearn.utils._plotting import _validate_style_kwargs
from sklearn.utils.validation import check_is_fitted

from ..utils._arrays import _holds_text
from ._base import (
    _get_ax,
    check_matplotlib_support,
    check_title,
    closes_new_figure_on_error,
)


def _curve(values, name):
    if values is None:
        return None
    try:
        raw = np.asarray(values)
        if _holds_text(raw):  # NumPy would parse "1.5" as 1.5
            raise TypeError(f"dtype {raw.dtype}")
        values = raw.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must hold numbers, one per epoch, got "
                        f"{type(values).__name__} ({exc}).") from None
    if values.ndim != 1:
        raise ValueError(
            f"{name} must be one value per epoch (1-d), got shape {values.shape}."
        )
    return values


#: what the TrainingCurveDisplays drew on an Axes, kept on the Axes
_DRAWN = "_skpapk_training_curve_drawn"


def _drawn_on(ax, has_objective):
    """What earlier TrainingCurveDisplays drew on ``ax`` and still show: their
    names, ``(line, default label, name)`` of their curves, whether ``ax``
    holds an objective, the axes of their micro-pAp@k curves; refuses an
    objective on axes whose own y axis holds micro-pAp@k curves."""
    drawn = getattr(ax, _DRAWN, None)
    if drawn is not None and not any(line.axes is not None and line in
                                     line.axes.get_children()
                                     for line, _, _ in drawn["lines"]):
        drawn = None  # cleared (or every curve removed): start afresh
    if drawn is None:
        drawn = {"names": [], "lines": [], "objective": False, "score_ax": None}
        setattr(ax, _DRAWN, drawn)
    elif has_objective and drawn["score_ax"] is ax:
        raise ValueError(
            "ax already holds the micro-pAp@k curves of a ranker without an "
            "objective on its y axis: plot a ranker with an objective "
            "(objective_curve_) first, then the others on the same ax, or "
            "use other axes.")
    return drawn


def _curve_holder(estimator, attrs):
    """How to reach the model inside ``estimator`` (through pipelines' last
    steps and searches' ``best_estimator_``, nested) that has one of
    ``attrs``: ``"its last step, pipe[-1]"``, ``"search.best_estimator_[-1]"``,
    ...; None when no model inside has one."""
    inner, expr = estimator, "pipe" if getattr(estimator, "steps", None) else "search"
    while True:
        if getattr(inner, "steps", None):
            inner, expr = inner.steps[-1][1], f"{expr}[-1]"
        elif getattr(inner, "best_estimator_", None) is not None:
            inner, expr = inner.best_estimator_, f"{expr}.best_estimator_"
        else:
            return None
        if any(getattr(inner, attr, None) is not None for attr in attrs):
            return "its last step, pipe[-1]" if expr == "pipe[-1]" else expr


class TrainingCurveDisplay:
    """Training objective and train / validation micro-pAp@k per epoch.

    Did training converge? The objective (mean surrogate over groups plus
    ``alpha * ||w||^2``, the quantity Algorithm 1 of the paper descends) at
    every iterate, and, when the ranker records them, the training and
    validation micro-pAp@k (eq. 17) per epoch, on a second y axis.

    Build it with :meth:`from_estimator` from a fitted ranker; the
    constructor only stores the numbers. The objective and the training
    scores are plotted from epoch 0 (``objective[t]`` is the objective of
    the iterate ``w_t``, ``w_0 = 0`` for the subgradient rankers); the
    validation scores from epoch 1: early stopping scores each new iterate
    ``w_1, w_2, ...`` after its step, so ``validation_scores[i]`` belongs to
    ``w_(i+1)``.

    Several rankers can share one Axes: a later call with the same ``ax``
    adds its curves, in colours of its own, and the legend lists every
    ranker's curves (those with the default labels then end with the
    ranker's name, e.g. ``"objective (PApKAvgRanker)"``, and a name already
    shown gets a number, ``"PApKAvgRanker (2)"``); the title lists the
    names, and the micro-pAp@k curves of every ranker share one right y
    axis. Draw the rankers with an objective first: an objective cannot
    join axes whose own y axis holds micro-pAp@k curves (``ValueError``).

    Parameters
    ----------
    objective : ndarray of shape (n_epochs,), default=None
        Objective per epoch (``objective_curve_``).
    train_scores : ndarray of shape (n_epochs_train,), default=None
        Training micro-pAp@k per epoch (``train_scores_``).
    validation_scores : ndarray of shape (n_epochs_val,), default=None
        Validation micro-pAp@k per epoch (``validation_scores_``, recorded by
        early stopping).
    validation_epochs : ndarray of shape (n_epochs_val,), default=None
        Epoch of each validation score; ``None``: ``1, 2, ...``.
    name : str, default=None
        Name of the ranker, for the title.
    k : int, default=None
        The ``k`` of pAp@k, for the labels.

    Attributes
    ----------
    ax_ : matplotlib Axes
        Axes of the objective (left y axis); when there is no objective
        (on axes that hold no earlier ranker's objective), the axes of the
        scores.
    score_ax_ : matplotlib Axes or None
        Axes of the micro-pAp@k curves: the right y axis (a twin of
        ``ax_``, shared with the rankers drawn earlier on ``ax_``) when
        ``ax_`` holds an objective; ``None`` without scores.
    figure_ : matplotlib Figure
        Figure containing the plot.
    lines_ : dict of str to matplotlib Line2D
        ``"objective"``, ``"train"``, ``"validation"``: the curves drawn.

    See Also
    --------
    sklearn.metrics.RocCurveDisplay : The Display API this follows.
    sklearn.model_selection.LearningCurveDisplay : Scores against the
        training size.
    GroupScoreDisplay : Per-user scores of fitted models.
    SurrogateDisplay : Every surrogate and the pAp@k risk along a fit.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skpapk import PApKMaxRanker
    >>> from skpapk.datasets import make_papk_simulation
    >>> from skpapk.inspection import TrainingCurveDisplay
    >>> X, y, groups = make_papk_simulation(10, n_pos=5, n_neg=30,
    ...                                     random_state=0)
    >>> ranker = PApKMaxRanker(k=5, eta0=0.1, max_iter=30, tol=None)
    >>> ranker = ranker.fit(X, y, groups=groups)
    >>> disp = TrainingCurveDisplay.from_estimator(ranker)
    >>> disp.objective.shape
    (30,)
    >>> bool((disp.objective == ranker.objective_curve_).all())
    True
    >>> sorted(disp.lines_)
    ['objective']
    """

    def __init__(self, *, objective=None, train_scores=None,
                 validation_scores=None, validation_epochs=None, name=None,
                 k=None):
        self.objective = _curve(objective, "objective")
        self.train_scores = _curve(train_scores, "train_scores")
        self.validation_scores = _curve(validation_scores, "validation_scores")
        if validation_epochs is None and self.validation_scores is not None:
            validation_epochs = np.arange(1, self.validation_scores.shape[0] + 1)
        self.validation_epochs = _curve(validation_epochs, "validation_epochs")
        if (self.validation_epochs is not None and (
                self.validation_scores is None
                or self.validation_epochs.shape != self.validation_scores.shape)):
            raise ValueError(
                "validation_epochs must give the epoch of each validation "
                "score: one entry per entry of validation_scores."
            )
        self.name = name
        self.k = k

    @closes_new_figure_on_error
    def plot(self, ax=None, *, name=None, **kwargs):
        """Plot the curves.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; ``None`` creates a figure and axes. Axes where
            a TrainingCurveDisplay has drawn keep its curves: this call adds
            its own (see the class docstring).
        name : str, default=None
            Title; ``None`` uses the ``name`` given to the constructor. On
            axes where other rankers were drawn, the title lists every name.
        **kwargs : dict
            Passed to every ``Axes.plot`` call; they override the default
            style of each curve (``color``, ``linestyle``, ``label``...), their
            matplotlib aliases (``c``, ``ls``, ``lw``...) included.

        Returns
        -------
        display : TrainingCurveDisplay
            Object that stores the computed values.
        """
        curves = {"objective": self.objective, "train": self.train_scores,
                  "validation": self.validation_scores}
        if all(v is None for v in curves.values()):
            raise ValueError(
                "TrainingCurveDisplay has nothing to plot: objective, "
                "train_scores and validation_scores are all None."
            )
        name = check_title(self.name if name is None else name)
        self.ax_, self.figure_ = _get_ax(ax, f"{type(self).__name__}.plot")
        papk = f"micro-pAp@{self.k if self.k is not None else 'k'}"
        has_scores = self.train_scores is not None or self.validation_scores is not None
        drawn = _drawn_on(self.ax_, self.objective is not None)
        if name is not None and name in drawn["names"]:  # e.g. two fits of
            base = name  # one class: the legend tells them apart
            name = next(f"{base} ({i})" for i in itertools.count(2)
                        if f"{base} ({i})" not in drawn["names"])
        # the curves of the n-th display on these axes: their own colours
        colors = [f"C{3 * len(drawn['names']) + i}" for i in range(3)]
        self.lines_ = {}
        if self.objective is not None:
            style = _validate_style_kwargs({"color": colors[0],
                                            "label": "objective"}, kwargs)
            (line,) = self.ax_.plot(np.arange(self.objective.shape[0]),
                                    self.objective, **style)
            self.lines_["objective"] = line
            self.ax_.set_ylabel("objective (surrogate + alpha ||w||^2)")
            drawn["objective"] = True
        if not has_scores:
            self.score_ax_ = None
        elif drawn["score_ax"] is not None:
            self.score_ax_ = drawn["score_ax"]
        elif drawn["objective"]:
            self.score_ax_ = self.ax_.twinx()
        else:
            self.score_ax_ = self.ax_
        if self.score_ax_ is not None:
            drawn["score_ax"] = self.score_ax_
        for key, color, style in (("train", colors[1], "-"),
                                  ("validation", colors[2], "--")):
            values = curves[key]
            if values is None:
                continue
            epochs = (self.validation_epochs if key == "validation"
                      else np.arange(values.shape[0]))
            defaults = {"color": color, "linestyle": style, "label": f"{key} {papk}"}
            (line,) = self.score_ax_.plot(
                epochs, values, **_validate_style_kwargs(defaults, kwargs))
            self.lines_[key] = line
        if self.score_ax_ is not None:
            labels = [] if drawn["score_ax"] is None else [
                label for label in self.score_ax_.get_ylabel().split(" / ")
                if label]
            self.score_ax_.set_ylabel(" / ".join(dict.fromkeys([*labels, papk])))
        self.ax_.set_xlabel("epoch t (iterate w_t)")
        default_labels = {"objective": "objective", "train": f"train {papk}",
                          "validation": f"validation {papk}"}
        drawn["lines"].extend((line, default_labels[key], name)
                              for key, line in self.lines_.items())
        drawn["names"].append(name)
        names = [n for n in dict.fromkeys(drawn["names"]) if n is not None]
        if len(drawn["names"]) > 1:
            # several rankers: each curve with the default label names its own
            for line, default, owner in drawn["lines"]:
                if owner is not None and line.get_label() == default:
                    line.set_label(f"{default} ({owner})")
        if names:
            self.ax_.set_title(", ".join(names))
        # the score axes of earlier rankers too, when this one has no scores
        handles = [line for axes in dict.fromkeys([self.ax_, drawn["score_ax"]])
                   if axes is not None
                   for line in axes.get_legend_handles_labels()[0]]
        self.ax_.legend(handles=handles, loc="best")
        return self

    @classmethod
    def from_estimator(cls, estimator, *, name=None, ax=None, **kwargs):
        """Plot the curves recorded by a fitted ranker.

        Reads ``objective_curve_`` (the subgradient rankers),
        ``train_scores_`` (e.g. :class:`~skpapk.SelectPApKRanker`) and
        ``validation_scores_`` (early stopping), each when present. After a
        warm start the objective holds the values of every fit and the
        validation scores are the last fit's: they are drawn at that
        fit's epochs, after the earlier fits' values.

        Parameters
        ----------
        estimator : fitted ranker
            A fitted skpapk ranker (or any fitted estimator with one of the
            attributes above).
        name : str, default=None
            Title; ``None``: the class name.
        ax : matplotlib Axes, default=None
            Axes to plot on; see :meth:`plot` for axes already drawn on.
        **kwargs : dict
            Passed to every ``Axes.plot`` call.

        Returns
        -------
        display : TrainingCurveDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        check_is_fitted(estimator)
        curves = {attr: getattr(estimator, attr, None)
                  for attr in ("objective_curve_", "train_scores_",
                               "validation_scores_")}
        if all(v is None for v in curves.values()):
            where = _curve_holder(estimator, curves)
            ours = type(estimator).__module__.partition(".")[0] == "skpapk"
            if where is not None:
                fix = f"pass {where}"
            elif ours and "early_stopping" in estimator.get_params() and (
                    estimator.get_params()["early_stopping"] is not True):
                fix = ("fit it with early_stopping=True, which records "
                       "validation_scores_")
            else:
                fix = ("use a ranker trained by epochs, e.g. skpapk.PApKRanker "
                       "or skpapk.SelectPApKRanker")
            raise ValueError(
                f"{type(estimator).__name__} records no training curve (none of "
                f"objective_curve_, train_scores_, validation_scores_): {fix}."
            )
        validation, epochs = curves["validation_scores_"], None
        if validation is not None and curves["objective_curve_"] is not None:
            # the last fit's iterates, after the curve of earlier warm starts
            epochs = getattr(estimator, "_curve_start", 0) + np.arange(
                1, len(validation) + 1)
        display = cls(objective=curves["objective_curve_"],
                      train_scores=curves["train_scores_"],
                      validation_scores=validation, validation_epochs=epochs,
                      name=type(estimator).__name__ if name is None else name,
                      k=getattr(estimator, "k", None))
        return display.plot(ax=ax, **kwargs)
