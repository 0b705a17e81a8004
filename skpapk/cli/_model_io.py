"""Model files that hold plain data: JSON, never a pickle.

A model file of ``skpapk fit`` is one JSON object: what is needed to read
new files as the training file was read (columns, ``k``, the labels and the
relevant one), a record of how the model was made, and a *scorer* whose
``kind`` says how to score the feature columns:

- ``"linear"``: ``X @ coef + intercept``, the training's feature scaling
  folded into ``coef`` and ``intercept``;
- ``"lightgbm"``: a booster in LightGBM's own text format, and the number
  of iterations to use.

Loading one cannot run code; a pickle or joblib file is refused. A loaded
model is a :class:`SavedRanker`, whose ``recommend`` is the library's.
"""

import json
import math
import os

import numpy as np

from .._base import BaseRanker
from ._booster_text import check_booster_text
from ._files import atomic_write
from ._output import CLIError, cut

FORMAT = "skpapk-model"
#: Version of the layout; a reader refuses newer versions.
FORMAT_VERSION = 1
#: Largest k accepted (the number of items shown to a user).
MAX_K = 10**9
#: First bytes of pickle (protocol 2+) and of joblib's compressed files
#: (zlib, gzip, bz2, xz, lzma, lz4).
_PICKLE_MAGIC = (b"\x80", b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda",
                 b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"\x5d\x00\x00", b"\x04\x22\x4d\x18")
#: Keys every model file holds, with their types.
_REQUIRED = {"k": (int, "an integer"), "group_col": (str, "a string"),
             "label_col": (str, "a string"),
             "feature_cols": (list, "a list"), "labels": (list, "a list"),
             "pos_label": (str, "a string"), "method": (str, "a string")}


def _is_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


class LinearScorer:
    """``scores = X @ coef + intercept``."""

    kind = "linear"

    def __init__(self, coef, intercept=0.0):
        self.coef = np.asarray(coef, dtype=np.float64)
        self.intercept = float(intercept)

    @classmethod
    def from_estimator(cls, estimator, scaler):
        coef = getattr(estimator, "coef_", None)
        if coef is None or hasattr(estimator, "booster_") or np.ndim(coef) == 2 \
                and np.shape(coef)[0] != 1:
            return None
        w = np.asarray(coef, dtype=np.float64).reshape(-1)
        b = float(np.ravel(getattr(estimator, "intercept_", 0.0))[0])
        if type(scaler).__name__ == "MinMaxScaler":  # x * scale_ + min_
            w, b = scaler.scale_ * w, b + scaler.min_ @ w
        elif type(scaler).__name__ == "StandardScaler":  # (x - mean_) / scale_
            w = w / (1.0 if scaler.scale_ is None else scaler.scale_)
            b -= 0.0 if scaler.mean_ is None else scaler.mean_ @ w
        elif scaler is not None:
            raise TypeError(f"cannot fold a {type(scaler).__name__} into a "
                            f"linear scorer.")
        return cls(w, b)

    def to_dict(self):
        return {"coef": [float(v) for v in self.coef], "intercept": self.intercept}

    @classmethod
    def from_dict(cls, data, n_features):
        coef, intercept = data.get("coef"), data.get("intercept", 0.0)
        if (not isinstance(coef, list) or len(coef) != n_features
                or not all(map(_is_number, coef)) or not _is_number(intercept)):
            raise ValueError(f"its linear scorer needs {n_features} finite "
                             f"coefficients (one per feature column) and a "
                             f"finite intercept")
        return cls(coef, intercept)

    def decision_function(self, X):
        return X @ self.coef + self.intercept


class LightGBMScorer:
    """A LightGBM booster, kept in LightGBM's text format."""

    kind = "lightgbm"

    def __init__(self, booster, num_iteration=None):
        self.booster, self.num_iteration = booster, num_iteration

    @classmethod
    def from_estimator(cls, estimator, scaler):
        if getattr(estimator, "booster_", None) is None:
            return None
        if scaler is not None:
            raise TypeError("a LightGBM model is saved without feature scaling "
                            "(trees do not need it); use scale='none'.")
        best = getattr(estimator, "best_iteration_", None)
        return cls(estimator.booster_, int(best) if best else None)

    def to_dict(self):
        return {"booster": self.booster.model_to_string(
                    num_iteration=self.num_iteration or -1),
                "num_iteration": self.num_iteration}

    @classmethod
    def from_dict(cls, data, n_features):
        try:
            import lightgbm
        except ImportError:
            raise CLIError("this model is a LightGBM booster: install LightGBM "
                           "(pip install lightgbm) to use it.") from None
        text, n_iter = data.get("booster"), data.get("num_iteration")
        if not isinstance(text, str) or not (n_iter is None or (
                isinstance(n_iter, int) and not isinstance(n_iter, bool)
                and 0 < n_iter <= MAX_K)):
            raise ValueError("its LightGBM scorer needs the booster as text and "
                             "a positive num_iteration or null")
        n_trees = check_booster_text(text, n_features)  # before LightGBM reads it
        if n_iter is not None and n_iter > n_trees:
            raise ValueError(f"its num_iteration, {n_iter}, is more than its "
                             f"booster's {n_trees} trees")
        try:
            booster = lightgbm.Booster(model_str=text)
        except Exception as exc:  # LightGBM raises LightGBMError on bad text
            raise ValueError(f"LightGBM cannot read its booster ({exc})") from None
        if booster.num_feature() != n_features:
            raise ValueError(f"its booster uses {booster.num_feature()} features "
                             f"but the file names {n_features} feature columns")
        return cls(booster, n_iter)

    def decision_function(self, X):
        return self.booster.predict(X, num_iteration=self.num_iteration)


