"""Helpers shared by the Displays: the optional matplotlib import, axes, names."""

import functools
import sys

import numpy as np

from ..metrics._scorer import ranking_scores

_PLOT_EXTRA = "pip install 'skpapk[plot]'"


def check_matplotlib_support(caller_name):
    """Raise a clear ``ImportError`` when matplotlib is not installed.

    As ``sklearn.utils.check_matplotlib_support``, with the message
    naming skpapk's optional ``plot`` extra.

    Parameters
    ----------
    caller_name : str
        The function or method that needs matplotlib (shown in the message).

    Raises
    ------
    ImportError
        When ``import matplotlib`` fails.

    See Also
    --------
    GroupScoreDisplay : A display that draws with matplotlib.

    Examples
    --------
    >>> from skpapk.inspection import check_matplotlib_support
    >>> check_matplotlib_support("GroupScoreDisplay.plot")  # None: installed
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            f"{caller_name} requires matplotlib; install it with "
            f"{_PLOT_EXTRA} (the optional 'plot' extra) or pip install "
            f"matplotlib."
        ) from exc


def closes_new_figure_on_error(plot):
    """Decorate a display's ``plot(self, ax=None, ...)``: when it fails on
    a figure it created (``ax=None``), the figure is closed, not left open
    and empty in pyplot."""

    @functools.wraps(plot)
    def wrapper(self, ax=None, *args, **kwargs):
        pyplot = sys.modules.get("matplotlib.pyplot")  # None: no figure yet
        before = (None if ax is not None
                  else set() if pyplot is None else set(pyplot.get_fignums()))
        try:
            return plot(self, ax, *args, **kwargs)
        except BaseException:
            plt = sys.modules.get("matplotlib.pyplot")
            if before is not None and plt is not None:
                for number in set(plt.get_fignums()) - before:
                    plt.close(number)
            raise

    return wrapper


def check_title(name, argument="name"):
    """``name`` as a title: a string or None, else a ``TypeError``."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{argument} must be a string (the title) or None, got "
                        f"{type(name).__name__} {name!r}; pass e.g. "
                        f"{argument}=str(...).")
    return name


def _get_ax(ax, caller_name):
    """``(ax, figure)``: the given axes, or new ones on a new figure (laid
    out by matplotlib's constrained layout, so that long tick labels and a
    legend beside the axes fit in it)."""
    check_matplotlib_support(caller_name)
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(layout="constrained")
    elif not isinstance(ax, plt.Axes):
        raise TypeError(f"ax must be matplotlib Axes (e.g. from "
                        f"plt.subplots()) or None, got {type(ax).__name__}.")
    return ax, ax.figure


def _response(estimator, X, pos_label=None):
    """Scores of ``estimator`` on ``X``: higher means ``pos_label`` first.

    As the scorers of :mod:`skpapk.metrics` rank:
    ``decision_function`` when the estimator has one, else the probability
    of the relevant class from ``predict_proba``, else ``predict`` (e.g.
    ``lightgbm.LGBMRanker``).
    """
    if not any(hasattr(estimator, name) for name in
               ("decision_function", "predict_proba", "predict")):
        raise TypeError(
            f"{type(estimator).__name__} has neither decision_function nor "
            f"predict_proba nor predict: pass a fitted ranker (e.g. "
            f"skpapk.PApKRanker) or a fitted classifier, or use "
            f"from_predictions with your own scores."
        )
    scores = np.asarray(ranking_scores(estimator, X, pos_label))
    if scores.ndim != 1:
        raise ValueError(
            f"{type(estimator).__name__} gave scores of shape {scores.shape}; "
            f"a ranker must give one score per row (a binary problem)."
        )
    return scores


def _unique_names(names):
    """The names, with `` (2)``, `` (3)`` ... added to repeated ones."""
    seen = {}
    out = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        out.append(name if count == 1 else f"{name} ({count})")
    return out


def _inner_estimator(estimator):
    """``(inner, where)``: a pipeline's last step or a search's
    ``best_estimator_``, and how to name it in a message; ``(None, None)``
    for any other estimator."""
    steps = getattr(estimator, "steps", None)
    if steps:
        return steps[-1][1], "its last step, pipe[-1]"
    inner = getattr(estimator, "best_estimator_", None)
    return (inner, "its best_estimator_") if inner is not None else (None, None)
