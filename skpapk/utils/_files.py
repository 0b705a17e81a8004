"""Files written atomically: a failure leaves the previous file intact.

A file is written to a temporary file in its folder, flushed to disk, then
renamed over the target (:func:`os.replace`, atomic on POSIX and Windows):
a failure leaves the previous file, if any, intact and no partial file. A
symbolic link is followed: the file it points to is replaced.
"""

import contextlib
import os
import secrets


@contextlib.contextmanager
def atomic_write(path, *, mode="w", newline=None, check_only=False):
    """Open a temporary file beside ``path``; rename it to ``path`` on success
    (``check_only``: remove it).

    A new file gets the permissions of any new file (0o666 less the umask),
    a replaced file keeps its own. ``path`` a folder, or in a folder that
    does not exist, is an error naming ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.utils._files import atomic_write
    >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with atomic_write(target) as f:
    ...     _ = f.write("done")
    >>> with open(target) as f:
    ...     f.read()
    'done'
    """
    given, path = path, os.path.realpath(path)  # a link: its target replaced
    folder, name = os.path.split(path)
    if os.path.isdir(path):
        raise IsADirectoryError(f"{given} is a folder; give a file name.")
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"the folder {folder} of {given} does not exist; "
                                f"create it first.")
    # created by os.open with mode 0o666, so that the umask applies (reading
    # the umask would set it, process-wide, for a moment)
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
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
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
