import inspect
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression

from skpapk import PApKAvgRanker, PApKMaxRanker, PApKRanker
from skpapk.datasets import make_papk_simulation
from skpapk.inspection import GroupScoreDisplay
from skpapk.metrics import (
    expected_average_precision,
    expected_papk,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    mean_average_precision_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

METRICS = {
    "papk": papk_score,
    "precision_at_k": precision_at_k_score,
    "partial_auc": partial_auc_score,
    "average_precision": mean_average_precision_score,
}


def _metric(metric, y, s, g, k):
    func = METRICS[metric]
    if metric == "average_precision":
        return func(y, s, groups=g, average=None)
    return func(y, s, k=k, groups=g, average=None)


def _data(seed=0):
    rng = np.random.default_rng(seed)
    g = rng.choice(["ann", "bob", "cy", "dee", "eve", "fay"], size=120)
    y = (rng.random(120) < 0.3).astype(int)
    y[g == "fay"] = 0  # one user with no relevant item: undefined pAp@k
    s1 = rng.normal(size=120) + y
    s2 = np.round(rng.normal(size=120), 1)  # ties
    return y, {"model a": s1, "model b": s2}, g


def _papk_oracle(y, s, k):
    """pAp@k of one group from the definition: top-beta pos x top-k' neg pairs."""
    pos = np.sort(s[y == 1])[::-1][:k]
    neg = np.sort(s[y == 0])[::-1][:k]
    if pos.size == 0 or neg.size == 0:
        return np.nan
    gain = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return gain / (pos.size * neg.size)


def _random_papk_oracle(n_pos, n_neg, k):
    """Mean pAp@k over every ordering of the group's items (a random ranking)."""
    y = np.array([1] * n_pos + [0] * n_neg)
    values = [_papk_oracle(y, np.array(perm, dtype=float), k)
              for perm in itertools.permutations(range(y.size))]
    return np.mean(values)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("kind", ["box", "hist", "scatter"])
@pytest.mark.parametrize("metric", list(METRICS))
def test_from_predictions_holds_the_metric_per_group(metric, kind):
    y, scores, g = _data()
    k = 3
    disp = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=k,
                                              metric=metric, kind=kind)
    assert list(disp.scores) == ["model a", "model b"]
    for name, s in scores.items():
        assert_allclose(disp.scores[name], _metric(metric, y, s, g, k), equal_nan=True)
    labels = np.unique(g)
    assert_array_equal(disp.groups, labels)
    assert_array_equal(disp.n_pos, [y[g == u].sum() for u in labels])
    assert_array_equal(disp.n_neg, [(y[g == u] == 0).sum() for u in labels])
    if metric == "papk":
        assert_allclose(disp.baseline, expected_papk(disp.n_pos, disp.n_neg, k),
                        equal_nan=True)
    elif metric == "average_precision":
        assert_allclose(disp.baseline,
                        expected_average_precision(disp.n_pos + disp.n_neg,
                                                   disp.n_pos), equal_nan=True)
    else:
        expected_func = {"precision_at_k": expected_precision_at_k_score,
                         "partial_auc": expected_partial_auc_score}[metric]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            expected = expected_func(y, k=k, groups=g, average=None)
        assert_allclose(disp.baseline, expected, equal_nan=True)
    has_baseline = disp.baseline is not None
    expected = ["model a", "model b"] + (["random ranking"] if has_baseline else [])
    assert list(disp.artists_) == expected
    assert isinstance(disp.ax_, matplotlib.axes.Axes)
    assert disp.figure_ is disp.ax_.figure
    assert (disp.boxes_ is not None) == (kind == "box")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_box_medians_and_legend_are_the_metric_values():
    y, scores, g = _data(1)
    disp = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=4, kind="box")
    series = [*disp.scores.values(), disp.baseline]
    for median, values in zip(disp.boxes_["medians"], series):
        finite = values[np.isfinite(values)]
        assert median.get_ydata()[0] == pytest.approx(np.median(finite))
    # the micro averages: each box's mean marker and its label
    micro = [np.nanmean(values) for values in series]
    for mean, value in zip(disp.boxes_["means"], micro):
        assert mean.get_ydata()[0] == pytest.approx(value)
    assert [t.get_text() for t in disp.ax_.get_xticklabels()] == [
        f"{name}\nmicro = {value:.3f}"
        for name, value in zip(["model a", "model b", "random ranking"], micro)]
    # boxes placed or laid out otherwise: the labels follow them
    horizontal = ({"orientation": "horizontal"} if "orientation" in
                  inspect.signature(matplotlib.axes.Axes.boxplot).parameters
                  else {"vert": False})  # matplotlib < 3.10
    disp.plot(positions=[2, 4, 6], **horizontal)
    assert list(disp.ax_.get_yticks()) == [2, 4, 6]
    assert disp.ax_.get_yticklabels()[0].get_text().startswith("model a\n")
    assert disp.ax_.get_xlabel() == "pAp@4 of each user"
    # a name ending in ")" and a model without a defined value keep their name
    odd = GroupScoreDisplay(scores={"B (k=10)": np.full(6, np.nan)},
                            n_pos=np.ones(6), n_neg=np.ones(6), metric="papk",
                            k=4).plot(show_baseline=False)
    assert [t.get_text() for t in odd.ax_.get_xticklabels()] == ["B (k=10)"]
    disp.plot(kind="hist")
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    micro = papk_score(y, scores["model a"], k=4, groups=g)
    assert legend[0] == f"model a (micro = {micro:.3f})"


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_scatter_puts_each_user_at_its_number_of_positives():
    y, scores, g = _data(2)
    disp = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=2,
                                              kind="scatter")
    offsets = np.asarray(disp.artists_["model b"].get_offsets())
    assert_array_equal(offsets[:, 0], disp.n_pos)
    assert_allclose(offsets[:, 1], disp.scores["model b"], equal_nan=True)
    assert "n+" in disp.ax_.get_xlabel()


