"""Model files: plain JSON data, scores as the fitted model's, no pickle."""

import json
import pickle

import joblib
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from skpapk import PApKRanker
from skpapk.cli._booster_text import check_booster_text
from skpapk.cli._model_io import (
    FORMAT_VERSION,
    LinearScorer,
    load_model,
    save_model,
    scorer_from_estimator,
)
from skpapk.cli._output import CLIError
from skpapk.datasets import make_papk_simulation

META = {"method": "max", "k": 3, "group_col": "user", "label_col": "rel",
        "feature_cols": ["a", "b", "c"], "labels": ["no", "yes"],
        "pos_label": "yes"}


@pytest.fixture(scope="module")
def data():
    X, y, groups = make_papk_simulation(8, n_pos=(3, 9), n_neg=(10, 20),
                                        n_features=3, random_state=0)
    X = X * [1.0, 10.0, 0.1] + [0.0, 5.0, -3.0]  # scales that matter
    return X, y, groups


@pytest.mark.parametrize("scaler", [None, MinMaxScaler(), StandardScaler()],
                         ids=["none", "minmax", "standard"])
# PApKRanker's smooth surrogate descends on these data (PApKMaxRanker's
# hinge, in 20 steps, stays above its start: a ConvergenceWarning)
@pytest.mark.parametrize("estimator", [PApKRanker(k=3), LogisticRegression()],
                         ids=["ranker", "logreg"])
def test_linear_scorer_equals_the_fitted_pipeline(tmp_path, data, scaler,
                                                  estimator):
    X, y, groups = data
    Xt = X if scaler is None else scaler.fit_transform(X)
    if isinstance(estimator, LogisticRegression):
        estimator.fit(Xt, y)
    else:
        estimator.fit(Xt, y, groups=groups)
    expected = estimator.decision_function(Xt)  # includes LR's intercept
    scorer = scorer_from_estimator(estimator, scaler)
    assert scorer.kind == "linear"
    np.testing.assert_allclose(scorer.decision_function(X), expected,
                               rtol=1e-10, atol=1e-12)
    path = tmp_path / "m.json"
    save_model(path, META, scorer)
    model = load_model(path)
    # JSON floats round-trip exactly
    np.testing.assert_array_equal(model.decision_function(X),
                                  scorer.decision_function(X))
    assert model["pos_label"] == "yes" and model["k"] == 3


def test_file_is_plain_json_with_a_version(tmp_path):
    path = tmp_path / "m.json"
    save_model(path, META, LinearScorer([0.5, -1.0, 2.0], 0.25))
    content = json.loads(path.read_text())
    assert content["format"] == "skpapk-model"
    assert content["format_version"] == FORMAT_VERSION
    assert content["scorer"] == {"kind": "linear", "coef": [0.5, -1.0, 2.0],
                                 "intercept": 0.25}


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
    with pytest.raises(CLIError) as exc:
        load_model(path)
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
    with pytest.raises(CLIError, match="pickle"):
        load_model(path)
    assert not target.exists()


def _write(tmp_path, content):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(content) if not isinstance(content, str)
                    else content)
    return path


def _valid():
    return {"format": "skpapk-model", "format_version": 1, **META,
            "scorer": {"kind": "linear", "coef": [1.0, 2.0, 3.0],
                       "intercept": 0.0}}


