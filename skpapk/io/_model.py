"""Model files that hold plain data: JSON, never a pickle.

A model file is one JSON object: the ``format`` and its version, ``k``, the
user's ``metadata`` (other keys), and a *scorer* whose ``kind`` says how to
score the feature columns:

- ``"linear"``: ``(X - shift) @ coef + intercept``, a pipeline's scaler
  folded in (a StandardScaler's mean as the ``shift``, kept apart so that
  features far from zero keep their precision; files with a shift are
  format version 2, others version 1);
- ``"lightgbm"``: a booster in LightGBM's own text format (checked by
  :func:`~skpapk.io._booster_text.check_booster_text` before LightGBM reads
  it), and the number of iterations to use.

Loading one cannot run code; a pickle or joblib file is refused.
"""

import copy
import json
import os
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, validate_params
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import _defaults
from .._base import BaseRanker
from .._categorical import categorical_codes
from ..utils._arrays import exact_values
from ..utils._files import atomic_write
from ..utils._labels import check_pos_label, python_value
from ..utils._messages import cut
from ..utils._validation import MAX_K, check_k, check_model_scores
from ._json import _content, _plain, _shown
from ._scorers import SCORER_KINDS, _is_count, _is_number, _LinearScorer

FORMAT = "skpapk-model"
#: Version of the layout; a reader refuses newer versions.
FORMAT_VERSION = 2
# Version 1 has no ``shift`` in linear scorers (a reader of version 1 would
# ignore it and score wrong; this one refuses it there); a file without one
# is written as version 1.

#: Keys of a model file that are not the user's metadata.
_RESERVED = ("format", "format_version", "k", "scorer", "classes",
             "feature_names_in", "n_fit_groups")
_SCALERS = ("MinMaxScaler", "StandardScaler")


def _scorer(ranker):
    """``(estimator, scorer)`` of a fitted ranker or ``Pipeline([scaler,
    ranker])``, the scorer checked against the ranker's own scores."""
    steps = [step for _, step in getattr(ranker, "steps", [(None, ranker)])]
    scalers = [s for s in steps[:-1] if s is not None and s != "passthrough"]
    if len(scalers) > 1 or scalers and type(scalers[0]).__name__ not in _SCALERS:
        raise TypeError(f"a pipeline is saved when its steps before the ranker "
                        f"are one {' or '.join(_SCALERS)} (or 'passthrough'); "
                        f"got {[type(s).__name__ for s in scalers]}. A file "
                        f"holds plain numbers, not transformers: save the last "
                        f"step alone, save_ranker(pipe[-1], ...), and apply "
                        f"pipe[:-1] (kept with joblib, or rebuilt) before "
                        f"scoring; or encode the columns in your data and fit "
                        f"a pipeline of one scaler and the ranker on them.")
    estimator, scaler = steps[-1], scalers[0] if scalers else None
    if not hasattr(estimator, "fit"):  # check_is_fitted would name the value
        where = "the last step of the pipeline" if len(steps) > 1 else "ranker"
        raise TypeError(f"{where} must be a fitted ranker, got the "
                        f"{type(estimator).__name__} "
                        f"{cut(repr(estimator), 40, quote=False)}.")
    check_is_fitted(estimator)
    for cls in SCORER_KINDS.values():
        scorer = cls.from_estimator(estimator, scaler)
        if scorer is not None:
            try:
                json.dumps(scorer.to_dict(), allow_nan=False)
            except ValueError:
                raise ValueError("the model holds a value that is not finite (NaN "
                                 "or infinity); it was not saved.") from None
            _check_scorer(ranker, estimator, scaler, scorer)
            return estimator, scorer
    loaded = (" A SavedRanker is a file's model already: copy that file (a new "
              "k, metadata or feature_names need the ranker that was saved)."
              if isinstance(estimator, SavedRanker) else
              " Save the search's best_estimator_ (fitted with refit=True)."
              if hasattr(estimator, "best_estimator_") else "")
    raise TypeError(f"a {type(estimator).__name__} cannot be saved as plain data: "
                    f"save_ranker saves linear models (coef_) and LightGBM "
                    f"boosters (booster_).{loaded}")


