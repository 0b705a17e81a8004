"""Model files: plain JSON data, scores as the fitted model's, no pickle."""

import json
import os
import pickle
import re
import warnings

import joblib
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MinMaxScaler, PolynomialFeatures, StandardScaler

from skpapk import PApKRanker
from skpapk.datasets import make_papk_simulation
from skpapk.io import SavedRanker, load_ranker, save_ranker
from skpapk.io._booster_text import check_booster_text
from skpapk.io._json import _unique_keys
from skpapk.io._model import FORMAT_VERSION
from skpapk.metrics import papk_score


@pytest.fixture(scope="module")
def data():
    X, y, groups = make_papk_simulation(8, n_pos=(3, 9), n_neg=(10, 20),
                                        n_features=3, random_state=0)
    X = X * [1.0, 10.0, 0.1] + [0.0, 5.0, -3.0]  # scales that matter
    return X, y, groups


@pytest.fixture(scope="module")
def ranker(data):
    X, y, groups = data
    return PApKRanker(k=3).fit(X, y, groups=groups)


@pytest.mark.parametrize("scaler", ["passthrough", MinMaxScaler(), StandardScaler()],
                         ids=["none", "minmax", "standard"])
# PApKRanker's smooth surrogate descends on these data (PApKMaxRanker's
# hinge, in 20 steps, stays above its start: a ConvergenceWarning)
@pytest.mark.parametrize("estimator", [PApKRanker(k=3), LogisticRegression()],
                         ids=["ranker", "logreg"])
def test_linear_pipeline_scores_as_fitted(tmp_path, data, scaler, estimator):
    X, y, groups = data
    pipe = Pipeline([("scale", scaler), ("model", estimator)])
    routed = {} if isinstance(estimator, LogisticRegression) else {
        "model__groups": groups}
    pipe.fit(X, y, **routed)
    path = tmp_path / "m.json"
    save_ranker(pipe, path, k=5, metadata={"note": [1, "a"]})
    model = load_ranker(path)
    assert isinstance(model, SavedRanker) and model.k == 5
    assert model.metadata == {"note": [1, "a"]}
    assert repr(model).endswith("scorer=<linear scorer of 3 features>)")
    assert model.n_features_in_ == 3 and model.classes_.tolist() == [0, 1]
    np.testing.assert_allclose(model.decision_function(X), pipe.decision_function(X),
                               rtol=1e-10, atol=1e-12)
    # JSON floats round-trip exactly: a second save and load scores the same
    save_ranker(pipe, path, k=5)
    np.testing.assert_array_equal(load_ranker(path).predict(X),
                                  model.decision_function(X))


@pytest.mark.parametrize("block_values", [None, 7])
@pytest.mark.parametrize("fit_dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["C", "F", "csr", "csc"])
def test_float32_rows_score_as_the_ranker_scores_them(tmp_path, monkeypatch,
                                                      block_values, fit_dtype,
                                                      layout):
    # values 1e4 + j / 1024 (exact in float32): float32 scores would tie rows
    # that the float64 coef_ sets apart; ranker and file both score in float64
    if block_values is not None:  # rows scored in blocks of one row
        monkeypatch.setattr("skpapk._linear_loss.SCORE_BLOCK_VALUES", block_values)
    rng = np.random.default_rng(0)
    X = 1e4 + rng.integers(0, 256, (400, 5)) / 1024.0
    y, groups = (rng.random(400) < 0.3).astype(int), np.repeat(np.arange(20), 20)
    ranker = PApKRanker(k=3).fit(X.astype(fit_dtype), y, groups=groups)
    save_ranker(ranker, tmp_path / "m.json")
    X32 = X.astype(np.float32)
    rows = {"C": X32, "F": np.asfortranarray(X32), "csr": sp.csr_matrix(X32),
            "csc": sp.csc_matrix(X32)}[layout]
    scores = ranker.decision_function(rows)
    assert scores.dtype == np.float64
    assert np.unique(scores).size == np.unique(ranker.decision_function(X)).size
    np.testing.assert_array_equal(load_ranker(tmp_path / "m.json").decision_function(
        rows), scores)


def test_loaded_ranker_scores_recommends_and_keeps_labels(tmp_path, data):
    X, y, groups = data
    labels = np.where(y == 1, "yes", "no")
    ranker = PApKRanker(k=3, pos_label="yes").fit(X, labels, groups=groups)
    path = tmp_path / "m.json"
    save_ranker(ranker, path)  # k: the ranker's
    model = load_ranker(path)
    assert model.k == 3 and model.classes_.tolist() == ["no", "yes"]
    assert model.score(X, labels, groups=groups) == ranker.score(X, labels,
                                                                 groups=groups)
    expected, got = ranker.recommend(X, groups), model.recommend(X, groups)
    np.testing.assert_array_equal(got.indices, expected.indices)
    with pytest.raises(ValueError, match="SavedRanker was not fitted on"):
        model.score(X, y, groups=groups)
    with pytest.raises(ValueError, match="3 features"):
        model.decision_function(X[:, :2])
    model.scorer.coef = np.full(3, 1e308)  # scores overflow on these rows
    with pytest.raises(ValueError, match="not finite numbers"):
        model.decision_function(np.full((2, 3), 10.0))
    with pytest.raises(TypeError, match="not fitted again"):
        model.fit(X, y)


@pytest.mark.parametrize("scaler", ["passthrough", StandardScaler()])
@pytest.mark.parametrize("pos_label", ["click", "skip"])
def test_classifier_on_words_is_saved_with_its_relevant_label(tmp_path, data,
                                                               scaler, pos_label):
    # LogisticRegression scores classes_[1] ("skip") highest: saved without
    # pos_label, the loaded model would rank "skip" first as the relevant
    X, y, groups = data
    labels = np.where(y == 1, "click", "skip")
    pipe = make_pipeline(scaler, LogisticRegression()).fit(X, labels)
    path = tmp_path / "m.json"
    with pytest.raises(ValueError, match="not numbers: say which one is "
                                         "relevant with pos_label='click'"):
        save_ranker(pipe, path, k=3)
    assert not path.exists()
    save_ranker(pipe, path, k=3, pos_label=pos_label)
    model = load_ranker(path)
    assert model.classes_[-1] == pos_label
    sign = 1 if pos_label == "skip" else -1  # "click": the scores negated
    np.testing.assert_allclose(model.decision_function(X),
                               sign * pipe.decision_function(X), rtol=1e-12)
    expected = papk_score(labels, sign * pipe.decision_function(X), k=3,
                          groups=groups, pos_label=pos_label)
    assert model.score(X, labels, groups=groups) == pytest.approx(expected)


@pytest.mark.parametrize("estimator, pos_label, message", [
    ("lr", "maybe", "pos_label='maybe' is not one of the labels"),
    ("ranker", "skip", "was fitted with 'click' as the relevant label"),
    # fitted on a pandas Series: classes_ of Python str (no .item())
    ("series", "skip", "was fitted with 'click' as the relevant label"),
    ("lgbm", "click", "cannot be negated"),
])
def test_wrong_pos_label_is_refused(tmp_path, data, estimator, pos_label, message):
    X, y, groups = data
    labels = np.where(y == 1, "click", "skip")
    if estimator == "lgbm":
        lightgbm = pytest.importorskip("lightgbm")
        model = lightgbm.LGBMClassifier(n_estimators=3, verbose=-1).fit(X, labels)
    elif estimator == "lr":
        model = LogisticRegression().fit(X, labels)
    else:
        labels = pd.Series(labels, dtype=object) if estimator == "series" else labels
        model = PApKRanker(k=3, pos_label="click").fit(X, labels, groups=groups)
    with pytest.raises(ValueError, match=message):
        save_ranker(model, tmp_path / "m.json", k=3, pos_label=pos_label)
    assert not (tmp_path / "m.json").exists()


def test_numeric_labels_need_no_pos_label(tmp_path, data):
    X, y, groups = data
    labels = 2 - y  # 1 relevant, 2 irrelevant
    model = LogisticRegression().fit(X, labels)
    save_ranker(model, tmp_path / "a.json", k=3)  # the greater, 2, relevant
    assert load_ranker(tmp_path / "a.json").classes_.tolist() == [1, 2]
    save_ranker(model, tmp_path / "b.json", k=3, pos_label=1)
    loaded = load_ranker(tmp_path / "b.json")
    assert loaded.classes_.tolist() == [2, 1]
    expected = papk_score(labels, -model.decision_function(X), k=3,
                          groups=groups, pos_label=1)
    assert loaded.score(X, labels, groups=groups) == pytest.approx(expected)
    with pytest.raises(ValueError, match="has no two classes_"):
        save_ranker(Ridge().fit(X, y), tmp_path / "c.json", k=3, pos_label=1)


def test_feature_names_are_kept(tmp_path, data):
    X, y, groups = data
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    ranker = PApKRanker(k=3).fit(frame, y, groups=groups)
    save_ranker(ranker, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    assert model.feature_names_in_.tolist() == ["a", "b", "c"]
    np.testing.assert_allclose(model.decision_function(frame),
                               ranker.decision_function(frame))
    with pytest.raises(ValueError, match="feature names"):
        model.decision_function(frame[["c", "b", "a"]])


@pytest.mark.parametrize("kind", ["linear", "lightgbm"])
def test_clone_keeps_what_the_file_holds(tmp_path, data, kind):
    # a model file's model is never fitted: a clone is a copy of it, fitted
    X, y, groups = data
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    if kind == "lightgbm":
        pytest.importorskip("lightgbm")
        from skpapk import PApKBoostRanker

        ranker = PApKBoostRanker(k=3, n_estimators=4, num_leaves=4,
                                 min_child_samples=2)
    else:
        ranker = PApKRanker(k=3)
    save_ranker(ranker.fit(frame, y, groups=groups), tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    copied = clone(model)
    assert copied is not model and copied.n_features_in_ == 3
    assert copied.classes_.tolist() == [0, 1]
    np.testing.assert_array_equal(copied.decision_function(frame),
                                  model.decision_function(frame))
    assert copied.score(frame, y, groups=groups) == model.score(frame, y,
                                                                groups=groups)
    with pytest.raises(ValueError, match="feature names"):
        copied.decision_function(frame[["c", "b", "a"]])
    with pytest.raises(ValueError, match="3 features"), pytest.warns(
            UserWarning, match="valid feature names"):
        copied.decision_function(X[:, :2])
    copied.set_params(k=1).metadata["note"] = "copy"
    assert model.k == 3 and model.metadata == {}


def test_file_is_plain_json_with_a_version(tmp_path):
    X = np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 1.0], [3.0, 2.0]])
    ranker = PApKRanker(k=1).fit(X, [0, 1, 0, 1], groups=[0, 0, 1, 1])
    path = tmp_path / "m.json"
    save_ranker(ranker, path, metadata={"user": "ann"})
    content = json.loads(path.read_text())
    assert content["format"] == "skpapk-model"
    assert content["format_version"] == 1  # no shift: as version 1 wrote it
    assert content["user"] == "ann" and content["classes"] == [0, 1]
    assert content["scorer"] == {"kind": "linear",
                                 "coef": ranker.coef_.tolist(), "intercept": 0.0}
    pipe = Pipeline([("s", StandardScaler()), ("m", PApKRanker(k=1))]).fit(
        X, [0, 1, 0, 1], m__groups=[0, 0, 1, 1])
    save_ranker(pipe, path)
    content = json.loads(path.read_text())
    assert content["format_version"] == FORMAT_VERSION == 2
    assert content["scorer"]["shift"] == pipe[0].mean_.tolist()