def test_undefined_groups_are_warned_about_not_dropped_silently():
    y, scores, g = _data()
    with pytest.warns(UndefinedMetricWarning, match="1 of 6 groups"):
        disp = GroupScoreDisplay.from_predictions(y, scores["model a"], groups=g,
                                                  k=3, name="m")
    assert np.isnan(disp.scores["m"][-1])  # "fay", no relevant item
    assert np.isnan(disp.baseline[-1])


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
@pytest.mark.parametrize("metric", list(METRICS))
def test_zero_division_sets_undefined_groups_for_models_and_baseline(
        metric, zero_division):
    # the metrics' warning names zero_division: the display takes it too
    y, scores, g = _data()
    model = LogisticRegression().fit(np.c_[scores["model a"]], y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        disp = GroupScoreDisplay.from_predictions(
            y, scores, groups=g, k=3, metric=metric, zero_division=zero_division)
        from_estimator = GroupScoreDisplay.from_estimator(
            model, np.c_[scores["model a"]], y, groups=g, k=3, metric=metric,
            zero_division=zero_division)
    with warnings.catch_warnings():  # the oracle's own warning
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        oracle = _metric(metric, y, scores["model a"], g, 3)
    expected = zero_division if metric != "precision_at_k" else oracle[-1]
    for values in (*disp.scores.values(), *from_estimator.scores.values()):
        assert_array_equal(values[-1], expected)  # "fay", no relevant item
    baseline = (zero_division if metric != "precision_at_k" else 0.0)
    assert_array_equal(disp.baseline[-1], baseline)
    assert np.isfinite(disp.baseline[:-1]).all()
    assert_array_equal(disp.scores["model a"][:-1], oracle[:-1])


@pytest.mark.parametrize("metric", list(METRICS))
def test_zero_division_is_checked_for_every_metric(metric):
    y, scores, g = _data()
    with pytest.raises(ValueError, match="zero_division must be 'warn'"):
        GroupScoreDisplay.from_predictions(y, scores, groups=g, k=3,
                                           metric=metric, zero_division=7)


def test_from_estimator_several_rankers_and_axes_reuse():
    X, y, g = make_papk_simulation(12, n_pos=(2, 8), n_neg=(10, 30), random_state=0)
    rankers = [PApKAvgRanker(k=4, max_iter=20, tol=None).fit(X, y, groups=g),
               PApKMaxRanker(k=4, max_iter=20, tol=None).fit(X, y, groups=g),
               PApKMaxRanker(k=4, eta0=0.1, max_iter=5, tol=None).fit(X, y, groups=g)]
    fig, ax = matplotlib.pyplot.subplots()
    disp = GroupScoreDisplay.from_estimator(rankers, X, y, groups=g, ax=ax)
    assert disp.ax_ is ax and disp.figure_ is fig
    assert list(disp.scores) == ["PApKAvgRanker", "PApKMaxRanker", "PApKMaxRanker (2)"]
    assert disp.k == 4  # taken from the rankers
    for r, values in zip(rankers, disp.scores.values()):
        assert_allclose(values, papk_score(y, r.decision_function(X), k=4, groups=g,
                                           average=None))
    # a dict names the models; a classifier is scored by decision_function
    clf = LogisticRegression().fit(X, y)
    disp = GroupScoreDisplay.from_estimator({"lr": clf, "avg": rankers[0]}, X, y,
                                            groups=g, k=2, metric="precision_at_k")
    assert_allclose(disp.scores["lr"], precision_at_k_score(
        y, clf.decision_function(X), k=2, groups=g, average=None))


def test_plot_name_relabels_models():
    y, scores, g = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        disp = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=3)
    disp.plot(name=["A", "B"], kind="hist", show_baseline=False)
    assert list(disp.artists_) == ["A", "B"]
    with pytest.raises(ValueError, match="one name per model"):
        disp.plot(name="A")