@pytest.mark.parametrize("change, message", [
    (lambda c: c.pop("format"), "no \"format\""),
    (lambda c: c.update(format_version=99), "newer skpapk"),
    (lambda c: c.update(k="3"), "'k' is missing or not an integer"),
    (lambda c: c.update(labels=["a", "b", "c"]), "labels two strings"),
    (lambda c: c.update(pos_label="maybe"), "labels two strings"),
    (lambda c: c.update(label_col="user"), "must be distinct column names"),
    (lambda c: c.update(feature_cols=["a", "a", "c"]), "must be distinct"),
    (lambda c: c["scorer"].update(kind="torch"), "kind 'torch'"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0]), "3 finite coefficients"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0, "x"]), "3 finite coefficients"),
    (lambda c: c.pop("scorer"), "no scorer"),
    # each was a traceback (KeyError, TypeError) or blamed the CSV file
    (lambda c: c.pop("label_col"), "'label_col' is missing or not a string"),
    (lambda c: c.update(label_col=None), "'label_col' is missing or not"),
    (lambda c: c.update(label_col=5), "'label_col' is missing or not a string"),
    (lambda c: c["scorer"].update(kind=["linear"]), r"kind \"\['linear'\]\""),
])
def test_invalid_model_files(tmp_path, change, message):
    content = _valid()
    change(content)
    with pytest.raises(CLIError, match=message):
        load_model(_write(tmp_path, content))


def test_not_json_missing_and_folder(tmp_path):
    with pytest.raises(CLIError, match="not JSON"):
        load_model(_write(tmp_path, "user,label\n1,2\n"))
    # a JSON string is not shown as if it were the reason
    with pytest.raises(CLIError, match=r"\(no \"format\": \"skpapk-model\""):
        load_model(_write(tmp_path, '"hello"'))
    with pytest.raises(CLIError, match="NaN"):  # json.loads accepts NaN ...
        save_model(tmp_path / "n.json", META, LinearScorer([np.nan, 1, 2]))
    with pytest.raises(CLIError, match="no such model file"):
        load_model(tmp_path / "nope.json")
    with pytest.raises(CLIError, match="is a folder"):
        load_model(tmp_path)


def test_lightgbm_booster_in_its_own_text_format(tmp_path, data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    order = np.argsort(groups, kind="stable")
    sizes = np.bincount(groups)
    ranker = lightgbm.LGBMRanker(n_estimators=15, num_leaves=4, min_child_samples=2,
                                 verbose=-1, random_state=0)
    ranker.fit(X[order], y[order], group=sizes)
    scorer = scorer_from_estimator(ranker)
    assert scorer.kind == "lightgbm"
    path = tmp_path / "m.json"
    save_model(path, META, scorer)
    content = json.loads(path.read_text())
    assert content["scorer"]["booster"].startswith("tree\nversion=")
    model = load_model(path)
    np.testing.assert_allclose(model.decision_function(X), ranker.predict(X),
                               rtol=1e-12)
    # best_iteration_ is kept: a booster with early stopping predicts with it
    scorer.num_iteration = 5
    save_model(path, META, scorer)
    np.testing.assert_allclose(load_model(path).decision_function(X),
                               ranker.predict(X, num_iteration=5), rtol=1e-12)
    content["scorer"]["booster"] = "tree\nnot a model"
    with pytest.raises(CLIError, match="booster's header must hold"):
        load_model(_write(tmp_path, content))
    content["scorer"].update(booster=scorer.to_dict()["booster"],
                             num_iteration=True)  # a bool is not a count
    with pytest.raises(CLIError, match="positive num_iteration"):
        load_model(_write(tmp_path, content))
    content["scorer"].update(num_iteration=6)  # the text holds the 5 kept
    with pytest.raises(CLIError, match="more than its booster's 5 trees"):
        load_model(_write(tmp_path, content))
    with pytest.raises(TypeError, match="without feature scaling"):
        scorer_from_estimator(ranker, MinMaxScaler().fit(X))


def test_unsavable_estimator(data):
    from sklearn.ensemble import HistGradientBoostingClassifier

    X, y, _ = data
    model = HistGradientBoostingClassifier(max_iter=3).fit(X, y)
    with pytest.raises(CLIError, match="cannot be saved as plain data"):
        scorer_from_estimator(model)


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
    with pytest.raises(CLIError, match="not a model file written by 'skpapk fit' "
                                       r"\(tree \d does not start or end"):
        load_model(_write(tmp_path, content))
