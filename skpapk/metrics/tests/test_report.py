"""Tests of ranking_report: each value is its metric's own function's."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from skpapk import metrics as m
from skpapk.metrics import ranking_report
from skpapk.metrics._report import METRICS

ALL = list(METRICS)


def _alone(name, y, s, **kwargs):
    """The metric's own public function, given the arguments it takes."""
    kwargs = dict(kwargs)
    if name == "precision_at_k":  # defined for every group
        kwargs.pop("zero_division", None)
    if name == "roc_auc":
        kwargs.pop("k")
    return getattr(m, METRICS[name].function)(y, s, **kwargs)


def _data(seed, n=300, n_groups=12, n_values=5):
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_groups, n)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.integers(0, n_values, n).astype(float)  # many ties
    return y, s, groups


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("average", ["micro", "pooled", None])
@pytest.mark.parametrize("ties", ["random", "error"])
@pytest.mark.parametrize("zero_division", ["warn", np.nan, 0.0, 1.0])
@pytest.mark.parametrize("k", [1, 3, 50])
def test_equals_each_metric_alone(seed, average, ties, zero_division, k):
    y, s, g = _data(seed)
    y[g == 0] = 1  # an undefined group for the pair metrics and AUC
    kwargs = dict(k=k, groups=g, average=average, ties=ties,
                  zero_division=zero_division)
    with warnings.catch_warnings():  # (said apart, in the next test)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        report = ranking_report(y, s, metrics=ALL, **kwargs)
        assert list(report) == ALL
        for name in ALL:
            expected = _alone(name, y, s, **kwargs)
            np.testing.assert_array_equal(report[name], expected, err_msg=name)


@settings(max_examples=60, deadline=None)
@given(y=st.lists(st.booleans(), min_size=1, max_size=25),
       data=st.data(), k=st.integers(1, 6),
       ties=st.sampled_from(["random", "half", "error"]))
def test_equals_alone_on_any_input(y, data, k, ties):
    n = len(y)
    s = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    g = data.draw(st.lists(st.sampled_from("abc"), min_size=n, max_size=n))
    names = [name for name in ALL if ties in METRICS[name].ties]
    kwargs = dict(k=k, groups=g, ties=ties, zero_division=0.0, average=None)
    report = ranking_report(y, s, metrics=names, **kwargs)
    for name in names:
        np.testing.assert_array_equal(report[name], _alone(name, y, s, **kwargs))


def test_paper_table1_and_text_labels():
    y = np.array([0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0])
    s = np.arange(11.0, 0.0, -1.0)
    assert ranking_report(y, s, k=2) == {
        "papk": 0.5, "precision_at_k": 0.5, "partial_auc": 0.2}
    words = np.where(y == 1, "yes", "no")
    assert ranking_report(words, s, k=2, pos_label="yes", metrics="papk") == {
        "papk": 0.5}


def test_warns_for_each_undefined_metric():
    y, s, g = [1, 0, 1, 1], [0.3, 0.2, 0.9, 0.1], [0, 0, 1, 1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = ranking_report(y, s, k=1, groups=g, metrics=[
            "papk", "precision_at_k", "partial_auc", "recall_at_k"])
    said = [str(w.message) for w in caught
            if issubclass(w.category, UndefinedMetricWarning)]
    assert len(said) == 2 and said[0].startswith("pAp@k is undefined for 1 of 2")
    assert said[1].startswith("Partial AUC is undefined for 1 of 2")
    assert report["papk"] == report["partial_auc"] == 1.0
    assert report["recall_at_k"] == 0.75


@pytest.mark.parametrize("metrics, error, match", [
    (["papk", "ndcg"], ValueError, "'ndcg', which is not one of 'papk'"),
    (["papk", "papk"], ValueError, "names a metric twice"),
    ([], ValueError, "metrics names no metric; name one or more of 'papk'"),
    ([1], TypeError, "metrics must be a metric name or a list of them"),
    (None, TypeError, "metrics must be a metric name or a list"),
    ({"papk": 1}, TypeError, "metrics must be a metric name or a list"),
])
def test_bad_metrics(metrics, error, match):
    with pytest.raises(error, match=match):
        ranking_report([1, 0], [1.0, 0.0], k=1, metrics=metrics)


def test_tie_rule_of_one_metric_named():
    with pytest.raises(ValueError, match="ties='half' is not a rule of "
                       "'recall_at_k' .*recall_at_k_score takes 'random', "
                       "'error'"):
        ranking_report([1, 0], [1.0, 0.0], k=1, ties="half",
                       metrics=["papk", "recall_at_k"])
    with pytest.raises(ValueError, match="ties must be one of"):
        ranking_report([1, 0], [1.0, 0.0], k=1, ties="threshold")


@pytest.mark.parametrize("k", [0, 1.5, "2"])
def test_bad_k(k):
    with pytest.raises((ValueError, TypeError), match="k"):
        ranking_report([1, 0], [1.0, 0.0], k=k)


def test_the_rows_are_sorted_once(monkeypatch):
    # one score sort and one (group, label) segment sort for all the pair
    # metrics; prec@k and recall@k read the score order only
    from skpapk.metrics import _common, _kernels

    calls = []
    for module in (_common, _kernels):
        original = module.order_by_segment
        monkeypatch.setattr(module, "order_by_segment", lambda *a, _f=original, **kw:
                            calls.append("segments") or _f(*a, **kw))
    y, _, g = _data(0)
    s = np.random.default_rng(0).normal(size=y.shape[0])  # no ties (their
    # expectation orders the tied blocks of each metric apart)
    ranking_report(y, s, k=3, groups=g, metrics=["papk", "partial_auc", "roc_auc"],
                   zero_division=np.nan)
    assert calls == ["segments"]
    calls.clear()
    ranking_report(y, s, k=3, groups=g, metrics=["precision_at_k"])
    # prec@k's own cut by group (its codes, not the segments)
    assert calls == ["segments"]


def test_k_is_needed_unless_roc_auc_alone():
    y, s, g = [0, 1, 1, 0, 1, 0], [3, 2, 1, 3, 2, 1], [0, 0, 0, 1, 1, 1]
    assert ranking_report(y, s, groups=g, metrics="roc_auc") == {
        "roc_auc": m.roc_auc_score(y, s, groups=g)}
    assert ranking_report(y, s, k=2, groups=g, metrics="roc_auc") == (
        ranking_report(y, s, groups=g, metrics=["roc_auc"]))
    with pytest.raises(TypeError, match=r"^ranking_report needs k, the number "
                       r"of items shown to each user, for 'papk'; pass k=10"):
        ranking_report(y, s, groups=g, metrics=["roc_auc", "papk"])
    with pytest.raises(TypeError, match=r"for 'papk', 'precision_at_k', "
                       r"'partial_auc';"):
        ranking_report(y, s, groups=g)
    with pytest.raises(ValueError, match="k"):  # a bad k is refused all the same
        ranking_report(y, s, k=0, groups=g, metrics="roc_auc")