def _check_scorer(ranker, estimator, scaler, scorer):
    """Raise unless ``scorer`` scores random rows as ``ranker`` does (an
    estimator whose scores are not ``X @ coef_ + intercept_``, such as one
    with an ``offset_``, would be saved wrong). The rows are those of a
    standard normal, through the inverse of the pipeline's scaler: near the
    training rows, where a loss of precision would show."""
    lightgbm = type(estimator).__module__.partition(".")[0] == "lightgbm"
    method = "decision_function" if hasattr(ranker, "decision_function") else "predict"
    X = np.random.default_rng(0).standard_normal((8, scorer.n_features))
    if scaler is not None:
        with np.errstate(all="ignore"):  # huge ranges: the check fails
            X = scaler.inverse_transform(X)
    names = getattr(ranker, "feature_names_in_", None)
    kwargs = {"raw_score": True} if method == "predict" and lightgbm else {}
    with np.errstate(all="ignore"):  # (no catch_warnings: not thread-safe)
        rows = X if names is None else _frame(X, names)
        expected = np.asarray(getattr(ranker, method)(rows, **kwargs),
                              dtype=float).reshape(-1)
        got = scorer.decision_function(X)
    if expected.shape != got.shape or not np.allclose(
            got, expected, rtol=1e-6, atol=1e-9 * max(1.0, np.abs(expected).max())):
        raise TypeError(f"a {type(estimator).__name__} cannot be saved as plain "
                        f"data: its {method} on rows like its training rows is "
                        f"not what the saved {scorer.kind} model would give (it "
                        f"adds something else to its coef_ or booster_, such as "
                        f"an offset; or a MinMaxScaler folded into the "
                        f"coefficients loses the precision of features far from "
                        f"zero: use a StandardScaler).")


def _relevant_last(estimator, scorer, pos_label):
    """``(classes, scorer)`` to save: the estimator's two labels with the
    relevant one last (None without two), and its scorer, negated when a
    classifier scores the irrelevant label highest."""
    name = type(estimator).__name__
    pos_label = python_value(pos_label)  # compared with classes exactly
    classes = getattr(estimator, "classes_", None)
    if classes is None or len(classes) != 2:
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} is given, but the {name} "
                             f"has no two classes_ (its scores are relevance "
                             f"scores already); leave pos_label out.")
        return None, scorer
    classes = np.asarray(classes)
    if isinstance(estimator, BaseRanker):  # classes_: relevant last already
        if pos_label is not None and pos_label != classes.tolist()[1]:  # exactly
            raise ValueError(f"pos_label={pos_label!r}, but the {name} was "
                             f"fitted with {classes.tolist()[1]!r} as the relevant "
                             f"label; leave pos_label out, or refit it with "
                             f"{name}(..., pos_label={pos_label!r}).")
        return classes, scorer
    relevant = check_pos_label(classes, pos_label, input_name=f"the {name}'s "
                               f"classes_")
    if relevant == classes[1]:
        return classes, scorer
    if scorer.kind != "linear":
        raise ValueError(f"pos_label={pos_label!r} is the label that the {name} "
                         f"scores lowest (classes_[0]); a LightGBM booster cannot "
                         f"be negated: recode the labels so that {pos_label!r} "
                         f"sorts last (e.g. y = 1 - y for 0/1 labels, or "
                         f"booleans y == {pos_label!r}) and refit it.")
    negated = _LinearScorer(-scorer.coef, -scorer.intercept, scorer.shift)
    return classes[::-1].copy(), negated


def _frame(X, columns):
    import pandas as pd

    return pd.DataFrame(X, columns=columns)


