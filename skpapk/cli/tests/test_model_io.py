"""The commands' model files: skpapk.io's, with the metadata of ``skpapk fit``
checked on load and every problem a one-line error."""

import io
import json

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import PApKRanker
from skpapk.cli import main
from skpapk.cli._files import load_model, save_model
from skpapk.cli._output import CLIError
from skpapk.io import save_ranker

META = {"method": "papk", "k": 3, "group_col": "user", "label_col": "rel",
        "feature_cols": ["a", "b", "c"], "labels": ["no", "yes"],
        "pos_label": "yes"}


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.arange(40) % 3 == 0
    pipe = Pipeline([("scale", StandardScaler()), ("model", PApKRanker(k=3))])
    return pipe.fit(X, y, model__groups=np.arange(40) // 10), X


def test_save_and_load(tmp_path, model):
    pipe, X = model
    path = tmp_path / "m.json"
    save_model(path, META, pipe)
    loaded = load_model(path)
    assert loaded.k == 3 and loaded.metadata == {k: v for k, v in META.items()
                                                 if k != "k"}
    np.testing.assert_allclose(loaded.decision_function(X), pipe.decision_function(X))


def _saved(tmp_path, model, change):
    path = tmp_path / "m.json"
    save_model(path, META, model[0])
    content = json.loads(path.read_text())
    change(content)
    path.write_text(json.dumps(content))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda c: c.update(labels=["a", "b", "c"]), "labels two strings"),
    (lambda c: c.update(pos_label="maybe"), "labels two strings"),
    (lambda c: c.update(label_col="user"), "must be distinct column names"),
    (lambda c: c.update(feature_cols=["a", "a", "c"]), "must be distinct"),
    (lambda c: c.update(feature_cols=["a", "b"]), "uses 3 features but it names 2"),
    # each was a traceback (KeyError, TypeError) or blamed the CSV file
    (lambda c: c.pop("label_col"), r"lack or mistype 'label_col' \(a string\);"),
    (lambda c: c.update(label_col=None), "lack or mistype 'label_col'"),
    (lambda c: c.update(label_col=5), r"lack or mistype 'label_col' \(a string\)"),
    # a file of save_ranker without them: every one named at once
    (lambda c: [c.pop(key) for key in ("group_col", "label_col", "feature_cols",
                                       "labels", "pos_label", "method")],
     # (its feature_names_in, as save_model writes them, name the features)
     r"lack or mistype 'group_col' \(a string\), 'label_col' \(a string\), "
     r"'labels' \(a list\), 'pos_label' \(a string\); a model of "
     r"skpapk.io.save_ranker needs them in its metadata= to be used by 'skpapk "
     r"score'"),
    # the library's checks, as one-line errors
    (lambda c: c.update(k="3"), r"not a skpapk model file \(its k"),
    (lambda c: c["scorer"].update(kind="torch"), "kind \"torch\""),
])
def test_invalid_model_files(tmp_path, model, change, message):
    with pytest.raises(CLIError, match=message):
        load_model(_saved(tmp_path, model, change))


@pytest.mark.parametrize("keep, command, message", [
    # recommend reads the group and feature columns only; score the labels too
    (["group_col", "feature_cols"], "recommend", None),
    (["group_col"], "recommend", r"lack or mistype 'feature_cols' \(a list\); "
                                 r"a model .* 'skpapk recommend'"),
    (["feature_cols"], "recommend", r"lack or mistype 'group_col' \(a string\);"),
    (["group_col", "label_col", "feature_cols", "labels", "pos_label"], "score",
     None),
    (["group_col", "feature_cols"], "score", r"lack or mistype 'label_col' \(a "
     r"string\), 'labels' \(a list\), 'pos_label' \(a string\); a model"),
])
@pytest.mark.parametrize("frame", [False, True])
def test_a_command_needs_the_metadata_it_reads(tmp_path, model, keep, command,
                                               message, frame):
    # a DataFrame's columns (feature_names_in) are the feature columns
    pipe, X = model
    rows = X
    if frame:
        rows = pd.DataFrame(X, columns=["a", "b", "c"])
        pipe = sklearn.clone(pipe).fit(rows, np.arange(40) % 3 == 0,
                                       model__groups=np.arange(40) // 10)
        keep = [key for key in keep if key != "feature_cols"]
        message = None if message and "'feature_cols'" in message else message
    path = tmp_path / "m.json"
    save_ranker(pipe, path, metadata={key: META[key] for key in keep})
    if message is None:
        loaded = load_model(path, command)
        assert loaded.metadata["feature_cols"] == ["a", "b", "c"]
        np.testing.assert_allclose(loaded.decision_function(X),
                                   pipe.decision_function(rows))
    else:
        with pytest.raises(CLIError, match=message):
            load_model(path, command)


def test_recommend_with_a_model_saved_from_python(tmp_path, model, capsys):
    pipe, X = model
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    pipe = sklearn.clone(pipe).fit(frame, np.arange(40) % 3 == 0,
                                   model__groups=np.arange(40) // 10)
    save_ranker(pipe, tmp_path / "m.json", metadata={"group_col": "user"})
    frame.assign(user=np.arange(40) // 10).to_csv(tmp_path / "new.csv",
                                                  index=False)
    assert main(["recommend", str(tmp_path / "new.csv"), "--model",
                 str(tmp_path / "m.json"), "--k", "1", "-q"]) == 0
    top = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert top.columns.tolist() == ["user", "rank", "score", "a", "b", "c"]
    best = pipe.decision_function(frame).reshape(4, 10).argmax(1)
    np.testing.assert_allclose(top[["a", "b", "c"]], X[best + np.arange(0, 40, 10)])


def test_missing_model_and_unwritable_model(tmp_path, model):
    with pytest.raises(CLIError, match="no such model file; create one with "
                                       "'skpapk fit"):
        load_model(tmp_path / "nope.json")
    with pytest.raises(CLIError, match="is a folder"):
        load_model(tmp_path)
    pipe, _ = model
    bad = Pipeline([("scale", "passthrough"), ("model", PApKRanker(k=3))])
    bad[-1].__dict__.update(pipe[-1].__dict__, coef_=np.array([np.nan, 1, 2]))
    with pytest.raises(CLIError, match=r"not finite.*Scale the features\.$") as exc:
        save_model(tmp_path / "n.json", META, bad)  # papk: no --eta0 to lower
    assert exc.value.status == 1 and not (tmp_path / "n.json").exists()
    with pytest.raises(CLIError, match="not finite.*or lower --eta0"):
        save_model(tmp_path / "n.json", {**META, "method": "avg"}, bad)
