"""Model files that hold plain data: JSON, never a pickle.

A model file of ``skpapk fit`` is one JSON object. Besides what the command
needs to read new files the way it read the training file (the columns,
``k``, the labels and which one is relevant) and a record of how the model
was made (method, hyper-parameters, CV score), it holds a *scorer*, whose
``kind`` says how to compute the scores from the feature columns:

- ``"linear"``: ``scores = X @ coef + intercept``, with the feature scaling
  of the training folded into ``coef`` and ``intercept`` (a scaler and a
  linear model compose into one affine function);
- ``"lightgbm"``: a LightGBM booster in LightGBM's own text format
  (``Booster.model_to_string()``), read back with
  ``lightgbm.Booster(model_str=...)``, and the number of iterations to use.

Loading such a file cannot run code. A pickle or joblib file is refused
with a message that says why. :func:`load_model` returns a fitted
:class:`SavedRanker`, a ranker of the library: its ``recommend`` is
:meth:`skpapk.BaseRanker.recommend`.

To support another kind of model, add an entry to :data:`SCORER_KINDS`: a
class with ``from_estimator(estimator, scaler)`` (or None when it does not
apply), ``to_dict()`` and ``from_dict(data, n_features)``, and a
``decision_function(X)``.
"""

import json
import math
import os

import numpy as np

from .._base import BaseRanker
from ._files import atomic_write
from ._output import CLIError, cut

#: Largest k accepted (the number of items shown to a user).
MAX_K = 10**9

FORMAT = "skpapk-model"
#: Version of the layout below; a reader refuses newer versions.
FORMAT_VERSION = 1

#: First bytes of pickle (protocol 2+) and of the compressed files joblib
#: writes (zlib, gzip, bz2, xz, lzma, lz4).
_PICKLE_MAGIC = (b"\x80", b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda",
                 b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"\x5d\x00\x00", b"\x04\x22\x4d\x18")


def _affine(scaler, coef, intercept):
    """Fold ``x -> scaler.transform(x) @ coef + intercept`` into ``x @ w + b``."""
    coef = np.asarray(coef, dtype=np.float64).reshape(-1)
    if scaler is None:
        return coef, float(intercept)
    name = type(scaler).__name__
    if name == "MinMaxScaler":  # x * scale_ + min_
        return scaler.scale_ * coef, float(intercept + scaler.min_ @ coef)
    if name == "StandardScaler":  # (x - mean_) / scale_
        scale = scaler.scale_ if scaler.scale_ is not None else np.ones_like(coef)
        mean = scaler.mean_ if scaler.mean_ is not None else np.zeros_like(coef)
        w = coef / scale
        return w, float(intercept - mean @ w)
    raise TypeError(f"cannot fold a {name} into a linear scorer.")


class LinearScorer:
    """``scores = X @ coef + intercept``."""

    kind = "linear"

    def __init__(self, coef, intercept=0.0):
        self.coef = np.asarray(coef, dtype=np.float64)
        self.intercept = float(intercept)

    @classmethod
    def from_estimator(cls, estimator, scaler):
        coef = getattr(estimator, "coef_", None)
        if coef is None or hasattr(estimator, "booster_"):
            return None
        coef = np.asarray(coef, dtype=np.float64)
        if coef.ndim == 2 and coef.shape[0] != 1:
            return None
        intercept = np.ravel(getattr(estimator, "intercept_", [0.0]))
        return cls(*_affine(scaler, coef.reshape(-1),
                            float(intercept[0]) if intercept.size else 0.0))

    def to_dict(self):
        return {"coef": [float(v) for v in self.coef],
                "intercept": self.intercept}

    @classmethod
    def from_dict(cls, data, n_features):
        coef = data.get("coef")
        intercept = data.get("intercept", 0.0)
        if (not isinstance(coef, list) or len(coef) != n_features
                or not all(_is_number(v) for v in coef)
                or not _is_number(intercept)):
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
        self.booster = booster
        self.num_iteration = num_iteration

    @classmethod
    def from_estimator(cls, estimator, scaler):
        booster = getattr(estimator, "booster_", None)
        if booster is None:
            return None
        if scaler is not None:
            raise TypeError("a LightGBM model is saved without feature scaling "
                            "(trees do not need it); use scale='none'.")
        best = getattr(estimator, "best_iteration_", None)
        return cls(booster, int(best) if best else None)

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
        text = data.get("booster")
        num_iteration = data.get("num_iteration")
        if not isinstance(text, str) or not (
                num_iteration is None or (isinstance(num_iteration, int)
                                          and num_iteration > 0)):
            raise ValueError("its LightGBM scorer needs the booster as text and "
                             "a positive num_iteration or null")
        try:
            booster = lightgbm.Booster(model_str=text)
        except Exception as exc:  # LightGBM raises LightGBMError on bad text
            raise ValueError(f"LightGBM cannot read its booster ({exc})") from None
        if booster.num_feature() != n_features:
            raise ValueError(f"its booster uses {booster.num_feature()} features "
                             f"but the file names {n_features} feature columns")
        return cls(booster, num_iteration)

    def decision_function(self, X):
        return np.asarray(self.booster.predict(X, num_iteration=self.num_iteration),
                          dtype=np.float64)


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


