"""Model files: plain JSON data, scores as the fitted model's, no pickle."""

import json
import pickle

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, PolynomialFeatures, StandardScaler

from skpapk import PApKRanker
from skpapk.datasets import make_papk_simulation
from skpapk.io import SavedRanker, load_ranker, save_ranker
from skpapk.io._booster_text import check_booster_text
from skpapk.io._model import FORMAT_VERSION


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
    assert model.n_features_in_ == 3 and model.classes_.tolist() == [0, 1]
    np.testing.assert_allclose(model.decision_function(X), pipe.decision_function(X),
                               rtol=1e-10, atol=1e-12)
    # JSON floats round-trip exactly: a second save and load scores the same
    save_ranker(pipe, path, k=5)
    np.testing.assert_array_equal(load_ranker(path).predict(X),
                                  model.decision_function(X))


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
    with pytest.raises(ValueError, match="did not see in fit"):
        model.score(X, y, groups=groups)
    with pytest.raises(ValueError, match="3 features"):
        model.decision_function(X[:, :2])
    model.scorer.coef = np.full(3, 1e308)  # scores overflow on these rows
    with pytest.raises(ValueError, match="not finite numbers"):
        model.decision_function(np.full((2, 3), 10.0))
    with pytest.raises(TypeError, match="not fitted again"):
        model.fit(X, y)


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


def test_file_is_plain_json_with_a_version(tmp_path):
    X = np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 1.0], [3.0, 2.0]])
    ranker = PApKRanker(k=1).fit(X, [0, 1, 0, 1], groups=[0, 0, 1, 1])
    path = tmp_path / "m.json"
    save_ranker(ranker, path, metadata={"user": "ann"})
    content = json.loads(path.read_text())
    assert content["format"] == "skpapk-model"
    assert content["format_version"] == FORMAT_VERSION
    assert content["user"] == "ann" and content["classes"] == [0, 1]
    assert content["scorer"] == {"kind": "linear",
                                 "coef": ranker.coef_.tolist(), "intercept": 0.0}


@pytest.mark.parametrize("kwargs, error, message", [
    ({"metadata": {"k": 2}}, ValueError, "reserved key"),
    ({"metadata": {"scorer": None}}, ValueError, "reserved key"),
    ({"metadata": {"x": object()}}, ValueError, "not JSON data"),
    ({"metadata": {"x": float("nan")}}, ValueError, "not finite"),
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
    (lambda c: c["scorer"].update(kind=["linear"]), r"kind \[\"linear\"\]"),
    (lambda c: c["scorer"].update(coef=[]), "finite coefficients"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0, "x"]), "finite coefficients"),
    (lambda c: c["scorer"].update(intercept=None), "finite intercept"),
    (lambda c: c.pop("scorer"), "no scorer"),
    (lambda c: c.update(classes=[1, 1]), "two distinct labels"),
    (lambda c: c.update(classes=[[0], 1]), "two distinct labels"),
    (lambda c: c.update(feature_names_in=["a", "b"]), "one distinct string"),
    (lambda c: c.update(feature_names_in=["a", "a", "b"]), "one distinct string"),
])
def test_invalid_model_files(tmp_path, change, message):
    content = _valid()
    assert load_ranker(_write(tmp_path, content)).n_features_in_ == 3
    change(content)
    with pytest.raises(ValueError, match=message):
        load_ranker(_write(tmp_path, content))


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
    # best_iteration_ is kept: a booster with early stopping predicts with it
    ranker._best_iteration = 5
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
    return {"lambdarank": lambdarank.booster_.model_to_string(),
            "constant": flat.booster_.model_to_string(),
            "papk": papk.booster_.model_to_string(),
            "one leaf": constant.model_to_string()}


@pytest.mark.parametrize("name", ["lambdarank", "papk", "one leaf", "constant"])
def test_booster_text_as_lightgbm_writes_it_passes(booster_texts, name):
    text = booster_texts[name]
    assert check_booster_text(text, 3) == text.count("\nTree=") > 0
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


@pytest.mark.parametrize("edit, message", [
    # children: out of range, a cycle (back to the root), a leaf twice
    (("left_child", "500 -2 -3"), "do not form a binary tree"),
    (("right_child", "0 -3 -4"), "do not form a binary tree"),
    (("left_child", "-1 -1 -3"), "do not form a binary tree"),
    (("split_feature", "0 3 1"), "feature it does not have"),
    (("split_feature", "0 1_0 1"), "not a number"),
    (("split_feature", "0 1"), "2 values, not 3"),
    (("threshold", "0.5 nan 1"), "not a number"),
    (("threshold", "0.5 1e999 1"), "out of range"),
    (("decision_type", "1 2 2"), "unknown decision_type"),  # categorical
    (("decision_type", "14 2 2"), "unknown decision_type"),  # missing type 3
    (("num_cat", "1"), "not a numeric tree"),
    (("is_linear", "1"), "not a numeric tree"),
    (("num_leaves", "3"), "values, not"),
    (("leaf_count", "1 2 9999999999 4"), "out of range"),
])
def test_booster_text_edited_trees_are_refused(booster_texts, edit, message):
    text = booster_texts["papk"]
    assert "num_leaves=4" in text.split("Tree=1")[0]  # the trees edited above
    assert check_booster_text(_first_tree(text, "shrinkage", "1"), 3) == 6
    with pytest.raises(ValueError, match=message):
        check_booster_text(_first_tree(text, *edit), 3)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\n", "\r\n"), "not LightGBM's text format"),
    (lambda t: t.replace("Column_0", "Colümn_0"), "not LightGBM's text format"),
    (lambda t: t.replace("\n", "\0\n", 1), "not LightGBM's text format"),
    (lambda t: t.replace("label_index=0\n", "label_index=0\naverage_output\n"),
     "header must hold"),
    (lambda t: t.replace("version=v4", "version=v3"), "not a LightGBM 4 ranker"),
    (lambda t: t.replace("num_class=1", "num_class=2"), "not a LightGBM 4 ranker"),
    (lambda t: t.replace("tree_sizes=", "tree_sizes=1"), "does not start or end"),
    (lambda t: t.replace("tree_sizes=", "tree_sizes=-"), "not byte counts"),
    (lambda t: t.replace("end of trees", "end of tree"), "do not end where"),
])
def test_booster_text_edited_header_is_refused(booster_texts, edit, message):
    with pytest.raises(ValueError, match=message):
        check_booster_text(edit(booster_texts["papk"]), 3)


def test_cut_booster_in_a_model_file_is_an_error_not_a_crash(tmp_path, data,
                                                             booster_texts):
    content = _valid()
    text = booster_texts["papk"]
    content["scorer"] = {"kind": "lightgbm", "booster": text[:len(text) // 2],
                         "num_iteration": None}
    with pytest.raises(ValueError, match=r"not a skpapk model file \(tree \d "
                                         r"does not start or end"):
        load_ranker(_write(tmp_path, content))