@pytest.mark.parametrize("scaler", [StandardScaler(), MinMaxScaler()])
def test_features_far_from_zero_keep_their_precision(tmp_path, scaler):
    # StandardScaler: saved with its mean as a shift, exact; MinMaxScaler
    # computes x * scale_ + min_, which cancels here: folded, it would differ
    # from the pipeline, so it is refused (it was saved, scoring 7% off)
    # timestamps in milliseconds with a small spread: a scaler folded into
    # coef and intercept alone left 7% errors and reordered the top rows
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(400, 3))
    X = Z * 1e-3 + 1e12
    y = (Z[:, 0] + Z[:, 1] * 0.5 + rng.normal(size=400) > 0).astype(int)
    groups = np.repeat(np.arange(20), 20)
    pipe = Pipeline([("s", scaler), ("m", PApKRanker(k=5))]).fit(
        X, y, m__groups=groups)
    if isinstance(scaler, MinMaxScaler):
        with pytest.raises(TypeError, match="loses the precision"):
            save_ranker(pipe, tmp_path / "m.json")
        assert list(tmp_path.iterdir()) == []
        return
    save_ranker(pipe, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    expected = pipe.decision_function(X)
    np.testing.assert_allclose(model.decision_function(X), expected, rtol=1e-6,
                               atol=1e-9 * np.abs(expected).max())
    assert np.array_equal(model.recommend(X, groups).indices,
                          pipe[-1].recommend(pipe[0].transform(X), groups).indices)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"metadata": {"k": 2}}, ValueError, "reserved key"),
    ({"metadata": {"scorer": None}}, ValueError, "reserved key"),
    ({"metadata": {"x": object()}}, ValueError, "not JSON data"),
    ({"metadata": {"x": float("nan")}}, ValueError,
     r"metadata\['x'\] is nan, not a finite number"),
    ({"metadata": [1]}, ValueError, "metadata"),
    ({"k": 0}, ValueError, "'k' parameter"),
])
def test_save_arguments_are_checked_and_nothing_is_written(tmp_path, ranker,
                                                           kwargs, error, message):
    path = tmp_path / "m.json"
    with pytest.raises(error, match=message):
        save_ranker(ranker, path, **kwargs)
    assert list(tmp_path.iterdir()) == []


def test_non_finite_model_is_not_written(tmp_path, ranker):
    bad = PApKRanker(k=3)
    bad.__dict__.update(ranker.__dict__)
    bad.coef_ = np.array([np.nan, 1.0, 2.0])
    path = tmp_path / "m.json"
    path.write_text("old")
    with pytest.raises(ValueError, match="not finite.*not saved"):
        save_ranker(bad, path)
    assert path.read_text() == "old"  # the previous file is intact


@pytest.mark.parametrize("writer", ["joblib", "pickle", "pickle0", "compressed"])
def test_pickles_are_refused_and_not_run(tmp_path, writer):
    path = tmp_path / "m.joblib"
    model = {"skpapk_model": 1, "k": 3}
    if writer == "joblib":
        joblib.dump(model, path)
    elif writer == "compressed":
        joblib.dump(model, path, compress=3)
    else:
        path.write_bytes(pickle.dumps(model, protocol=0 if writer == "pickle0"
                                      else pickle.HIGHEST_PROTOCOL))
    with pytest.raises(ValueError) as exc:
        load_ranker(path)
    message = str(exc.value)
    assert "pickle" in message and ("can run any code" in message
                                    or "are refused" in message)


class _Boom:
    """Unpickling this object would create a file: it must never happen."""

    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        return (open, (self.target, "w"))


def test_a_malicious_pickle_runs_nothing(tmp_path):
    target = tmp_path / "pwned"
    path = tmp_path / "evil.joblib"
    path.write_bytes(pickle.dumps(_Boom(str(target))))
    with pytest.raises(ValueError, match="pickle"):
        load_ranker(path)
    assert not target.exists()


def _write(tmp_path, content):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(content) if not isinstance(content, str)
                    else content)
    return path


def _valid():
    return {"format": "skpapk-model", "format_version": 1, "k": 3,
            "scorer": {"kind": "linear", "coef": [1.0, 2.0, 3.0],
                       "intercept": 0.0}}


@pytest.mark.parametrize("change, message", [
    (lambda c: c.pop("format"), "no \"format\""),
    (lambda c: c.update(format_version=99), "newer skpapk"),
    (lambda c: c.update(format_version=True), "not a version"),
    (lambda c: c.update(k="3"), "its k, \"3\", is not an integer"),
    (lambda c: c.update(k=0), "its k, 0, is not an integer"),
    (lambda c: c["scorer"].update(kind="torch"), "kind \"torch\""),
    (lambda c: c["scorer"].update(kind=["linear"]), r"kind, \[\"linear\"\], is not"),
    (lambda c: c["scorer"].pop("kind"), r"kind, null, is not a name"),
    (lambda c: c["scorer"].update(intercept=10**400), "finite intercept"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0, -10**400]), "finite coef"),
    (lambda c: c.update(classes=[0, 10**400]), "two distinct labels"),
    (lambda c: c.update(k=10**400), r"its k, 1000000000000000000000000000000000000000"
                                    r"\.\.\. \(401 characters\)"),
    (lambda c: c["scorer"].update(coef=[]), "finite coefficients"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0, "x"]), "finite coefficients"),
    (lambda c: c["scorer"].update(intercept=None), "finite intercept"),
    (lambda c: c.pop("scorer"), "no scorer"),
    (lambda c: c.update(classes=[1, 1]), "two distinct labels"),
    (lambda c: c.update(classes=[[0], 1]), "two distinct labels"),
    (lambda c: c.update(feature_names_in=["a", "b"]),
     r"its feature_names_in must be one distinct string per feature \(3 "
     r"coefficients\)"),
    (lambda c: c.update(feature_names_in=["a", "a", "b"]), "one distinct string"),
    (lambda c: c.update(n_fit_groups=0), "n_fit_groups must be a positive integer"),
    (lambda c: c.update(n_fit_groups=2.0), "n_fit_groups must be a positive integer"),
    (lambda c: c.update(n_fit_groups=True), "n_fit_groups must be a positive integer"),
    # a shift is format version 2's: a reader of version 1 would ignore it
    (lambda c: c["scorer"].update(shift=[0.0, 0.0, 0.0]),
     r"its linear scorer has a shift, which format version 1 does not have"),
    # keys of the scorer that this skpapk does not know, named
    (lambda c: c["scorer"].update(offset=1.0),
     r"its linear scorer has the key\(s\) \"offset\", which this skpapk does "
     r"not know"),
    (lambda c: c.update(format_version=2, scorer={
        "kind": "lightgbm", "booster": "tree", "num_iteration": None, "x": 1,
        "y": 2}), r"its lightgbm scorer has the key\(s\) \"x\", \"y\", which"),
])
def test_invalid_model_files(tmp_path, change, message):
    content = _valid()
    assert load_ranker(_write(tmp_path, content)).n_features_in_ == 3
    change(content)
    with pytest.raises(ValueError, match=message):
        load_ranker(_write(tmp_path, content))


def test_invalid_metadata_names_each_faulty_entry(tmp_path):
    content = _valid()
    content.update(n_fit_groups=0)
    with pytest.raises(ValueError, match=r"\(its n_fit_groups must be a "
                       r"positive integer\)\.$") as exc:
        load_ranker(_write(tmp_path, content))
    assert "classes" not in str(exc.value) and "feature_names_in" not in str(exc.value)
    content.update(classes=[1, 1])
    with pytest.raises(ValueError, match=r"\(its classes must be two distinct "
                       r"labels, its n_fit_groups must be a positive "
                       r"integer\)\.$"):
        load_ranker(_write(tmp_path, content))


