"""Output files: checked before any work, written atomically.

A file is written to a temporary file in its target folder, flushed to disk,
then renamed over the target (:func:`os.replace`, atomic on POSIX and
Windows): a failure at any point leaves the previous file, if any, intact
and no partial file behind.
"""

import contextlib
import os
import tempfile

from ._output import CLIError


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(path, *, option, inputs=(), force=False):
    """Fail now, before any training, if ``path`` cannot or must not be written.

    Parameters
    ----------
    path : str
        The output file.
    option : str
        Its option, for messages (e.g. ``"--out"``).
    inputs : sequence of str
        Files the command reads: the output may never be one of them.
    force : bool
        Whether an existing file may be replaced.
    """
    for source in inputs:
        if source and os.path.exists(source) and os.path.exists(path) \
                and _same_file(path, source):
            raise CLIError(f"{option} {path} is an input of this command; write "
                           f"the output to another file.")
    if os.path.isdir(path):
        raise CLIError(f"{option} {path} is a folder; give a file name.")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CLIError(f"{option} {path}: the folder {folder} does not exist; "
                       f"create it first.")
    if os.path.exists(path) and not force:
        raise CLIError(f"{option} {path} already exists; add --force to replace "
                       f"it, or choose another file.")
    try:  # what atomic_write will do: a temporary file in the folder
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.",
                                   suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise CLIError(f"{option} {path}: cannot write in the folder {folder} "
                       f"({exc.strerror or exc}).") from None


def _new_file_mode(path):
    if os.path.exists(path):
        return os.stat(path).st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(path, *, mode="w", encoding="utf-8", newline=None):
    """Open a temporary file beside ``path``; rename it to ``path`` on success.

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.cli._files import atomic_write
    >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with atomic_write(target) as f:
    ...     _ = f.write("done")
    >>> open(target).read()
    'done'
    """
    folder = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _new_file_mode(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