#: The kinds of scorer a model file may hold, by the name stored in it.
SCORER_KINDS = {cls.kind: cls for cls in (LinearScorer, LightGBMScorer)}


def scorer_from_estimator(estimator, scaler=None):
    """The scorer of a fitted estimator (after an optional fitted scaler)."""
    for cls in SCORER_KINDS.values():
        scorer = cls.from_estimator(estimator, scaler)
        if scorer is not None:
            return scorer
    raise CLIError(f"a {type(estimator).__name__} cannot be saved as plain data "
                   f"(kinds: {', '.join(SCORER_KINDS)}); choose another --method.")


class SavedRanker(BaseRanker):
    """A fitted ranker read from a model file: ``meta`` and a ``scorer``."""

    def __init__(self, k=10, *, meta=None, scorer=None):
        self.k, self.meta, self.scorer = k, meta, scorer

    def __getitem__(self, key):
        return self.meta[key]

    def __sklearn_is_fitted__(self):
        return True

    def decision_function(self, X):
        with np.errstate(over="ignore", invalid="ignore"):
            scores = np.asarray(self.scorer.decision_function(X), dtype=np.float64)
        if not np.isfinite(scores).all():
            raise CLIError("the model gives scores that are not finite numbers "
                           "(NaN or infinite) on this file; check its features "
                           "(their scale, or values far from those it was "
                           "trained on).")
        return scores


def save_model(path, meta, scorer):
    """Write a model file atomically (a failure leaves any old file intact)."""
    content = {"format": FORMAT, "format_version": FORMAT_VERSION, **meta,
               "scorer": {"kind": scorer.kind, **scorer.to_dict()}}
    try:
        text = json.dumps(content, indent=1, allow_nan=False) + "\n"
    except ValueError:
        raise CLIError("the model holds a value that is not finite (NaN or "
                       "infinity); it was not saved. Scale the features or "
                       "lower --eta0.", status=1) from None
    try:
        with atomic_write(path) as handle:
            handle.write(text)
    except OSError as exc:
        raise CLIError(f"cannot write the model to {path}: "
                       f"{exc.strerror or exc}.") from None


def _content(path, what):
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such model file; create one with "
                       f"'skpapk fit FILE.csv ... --out {path}'.")
    if os.path.isdir(path):
        raise CLIError(f"{path} is a folder, not a model file.")
    with open(path, "rb") as handle:
        raw = handle.read()
    if raw.startswith(_PICKLE_MAGIC):
        raise CLIError(
            f"{path} looks like a pickle or joblib file. skpapk does not load "
            f"pickles: loading one can run any code its author put in it. Its "
            f"model files are JSON; train the model again with 'skpapk fit ... "
            f"--out MODEL.json'.")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        problem = ("not JSON; skpapk model files are JSON, and pickle or joblib "
                   "files are refused")
    except RecursionError:
        problem = "its JSON is nested too deeply"
    raise CLIError(f"{what} ({problem}).")


def load_model(path):
    """Read and check a model file written by ``skpapk fit``: a
    :class:`SavedRanker`, or a :class:`CLIError` saying what is wrong."""
    what = f"{path} is not a model file written by 'skpapk fit'"
    content = _content(path, what)
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise CLIError(f"{what} (no \"format\": \"{FORMAT}\" in it).")
    version = content.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        shown = ("missing" if version is None
                 else f"{json.dumps(version)[:40]}, not a version")
        raise CLIError(f"{what} (its \"format_version\" is {shown}; skpapk "
                       f"writes the integers 1 to {FORMAT_VERSION}).")
    if version > FORMAT_VERSION:
        raise CLIError(f"{path} was written by a newer skpapk (model format "
                       f"{version}; this one reads up to {FORMAT_VERSION}): "
                       f"upgrade skpapk.")
    for key, (kind, name) in _REQUIRED.items():
        if not isinstance(content.get(key), kind) or isinstance(content[key], bool):
            raise CLIError(f"{what} (its field {key!r} is missing or not {name}).")
    features, labels = content["feature_cols"], content["labels"]
    if not 1 <= content["k"] <= MAX_K:
        raise CLIError(f"{what} (its k, {str(content['k'])[:40]}, is not between "
                       f"1 and {MAX_K}).")
    columns = [content["group_col"], content["label_col"], *features]
    if (not features or not all(isinstance(name, str) for name in features)
            or len(set(map(str, columns))) != len(columns)
            or len(labels) != 2 or not all(isinstance(v, str) for v in labels)
            or content["pos_label"] not in labels):
        raise CLIError(f"{what} (its group, label and feature columns must be "
                       f"distinct column names, its labels two strings that "
                       f"include pos_label).")
    scorer = content.pop("scorer", None)
    if not isinstance(scorer, dict):
        raise CLIError(f"{what} (no scorer in it).")
    if not isinstance(scorer.get("kind"), str) or scorer["kind"] not in SCORER_KINDS:
        raise CLIError(f"{path} holds a model of kind {cut(scorer.get('kind'))}, "
                       f"which this skpapk cannot use (kinds: "
                       f"{', '.join(SCORER_KINDS)}); upgrade skpapk.")
    try:
        scorer = SCORER_KINDS[scorer["kind"]].from_dict(scorer, len(features))
    except ValueError as exc:
        raise CLIError(f"{what} ({exc}).") from None
    return SavedRanker(content["k"], meta=content, scorer=scorer)