def test_file_larger_than_the_memory_share_is_refused_before_reading(
        tmp_path, monkeypatch):
    ranker = PApKRanker(k=1).fit([[0.0], [1.0]], [0, 1])
    path = tmp_path / "model.json"
    save_ranker(ranker, path)
    size = path.stat().st_size
    reads = []
    real_open = open

    def counting_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        if os.fspath(file) != os.fspath(path):
            return handle
        return type("Counted", (), {
            "__enter__": lambda self: self, "fileno": handle.fileno,
            "__exit__": lambda self, *exc: handle.close(),
            "read": lambda self, *a: reads.append(a) or handle.read(*a)})()

    monkeypatch.setattr("builtins.open", counting_open)
    # exactly at the share: read; one byte over it: refused, nothing read
    monkeypatch.setattr("skpapk.io._json.physical_memory", lambda: 4 * size)
    assert load_ranker(path).k == 1 and len(reads) == 1
    monkeypatch.setattr("skpapk.io._json.physical_memory", lambda: 4 * size - 4)
    with pytest.raises(ValueError, match=r"model\.json is .* GiB, more than a "
                       r"model file may be here \(1/4 of the"):
        load_ranker(path)
    assert len(reads) == 1
    # where the memory is unknown, nothing is refused for its size
    monkeypatch.setattr("skpapk.io._json.physical_memory", lambda: None)
    assert load_ranker(path).k == 1


def test_not_json_missing_and_folder(tmp_path):
    with pytest.raises(ValueError, match="not JSON"):
        load_ranker(_write(tmp_path, "user,label\n1,2\n"))
    # a JSON string is not shown as if it were the reason
    with pytest.raises(ValueError, match=r"\(no \"format\": \"skpapk-model\""):
        load_ranker(_write(tmp_path, '"hello"'))
    with pytest.raises(ValueError, match="nested too deeply"):
        load_ranker(_write(tmp_path, "[" * 100_000))
    with pytest.raises(FileNotFoundError):
        load_ranker(tmp_path / "nope.json")
    with pytest.raises(IsADirectoryError, match="is a folder"):
        load_ranker(tmp_path)
    with pytest.raises(TypeError, match="'path' parameter"):
        load_ranker(3)


def test_lightgbm_booster_in_its_own_text_format(tmp_path, data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    order = np.argsort(groups, kind="stable")
    sizes = np.bincount(groups)
    ranker = lightgbm.LGBMRanker(n_estimators=15, num_leaves=4, min_child_samples=2,
                                 verbose=-1, random_state=0)
    ranker.fit(X[order], y[order], group=sizes)
    path = tmp_path / "m.json"
    with pytest.raises(ValueError, match="has no k: pass k"):
        save_ranker(ranker, path)
    save_ranker(ranker, path, k=3)
    content = json.loads(path.read_text())
    assert content["scorer"]["booster"].startswith("tree\nversion=")
    model = load_ranker(path)
    np.testing.assert_allclose(model.decision_function(X), ranker.predict(X),
                               rtol=1e-12)
    # the repr said scorer=<skpapk.io._scorers._LightGBMScorer object at 0x...>
    assert repr(model) == ("SavedRanker(k=3, metadata={}, scorer=<LightGBM "
                           "booster of 3 features, 15 trees>)")
    # best_iteration_ is kept: a booster with early stopping predicts with it
    ranker._best_iteration = ranker.booster_.best_iteration = 5  # as early stopping
    save_ranker(ranker, path, k=3)
    np.testing.assert_allclose(load_ranker(path).decision_function(X),
                               ranker.predict(X, num_iteration=5), rtol=1e-12)
    content = json.loads(path.read_text())
    text = content["scorer"]["booster"]
    content["scorer"]["booster"] = "tree\nnot a model"
    with pytest.raises(ValueError, match="booster's header must hold"):
        load_ranker(_write(tmp_path, content))
    content["scorer"].update(booster=text, num_iteration=True)  # not a count
    with pytest.raises(ValueError, match="positive num_iteration"):
        load_ranker(_write(tmp_path, content))
    content["scorer"].update(num_iteration=6)  # the text holds the 5 kept
    with pytest.raises(ValueError, match="more than its booster's 5 trees"):
        load_ranker(_write(tmp_path, content))
    with pytest.raises(TypeError, match="without feature scaling"):
        save_ranker(Pipeline([("s", MinMaxScaler().fit(X)), ("m", ranker)]), path)


def test_unsavable_rankers(data, tmp_path):
    X, y, groups = data
    model = HistGradientBoostingClassifier(max_iter=3).fit(X, y)
    with pytest.raises(TypeError, match="cannot be saved as plain data"):
        save_ranker(model, tmp_path / "m.json", k=3)
    poly = Pipeline([("p", PolynomialFeatures()), ("s", StandardScaler()),
                     ("m", LogisticRegression())])
    with pytest.raises(TypeError, match="one MinMaxScaler or StandardScaler.*"
                                        "PolynomialFeatures"):
        save_ranker(poly.fit(X, y), tmp_path / "m.json", k=3)
    with pytest.raises(Exception, match="not fitted"):
        save_ranker(PApKRanker(), tmp_path / "m.json")
    assert list(tmp_path.iterdir()) == []
    saved = tmp_path / "saved.json"
    save_ranker(PApKRanker(k=3).fit(X, y, groups=groups), saved)
    with pytest.raises(TypeError, match="A SavedRanker is a file's model "
                                        "already: copy that file"):
        save_ranker(load_ranker(saved), tmp_path / "again.json")
    assert [p.name for p in tmp_path.iterdir()] == ["saved.json"]


# --------------------------------------------------------------------------
# The booster's text is checked before LightGBM reads it: LightGBM cuts the
# trees at tree_sizes' offsets and reads them in threads (a cut file
# crashed the process) and follows child indices unchecked
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def booster_texts(data):
    lightgbm = pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    X, y, groups = data
    order = np.argsort(groups, kind="stable")
    lambdarank = lightgbm.LGBMRanker(n_estimators=6, num_leaves=4,
                                     min_child_samples=2, verbose=-1)
    lambdarank.fit(X[order], y[order], group=np.bincount(groups))
    papk = PApKBoostRanker(k=3, n_estimators=6, num_leaves=4,
                           min_child_samples=2).fit(X, y, groups=groups)
    constant = lightgbm.train({"objective": "binary", "verbose": -1},
                              lightgbm.Dataset(np.ones((30, 3)), np.arange(30) % 2),
                              num_boost_round=2)  # trees of one leaf
    with pytest.warns(UserWarning):  # no feature can be split: a constant model
        flat = PApKBoostRanker(k=3, n_estimators=3).fit(np.ones((40, 3)), y[:40],
                                                        groups=groups[:40])
    # trained with monotone constraints: a header line more
    monotone = PApKBoostRanker(k=3, n_estimators=6, num_leaves=4,
                               min_child_samples=2,
                               monotone_constraints=[1, -1, 0]).fit(
                                   X, y, groups=groups)
    return {"lambdarank": lambdarank.booster_.model_to_string(),
            "monotone": monotone.booster_.model_to_string(),
            "constant": flat.booster_.model_to_string(),
            "papk": papk.booster_.model_to_string(),
            "one leaf": constant.model_to_string(),
            "categorical": _categorical_ranker(data).booster_.model_to_string()}


def _categorical_ranker(data):
    """A PApKBoostRanker whose trees split column 0, 40 integer-coded
    categories (the relevant rows' even), as categories: each split's
    bitset is two 32-bit words."""
    from skpapk import PApKBoostRanker

    X, y, groups = data
    rng = np.random.default_rng(0)
    X = X.copy()
    X[:, 0] = np.where(y > 0, rng.integers(0, 20, len(y)) * 2,
                       rng.integers(0, 40, len(y)))
    return PApKBoostRanker(k=3, n_estimators=6, num_leaves=4,
                           min_child_samples=2, categorical_feature=[0],
                           min_data_per_group=2, cat_smooth=1.0).fit(
                               X, y, groups=groups)


@pytest.mark.parametrize("name", ["lambdarank", "papk", "one leaf", "constant",
                                  "categorical", "monotone"])
def test_booster_text_as_lightgbm_writes_it_passes(booster_texts, name):
    text = booster_texts[name]
    assert check_booster_text(text, 3) == text.count("\nTree=") > 0
    assert ("\nmonotone_constraints=1 -1 0\n" in text) == (name == "monotone")
    assert ("\nnum_cat=1\n" in text) == (name == "categorical")
    assert check_booster_text(text) == check_booster_text(text, 3)  # its header's
    with pytest.raises(ValueError, match="ranker of 4 features"):
        check_booster_text(text, 4)


@pytest.mark.parametrize("name", ["lambdarank", "papk"])
def test_booster_text_cut_anywhere_is_refused(booster_texts, name):
    text = booster_texts[name]
    end = text.index("end of trees") + len("end of trees\n")
    for cut_at in np.linspace(0, end - 1, 300).astype(int):
        with pytest.raises(ValueError):
            check_booster_text(text[:cut_at], 3)


def _first_tree(text, key, value):
    """``text`` with tree 0's ``key`` line set to ``value`` and tree_sizes
    kept consistent (so that only the edit is wrong)."""
    head, _, rest = text.partition("\n\nTree=0\n")
    tree, _, tail = rest.partition("\n\n\n")
    lines = [f"{key}={value}" if line.startswith(key + "=") else line
             for line in tree.split("\n")]
    tree = "\n".join(lines)
    sizes = head.split("tree_sizes=")[1].split(" ")
    sizes[0] = str(len(f"Tree=0\n{tree}\n\n\n"))
    head = head.split("tree_sizes=")[0] + "tree_sizes=" + " ".join(sizes)
    return f"{head}\n\nTree=0\n{tree}\n\n\n{tail}"


@pytest.mark.parametrize("name, edit, message", [
    # children: out of range, a cycle (back to the root), a leaf twice
    ("papk", ("left_child", "500 -2 -3"), "do not form a binary tree"),
    ("papk", ("right_child", "0 -3 -4"), "do not form a binary tree"),
    ("papk", ("left_child", "-1 -1 -3"), "do not form a binary tree"),
    ("papk", ("split_feature", "0 3 1"), "feature it does not have"),
    ("papk", ("split_feature", "0 1_0 1"), "not a number"),
    ("papk", ("split_feature", "0 1"), "2 values, not 3"),
    ("papk", ("threshold", "0.5 nan 1"), "not a number"),
    ("papk", ("threshold", "0.5 1e999 1"), "out of range"),
    # a categorical split without a bitset; missing-value type 3
    ("papk", ("decision_type", "1 2 2"), "one of its 0 category bitsets"),
    ("papk", ("decision_type", "16 2 2"), "unknown decision_type"),
    ("papk", ("decision_type", "14 2 2"), "unknown decision_type"),
    ("papk", ("num_cat", "1"), "not a tree as LightGBM writes it"),
    ("papk", ("is_linear", "1"), "tree 0 is a linear tree"),
    ("papk", ("is_linear", "2"), "not a tree as LightGBM writes it"),
    ("papk", ("num_leaves", "3"), "values, not"),
    ("papk", ("leaf_count", "1 2 9999999999 4"), "out of range"),
    # a split's bitset index out of range, or two splits on one bitset
    ("categorical", ("threshold", "1 -2.4 -3.1"), "do not each point at one of its 1"),
    ("categorical", ("decision_type", "9 3 2"), "do not each point at one of its 1"),
    ("categorical", ("decision_type", "8 2 2"), "do not each point at one of its 1"),
    # the bitsets' keys left over without categorical splits
    ("categorical", ("num_cat", "0"), "not a tree as LightGBM writes it"),
    ("categorical", ("num_cat", "2"), "cat_boundaries holds 2 values, not 3"),
    ("categorical", ("cat_boundaries", "0 3"), "cat_threshold are not as LightGBM"),
    ("categorical", ("cat_boundaries", "1 2"), "cat_threshold are not as LightGBM"),
    ("categorical", ("cat_threshold", "1431392261 4294967296"), "not as LightGBM"),
    ("categorical", ("cat_threshold", "1431392261 -20"), "not as LightGBM"),
    ("categorical", ("cat_threshold", "1431392261 20 1"), "not as LightGBM"),
])
def test_booster_text_edited_trees_are_refused(booster_texts, name, edit,
                                               message):
    # trees of 4 leaves; the categorical one splits on its bitset at the root
    text = booster_texts[name]
    tree = text.split("Tree=0\n")[1].split("\n\n\n")[0].split("\n")
    assert "num_leaves=4" in tree and (name == "papk") != (
        {"decision_type=9 2 2", "cat_boundaries=0 2"} <= set(tree))
    assert check_booster_text(_first_tree(text, "shrinkage", "1"), 3) == 6
    with pytest.raises(ValueError, match=message):
        check_booster_text(_first_tree(text, *edit), 3)


def test_booster_that_splits_missing_values_apart_is_saved(tmp_path):
    # LightGBM writes threshold=inf for "missing or not": save_ranker refused
    # such a model ("threshold holds a value that is not a number")
    from skpapk import PApKBoostRanker

    rng = np.random.default_rng(0)
    y = (rng.random(600) < 0.3).astype(int)
    X = rng.normal(size=(600, 2))
    X[y == 1, 0] = np.nan  # missing values mark the relevant rows
    ranker = PApKBoostRanker(k=5, n_estimators=5).fit(
        X, y, groups=np.repeat(np.arange(20), 30))
    text = ranker.booster_.model_to_string()
    assert "threshold=inf " in text
    save_ranker(ranker, tmp_path / "m.json")
    np.testing.assert_array_equal(
        load_ranker(tmp_path / "m.json").decision_function(X), ranker.predict(X))
    # only a split's threshold may be infinite
    tree = text.split("Tree=0\n")[1].split("\n\n\n")[0].split("\n")
    for key in ("threshold", "split_gain", "leaf_value"):
        values = next(x for x in tree if x.startswith(key + "=")).split("=")[1]
        edited = _first_tree(text, key, "-inf " + values.partition(" ")[2])
        if key == "threshold":
            assert check_booster_text(edited, 2) == 5
        else:
            with pytest.raises(ValueError, match=f"{key} holds a value that is not"):
                check_booster_text(edited, 2)


def test_saved_model_warns_without_groups_as_the_ranker_did(tmp_path, data):
    from skpapk.exceptions import MissingGroupsWarning

    X, y, groups = data
    ranker = PApKRanker(k=3).fit(X, y, groups=groups)
    save_ranker(make_pipeline(StandardScaler(), PApKRanker(k=3)).fit(
        X, y, papkranker__groups=groups), tmp_path / "pipe.json")
    save_ranker(ranker, tmp_path / "m.json")
    assert json.loads((tmp_path / "m.json").read_text())["n_fit_groups"] == 8
    for path in ("m.json", "pipe.json"):
        model = load_ranker(tmp_path / path)
        assert model.metadata == {}
        with pytest.warns(MissingGroupsWarning, match="fitted on 8 groups"):
            assert model.score(X, y) == ranker.score(X, y)  # one list
    # fitted on one group (or a file without the count): no warning
    one = groups == 0
    save_ranker(PApKRanker(k=3).fit(X[one], y[one]), tmp_path / "one.json")
    content = _valid()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingGroupsWarning)
        load_ranker(tmp_path / "one.json").score(X[one], y[one])
        load_ranker(_write(tmp_path, content)).score(X, y)


