"""Files written atomically: a failure leaves the previous file intact.

A file is written to a temporary file in its folder, flushed to disk, then
renamed over the target (:func:`os.replace`, atomic on POSIX and Windows):
a failure leaves the previous file, if any, intact and no partial file. A
symbolic link is followed: the file it points to is replaced.
"""

import contextlib
import os
import tempfile


@contextlib.contextmanager
def atomic_write(path, *, mode="w", newline=None, check_only=False):
    """Open a temporary file beside ``path``; rename it to ``path`` on success
    (``check_only``: remove it).

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
