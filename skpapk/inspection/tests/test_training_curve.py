import numpy as np
import pytest
import sklearn
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import GreedyPApKRanker, PApKAvgRanker, PApKBoostRanker, SelectPApKRanker
from skpapk.datasets import make_papk_simulation
from skpapk.inspection import TrainingCurveDisplay
from skpapk.metrics import micro_papk_scorer

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


@pytest.fixture(scope="module")
def data():
    return make_papk_simulation(10, n_pos=(2, 6), n_neg=(10, 30), random_state=0)


def test_objective_curve_of_a_subgradient_ranker(data):
    X, y, g = data
    ranker = PApKAvgRanker(k=4, eta0=0.1, max_iter=25, tol=None).fit(X, y, groups=g)
    disp = TrainingCurveDisplay.from_estimator(ranker)
    assert_array_equal(disp.objective, ranker.objective_curve_)
    line = disp.lines_["objective"]
    assert_array_equal(line.get_ydata(), ranker.objective_curve_)
    assert_array_equal(line.get_xdata(), np.arange(25))
    assert getattr(ranker, "validation_scores_", None) is None
    assert set(disp.lines_) == {"objective"}
    assert disp.score_ax_ is None
    assert disp.ax_.get_title() == "PApKAvgRanker"
    assert disp.figure_ is disp.ax_.figure


def test_validation_scores_go_on_a_second_axis(data):
    # early stopping records validation_scores_; any such 1-d record is drawn
    X, y, g = data
    ranker = PApKAvgRanker(k=4, eta0=0.1, max_iter=10, tol=None).fit(X, y, groups=g)
    ranker.validation_scores_ = np.linspace(0.4, 0.7, 10)
    fig, ax = matplotlib.pyplot.subplots()
    disp = TrainingCurveDisplay.from_estimator(ranker, ax=ax, name="avg")
    assert disp.ax_ is ax
    assert disp.score_ax_ is not None and disp.score_ax_ is not ax
    assert_array_equal(disp.lines_["validation"].get_ydata(), ranker.validation_scores_)
    assert_array_equal(disp.lines_["validation"].get_xdata(), np.arange(1, 11))
    assert disp.lines_["validation"].axes is disp.score_ax_
    assert disp.lines_["objective"].axes is ax
    assert disp.score_ax_.get_ylabel() == "micro-pAp@4"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "objective", "validation micro-pAp@4"]
    assert ax.get_title() == "avg"


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_early_stopping_scores_of_a_real_fit(data):
    ranker = PApKAvgRanker(k=4, eta0=0.1, max_iter=40, tol=None)
    if "early_stopping" not in ranker.get_params():
        pytest.skip("this version of the rankers has no early stopping")
    X, y, g = data
    ranker.set_params(early_stopping=True, validation_fraction=0.3, random_state=0)
    ranker.fit(X, y, groups=g)
    disp = TrainingCurveDisplay.from_estimator(ranker)
    assert_array_equal(disp.validation_scores, ranker.validation_scores_)
    assert_array_equal(disp.objective, ranker.objective_curve_)
    line = disp.lines_["validation"]
    assert_array_equal(line.get_ydata(), ranker.validation_scores_)
    # validation_scores_[i] scores w_(i+1), the iterate after step i + 1
    n_val = ranker.validation_scores_.size
    assert_array_equal(line.get_xdata(), np.arange(1, n_val + 1))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("solver", ["subgradient", "lbfgs"])