@pytest.mark.parametrize("make", ["skpapk", "lightgbm"])
def test_categorical_splits_round_trip(tmp_path, data, make):
    lightgbm = pytest.importorskip("lightgbm")
    ranker = _categorical_ranker(data)
    X, y, groups = data
    X = X.copy()
    X[:, 0] = np.arange(len(y)) % 40
    if make == "lightgbm":
        order = np.argsort(groups, kind="stable")
        ranker = lightgbm.LGBMRanker(
            n_estimators=4, num_leaves=4, min_child_samples=2,
            min_data_per_group=2, cat_smooth=1.0, verbose=-1).fit(
                X[order], y[order], group=np.bincount(groups),
                categorical_feature=[0])
    save_ranker(ranker, tmp_path / "m.json", k=3)
    assert '\\nnum_cat=1\\n' in (tmp_path / "m.json").read_text()
    model = load_ranker(tmp_path / "m.json")
    # seen and unseen categories, a negative code and NaN (LightGBM: missing)
    rows = np.repeat(X[:6], 5, axis=0)
    rows[:, 0] = [-1, *range(20), 39, 45, 1000, np.nan, 1e9, 3.7, 2.5, -7, 60]
    expected = (ranker.predict(rows) if make == "skpapk"
                else ranker.predict(rows, raw_score=True))
    np.testing.assert_array_equal(model.decision_function(rows), expected)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\n", "\r\n"), "not LightGBM's text format"),
    (lambda t: t.replace("Column_0", "Colümn_0"), "not ASCII"),
    (lambda t: t.replace("\n", "\0\n", 1), "not LightGBM's text format"),
    (lambda t: t.replace("label_index=0\n", "label_index=0\naverage_output\n"),
     "averages its trees"),
    (lambda t: t.replace("label_index=0\n", "label_index=0\nlinear_tree\n"),
     "header must hold"),
    (lambda t: t.replace("version=v4", "version=v3"), "not a LightGBM 4 ranker"),
    # a multiclass model: named as such (it was "not a ranker of 3 features")
    (lambda t: t.replace("num_class=1", "num_class=2"),
     r"model of num_class='2' and num_tree_per_iteration='1' \(a multiclass"),
    # LightGBM's dump_model parsed a feature's infos unchecked: a crash
    (lambda t: re.sub("feature_infos=[^ ]*", "feature_infos=[abc", t),
     "not a LightGBM 4 ranker"),
    (lambda t: re.sub("feature_infos=[^ ]*", "feature_infos=1::2", t),
     "not a LightGBM 4 ranker"),
    (lambda t: t.replace("tree_sizes=", "tree_sizes=1"), "does not start or end"),
    (lambda t: t.replace("tree_sizes=", "tree_sizes=-"), "not byte counts"),
    (lambda t: t.replace("end of trees", "end of tree"), "do not end where"),
])
def test_booster_text_edited_header_is_refused(booster_texts, edit, message):
    with pytest.raises(ValueError, match=message):
        check_booster_text(edit(booster_texts["papk"]), 3)


@pytest.mark.parametrize("objective", ["huber", "poisson", "cross_entropy",
                                       "regression sqrt",
                                       # (security review) LightGBM refused it
                                       # and printed its own error line
                                       "binary sigmoid:0", "binary sigmoid:1e999",
                                       "binary sigmoid:-1"])
def test_booster_of_an_objective_without_ranking_scores_names_it(booster_texts,
                                                                objective):
    # it said "not a LightGBM 4 ranker of 3 features" (it had 3 features)
    text = booster_texts["lambdarank"]
    assert "\nobjective=lambdarank" in text
    edited = re.sub("\nobjective=[^\n]*", f"\nobjective={objective}", text)
    # (review) the whole line: "regression sqrt" was shown as "regression"
    with pytest.raises(ValueError, match=f"trained with objective='{objective}'"):
        check_booster_text(edited, 3)


_MONOTONE = ("monotone_constraints line must hold -1, 0 or 1 for each of its 3 "
             "features")


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("=1 -1 0\n", "=1 -1\n"), _MONOTONE),
    (lambda t: t.replace("=1 -1 0\n", "=1 -1 0 0\n"), _MONOTONE),
    (lambda t: t.replace("=1 -1 0\n", "=1 -1 2\n"), _MONOTONE),
    (lambda t: t.replace("=1 -1 0\n", "=1 -1 x\n"), _MONOTONE),
    (lambda t: t.replace("=1 -1 0\n", "=\n"), _MONOTONE),
    # LightGBM writes the line between the names and the infos
    (lambda t: re.sub(r"(feature_names=.*\n)(monotone_constraints=.*\n)",
                      r"\2\1", t), "header must hold"),
])
def test_booster_text_edited_monotone_constraints_are_refused(booster_texts, edit,
                                                              message):
    text = booster_texts["monotone"]
    edited = edit(text)
    assert edited != text
    with pytest.raises(ValueError, match=message):
        check_booster_text(edited, 3)