def _is_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


class SavedRanker(BaseRanker):
    """A fitted ranker read from a model file: ``meta`` and a ``scorer``.

    Scores that are not finite (coefficients far from the file's scale)
    raise a :class:`CLIError` instead of reaching the metrics.
    """

    def __init__(self, k=10, *, meta=None, scorer=None):
        self.k = k
        self.meta = meta
        self.scorer = scorer

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


def model_to_json(meta, scorer):
    """The text of a model file: deterministic for the same model."""
    content = {"format": FORMAT, "format_version": FORMAT_VERSION, **meta,
               "scorer": {"kind": scorer.kind, **scorer.to_dict()}}
    try:
        return json.dumps(content, indent=1, allow_nan=False) + "\n"
    except ValueError:
        raise CLIError("the model holds a value that is not finite (NaN or "
                       "infinity); it was not saved. Scale the features or "
                       "lower --eta0.", status=1) from None


def save_model(path, meta, scorer):
    """Write a model file atomically (a failure leaves any old file intact)."""
    text = model_to_json(meta, scorer)
    try:
        with atomic_write(path) as handle:
            handle.write(text)
    except OSError as exc:
        raise CLIError(f"cannot write the model to {path}: "
                       f"{exc.strerror or exc}.") from None


#: Keys every model file holds, with their types.
_REQUIRED = {"k": int, "group_col": str, "feature_cols": list, "labels": list,
             "pos_label": str, "method": str}
_KIND_NAMES = {int: "an integer", str: "a string", list: "a list"}


def load_model(path):
    """Read and check a model file written by ``skpapk fit``.

    Raises
    ------
    CLIError
        When the file is missing, is a pickle, or is not a valid model file.
    """
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
    what = f"{path} is not a model file written by 'skpapk fit'"
    try:
        content = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise CLIError(f"{what} (not JSON; skpapk model files are JSON, and "
                       f"pickle or joblib files are refused).") from None
    except RecursionError:
        raise CLIError(f"{what} (its JSON is nested too deeply).") from None
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
    for key, kind in _REQUIRED.items():
        if not isinstance(content.get(key), kind) or isinstance(content[key], bool):
            raise CLIError(f"{what} (its field {key!r} is missing or not "
                           f"{_KIND_NAMES[kind]}).")
    features = content["feature_cols"]
    labels = content["labels"]
    if not 1 <= content["k"] <= MAX_K:
        raise CLIError(f"{what} (its k, {str(content['k'])[:40]}, is not between 1 and "
                       f"{MAX_K}).")
    columns = [content["group_col"], content.get("label_col"), *features]
    if (not features or not all(isinstance(name, str) for name in features)
            or len(set(map(str, columns))) != len(columns)
            or len(labels) != 2 or not all(isinstance(v, str) for v in labels)
            or content["pos_label"] not in labels):
        raise CLIError(f"{what} (its group, label and feature columns must be "
                       f"distinct column names, its labels two strings that "
                       f"include pos_label).")
    scorer_data = content.pop("scorer", None)
    if not isinstance(scorer_data, dict):
        raise CLIError(f"{what} (no scorer in it).")
    kind = scorer_data.get("kind")
    if kind not in SCORER_KINDS:
        raise CLIError(f"{path} holds a model of kind {cut(kind)}, which this "
                       f"skpapk cannot use (kinds: {', '.join(SCORER_KINDS)}); "
                       f"upgrade skpapk.")
    try:
        scorer = SCORER_KINDS[kind].from_dict(scorer_data, len(features))
    except ValueError as exc:
        raise CLIError(f"{what} ({exc}).") from None
    return SavedRanker(content["k"], meta=content, scorer=scorer)