def test_validation_scores_after_a_warm_start_follow_the_earlier_fits(data, solver):
    # the last fit's validation scores were drawn at epochs 1, 2, ..., under
    # the first fit's objective values
    from skpapk import PApKRanker

    X, y, g = data
    ranker = PApKRanker(k=4, solver=solver, eta0=0.1, max_iter=5, tol=None,
                        warm_start=True, early_stopping=True, random_state=0)
    ranker.fit(X, y, groups=g)
    first = ranker.objective_curve_.size
    ranker.fit(X, y, groups=g)
    disp = TrainingCurveDisplay.from_estimator(ranker)
    n_val = ranker.validation_scores_.size
    # validation score i scores the iterate after the last fit's step i + 1;
    # that fit's values start at its w_0, after the first fit's
    assert_array_equal(disp.lines_["validation"].get_xdata(),
                       first + np.arange(1, n_val + 1))
    assert disp.lines_["validation"].get_xdata()[-1] <= ranker.objective_curve_.size


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_train_scores_without_objective(data):
    X, y, g = data
    ranker = SelectPApKRanker(k=3, max_iter=3).fit(X, y, groups=g)
    disp = TrainingCurveDisplay.from_estimator(ranker)
    assert disp.objective is None
    assert_array_equal(disp.train_scores, ranker.train_scores_)
    assert set(disp.lines_) == {"train"}
    assert disp.score_ax_ is disp.ax_
    assert_array_equal(disp.lines_["train"].get_ydata(), ranker.train_scores_)


def test_errors(data):
    X, y, g = data
    with pytest.raises(NotFittedError):
        TrainingCurveDisplay.from_estimator(PApKAvgRanker())
    with pytest.raises(ValueError, match="records no training curve.*use a "
                                         "ranker trained by epochs"):
        TrainingCurveDisplay.from_estimator(LogisticRegression().fit(X, y))
    # the fix named for a pipeline, and for a ranker without early stopping
    pipe = make_pipeline(StandardScaler(), PApKAvgRanker(k=3, max_iter=3, tol=None))
    with pytest.raises(ValueError, match=r"pass its last step, pipe\[-1\]"):
        TrainingCurveDisplay.from_estimator(pipe.fit(X, y, papkavgranker__groups=g))
    TrainingCurveDisplay.from_estimator(pipe[-1])
    # a search over that pipeline: it said "use a ranker trained by epochs,
    # e.g. skpapk.PApKRanker", of a search that holds one
    search = GridSearchCV(pipe, {"papkavgranker__alpha": [1e-3]}, cv=GroupKFold(2),
                          scoring=micro_papk_scorer(3, zero_division=0.0))
    with sklearn.config_context(enable_metadata_routing=True):
        search.fit(X, y, groups=g)
    with pytest.raises(ValueError, match=r"pass search\.best_estimator_\[-1\]\.$"):
        TrainingCurveDisplay.from_estimator(search)
    lgb = pytest.importorskip("lightgbm")
    boosted = PApKBoostRanker(k=3, n_estimators=3).fit(X, y, groups=g)
    with pytest.raises(ValueError, match="fit it with early_stopping=True"):
        TrainingCurveDisplay.from_estimator(boosted)
    assert lgb
    # a ranker of skpapk without early_stopping is not told to set it
    greedy = GreedyPApKRanker(k=3, random_state=0).fit(X, y, groups=g)
    with pytest.raises(ValueError, match="use a ranker trained by epochs"):
        TrainingCurveDisplay.from_estimator(greedy)
    # a pipeline whose last step records nothing, and another library's
    # early stopping: no fix that would lead to a second error
    for model in (make_pipeline(StandardScaler(), LogisticRegression()),
                  HistGradientBoostingClassifier(early_stopping=True,
                                                 max_iter=3)):
        with pytest.raises(ValueError, match="use a ranker trained by epochs"):
            TrainingCurveDisplay.from_estimator(model.fit(X, y))
    with pytest.raises(ValueError, match="nothing to plot"):
        TrainingCurveDisplay().plot()
    with pytest.raises(ValueError, match="1-d"):
        TrainingCurveDisplay(objective=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="one entry per entry"):
        TrainingCurveDisplay(validation_scores=[0.5, 0.6], validation_epochs=[1])