def test_model_trained_with_monotone_constraints_is_saved(tmp_path, data):
    # its booster's header has a line more; the trees are plain trees
    pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    X, y, groups = data
    ranker = PApKBoostRanker(k=3, n_estimators=6, num_leaves=4,
                             min_child_samples=2,
                             monotone_constraints=[1, -1, 0]).fit(
                                 X, y, groups=groups)
    save_ranker(ranker, tmp_path / "m.json", k=3)
    model = load_ranker(tmp_path / "m.json")
    np.testing.assert_array_equal(model.decision_function(X),
                                  ranker.decision_function(X))


def test_cut_booster_in_a_model_file_is_an_error_not_a_crash(tmp_path, data,
                                                             booster_texts):
    content = _valid()
    text = booster_texts["papk"]
    content["scorer"] = {"kind": "lightgbm", "booster": text[:len(text) // 2],
                         "num_iteration": None}
    with pytest.raises(ValueError, match=r"not a skpapk model file \(tree \d "
                                         r"does not start or end"):
        load_ranker(_write(tmp_path, content))


# --------------------------------------------------------------------------
# Faults found by trying the module as an attacker and as a user would
# --------------------------------------------------------------------------


def test_lightgbm_reads_only_the_checked_trees(tmp_path, data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    ranker = lightgbm.LGBMRanker(n_estimators=5, num_leaves=4, min_child_samples=2,
                                 verbose=-1).fit(X, y, group=np.bincount(groups))
    path = tmp_path / "m.json"
    save_ranker(ranker, path, k=3)
    content = json.loads(path.read_text())
    assert content["scorer"]["booster"].endswith("\nend of trees\n")  # no trailer
    # a malformed parameters section after the trees segfaulted LightGBM
    content["scorer"]["booster"] += "\nparameters:\nfoo\nend of parameters\n"
    model = load_ranker(_write(tmp_path, content))
    np.testing.assert_allclose(model.decision_function(X), ranker.predict(X))


@pytest.mark.parametrize("objective", ["binary", "pairwise_logistic"])
def test_boosted_ranker_round_trip_is_raw_scores(tmp_path, data, objective):
    pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    X, y, groups = data
    ranker = PApKBoostRanker(k=3, n_estimators=8, num_leaves=4, min_child_samples=2,
                             objective=objective).fit(X, y, groups=groups)
    save_ranker(ranker, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    # binary: probabilities (saturating near 1) tied rows the ranker told apart
    np.testing.assert_allclose(model.decision_function(X),
                               ranker.decision_function(X), rtol=1e-12)
    assert np.array_equal(model.recommend(X, groups).indices,
                          ranker.recommend(X, groups).indices)


@pytest.mark.parametrize("scaler", [StandardScaler(with_mean=False),
                                    StandardScaler(with_std=False),
                                    MinMaxScaler(feature_range=(-2, 3))])
def test_scaler_settings_are_folded_exactly(tmp_path, data, scaler):
    X, y, groups = data
    pipe = Pipeline([("s", scaler), ("m", PApKRanker(k=3))]).fit(
        X, y, m__groups=groups)
    save_ranker(pipe, tmp_path / "m.json")
    rows = np.vstack([X, X * 3 - 5])  # also outside the training range
    model = load_ranker(tmp_path / "m.json")
    np.testing.assert_allclose(model.decision_function(rows),
                               pipe.decision_function(rows), rtol=1e-9, atol=1e-9)
    import scipy.sparse as sp  # the shift is not subtracted from sparse rows

    np.testing.assert_allclose(model.decision_function(sp.csr_matrix(rows)),
                               pipe.decision_function(rows), rtol=1e-9, atol=1e-9)


def _lightgbm_models(X, y):
    lightgbm = pytest.importorskip("lightgbm")
    three = np.arange(X.shape[0]) % 3
    kw = dict(n_estimators=3, num_leaves=4, min_child_samples=2, verbose=-1)
    return {
        "random forest": lightgbm.LGBMRegressor(
            boosting_type="rf", subsample=0.8, subsample_freq=1, **kw).fit(X, y),
        "multiclass": lightgbm.LGBMClassifier(**kw).fit(X, three),
        "linear trees": lightgbm.LGBMRegressor(linear_tree=True, **kw).fit(X, y),
        "non-ASCII names": lightgbm.LGBMRegressor(**kw).fit(
            pd.DataFrame(X, columns=["größe", "b", "c"]), y),
    }


@pytest.mark.parametrize("name, message", [
    ("random forest", "averages its trees"),
    ("multiclass", "num_class=.3. .*not of one score per row .save_ranker saves"),
    ("linear trees", "tree 0 is a linear tree"),
    ("non-ASCII names", "not ASCII .*: fit on columns renamed to ASCII"),
])
def test_boosters_that_cannot_be_loaded_are_not_saved(tmp_path, data, name,
                                                      message):
    X, y, _ = data
    model = _lightgbm_models(X, y)[name]
    with pytest.raises(TypeError, match=f"cannot be saved as plain data: .*{message}"):
        save_ranker(model, tmp_path / "m.json", k=3)
    assert list(tmp_path.iterdir()) == []


def test_models_saved_wrong_are_refused(tmp_path, data):
    from sklearn.linear_model import SGDOneClassSVM

    X, y, groups = data
    multi = LogisticRegression(max_iter=500).fit(X, np.arange(X.shape[0]) % 3)
    with pytest.raises(TypeError, match="3 rows of coef_ \\(a multiclass model\\)"):
        save_ranker(multi, tmp_path / "m.json", k=3)
    with pytest.raises(TypeError, match="clip=True"):
        save_ranker(Pipeline([("s", MinMaxScaler(clip=True)),
                              ("m", PApKRanker(k=3))]).fit(X, y, m__groups=groups),
                    tmp_path / "m.json")
    # PLS centres X before coef_; it has predict, no decision_function
    from sklearn.cross_decomposition import PLSRegression

    with pytest.raises(TypeError, match="its predict on rows like its training"):
        save_ranker(PLSRegression(2).fit(X + 5, y.astype(float)),
                    tmp_path / "m.json", k=3)
    # its decision_function subtracts offset_, which coef_ does not hold
    with pytest.raises(TypeError, match="decision_function on rows like its "
                                        "training rows is not what"):
        save_ranker(SGDOneClassSVM(random_state=0).fit(X), tmp_path / "m.json", k=3)
    lightgbm = pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    frame = pd.DataFrame({"size": pd.Categorical(np.resize([10, 20, 30], len(y)),
                                                 ordered=True), "f": X[:, 0]})
    boosted = PApKBoostRanker(k=3, n_estimators=3, min_child_samples=2)
    with pytest.raises(TypeError, match="'category' columns"):
        save_ranker(boosted.fit(frame, y, groups=groups), tmp_path / "m.json")
    assert lightgbm and list(tmp_path.iterdir()) == []


def test_loaded_model_takes_the_input_the_saved_one_took(tmp_path, data):
    import scipy.sparse as sp

    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    linear = PApKRanker(k=3).fit(X, y, groups=groups)
    save_ranker(linear, tmp_path / "l.json")
    csr = sp.csr_matrix(X)
    np.testing.assert_allclose(load_ranker(tmp_path / "l.json").decision_function(
        csr), linear.decision_function(csr))
    Xn = X.copy()
    Xn[::4, 1] = np.nan  # boosters handle missing values; linear models do not
    frame = pd.DataFrame(Xn, columns=["a b", "c", "d"])  # LightGBM renames 'a b'
    boosted = lightgbm.LGBMRanker(n_estimators=5, num_leaves=4, min_child_samples=2,
                                  verbose=-1).fit(frame, y, group=np.bincount(groups))
    save_ranker(boosted, tmp_path / "b.json", k=3)
    model = load_ranker(tmp_path / "b.json")
    assert not hasattr(model, "feature_names_in_")  # LightGBM's are not X's
    with pytest.warns(UserWarning, match="fitted without feature names"):
        np.testing.assert_allclose(model.decision_function(frame),
                                   boosted.predict(frame))
    for rows in (Xn, sp.csr_matrix(np.nan_to_num(Xn))):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = model.decision_function(rows)
        with warnings.catch_warnings():  # LightGBM's: fitted with names
            warnings.simplefilter("ignore", UserWarning)
            np.testing.assert_allclose(got, boosted.predict(rows))
    with pytest.raises(ValueError, match="NaN"):
        load_ranker(tmp_path / "l.json").decision_function(Xn)


@pytest.mark.parametrize("metadata, message", [
    ({1: "a"}, r"metadata has the key 1, not a string"),
    ({"a": {"b": {True: 1}}}, r"metadata\['a'\]\['b'\] has the key True"),
    ({"t": (1, 2)}, r"metadata\['t'\] holds a tuple.*\(use a list\)"),
    ({"a": np.arange(3)}, r"holds a ndarray.*\(use a list\)"),
    ({"x": [1, float("inf")]}, r"metadata\['x'\]\[1\] is inf"),
    ({"x": 10**5000}, "not JSON data: Exceeds the limit"),
])
def test_metadata_that_would_not_come_back_as_given_is_refused(tmp_path, ranker,
                                                               metadata, message):
    with pytest.raises(ValueError, match=message):
        save_ranker(ranker, tmp_path / "m.json", metadata=metadata)
    assert list(tmp_path.iterdir()) == []


def test_sparse_coef_and_str_subclass_keys(tmp_path, data):
    import enum

    class Kind(str, enum.Enum):
        A = "a"

    X, y, _ = data
    model = LogisticRegression().fit(X, y)
    expected = model.decision_function(X)
    model.sparsify()  # coef_ as a sparse matrix
    save_ranker(model, tmp_path / "m.json", k=3, metadata={Kind.A: [Kind.A]})
    loaded = load_ranker(tmp_path / "m.json")
    np.testing.assert_allclose(loaded.decision_function(X), expected)
    assert loaded.metadata == {"a": ["a"]}  # as JSON writes a str


def test_metadata_nested_or_circular_and_numpy_scalars(tmp_path, ranker):
    deep, circular = [], []
    for _ in range(5000):
        deep = [deep]
    circular.append(circular)
    for value in (deep, circular):
        with pytest.raises(ValueError, match="nested more than 100 levels"):
            save_ranker(ranker, tmp_path / "m.json", metadata={"v": value})
    metadata = {"n": np.int64(3), "x": np.float32(0.5), "b": np.bool_(True),
                "s": np.str_("a"), "nested": {"list": [None, "t"]}}
    save_ranker(ranker, tmp_path / "m.json", metadata=metadata)
    assert load_ranker(tmp_path / "m.json").metadata == {
        "n": 3, "x": 0.5, "b": True, "s": "a", "nested": {"list": [None, "t"]}}


def test_metadata_longdouble_is_a_number_when_a_float64_holds_it(tmp_path, ranker):
    # item() of a longdouble is a longdouble: "holds a longdouble, which is
    # not JSON data", though numpy scalars are documented as stored
    save_ranker(ranker, tmp_path / "m.json",
                metadata={"x": np.longdouble(0.5), "y": [np.longdouble(-3)]})
    assert load_ranker(tmp_path / "m.json").metadata == {"x": 0.5, "y": [-3.0]}
    finer = np.longdouble(1) + np.finfo(np.longdouble).eps
    if float(finer) != finer:  # a platform whose longdouble is wider
        # (review) the value was printed as a float64, "1.0"
        # (numpy 1 names it float128)
        with pytest.raises(ValueError, match=rf"is the {type(finer).__name__} "
                                             rf"{finer!s}, which no float64 holds "
                                             rf"exactly"):
            save_ranker(ranker, tmp_path / "n.json", metadata={"x": finer})
        # (review) it said "inf, not a finite number"
        with pytest.raises(ValueError, match=r"1e\+400, beyond float64's range"):
            save_ranker(ranker, tmp_path / "n.json",
                        metadata={"x": np.longdouble("1e400")})
    with pytest.raises(ValueError, match="not a finite number"):
        save_ranker(ranker, tmp_path / "n.json",
                    metadata={"x": np.longdouble("inf")})


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('"k": 3', '"k": 3, "k": 4'), "the key \"k\" appears twice"),
    (lambda t: t.replace('"k": 3', '"k": 3, "x": NaN'), "NaN is not JSON"),
    (lambda t: t.replace('"k": 3', '"k": 3, "x": -Infinity'), "-Infinity is not"),
    # numbers beyond float64 overflow to infinity (metadata, nested too)
    (lambda t: t.replace('"k": 3', '"k": 3, "x": 1e999'),
     r"the number 1e999 is beyond float64 \(it would be infinity"),
    (lambda t: t.replace('"k": 3', '"k": 3, "x": {"y": [0.5, -2.5E+400]}'),
     "the number -2.5E\\+400 is beyond float64"),
    (lambda t: t.replace('"intercept": 0.0', '"intercept": 1.8e308'),
     "the number 1.8e308 is beyond"),
    # Python's words: "the limit (4300 digits)"; 3.10's "the limit (4300)"
    (lambda t: t.replace('"k": 3', '"k": ' + "9" * 5000),
     r"Exceeds the limit \(4300"),
    (lambda t: t.replace('"k": 3', '"k": 3, "classes": ["1", 1]'),
     "two distinct labels"),
])
def test_edited_json_is_refused(tmp_path, edit, message):
    path = _write(tmp_path, _valid())
    path.write_text(edit(path.read_text()))
    with pytest.raises(ValueError, match=message) as exc:
        load_ranker(path)
    assert str(exc.value).startswith(f"{path} is not a skpapk model file")