@pytest.mark.parametrize("name, show_baseline, error, match", [
    (["x", "x"], False, ValueError, r"name must give distinct names, got "
                                    r"\['x', 'x'\]: one model"),
    (["A", "random ranking"], True, ValueError, "names the random baseline"),
    (["A", 1], False, TypeError, "name must be a str or a list of str .* got 1"),
])
def test_plot_refuses_names_that_would_hide_a_model(name, show_baseline, error,
                                                     match):
    y, scores, g = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        disp = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=3)
    with pytest.raises(error, match=match):
        disp.plot(name=name, show_baseline=show_baseline)
    disp.plot(name=["A", "random ranking"], show_baseline=False)  # no baseline
    one = GroupScoreDisplay(scores={"a": [0.5, 0.25]}, n_pos=[1, 2])
    with pytest.raises(TypeError, match="name must be a str or a list of str"):
        one.plot(name=5)


def test_constructor_checks_shapes():
    with pytest.raises(ValueError, match="one value per group"):
        GroupScoreDisplay(scores={"a": [0.5, 0.5]}, n_pos=[1, 2, 3])
    with pytest.raises(ValueError, match="distinct, but the keys of scores"):
        GroupScoreDisplay(scores={1: [0.5], "1": [0.2]}, n_pos=[1])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"metric": "ndcg"}, ValueError, "metric must be one of"),
    ({"kind": "violin"}, ValueError, "kind must be"),
    ({"k": None}, ValueError, "needs k"),
    ({"name": "x", "y_score": {"a": [1, 2, 3, 4]}}, ValueError, "name must be None"),
    ({"y_score": {}}, ValueError, "empty dict"),
    ({"y_score": {1: [1, 2, 3, 4], "1": [4, 3, 2, 1]}}, ValueError,
     r"distinct, but the keys of y_score, 1, '1', give the labels \['1', '1'\]"),
    ({"y_score": [1, 2, 3]}, ValueError, "same length"),
    ({"name": ["a"]}, TypeError, r"name must be a str .* got \['a'\]"),
    ({"name": "random ranking"}, ValueError, "names the random baseline"),
])
def test_from_predictions_errors(kwargs, error, match):
    params = {"y_score": [0.1, 0.2, 0.3, 0.4], "k": 2, **kwargs}
    y_score = params.pop("y_score")
    with pytest.raises(error, match=match):
        GroupScoreDisplay.from_predictions([0, 1, 0, 1], y_score, **params)