def _legend(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


def test_two_rankers_on_one_axes_share_the_legend_and_the_title(data):
    # the second call's legend had only its own lines; its name replaced
    # the first's title; a second twin axes held its scores
    X, y, g = data
    avg = PApKAvgRanker(k=4, eta0=0.1, max_iter=10, tol=None).fit(X, y, groups=g)
    other = PApKAvgRanker(k=4, eta0=0.2, max_iter=10, tol=None).fit(X, y, groups=g)
    avg.validation_scores_ = np.linspace(0.4, 0.7, 10)
    other.validation_scores_ = np.linspace(0.3, 0.6, 10)
    fig, ax = matplotlib.pyplot.subplots()
    first = TrainingCurveDisplay.from_estimator(avg, ax=ax, name="eta 0.1")
    second = TrainingCurveDisplay.from_estimator(other, ax=ax, name="eta 0.2")
    assert ax.get_title() == "eta 0.1, eta 0.2"
    assert _legend(ax) == ["objective (eta 0.1)", "objective (eta 0.2)",
                           "validation micro-pAp@4 (eta 0.1)",
                           "validation micro-pAp@4 (eta 0.2)"]
    assert second.score_ax_ is first.score_ax_ and len(fig.axes) == 2
    colors = [line.get_color() for line in (*first.lines_.values(),
                                            *second.lines_.values())]
    assert len(set(colors)) == 4
    # a ranker without objective joins the shared right axis
    third = TrainingCurveDisplay(train_scores=[0.1, 0.2], name="sel", k=5).plot(
        ax=ax, label="mine")
    assert third.ax_ is ax and third.score_ax_ is first.score_ax_
    assert _legend(ax)[-1] == "mine" and ax.get_title() == "eta 0.1, eta 0.2, sel"
    assert first.score_ax_.get_ylabel() == "micro-pAp@4 / micro-pAp@5"


def test_a_ranker_without_scores_keeps_the_earlier_scores_in_the_legend():
    # the legend was rebuilt from this display's axes only: A's validation
    # curve (on the twin axes) disappeared from it
    fig, ax = matplotlib.pyplot.subplots()
    TrainingCurveDisplay(objective=[1, 0.5, 0.2], validation_scores=[0.2, 0.3],
                         name="A", k=3).plot(ax=ax)
    TrainingCurveDisplay(objective=[1, 0.6, 0.3], name="B", k=3).plot(ax=ax)
    assert _legend(ax) == ["objective (A)", "objective (B)",
                           "validation micro-pAp@3 (A)"]


def test_a_name_already_on_the_axes_gets_a_number(data):
    # two fits of one class, named after it by default: the legend and the
    # title tell them apart
    X, y, g = data
    fits = [PApKAvgRanker(k=4, eta0=eta0, max_iter=5, tol=None).fit(X, y, groups=g)
            for eta0 in (0.1, 0.2, 0.3)]
    fig, ax = matplotlib.pyplot.subplots()
    for ranker in fits:
        TrainingCurveDisplay.from_estimator(ranker, ax=ax)
    assert ax.get_title() == "PApKAvgRanker, PApKAvgRanker (2), PApKAvgRanker (3)"
    assert _legend(ax) == ["objective (PApKAvgRanker)", "objective (PApKAvgRanker (2))",
                           "objective (PApKAvgRanker (3))"]
    with pytest.raises(TypeError, match="ax must be matplotlib Axes"):
        TrainingCurveDisplay(objective=[1, 0.6]).plot(ax="foo")


def test_an_objective_after_scores_on_the_same_y_axis_raises():
    fig, ax = matplotlib.pyplot.subplots()
    TrainingCurveDisplay(train_scores=[0.1, 0.2], name="sel", k=3).plot(ax=ax)
    with pytest.raises(ValueError, match="ax already holds the micro-pAp@k "
                                         "curves of a ranker without an "
                                         "objective"):
        TrainingCurveDisplay(objective=[2.0, 1.0], name="avg").plot(ax=ax)
    ax.cla()  # nothing left on it: a fresh start
    disp = TrainingCurveDisplay(objective=[2.0, 1.0], name="avg").plot(ax=ax)
    assert _legend(ax) == ["objective"] and ax.get_title() == "avg"
    assert disp.lines_["objective"].get_color() == "C0"