def test_text_encodings_and_files_that_are_not_regular(tmp_path):
    path = _write(tmp_path, _valid())
    text = path.read_text()
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # an editor's BOM
    assert load_ranker(path).k == 3
    path.write_bytes(text.encode("utf-16"))
    with pytest.raises(ValueError, match="not UTF-8 text"):
        load_ranker(path)
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        load_ranker(fifo)  # opening it would wait for a writer


def test_writes_name_the_path_and_keep_the_umask(tmp_path, ranker):
    with pytest.raises(IsADirectoryError, match=f"{tmp_path} is a folder"):
        save_ranker(ranker, tmp_path)
    missing = tmp_path / "no" / "m.json"
    with pytest.raises(FileNotFoundError, match=f"folder {tmp_path / 'no'} of "
                                                f"{missing} does not exist"):
        save_ranker(ranker, missing)
    old = os.umask(0o027)
    try:
        save_ranker(ranker, tmp_path / "m.json")
    finally:
        os.umask(old)
    assert (tmp_path / "m.json").stat().st_mode & 0o777 == 0o640
    (tmp_path / "m.json").chmod(0o600)  # a replaced file keeps its mode
    save_ranker(ranker, tmp_path / "m.json")
    assert (tmp_path / "m.json").stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


@pytest.mark.parametrize("suffix, error", [
    ("/", IsADirectoryError), ("/.", IsADirectoryError),
    ("/../other.json", FileNotFoundError)])
def test_a_path_through_a_file_replaces_nothing(tmp_path, ranker, suffix, error,
                                                monkeypatch):
    # os.path.realpath("m.json/.") is m.json: the file was replaced, though
    # the system names no such path
    target = tmp_path / "m.json"
    target.write_text("precious")
    (tmp_path / "other.json").write_text("precious too")
    with pytest.raises(error, match=re.escape(f"{target}{suffix}")):
        save_ranker(ranker, f"{target}{suffix}")
    assert target.read_text() == "precious"
    assert (tmp_path / "other.json").read_text() == "precious too"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "other.json"]
    # the empty name: the current folder, not its parent's file
    monkeypatch.chdir(tmp_path)
    with pytest.raises(IsADirectoryError, match="'' names a folder"):
        save_ranker(ranker, "")
    assert not [p for p in tmp_path.parent.iterdir() if p.suffix == ".tmp"]
    assert tmp_path.is_dir()


@pytest.mark.parametrize("name", ["m" * 250 + ".json", "\u00e9" * 125 + ".json",
                                  "\U0001f600" * 62 + ".json"])
def test_a_file_name_of_the_longest_length_is_written(tmp_path, ranker, name):
    # the temporary file beside it needs a name the system takes too (255
    # bytes, not characters)
    target = tmp_path / name
    save_ranker(ranker, target)
    assert load_ranker(target).k == ranker.k
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_search_is_refused_with_its_best_estimator_named(tmp_path, data):
    from sklearn.model_selection import GridSearchCV

    X, y, _ = data
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=2).fit(X, y)
    with pytest.raises(TypeError, match=r"a GridSearchCV cannot be saved as "
                       r"plain data: .* Save the search's best_estimator_"):
        save_ranker(search, tmp_path / "m.json", k=3)


def test_pipes_and_devices_are_never_replaced(tmp_path, ranker):
    # save_ranker swapped a FIFO (or, as root, /dev/null) for a regular file
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=f"^{fifo} is not a regular file .* "
                                         f"is not replaced"):
        save_ranker(ranker, fifo)
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_write_errors_name_the_path_not_the_temporary_file(tmp_path, ranker,
                                                           monkeypatch):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "no" / "target.json")
    with pytest.raises(FileNotFoundError, match=f"^{link} links to "
                       f"{tmp_path / 'no' / 'target.json'}, whose folder does "
                       f"not exist"):
        save_ranker(ranker, link)
    from skpapk.utils import _files

    def denied(path, *args):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(_files.os, "open", denied)
    target = tmp_path / "m.json"
    with pytest.raises(PermissionError, match=re.escape(
            f"Permission denied (writing {target} through a temporary file in "
            f"{tmp_path}): '{target}'")):
        save_ranker(ranker, target)


def test_a_name_too_long_is_named_with_overwrite_false_too(tmp_path, ranker):
    # overwrite=False named the temporary file (its link and rename), where
    # overwrite=True named the path given
    target = tmp_path / ("a" * 300 + ".json")
    for overwrite in (True, False):
        with pytest.raises(OSError, match=re.escape(
                f"(writing {target} through a temporary file in {tmp_path})")):
            save_ranker(ranker, target, overwrite=overwrite)
    assert list(tmp_path.iterdir()) == []  # no temporary file left


@pytest.mark.parametrize("hard_links", [True, False])
def test_overwrite_false_keeps_an_existing_file(tmp_path, ranker, monkeypatch,
                                                hard_links):
    from skpapk.utils._files import atomic_write

    if not hard_links:  # e.g. FAT: checked just before the rename
        def no_link(*args):
            raise PermissionError("no hard links here")
        monkeypatch.setattr(os, "link", no_link)
    target = tmp_path / "m.json"
    save_ranker(ranker, target, overwrite=False)  # a new file: written
    assert load_ranker(target).k == ranker.k
    target.write_text("precious")
    with pytest.raises(FileExistsError, match="already exists .* and "
                                              "overwrite=False"):
        save_ranker(ranker, target, overwrite=False)
    assert target.read_text() == "precious"
    # written by someone else while this file was written
    race = tmp_path / "race.txt"
    with pytest.raises(FileExistsError, match="written meanwhile"):
        with atomic_write(race, overwrite=False) as handle:
            race.write_text("theirs")
            handle.write("ours")
    assert race.read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "race.txt"]
    with pytest.raises(ValueError, match="overwrite"):
        save_ranker(ranker, target, overwrite="no")