class SavedRanker(BaseRanker):
    """A fitted ranker read from a model file by :func:`load_ranker`.

    It scores rows as the saved ranker did (a pipeline's scaler folded into
    linear coefficients) and has the rankers' :meth:`decision_function`,
    :meth:`predict`, :meth:`score` and :meth:`recommend`. It is not fitted
    again: it is what a model file holds, so that :func:`sklearn.base.clone`
    gives a copy of it, fitted (as of a :class:`sklearn.frozen.FrozenEstimator`).

    Parameters
    ----------
    k : int, default=10
        Length of the top-k lists (``recommend``'s and ``score``'s default).
    scorer : object, default=None
        The model's scoring function, as read from the file.
    metadata : dict, default=None
        The user's data saved with the model (``save_ranker``'s
        ``metadata``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The saved ranker's labels, the relevant one last (``[0, 1]`` when
        it had none).
    n_features_in_ : int
        Number of features of the rows to score.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the features, when the saved ranker was fitted on a
        DataFrame with string column names.

    See Also
    --------
    load_ranker : Read a model file.
    save_ranker : Write one.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from skpapk import PApKRanker
    >>> from skpapk.io import load_ranker, save_ranker
    >>> X = np.array([[0.0], [2.0], [1.0], [3.0], [5.0]])
    >>> y, groups = [0, 1, 0, 1, 0], [0, 0, 0, 1, 1]
    >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
    >>> save_ranker(PApKRanker(k=1).fit(X, y, groups=groups), path)
    >>> model = load_ranker(path)
    >>> model.recommend(X, groups).indices
    array([1, 4])
    """

    def __init__(self, k=_defaults.K, *, scorer=None, metadata=None):
        self.k = k
        self.scorer = scorer
        self.metadata = metadata

    def __sklearn_is_fitted__(self):
        return self.scorer is not None

    def __sklearn_clone__(self):
        # a deep copy, as clone makes of parameters: set_params of the clone
        # leaves the original as it is
        return copy.deepcopy(self)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = getattr(self.scorer, "kind", None) == "lightgbm"
        return tags

    def fit(self, X=None, y=None, **fit_params):
        """Not supported: a saved model is not fitted again.

        Parameters
        ----------
        X : object, default=None
            Ignored.
        y : object, default=None
            Ignored.
        **fit_params : dict
            Ignored.

        Raises
        ------
        TypeError
            Always; fit a ranker (``PApKRanker``...) and save it with
            :func:`save_ranker`.
        """
        raise TypeError("a SavedRanker is a model read from a file and is not "
                        "fitted again; fit a ranker (PApKRanker, ...) and save "
                        "it with skpapk.io.save_ranker.")

    def decision_function(self, X):
        """Score every row as the saved ranker did; higher is recommended first.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the saved ranker's features (a
            scaler of its pipeline is applied).

        Returns
        -------
        scores : ndarray of float64 of shape (n_samples,)
            The saved ranker's scores of the rows.

        Raises
        ------
        ValueError
            When a score is not finite (features far out of the training's
            range, say).
        """
        check_is_fitted(self)
        if self.scorer.kind == "lightgbm":  # refused as the fitted ranker does
            # a saved booster has no category columns (save_ranker refuses
            # them): a DataFrame's would be read as their values, not the
            # codes it was fitted on
            categorical_codes(X, [], input_name="X")
        # float32 rows stay float32: the scorer casts them (in blocks); dates,
        # text and NA refused as the fitted rankers refuse them
        with self._numbers_of(X):
            X = validate_data(self, X, reset=False,
                              dtype=[np.float64, np.float32],
                              accept_sparse="csr",
                              ensure_all_finite=self._ensure_all_finite())
        with np.errstate(over="ignore", invalid="ignore"):
            scores = np.asarray(self.scorer.decision_function(X), dtype=np.float64)
        return check_model_scores(scores)


@validate_params({"ranker": "no_validation", "path": [str, os.PathLike],
                  "k": [Interval(Integral, 1, MAX_K, closed="both"), None],
                  "metadata": [dict, None], "feature_names": ["array-like", None],
                  "pos_label": [Real, str, "boolean", None],
                  "overwrite": ["boolean"]},
                 prefer_skip_nested_validation=True)