def test_from_estimator_errors():
    X, y, g = make_papk_simulation(3, n_pos=3, n_neg=6, random_state=0)
    a = PApKAvgRanker(k=2, max_iter=3, tol=None).fit(X, y, groups=g)
    b = PApKAvgRanker(k=3, max_iter=3, tol=None).fit(X, y, groups=g)
    with pytest.raises(ValueError, match="different k"):
        GroupScoreDisplay.from_estimator([a, b], X, y, groups=g)
    with pytest.raises(ValueError, match="one name per estimator"):
        GroupScoreDisplay.from_estimator([a, b], X, y, groups=g, k=2, name=["a"])
    with pytest.raises(ValueError, match="distinct"):
        GroupScoreDisplay.from_estimator([a, b], X, y, groups=g, k=2, name=["a", "a"])
    with pytest.raises(ValueError, match="distinct, but the keys of estimator"):
        GroupScoreDisplay.from_estimator({2: a, "2": b}, X, y, groups=g, k=2)
    with pytest.raises(TypeError, match="neither decision_function nor predict_proba"):
        GroupScoreDisplay.from_estimator(object(), X, y, groups=g, k=2)
    with pytest.raises(ValueError, match="pass k"):
        GroupScoreDisplay.from_estimator(LogisticRegression().fit(X, y), X, y, groups=g)
    # names of other types were a raw error (5) or silently text ([1, 2])
    with pytest.raises(TypeError, match="name must be a str or a list of str.*"
                                        "got 5 of type int"):
        GroupScoreDisplay.from_estimator(a, X, y, groups=g, name=5)
    with pytest.raises(TypeError, match="got 1 of type int"):
        GroupScoreDisplay.from_estimator([a, b], X, y, groups=g, k=2, name=[1, 2])
    # a generator was taken for one model without decision_function
    with pytest.raises(TypeError, match="not a generator: pass list"):
        GroupScoreDisplay.from_estimator((m for m in (a, b)), X, y, groups=g, k=2)


@pytest.mark.parametrize("show_baseline", ["no", None, 0])
def test_show_baseline_must_be_a_bool(show_baseline):
    # "no" drew the baseline
    X, y, g = make_papk_simulation(3, n_pos=3, n_neg=6, random_state=0)
    with pytest.raises(TypeError, match="show_baseline must be True or False"):
        GroupScoreDisplay.from_predictions(y, X[:, 0], groups=g, k=2,
                                           show_baseline=show_baseline)


@pytest.mark.parametrize("ax", ["foo", 1, [None]])
def test_ax_must_be_axes(ax):
    X, y, g = make_papk_simulation(3, n_pos=3, n_neg=6, random_state=0)
    with pytest.raises(TypeError, match="ax must be matplotlib Axes.*got"):
        GroupScoreDisplay.from_predictions(y, X[:, 0], groups=g, k=2, ax=ax)


def test_from_estimator_reads_k_through_pipelines_and_searches():
    # as the relevant label: a pipeline's last step, a search's best model
    import sklearn
    from sklearn.model_selection import GridSearchCV, GroupKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from skpapk.metrics import micro_papk_scorer

    X, y, g = make_papk_simulation(6, n_pos=3, n_neg=8, random_state=0)
    pipe = make_pipeline(StandardScaler(), PApKAvgRanker(k=3, max_iter=3, tol=None))
    pipe.fit(X, y, papkavgranker__groups=g)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(PApKAvgRanker(k=3, max_iter=3, tol=None),
                              {"alpha": [1e-3]}, cv=GroupKFold(2),
                              scoring=micro_papk_scorer(3)).fit(X, y, groups=g)
    for model in (pipe, search):
        shown = GroupScoreDisplay.from_estimator(model, X, y, groups=g)
        given = GroupScoreDisplay.from_estimator(model, X, y, groups=g, k=3)
        assert shown.k == 3
        # named after the wrapped ranker, not "Pipeline" / "GridSearchCV"
        assert list(shown.scores) == ["PApKAvgRanker"]
        assert_array_equal(shown.scores["PApKAvgRanker"],
                           given.scores["PApKAvgRanker"])
        matplotlib.pyplot.close("all")
    two = GroupScoreDisplay.from_estimator(
        [make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y), pipe],
        X, y, groups=g, k=3)
    assert list(two.scores) == ["LogisticRegression", "PApKAvgRanker"]