def test_feature_names_of_a_ranker_fitted_on_an_array(tmp_path, data, ranker):
    # the command line fits on arrays: its files named no column, and a
    # DataFrame of reordered columns was scored by position
    X, y, groups = data
    save_ranker(ranker, tmp_path / "m.json", feature_names=["a", "b", "c"])
    model = load_ranker(tmp_path / "m.json")
    assert list(model.feature_names_in_) == ["a", "b", "c"]
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    np.testing.assert_allclose(model.decision_function(frame),
                               ranker.decision_function(X), rtol=1e-12)
    with pytest.raises(ValueError, match="feature names should match"):
        model.decision_function(frame[["c", "b", "a"]])
    for names, message in [(["a", "b"], "must be 3 distinct strings"),
                           (["a", "a", "b"], "must be 3 distinct strings"),
                           ([1, 2, 3], "must be 3 distinct strings"),
                           ({"a", "b", "c"}, "an ordered sequence"),
                           ({"a": 0, "b": 1, "c": 2}, "an ordered sequence"),
                           (np.array([["a"], ["b"], ["c"]]), "an ordered")]:
        with pytest.raises(ValueError, match=message):
            save_ranker(ranker, tmp_path / "bad.json", feature_names=names)
    fitted = PApKRanker(k=3).fit(frame, y, groups=groups)
    with pytest.raises(ValueError, match="differ from the ranker's "
                                         "feature_names_in_"):
        save_ranker(fitted, tmp_path / "bad.json", feature_names=["x", "y", "z"])
    save_ranker(fitted, tmp_path / "same.json", feature_names=["a", "b", "c"])
    lightgbm = pytest.importorskip("lightgbm")
    order = np.argsort(groups, kind="stable")
    lgbm = lightgbm.LGBMRanker(n_estimators=3, min_child_samples=2, verbose=-1)
    lgbm.fit(frame.iloc[order], y[order], group=np.bincount(groups))
    with pytest.raises(ValueError, match="differ from the ranker's"):
        save_ranker(lgbm, tmp_path / "bad.json", k=3,
                    feature_names=["c", "b", "a"])
    assert not (tmp_path / "bad.json").exists()


class _CountedKey(str):
    """A key that counts its comparisons (str's hash, so a set finds it)."""

    comparisons = 0

    def __eq__(self, other):
        type(self).comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@pytest.mark.parametrize("twice", ["k0", "k1000", "k1999"])
def test_a_key_twice_is_found_in_one_pass(twice):
    # comparisons counted, not time: a key's count per key compared every
    # pair of keys (quadratic: a file of 40,000 keys took 17 s)
    pairs = [(_CountedKey(f"k{i}"), i) for i in range(2000)]
    pairs.append((_CountedKey(twice), -1))
    _CountedKey.comparisons = 0
    with pytest.raises(ValueError, match=f"the key \"{twice}\" appears twice"):
        _unique_keys(pairs)
    assert _CountedKey.comparisons <= 2 * len(pairs)


@pytest.mark.parametrize("twice", [None, "x0", "x19999"])
def test_a_file_of_many_keys_loads_and_a_key_twice_is_named(tmp_path, twice):
    text = json.dumps(_valid())[:-1] + "".join(f', "x{i}": {i}' for i in range(20000))
    text += ("" if twice is None else f', "{twice}": -1') + "}"
    path = _write(tmp_path, text)
    if twice is None:
        metadata = load_ranker(path).metadata
        assert len(metadata) == 20000 and metadata["x19999"] == 19999
    else:
        with pytest.raises(ValueError, match=f"the key \"{twice}\" appears twice"):
            load_ranker(path)


def test_finite_numbers_at_float64s_ends_load(tmp_path):
    text = json.dumps(_valid())[:-1] + ', "x": [1.7976931348623157e308, -5e-324]}'
    assert load_ranker(_write(tmp_path, text)).metadata == {
        "x": [np.finfo(np.float64).max, -5e-324]}


def test_a_shift_is_read_in_format_version_2(tmp_path):
    content = _valid()
    content.update(format_version=2)
    content["scorer"].update(shift=[1.0, 0.0, -1.0])
    model = load_ranker(_write(tmp_path, content))
    np.testing.assert_allclose(model.decision_function(np.eye(3)),
                               [3.0, 4.0, 5.0])  # (X - shift) @ coef


def test_lightgbm_fitted_on_columns_with_spaces_keeps_the_frames_names(tmp_path,
                                                                       data):
    # LightGBM keeps "a b" as "a_b": the DataFrame's names were refused as
    # other columns
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    frame = pd.DataFrame(X, columns=["a b", "c", "d  e"])
    order = np.argsort(groups, kind="stable")
    lgbm = lightgbm.LGBMRanker(n_estimators=3, min_child_samples=2, verbose=-1)
    lgbm.fit(frame.iloc[order], y[order], group=np.bincount(groups))
    assert list(lgbm.feature_names_in_) == ["a_b", "c", "d__e"]
    save_ranker(lgbm, tmp_path / "m.json", k=3, feature_names=frame.columns)
    model = load_ranker(tmp_path / "m.json")
    assert list(model.feature_names_in_) == ["a b", "c", "d  e"]
    np.testing.assert_allclose(model.decision_function(frame),
                               lgbm.predict(frame, raw_score=True))
    for names in (["a b", "d  e", "c"], ["a-b", "c", "d  e"], ["a  b", "c", "d e"]):
        with pytest.raises(ValueError, match=r"differ from the ranker's "
                           r"feature_names_in_ \['a_b', 'c', 'd__e'\].*LightGBM "
                           r"keeps a space of a column name as '_'"):
            save_ranker(lgbm, tmp_path / "bad.json", k=3, feature_names=names)
    assert not (tmp_path / "bad.json").exists()


def test_metadata_nested_beyond_what_save_ranker_writes_is_refused(tmp_path, ranker):
    # load_ranker took 350 levels, and the model's repr (clone, pickle from
    # 900) then failed on a RecursionError; save_ranker writes 99 at most
    def nested(n):
        value = 1
        for _ in range(n):
            value = [value]
        return value

    path = tmp_path / "m.json"
    save_ranker(ranker, path, metadata={"m": nested(99)})
    assert load_ranker(path).metadata["m"] == nested(99)
    # an empty list or object at the last level: saved, so loaded
    for inner in ([], {}):
        value = inner
        for _ in range(99):
            value = [value]
        save_ranker(ranker, path, metadata={"m": value})
        assert load_ranker(path).metadata["m"] == value
    with pytest.raises(ValueError, match="more than 100 levels deep"):
        save_ranker(ranker, tmp_path / "n.json", metadata={"m": nested(100)})
    content = json.loads(path.read_text())
    content["m"] = "DEEP"
    text = json.dumps(content)
    for depth in (100, 350, 5000):  # written by hand: json.dumps recurses
        path.write_text(text.replace('"DEEP"', "[" * depth + "1" + "]" * depth))
        # beyond Python's recursion limit, JSON's own reader refuses it
        with pytest.raises(ValueError, match="nested (more than 100 levels deep "
                                             "|too deeply)"):
            load_ranker(path)


