"""Input and output files: checked before any work, written atomically.

A file is written to a temporary file in its folder, flushed to disk, then
renamed over the target (:func:`os.replace`, atomic on POSIX and Windows):
a failure leaves the previous file, if any, intact and no partial file. A
symbolic link is followed: the file it points to is replaced.
"""

import contextlib
import os
import tempfile

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
    folder = os.path.dirname(os.path.realpath(path))
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


@contextlib.contextmanager
def atomic_write(path, *, mode="w", newline=None, check_only=False):
    """Open a temporary file beside ``path``; rename it to ``path`` on success
    (``check_only``: remove it).

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.cli._files import atomic_write
    >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with atomic_write(target) as f:
    ...     _ = f.write("done")
    >>> with open(target) as f:
    ...     f.read()
    'done'
    """
    path = os.path.realpath(path)  # a link stays: its target is replaced
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if check_only:
            os.unlink(tmp)
            return
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