def test_from_estimator_without_groups_warns_as_score_does():
    # one box value at 1.0 for a model of 6 users, and no word about it
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from skpapk.exceptions import MissingGroupsWarning

    X, y, g = make_papk_simulation(6, n_pos=3, n_neg=8, random_state=0)
    ranker = PApKAvgRanker(k=3, max_iter=3, tol=None).fit(X, y, groups=g)
    pipe = make_pipeline(StandardScaler(), PApKAvgRanker(k=3, max_iter=3, tol=None))
    pipe.fit(X, y, papkavgranker__groups=g)
    for model in (ranker, pipe):
        with pytest.warns(MissingGroupsWarning, match=r"from_estimator got "
                          r"groups=None, so all the rows are ONE group .* fitted "
                          r"on 6 groups: pass groups=") as record:
            display = GroupScoreDisplay.from_estimator(model, X, y, k=3)
        assert record[0].filename == __file__
        assert display.scores["PApKAvgRanker"].shape == (1,)
    one = PApKRanker(k=3).fit(X[g == 0], y[g == 0])
    with warnings.catch_warnings():  # fitted on one group: nothing lost
        warnings.simplefilter("error")
        GroupScoreDisplay.from_estimator(one, X[g == 0], y[g == 0], k=3)
        GroupScoreDisplay.from_estimator(ranker, X, y, groups=g)
    matplotlib.pyplot.close("all")


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_papk_values_and_baseline_match_brute_force(data):
    n_groups = data.draw(st.integers(1, 3))
    sizes = data.draw(st.lists(st.integers(2, 6), min_size=n_groups, max_size=n_groups))
    g = np.repeat(np.arange(n_groups) * 7, sizes)
    n = g.size
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(data.draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n)),
                 dtype=float)
    k = data.draw(st.integers(1, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        disp = GroupScoreDisplay.from_predictions(y, s, groups=g, k=k, kind="hist",
                                                  ties="half")  # the oracle's rule
    matplotlib.pyplot.close(disp.figure_)
    for i, u in enumerate(np.unique(g)):
        rows = g == u
        assert_allclose(disp.scores["Ranker"][i], _papk_oracle(y[rows], s[rows], k),
                        equal_nan=True)
        n_pos, n_neg = int(y[rows].sum()), int((y[rows] == 0).sum())
        expected = (_random_papk_oracle(n_pos, n_neg, k) if n_pos and n_neg
                    else np.nan)
        assert_allclose(disp.baseline[i], expected, equal_nan=True)


def test_from_estimator_ranks_like_the_scorers():
    # a regressor has only predict: ranked by it, as micro_papk_scorer does
    from sklearn.linear_model import Ridge

    from skpapk.metrics import micro_papk_scorer

    X, y, g = make_papk_simulation(6, n_pos=3, n_neg=8, random_state=0)
    ridge = Ridge().fit(X, y)
    disp = GroupScoreDisplay.from_estimator(ridge, X, y, groups=g, k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = micro_papk_scorer(3)(ridge, X, y, groups=g)
    (per_user,) = disp.scores.values()
    assert_allclose(np.nanmean(per_user), expected)


def test_from_estimator_scores_the_label_the_rankers_were_fitted_as_relevant():
    # rankers fitted with pos_label=0 rank label 0 first; with a classifier
    # beside them, its probability of 0 ranks the rows
    X, y, g = make_papk_simulation(12, n_pos=(2, 8), n_neg=(10, 30), random_state=0)
    label = 1 - y  # 0 is relevant
    ranker = PApKAvgRanker(k=4, max_iter=20, tol=None, pos_label=0).fit(
        X, label, groups=g)
    clf = LogisticRegression().fit(X, label)
    disp = GroupScoreDisplay.from_estimator({"avg": ranker, "lr": clf}, X, label,
                                            groups=g, k=4)
    assert_allclose(disp.scores["avg"], papk_score(
        label, ranker.decision_function(X), k=4, groups=g, average=None,
        pos_label=0))
    assert_allclose(disp.scores["lr"], papk_score(
        label, -clf.decision_function(X), k=4, groups=g, average=None,
        pos_label=0))
    other = PApKAvgRanker(k=4, max_iter=20, tol=None).fit(X, label, groups=g)
    with pytest.raises(ValueError, match="different relevant labels"):
        GroupScoreDisplay.from_estimator([ranker, other], X, label, groups=g)
    disp = GroupScoreDisplay.from_estimator([ranker, other], X, label, groups=g,
                                            pos_label=1)
    assert_allclose(disp.scores["PApKAvgRanker (2)"], papk_score(
        label, other.decision_function(X), k=4, groups=g, average=None))


def _two_calls(kind, ax, **kwargs):
    """Models A then B, one call each, on ``ax`` (the same users)."""
    y, g = [1, 0, 0, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1]
    first = GroupScoreDisplay.from_predictions(y, [3, 2, 1, 1, 2, 3, 0], groups=g,
                                               k=2, ax=ax, name="A", kind=kind)
    second = GroupScoreDisplay.from_predictions(y, [1, 2, 3, 3, 2, 1, 0], groups=g,
                                                k=2, ax=ax, name="B", kind=kind,
                                                **kwargs)
    return first, second


def test_box_calls_on_one_axes_add_boxes_after_the_earlier_ones():
    # the second call drew its boxes at 1, 2 over A's and replaced the ticks
    fig, ax = matplotlib.pyplot.subplots()
    first, second = _two_calls("box", ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "A\nmicro = 0.750", "random ranking\nmicro = 0.500", "B\nmicro = 0.500"]
    assert_array_equal(ax.get_xticks(), [1, 2, 3])
    assert list(first.artists_) == ["A", "random ranking"]
    assert list(second.artists_) == ["B"]  # the same baseline: not drawn again
    assert_allclose(second.boxes_["medians"][0].get_xdata().mean(), 3)
    assert len(ax.lines) == sum(len(v) for v in first.boxes_.values()) + sum(
        len(v) for v in second.boxes_.values())


def test_box_calls_without_boxes_add_after_the_earlier_ones():
    # showbox=False: no box to remember, the medians are (they were drawn
    # over the first call's, at 1 and 2)
    fig, ax = matplotlib.pyplot.subplots()
    y, g = [1, 0, 0, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1]
    for name, scores in (("A", [3, 2, 1, 1, 2, 3, 0]), ("B", [1, 2, 3, 3, 2, 1, 0])):
        second = GroupScoreDisplay.from_predictions(y, scores, groups=g, k=2, ax=ax,
                                                    name=name, showbox=False)
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "A\nmicro = 0.750", "random ranking\nmicro = 0.500", "B\nmicro = 0.500"]
    assert list(second.artists_) == ["B"]
    assert_allclose(second.boxes_["medians"][0].get_xdata().mean(), 3)


@pytest.mark.parametrize("kind", ["hist", "scatter"])
def test_hist_and_scatter_calls_on_one_axes_share_the_legend(kind):
    fig, ax = matplotlib.pyplot.subplots()
    first, second = _two_calls(kind, ax)
    assert ax.get_legend_handles_labels()[1] == [
        "A (micro = 0.750)", "random ranking (micro = 0.500)", "B (micro = 0.500)"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == \
        ax.get_legend_handles_labels()[1]
    assert list(second.artists_) == ["B"]


def test_a_different_baseline_is_drawn_and_a_cleared_axes_starts_afresh():
    fig, ax = matplotlib.pyplot.subplots()
    y, g = [1, 0, 0, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1]
    GroupScoreDisplay.from_predictions(y, [3, 2, 1, 1, 2, 3, 0], groups=g, k=2,
                                       ax=ax, name="A")
    other = GroupScoreDisplay.from_predictions(  # other users: other baseline
        [1, 0, 1, 0], [1, 2, 3, 4], groups=[0, 0, 0, 0], k=2, ax=ax, name="B")
    assert list(other.artists_) == ["B", "random ranking"]
    assert_array_equal(ax.get_xticks(), [1, 2, 3, 4])
    ax.cla()  # nothing of the earlier calls is left: A may be drawn again
    again = GroupScoreDisplay.from_predictions(y, [3, 2, 1, 1, 2, 3, 0], groups=g,
                                               k=2, ax=ax, name="A")
    assert list(again.artists_) == ["A", "random ranking"]
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "A\nmicro = 0.750", "random ranking\nmicro = 0.500"]


@pytest.mark.parametrize("kwargs, match", [
    ({"kind": "hist"}, "ax already shows a GroupScoreDisplay of kind='box'; "
                       "this one has kind='hist'"),
    ({"orientation": "horizontal"}, r"this one has kind='box' \(horizontal\)"),
    ({"k": 3}, "ax already shows the pAp@2 of each user; this display's pAp@3"),
    ({"name": "A"}, "ax already shows a model named 'A'"),
])
def test_a_call_that_would_mix_with_the_axes_content_raises(kwargs, match):
    fig, ax = matplotlib.pyplot.subplots()
    y, g = [1, 0, 0, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1]
    GroupScoreDisplay.from_predictions(y, [3, 2, 1, 1, 2, 3, 0], groups=g, k=2,
                                       ax=ax, name="A")
    with pytest.raises(ValueError, match=match):
        GroupScoreDisplay.from_predictions(
            y, [1, 2, 3, 3, 2, 1, 0], groups=g, ax=ax, **{"k": 2, "name": "B",
                                                          **kwargs})