@pytest.mark.parametrize("to_sparse", [sp.csr_matrix, sp.csc_matrix, sp.coo_array])
def test_sparse_rows_keep_the_digits_of_a_shift(tmp_path, data, to_sparse,
                                                monkeypatch):
    # a StandardScaler's mean far from zero: the sparse path computed
    # X @ coef - shift @ coef and lost 3e-7 on scores near 6 (dense: 1e-15)
    X, y, groups = data
    X = X.copy()
    X[:, 0] += 1.7e9
    pipe = Pipeline([("s", StandardScaler()), ("m", PApKRanker(k=3))]).fit(
        X, y, m__groups=groups)
    save_ranker(pipe, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    dense = model.decision_function(X)
    np.testing.assert_allclose(dense, pipe.decision_function(X), rtol=0,
                               atol=1e-12)
    # blocks of a few rows, as a wide matrix gets them
    monkeypatch.setattr(type(model.scorer), "_BLOCK_VALUES", 7)
    # (review) to rounding: BLAS sums blocks of other sizes in other orders
    np.testing.assert_allclose(model.decision_function(to_sparse(X)), dense,
                               rtol=0, atol=1e-12)


def _chain_booster(n_leaves):
    """Booster text of one tree whose every split's left child is a leaf: a
    chain ``n_leaves - 1`` splits deep (a binary tree the checks accept)."""
    m = n_leaves - 1

    def join(values):
        return " ".join(map(str, values))

    tree = "\n".join([
        "Tree=0", f"num_leaves={n_leaves}", "num_cat=0",
        f"split_feature={join([0] * m)}", f"split_gain={join([1] * m)}",
        f"threshold={join(range(m))}", f"decision_type={join([2] * m)}",
        f"left_child={join(~j for j in range(m))}",
        f"right_child={join(j + 1 if j < m - 1 else ~m for j in range(m))}",
        f"leaf_value={join([1] * n_leaves)}", f"leaf_weight={join([1] * n_leaves)}",
        f"leaf_count={join([1] * n_leaves)}", f"internal_value={join([0] * m)}",
        f"internal_weight={join([1] * m)}", f"internal_count={join([1] * m)}",
        "is_linear=0", "shrinkage=1"]) + "\n\n\n"
    head = ("tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\n"
            "label_index=0\nmax_feature_idx=0\nfeature_names=f\n"
            f"feature_infos=[0:1]\ntree_sizes={len(tree)}\n\n")
    return head + tree + "end of trees\n"


def test_a_tree_too_deep_for_lightgbm_s_own_methods_is_refused():
    # (security review) a chain of 20,000 leaves passed every check, and
    # LightGBM's dump_model (trees_to_dataframe) then crashed the process
    assert check_booster_text(_chain_booster(5001), 1) == 1  # 5,000 levels
    with pytest.raises(ValueError, match="tree 0 is 5001 levels deep, more "
                                         "than the 5000"):
        check_booster_text(_chain_booster(5002), 1)


def test_a_deep_tree_that_lightgbm_trains_is_saved_and_loaded(tmp_path):
    # (review) a bound of 500 levels refused this booster (1,136 levels:
    # num_leaves=2000, max_depth=-1, sorted data), which the previous
    # version saved and loaded
    lightgbm = pytest.importorskip("lightgbm")
    n = 4000
    x = np.arange(n, dtype=float).reshape(-1, 1)
    y = (np.arange(n) % 7 == 0).astype(int)
    ranker = lightgbm.LGBMRanker(n_estimators=2, num_leaves=2000, max_depth=-1,
                                 min_child_samples=1, max_bin=8000, verbose=-1)
    ranker.fit(x, y, group=[n])
    save_ranker(ranker, tmp_path / "m.json", k=3)
    np.testing.assert_array_equal(
        load_ranker(tmp_path / "m.json").decision_function(x), ranker.predict(x))


def test_wide_sparse_rows_are_scored_in_blocks_of_stored_values(monkeypatch):
    # (review) blocks of a number of values // n_features rows made a wide
    # sparse X (hashed features) be scored one row at a time: 0.003 s -> 0.5 s
    from skpapk import _linear_loss

    rng = np.random.default_rng(0)
    n, d = 20000, 2**21
    X = sp.csr_matrix((rng.random(n * 10).astype(np.float32),
                       rng.integers(0, d, n * 10), np.arange(0, n * 10 + 1, 10)),
                      shape=(n, d))
    coef = rng.normal(size=d)
    calls = []
    argsort = np.argsort
    monkeypatch.setattr(_linear_loss.np, "argsort",
                        lambda *a, **kw: calls.append(1) or argsort(*a, **kw))
    scores = _linear_loss.fitted_scores(X, coef)
    assert len(calls) == 1  # one block: 200,000 stored values
    monkeypatch.setattr(_linear_loss, "SCORE_BLOCK_VALUES", 25)
    np.testing.assert_array_equal(_linear_loss.fitted_scores(X, coef), scores)
    assert len(calls) == 1 + n * 10 // 25  # blocks of 3 rows or less
    stored = np.argsort(X.indices[:10])  # the row's columns, in order
    one = [float(X.data[i]) * coef[X.indices[i]] for i in stored]
    assert scores[0] == sum(one[1:], one[0])


def test_float32_rows_hold_one_cast_block_at_a_time():
    # (memory review) the next float64 block was made while the previous
    # one was still held: two blocks (64 MB) at the peak, not one
    import tracemalloc

    from skpapk._linear_loss import SCORE_BLOCK_VALUES, fitted_scores

    n_features = 16
    X = np.ones((3 * SCORE_BLOCK_VALUES // n_features, n_features), np.float32)
    coef = np.arange(n_features, dtype=np.float64)
    tracemalloc.start()
    try:
        scores = fitted_scores(X, coef)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(scores, np.full(X.shape[0], coef.sum()))
    block = SCORE_BLOCK_VALUES * 8  # bytes of one float64 block
    assert peak < 1.5 * block + scores.nbytes


def test_labels_that_differ_by_a_trailing_nul_load_as_two(tmp_path):
    # (label review) np.asarray of the file's labels made "yes\x00" "yes":
    # the loaded model had two equal labels and refused the training labels
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.array(["yes" if v > 0 else "yes\x00" for v in X[:, 0]], dtype=object)
    ranker = PApKRanker(k=3, pos_label="yes").fit(X, y)
    save_ranker(ranker, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    assert model.classes_.tolist() == ranker.classes_.tolist() == ["yes\x00", "yes"]
    assert model.score(X, y) == ranker.score(X, y)


def test_loaded_booster_refuses_category_columns_as_the_fitted_one(data, tmp_path):
    # (categorical tester) a booster fitted on integer codes read a DataFrame
    # category column as its values (ids 10-50, not codes 0-4), silently:
    # every row an unseen category; the fitted ranker refuses the column
    pytest.importorskip("lightgbm")
    pd = pytest.importorskip("pandas")
    ranker = _categorical_ranker(data)
    X, y, groups = data
    frame = pd.DataFrame(X).set_axis([f"f{j}" for j in range(X.shape[1])], axis=1)
    frame["f0"] = np.where(y > 0, 2, 3)
    save_ranker(ranker, tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    coded = frame.to_numpy()
    np.testing.assert_array_equal(model.decision_function(coded),
                                  ranker.decision_function(coded))
    as_category = frame.assign(f0=(frame["f0"] * 10).astype("category"))
    for scorer in (ranker, model):
        with pytest.raises(ValueError, match=r"X has 1 categorical \(pandas "
                                             r"'category'\) column\(s\) where "
                                             r"the ranker was fitted on 0"):
            scorer.decision_function(as_category)


@pytest.mark.parametrize("ranker, where", [
    ("model", "ranker"), (None, "ranker"), (3, "ranker"),
    ("pipeline", "the last step of the pipeline")])
def test_what_is_not_a_ranker_is_named_as_the_ranker(tmp_path, ranker, where):
    # "model is not an estimator instance": the value named as a parameter
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    if ranker == "pipeline":
        ranker = Pipeline([("scale", StandardScaler()), ("model", "passthrough")])
    with pytest.raises(TypeError, match=f"{where} must be a fitted ranker, got "
                                        f"the (str|NoneType|int)"):
        save_ranker(ranker, tmp_path / "m.json")
    assert not os.listdir(tmp_path)


def test_paths_from_the_home_folder(tmp_path, monkeypatch, data, ranker):
    # "~" is expanded, as read_ranking_csv and pandas do
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))  # Windows' home
    save_ranker(ranker, "~/model.json")
    assert (tmp_path / "model.json").is_file()
    X = data[0]
    np.testing.assert_array_equal(load_ranker("~/model.json").decision_function(X),
                                  ranker.decision_function(X))


def test_a_file_of_many_small_containers_is_refused_before_parsing(
        tmp_path, monkeypatch):
    # '[[],[],...]' takes about 28 times its size once parsed: a file of a
    # quarter of the memory passed the size check and exhausted it
    import json as json_module

    ranker = PApKRanker(k=1).fit(np.eye(4), [1, 0, 1, 0], groups=[0, 0, 1, 1])
    path = tmp_path / "m.json"
    save_ranker(ranker, path)
    text = path.read_text()
    hostile = tmp_path / "hostile.json"
    hostile.write_text(text[:-2] + ', "m": [' + ",".join(["[]"] * 10**5) + "]}\n")
    size = hostile.stat().st_size
    parsed = []
    real_loads = json_module.loads
    monkeypatch.setattr("skpapk.io._json.json.loads",
                        lambda *a, **k: parsed.append(1) or real_loads(*a, **k))
    monkeypatch.setattr("skpapk.io._json.physical_memory", lambda: 20 * size)
    monkeypatch.setattr("skpapk.io._json._PARSE_FLOOR", 0)
    with pytest.raises(ValueError, match=r"hostile\.json holds about 100,0\d\d "
                       r"JSON lists, objects and keys .* is it a model file"):
        load_ranker(hostile)
    assert parsed == []  # refused before json.loads
    # a model file of numbers passes with 4 times its size (as the size check)
    rng = np.random.default_rng(0)
    wide = PApKRanker(k=1).fit(rng.normal(size=(8, 20_000)), [1, 0] * 4,
                               groups=[0, 0, 1, 1, 2, 2, 3, 3])
    save_ranker(wide, path)
    monkeypatch.setattr("skpapk.io._json.physical_memory",
                        lambda: 4 * path.stat().st_size)
    assert load_ranker(path).n_features_in_ == 20_000


def test_the_memory_is_the_containers_limit_when_lower(tmp_path, monkeypatch):
    from skpapk.utils import _parallel

    limit = tmp_path / "memory.max"
    parent = tmp_path / "parent.max"
    parent.write_text("max\n")
    monkeypatch.setattr(_parallel, "_cgroup_limit_files",
                        lambda: [str(limit), str(parent), str(tmp_path / "no")])
    limit.write_text("max\n")
    total = _parallel.physical_memory()
    assert total is None or total > 2**20
    if total is None:
        pytest.skip("no sysconf memory here")
    limit.write_text(f"{2**20}\n")
    assert _parallel.physical_memory() == 2**20
    limit.write_text(f"{2 * total}\n")  # above the machine's: the machine's
    assert _parallel.physical_memory() == total
    parent.write_text(f"{2**21}\n")  # a parent's lower limit holds
    assert _parallel.physical_memory() == 2**21


def test_the_memory_limit_files_follow_the_process_cgroup(monkeypatch):
    import builtins
    import io

    from skpapk.utils import _parallel

    real_open = builtins.open
    text = "0::/process_api/abc\n"

    def fake_open(file, *args, **kwargs):
        if file == "/proc/self/cgroup":
            return io.StringIO(text)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    assert _parallel._cgroup_limit_files()[:3] == [
        "/sys/fs/cgroup/process_api/abc/memory.max",
        "/sys/fs/cgroup/process_api/memory.max", "/sys/fs/cgroup/memory.max"]
    text = "12:cpu,cpuacct:/x\n4:memory:/slurm/job_7\n"
    assert _parallel._cgroup_limit_files()[:2] == [
        "/sys/fs/cgroup/memory/slurm/job_7/memory.limit_in_bytes",
        "/sys/fs/cgroup/memory/slurm/memory.limit_in_bytes"]
