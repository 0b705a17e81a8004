"""Style keywords of every Display's ``plot``: the user's win, aliases work.

``plot(color=...)`` of TrainingCurveDisplay raised (``color`` given twice),
and so did ``c=``, ``ls=``, ``lw=`` wherever a Display sets a default style.
The Displays now merge the keywords as scikit-learn's own do
(``sklearn.utils._plotting._validate_style_kwargs``).
"""

import numpy as np
import pytest

from skpapk.inspection import (
    GroupScoreDisplay,
    SurrogateDisplay,
    TrainingCurveDisplay,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")
same_color = pytest.importorskip("matplotlib.colors").same_color

COLOR = [{"color": "red"}, {"c": "red"}]
LINE = [{"linestyle": ":"}, {"ls": ":"}]
WIDTH = [{"linewidth": 3.0}, {"lw": 3.0}]


def training_display():
    return TrainingCurveDisplay(objective=np.linspace(2.0, 1.0, 6),
                                train_scores=np.linspace(0.3, 0.6, 6),
                                validation_scores=np.linspace(0.3, 0.5, 5),
                                name="ranker", k=3)


def surrogate_display():
    values = np.column_stack([np.linspace(2.0, 1.0, 5), np.linspace(1.5, 0.5, 5),
                              np.linspace(0.9, 0.4, 5)])
    return SurrogateDisplay(values=values, columns=("avg", "max", "papk_risk"))


def group_display():
    return GroupScoreDisplay(scores={"A": [0.2, 0.5, 0.9, 1.0],
                                     "B": [0.1, 0.4, 0.6, 0.8]},
                             n_pos=[1, 2, 3, 4], baseline=[0.3, 0.3, 0.4, 0.5],
                             k=2)


@pytest.mark.parametrize("color", COLOR)
@pytest.mark.parametrize("line", LINE)
@pytest.mark.parametrize("width", WIDTH)
def test_training_curve_style_keywords_apply_to_every_curve(color, line, width):
    disp = training_display().plot(**color, **line, **width)
    assert set(disp.lines_) == {"objective", "train", "validation"}
    for curve in disp.lines_.values():
        assert same_color(curve.get_color(), "red")
        assert curve.get_linestyle() == ":"
        assert curve.get_linewidth() == 3.0


def test_training_curve_default_style_and_labels():
    disp = training_display().plot()
    lines = disp.lines_
    assert same_color(lines["objective"].get_color(), "C0")
    assert same_color(lines["train"].get_color(), "C1")
    assert lines["validation"].get_linestyle() == "--"
    assert lines["train"].get_label() == "train micro-pAp@3"
    disp = training_display().plot(label="mine")
    assert all(v.get_label() == "mine" for v in disp.lines_.values())


@pytest.mark.parametrize("color", COLOR)
@pytest.mark.parametrize("line", LINE)
def test_surrogate_style_keywords_apply_to_every_curve(color, line):
    disp = surrogate_display().plot(**color, **line)
    for curve in disp.lines_.values():
        assert same_color(curve.get_color(), "red")
        assert curve.get_linestyle() == ":"
    default = surrogate_display().plot()
    assert default.lines_["papk_risk"].get_linestyle() == "--"
    assert same_color(default.lines_["papk_risk"].get_color(), "k")
    assert default.lines_["max"].get_label() == "max"


@pytest.mark.parametrize("color", COLOR)
@pytest.mark.parametrize("line", LINE)
@pytest.mark.parametrize("width", WIDTH)
def test_group_score_hist_style_keywords(color, line, width):
    disp = group_display().plot(kind="hist", **color, **line, **width)
    # a step histogram reports its dash pattern: compare with one drawn directly
    _, ax = plt.subplots()
    dotted, dashed = (ax.hist([0.5], histtype="step", linestyle=style,
                              linewidth=3.0)[2][0].get_linestyle()
                      for style in (":", "--"))
    for name in ("A", "B"):
        (patch,) = disp.artists_[name]
        assert same_color(patch.get_edgecolor(), "red")
        assert patch.get_linestyle() == dotted
        assert patch.get_linewidth() == 3.0
    (baseline,) = disp.artists_["random ranking"]  # keeps its own look
    assert same_color(baseline.get_edgecolor(), "0.4")
    assert baseline.get_linestyle() == dashed
    assert baseline.get_linewidth() == 3.0


@pytest.mark.parametrize("color", COLOR)
@pytest.mark.parametrize("edge", [{"edgecolor": "blue"}, {"ec": "blue"}])
def test_group_score_scatter_style_keywords(color, edge):
    disp = group_display().plot(kind="scatter", marker="s", **color, **edge)
    for name in ("A", "B"):  # (colours with the default alpha=0.7)
        points = disp.artists_[name]
        assert same_color(points.get_facecolor()[0][:3], "red")
        assert same_color(points.get_edgecolor()[0][:3], "blue")
        assert points.get_facecolor()[0][3] == 0.7
    baseline = disp.artists_["random ranking"]
    assert same_color(baseline.get_facecolor()[0][:3], "0.4")


@pytest.mark.parametrize("make, kind", [(training_display, None),
                                        (surrogate_display, None),
                                        (group_display, "hist"),
                                        (group_display, "scatter")])
@pytest.mark.parametrize("both", [{"c": "red", "color": "blue"},
                                  {"ls": ":", "linestyle": "-"},
                                  {"lw": 1.0, "linewidth": 2.0}])
def test_a_keyword_and_its_alias_together_raise(make, kind, both):
    options = {} if kind is None else {"kind": kind}
    with pytest.raises(TypeError, match="aliases of one another"):
        make().plot(**options, **both)


@pytest.mark.parametrize("kind", ["hist", "scatter"])
def test_group_score_label_names_the_models_not_the_baseline(kind):
    disp = group_display().plot(kind=kind, label="mine")
    assert disp.ax_.get_legend_handles_labels()[1] == [
        "mine", "mine", "random ranking (micro = 0.375)"]


@pytest.mark.parametrize("make", [training_display, surrogate_display, group_display])
@pytest.mark.parametrize("bad", [{"colour": "r"}, {"name": 5}])
def test_a_plot_that_fails_closes_the_figure_it_made(make, bad):
    # the new figure was left open and empty in pyplot
    plt.close("all")
    if make is group_display and "name" in bad:
        bad = {"name": ["one"]}  # a name per model: a list of one for two
    with pytest.raises((TypeError, ValueError, AttributeError)):
        make().plot(**bad)
    assert plt.get_fignums() == []
    _, ax = plt.subplots()
    with pytest.raises((TypeError, ValueError, AttributeError)):
        make().plot(ax=ax, **bad)
    assert plt.get_fignums() == [ax.figure.number]  # the user's stays open
    plt.close("all")


@pytest.mark.parametrize("make", [training_display, surrogate_display])
def test_a_title_that_is_not_text_is_named(make):
    # TrainingCurveDisplay: "sequence item 0: expected str instance, int
    # found"; SurrogateDisplay took 123 as its title
    with pytest.raises(TypeError, match="name must be a string"):
        make().plot(name=123)


@pytest.mark.parametrize("objective", [["a"], ["1.5", "2"], [[1, 2], [3]]])
def test_a_curve_of_text_is_named(objective):
    # "could not convert string to float: 'a'"; "1.5" was read as 1.5
    with pytest.raises(TypeError, match="objective must hold numbers"):
        TrainingCurveDisplay(objective=objective)