def save_ranker(ranker, path, *, k=None, metadata=None, feature_names=None,
                pos_label=None, overwrite=True):
    """Save a fitted ranker as plain data (JSON), never as a pickle.

    The file holds what scores new rows: a linear model's coefficients (a
    scaler of a pipeline folded into them) or a LightGBM booster in
    LightGBM's text format, with ``k`` and your ``metadata``. Loading it
    with :func:`load_ranker` cannot run code, unlike a pickle. The file is
    written atomically: a failure leaves a previous file intact.

    The loaded model gives the same scores bit for bit as a ranker of
    skpapk (linear or boosted) or an ``LGBMRanker``; a pipeline's folded
    scaler, or a ``LogisticRegression`` (scored by BLAS's ``X @ coef_``),
    gives scores equal to about 1e-15 of its own, so that two rows within
    that distance may be ranked the other way.

    Parameters
    ----------
    ranker : estimator or Pipeline
        A fitted ranker with ``coef_`` (``PApKRanker``, the other linear
        rankers, ``LogisticRegression``) or a LightGBM ``booster_``
        (``PApKBoostRanker``, ``LGBMRanker``; its ``best_iteration_`` is
        kept), or a ``Pipeline`` of one ``MinMaxScaler`` (not ``clip=True``)
        or ``StandardScaler`` (or ``'passthrough'``) and such a linear
        ranker. Its scores of random rows are checked against the saved
        model's before anything is written.
    path : str or path-like
        The file to write (replaced if it exists, unless ``overwrite`` is
        False); ``~`` is expanded, as pandas does.
    k : int, default=None
        Length of the top-k lists of the loaded model; None: the ranker's
        ``k``.
    metadata : dict, default=None
        JSON data kept with the model (column names, how it was made...),
        given back as :class:`SavedRanker`'s ``metadata``: str keys, str,
        int, finite float, bool, None, lists and dicts (numpy scalars are
        stored as Python's), nested at most 100 levels; its keys must not be
        ``format``, ``format_version``, ``k``, ``scorer``, ``classes``,
        ``feature_names_in`` or ``n_fit_groups``.
    feature_names : array-like of str, default=None
        The names of the columns of ``X``, in order, for a ranker fitted on
        an array (one of a DataFrame keeps its own; given, they must be the
        same): the loaded model's ``feature_names_in_``, so that a
        DataFrame is scored by column name and one with other or reordered
        columns is refused. A LightGBM model keeps no names unless given
        (LightGBM stores a space of a column name as ``"_"``): give the
        DataFrame's columns.
    pos_label : int, float, bool or str, default=None
        The relevant label of a classifier that is not a skpapk ranker
        (``LogisticRegression``...), which scores its ``classes_[1]``
        highest: with ``classes_[0]``, a linear model is saved with its
        scores negated, so that the loaded model ranks ``pos_label`` first.
        None: the greater of two numbers (or ``True``) is relevant; labels
        that are not numbers need it, as in the rankers. A skpapk ranker
        keeps the relevant label it was fitted with (``pos_label``, if
        given, must be that one).
    overwrite : bool, default=True
        False: never replace a file (a ``FileExistsError``), not even one
        that another process writes at ``path`` while this one saves, where
        the file system has hard links (elsewhere the file is checked just
        before it is written).

    Raises
    ------
    TypeError
        When the ranker is not one of the kinds above, or its scores are not
        what the saved model would give.
    ValueError
        When ``k`` is missing, ``metadata`` is not JSON data or uses a
        reserved key, the model holds a value that is not finite, or its
        labels are not numbers and ``pos_label`` is missing (or not one of
        them).
    OSError
        When the file cannot be written (``path`` a folder, or in a folder
        that does not exist...), or exists with ``overwrite=False``
        (``FileExistsError``). In every case no file is written, and a
        file already at ``path`` is left as it was.

    See Also
    --------
    load_ranker : Read the file back.

    Examples
    --------
    >>> import json, os, tempfile
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skpapk import PApKRanker
    >>> from skpapk.io import save_ranker
    >>> X = np.array([[0.0], [2.0], [1.0], [3.0], [5.0]])
    >>> y, groups = [0, 1, 0, 1, 0], [0, 0, 0, 1, 1]
    >>> pipe = make_pipeline(StandardScaler(), PApKRanker(k=1))
    >>> pipe = pipe.fit(X, y, papkranker__groups=groups)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
    >>> save_ranker(pipe, path, metadata={"trained_on": "toy"})
    >>> with open(path) as f:
    ...     content = json.load(f)
    >>> content["format"], content["k"], content["scorer"]["kind"]
    ('skpapk-model', 1, 'linear')
    """
    estimator, scorer = _scorer(ranker)
    if k is None:
        k = getattr(estimator, "k", None)
        if k is None:
            raise ValueError(f"k is None and the {type(estimator).__name__} has "
                             f"no k: pass k, the length of the top-k lists.")
    metadata = _plain({} if metadata is None else metadata, "metadata")
    reserved = sorted(set(metadata) & set(_RESERVED))
    if reserved:
        raise ValueError(f"metadata uses the reserved key(s) {reserved}; rename "
                         f"them.")
    model = {"kind": scorer.kind, **scorer.to_dict()}
    version = FORMAT_VERSION if "shift" in model else 1
    content = {"format": FORMAT, "format_version": version, **metadata,
               "k": check_k(k), "scorer": model}
    classes, scorer = _relevant_last(estimator, scorer, pos_label)
    if classes is not None:
        content["scorer"] = {"kind": scorer.kind, **scorer.to_dict()}
        content["classes"] = _plain(list(classes), "the ranker's classes_")
    n_fit_groups = getattr(estimator, "_n_fit_groups", None)
    if n_fit_groups is not None:  # score and recommend warn without groups
        content["n_fit_groups"] = int(n_fit_groups)
    fitted = getattr(ranker, "feature_names_in_",
                     getattr(estimator, "feature_names_in_", None))
    # LightGBM's estimators rename columns (spaces to "_"): theirs are not
    # kept unless given (the DataFrame's, or LightGBM's)
    lightgbm = type(estimator).__module__.partition(".")[0] == "lightgbm"
    names = None if lightgbm else fitted
    if feature_names is not None:
        if isinstance(feature_names, (set, frozenset, dict)) or np.ndim(
                feature_names) != 1:
            raise ValueError("feature_names must be an ordered sequence of "
                             "column names (a list, tuple, 1-d array or pandas "
                             "Index), not a set, dict or 2-d array.")
        given = list(feature_names)
        if (len(given) != scorer.n_features or len(set(given)) != len(given)
                or not all(isinstance(name, str) for name in given)):
            raise ValueError(f"feature_names must be {scorer.n_features} distinct "
                             f"strings, one per feature of the ranker; got "
                             f"{cut(repr(given), 80, quote=False)}.")
        # LightGBM keeps a space of a column name as "_": the DataFrame's
        # own names are those given
        kept = [name.replace(" ", "_") for name in given] if lightgbm else given
        if fitted is not None and [str(name) for name in fitted] != kept:
            spaces = (" (LightGBM keeps a space of a column name as '_': give "
                      "the DataFrame's columns, spaces and all, or these)"
                      if lightgbm else "")
            raise ValueError(f"feature_names differ from the ranker's "
                             f"feature_names_in_ "
                             f"{cut(repr([str(n) for n in fitted]), 80, quote=False)}"
                             f" (it was fitted on a DataFrame of other "
                             f"columns){spaces}; leave feature_names out.")
        names = given
    if names is not None:
        content["feature_names_in"] = [str(name) for name in names]
    try:
        text = json.dumps(content, indent=1, allow_nan=False) + "\n"
    except ValueError as exc:  # an int beyond Python's digit limit
        raise ValueError(f"metadata is not JSON data: {exc}.") from None
    path = os.path.expanduser(os.fspath(path))  # "~/model.json", as the readers
    with atomic_write(path, overwrite=overwrite) as handle:
        handle.write(text)


