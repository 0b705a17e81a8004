"""Input and output files of the commands, checked before any work; outputs
are written with :func:`skpapk.utils._files.atomic_write`."""

import contextlib
import os

from ..utils._files import atomic_write, is_folder_name
from ._output import CLIError


def check_input_file(path):
    """Fail with one line when ``path`` is not a readable file."""
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such file.")
    if os.path.isdir(path):
        raise CLIError(f"{path} is a folder, not a CSV file.")
    if not os.access(path, os.R_OK):
        raise CLIError(f"{path}: permission denied (cannot read it).")


def check_output(path, *, option, inputs=(), force=False, hint=""):
    """Fail before any training if ``path`` (of ``option``) cannot or must not
    be written (an input, a folder, a pipe or device, an existing file
    without ``force``); ``hint``: another way out, for the pipe message."""
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
        raise CLIError(f"{option} {path}: the folder {folder} does not exist; "
                       f"create it first.")
    if os.path.exists(path) and not force:
        raise CLIError(f"{option} {path} already exists; add --force to replace "
                       f"it, or choose another file.")
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
