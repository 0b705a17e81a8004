"""Input, output and model files of the commands, checked before any work.

Outputs are written with :func:`skpapk.utils._files.atomic_write`; model
files are :func:`skpapk.io.save_ranker`'s, whose metadata say how ``skpapk
fit`` read its training file (the group, label and feature columns, the
labels and the relevant one) and how the model was made. A loaded model is
a :class:`skpapk.io.SavedRanker`."""

import contextlib
import errno
import os

from ..io import load_ranker, save_ranker
from ..utils._files import atomic_write, is_folder_name
from ..utils._messages import cut
from ._methods import available_methods
from ._output import CLIError


def _broken_link(path):
    """Why ``path``, a symbolic link, leads to no file (None when it is not
    a link)."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{path} is a loop of symbolic links."
        target = os.path.realpath(path)  # the end of a chain of links
        if exc.errno == errno.ENOENT:
            return (f"{path} is a symbolic link to {target}, which does not "
                    f"exist.")
        return f"{path} is a symbolic link to {target}: {exc.strerror}."
    return None


def check_input_file(path):
    """Fail with one line when ``path`` is not a readable file."""
    if not os.path.exists(path):
        raise CLIError(_broken_link(path) or f"{path}: no such file.")
    if os.path.isdir(path):
        raise CLIError(f"{path} is a folder, not a CSV file.")
    if not os.access(path, os.R_OK):
        raise CLIError(f"{path}: permission denied (cannot read it).")


def check_output(path, *, option, inputs=(), force=False, hint=""):
    """Fail before any training if ``path`` (of ``option``) cannot or must not
    be written (an input, a folder, a pipe or device, an existing file
    without ``force``); ``hint``: another way out, for the pipe message."""
    if path == "-":  # stdout for recommend's --out only
        raise CLIError(f"{option} -: {option} is a file, not stdout; give a file "
                       f"name (./- for a file named '-').")
    if not path:
        raise CLIError(f"{option} is empty; give a file name.")
    if is_folder_name(path):  # "out.json/": realpath would make it out.json
        raise CLIError(f"{option} {path} names a folder; give a file name.")
    for source in inputs:
        if source and os.path.exists(source) and os.path.exists(path) \
                and os.path.samefile(path, source):
            raise CLIError(f"{option} {path} is an input of this command; write "
                           f"the output to another file.")
    if os.path.isdir(path):
        raise CLIError(f"{option} {path} is a folder; give a file name.")
    if os.path.exists(path) and not os.path.isfile(path):
        raise CLIError(f"{option} {path} is not a regular file (a pipe, device "
                       f"or socket); give a file name{hint}.")
    folder = os.path.dirname(path) or os.curdir  # as the system reads it:
    if os.path.isdir(folder):  # "in.csv/../out" has no folder
        folder = os.path.dirname(os.path.realpath(path))  # a link's target's
    if not os.path.isdir(folder):
        raise CLIError(f"{option} {path}: " + (
            f"{folder} is a file, not a folder." if os.path.exists(folder) else
            f"the folder {folder} does not exist; create it first."))
    if os.path.exists(path) and not force:
        raise CLIError(f"{option} {path} already exists; add --force to replace "
                       f"it, or choose another file.")
    name, most = os.path.basename(path), 255  # unknown: the usual limit
    try:  # in bytes (Windows, without pathconf: 255 UTF-16 units)
        most, length, unit = os.pathconf(folder, "PC_NAME_MAX"), len(
            os.fsencode(name)), "bytes"
    except (OSError, ValueError, AttributeError):
        length, unit = len(name.encode("utf-16-le", "surrogatepass")) // 2, "units"
    if length > most:  # else found by the final rename, after the work
        raise CLIError(f"{option}: the file name {cut(name, 40)} is {length} "
                       f"{unit} long, and the folder takes at most {most}; "
                       f"choose a shorter name.")
    try:  # what atomic_write will do: a temporary file in the folder
        with atomic_write(path, check_only=True):
            pass
    except OSError as exc:
        raise CLIError(f"{option} {path}: cannot write in the folder {folder} "
                       f"({exc.strerror or exc}).") from None


def appeared(path, option):
    """The error of an output that another run wrote while this one worked."""
    return CLIError(f"{option} {path} appeared while this command ran; add "
                    f"--force to replace it, or choose another file.")


@contextlib.contextmanager
def write_output(path, *, option, force, **kwargs):
    """:func:`~skpapk.utils._files.atomic_write` of an output ``option``: a
    file written meanwhile is replaced only with ``force``."""
    try:
        with atomic_write(path, overwrite=force, **kwargs) as handle:
            yield handle
    except FileExistsError:
        raise appeared(path, option) from None
    except OSError as exc:  # a full disk: nothing replaced, the file named
        raise CLIError(f"cannot write {option} {path}: "
                       f"{exc.strerror or exc}.") from None


#: Metadata that ``score`` reads from a model file, with their types;
#: ``recommend`` reads the group and feature columns only.
_REQUIRED = {"group_col": (str, "a string"), "label_col": (str, "a string"),
             "feature_cols": (list, "a list"), "labels": (list, "a list"),
             "pos_label": (str, "a string")}


def save_model(path, meta, model, *, force=False):
    """Write the fitted pipeline ``model`` with ``meta`` (``k`` included);
    an existing file (one written meanwhile) is replaced only with ``force``."""
    meta = dict(meta)
    try:
        save_ranker(model, path, k=meta.pop("k"), metadata=meta,
                    feature_names=meta["feature_cols"],  # for Python's users
                    overwrite=force)
    except ValueError as exc:  # a coefficient is not finite: nothing written
        steps = "eta0" in available_methods()[meta["method"]].grids["paper"]
        fix = ("Scale the features" if model[0] == "passthrough" else "Rescale the "
               "columns of tiny or huge range (or use --scale none)")  # folded in
        raise CLIError(f"{exc} {fix}{', or lower --eta0' if steps else ''}.",
                       status=1) from None
    except FileExistsError:  # written by another process meanwhile
        raise appeared(path, "--out") from None
    except OSError as exc:
        raise CLIError(f"cannot write the model to {path}: "
                       f"{exc.strerror or exc}.") from None


def load_model(path, command="score"):
    """Read and check a model file for ``command`` (``score`` or
    ``recommend``): a :class:`~skpapk.io.SavedRanker`, or a
    :class:`CLIError` saying what is wrong. The feature columns are the
    metadata's ``feature_cols``, else the model's feature names."""
    if not os.path.exists(path):
        raise CLIError(_broken_link(path) or (
            f"{path}: no such model file; create one with 'skpapk fit "
            f"FILE.csv ... --out {path}'."))
    try:
        model = load_ranker(path)
    except (ValueError, ImportError, OSError) as exc:  # no Python advice:
        raise CLIError(str(exc).replace("; use sys.set_int_max_str_digits() to "
                                        "increase the limit", "")) from None
    what, meta = f"{path} is not a model file written by 'skpapk fit'", model.metadata
    names = getattr(model, "feature_names_in_", None)
    if names is not None:  # a file of save_ranker, from a DataFrame
        meta.setdefault("feature_cols", list(names))
    keys = list(_REQUIRED) if command == "score" else ["group_col", "feature_cols"]
    wrong = [f"{key!r} ({_REQUIRED[key][1]})" for key in keys
             if not isinstance(meta.get(key), _REQUIRED[key][0])]
    if wrong:  # all at once: a file of save_ranker may lack every one
        raise CLIError(f"{what}: its metadata lack or mistype {', '.join(wrong)}; "
                       f"a model of skpapk.io.save_ranker needs them in its "
                       f"metadata= to be used by 'skpapk {command}' (see the "
                       f"command-line guide).")
    columns = [meta[key] for key in ("group_col", "label_col") if key in keys]
    features, labels = meta["feature_cols"], meta.get("labels")
    if (not features or not all(isinstance(name, str) for name in features)
            or len(set(map(str, columns + features))) != len(columns + features)
            or command == "score" and (
                len(labels) != 2 or not all(isinstance(v, str) for v in labels)
                or meta["pos_label"] not in labels)):
        raise CLIError(f"{what} (its group, label and feature columns must be "
                       f"distinct column names, its labels two strings that "
                       f"include pos_label).")
    if len(features) != model.n_features_in_:
        raise CLIError(f"{what} (its scorer uses {model.n_features_in_} features "
                       f"but it names {len(features)} feature columns).")
    if names is not None:
        if list(names) != features:
            raise CLIError(f"{what} (its feature_cols and feature_names_in differ: "
                           f"the scorer would read the wrong columns).")
        del model.feature_names_in_  # the commands pass the columns in order
    return model