def _json_labels(value):
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (str, bool)) or _is_number(v) for v in value)
            and type(value[0]) is type(value[1]) and value[0] != value[1])


@validate_params({"path": [str, os.PathLike]}, prefer_skip_nested_validation=True)
def load_ranker(path):
    """Read a model file written by :func:`save_ranker` (or ``skpapk fit``).

    The file is read as JSON and checked before use (a LightGBM booster's
    text against the layout LightGBM writes, before LightGBM reads it);
    pickle and joblib files are refused: loading one can run any code.

    Parameters
    ----------
    path : str or path-like
        The model file; ``~`` is expanded, as pandas does.

    Returns
    -------
    ranker : SavedRanker
        Scores rows as the saved ranker did; ``metadata`` holds the saved
        metadata.

    Raises
    ------
    FileNotFoundError, IsADirectoryError
        When there is no such file.
    ValueError
        When the file is not a valid model file (saying what is wrong: also
        a pipe or device, a key twice in one object, NaN, a number beyond
        float64), or was written by a newer skpapk; and, before reading it,
        when it is larger than a quarter of the machine's memory.
    ImportError
        When the model is a LightGBM booster and LightGBM is not installed.

    See Also
    --------
    save_ranker : Write a model file.
    SavedRanker : The loaded model.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from skpapk import PApKRanker
    >>> from skpapk.io import load_ranker, save_ranker
    >>> X = np.array([[0.0], [2.0], [1.0], [3.0], [5.0]])
    >>> y, groups = [0, 1, 0, 1, 0], [0, 0, 0, 1, 1]
    >>> ranker = PApKRanker(k=1).fit(X, y, groups=groups)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
    >>> save_ranker(ranker, path, metadata={"note": "toy"})
    >>> model = load_ranker(path)
    >>> model.k, model.metadata
    (1, {'note': 'toy'})
    >>> bool(np.array_equal(model.decision_function(X), ranker.decision_function(X)))
    True
    """
    path = os.path.expanduser(os.fspath(path))  # "~/model.json", as pandas
    content = _content(path)
    what = f"{path} is not a skpapk model file"
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{what} (no \"format\": \"{FORMAT}\" in it).")
    version = content.get("format_version")
    if not _is_count(version, 2**63):
        shown = ("missing" if version is None
                 else f"{_shown(version)}, not a version")
        raise ValueError(f"{what} (its \"format_version\" is {shown}; skpapk "
                         f"writes the integers 1 to {FORMAT_VERSION}).")
    if version > FORMAT_VERSION:
        raise ValueError(f"{path} was written by a newer skpapk (model format "
                         f"{version}; this one reads up to {FORMAT_VERSION}): "
                         f"upgrade skpapk.")
    k, scorer = content.get("k"), content.get("scorer")
    if not _is_count(k, MAX_K):
        raise ValueError(f"{what} (its k, {_shown(k)}, is not an "
                         f"integer between 1 and {MAX_K}).")
    if not isinstance(scorer, dict):
        raise ValueError(f"{what} (no scorer in it).")
    if not isinstance(scorer.get("kind"), str):
        raise ValueError(f"{what} (its scorer's kind, {_shown(scorer.get('kind'))}"
                         f", is not a name: one of {', '.join(SCORER_KINDS)}).")
    if scorer["kind"] not in SCORER_KINDS:
        raise ValueError(f"{path} holds a model of kind {_shown(scorer['kind'])}, "
                         f"which this skpapk cannot use (kinds: "
                         f"{', '.join(SCORER_KINDS)}); upgrade skpapk.")
    unknown = [key for key in scorer if key not in SCORER_KINDS[scorer["kind"]].keys]
    if unknown:  # what a newer format may add: this reader would ignore it
        raise ValueError(f"{what} (its {scorer['kind']} scorer has the key(s) "
                         f"{', '.join(_shown(key) for key in unknown)}, which "
                         f"this skpapk does not know: remove them, or upgrade "
                         f"skpapk if a newer one wrote the file).")
    if version < 2 and "shift" in scorer:
        raise ValueError(f"{what} (its linear scorer has a shift, which format "
                         f"version 1 does not have: skpapk writes it in "
                         f"version 2 files; a reader of version 1 would score "
                         f"without it).")
    try:
        scorer = SCORER_KINDS[scorer["kind"]].from_dict(scorer)
    except ValueError as exc:
        raise ValueError(f"{what} ({exc}).") from None
    classes = content.get("classes", [0, 1])
    names = content.get("feature_names_in")
    n_fit_groups = content.get("n_fit_groups", 1)
    wrong = [rule for ok, rule in [
        (_json_labels(classes), "its classes must be two distinct labels"),
        (names is None or (isinstance(names, list)
                           and len(names) == scorer.n_features
                           and len(set(names)) == len(names)
                           and all(isinstance(name, str) for name in names)),
         f"its feature_names_in must be one distinct string per feature "
         f"({scorer.n_features} coefficients)"),
        (_is_count(n_fit_groups, 2**63), "its n_fit_groups must be a positive "
                                         "integer"),
    ] if not ok]
    if wrong:  # each faulty entry named
        raise ValueError(f"{what} ({', '.join(wrong)}).")
    model = SavedRanker(k, scorer=scorer, metadata={
        key: value for key, value in content.items() if key not in _RESERVED})
    model.classes_ = exact_values(classes)  # "a" and "a\0" stay two labels
    model.n_features_in_ = scorer.n_features
    model._n_fit_groups = n_fit_groups  # of the saved ranker's fit
    if names is not None:
        model.feature_names_in_ = np.asarray(names, dtype=object)
    return model
