"""Files written atomically: a failure leaves the previous file intact.

A file is written to a temporary file in its folder, flushed to disk, then
renamed over the target (:func:`os.replace`, atomic on POSIX and Windows),
or hard-linked to it when an existing file must not be replaced: a failure
leaves the previous file, if any, intact and no partial file. A symbolic
link is followed: the file it points to is replaced.
"""

import contextlib
import os
import secrets


@contextlib.contextmanager
def atomic_write(path, *, mode="w", newline=None, check_only=False,
                 overwrite=True):
    """Open a temporary file beside ``path``; rename it to ``path`` on success
    (``check_only``: remove it).

    A new file gets the permissions of any new file (0o666 less the umask),
    a replaced file keeps its own. ``path`` a folder (also ``"name/"`` or
    ``"name/."``), or in a folder that does not exist (also
    ``"file.csv/../out"``, which the system refuses though
    :func:`os.path.realpath` would not), is an error naming ``path``.
    A pipe, device or socket is not replaced (a ``ValueError``); a failure
    to write names ``path``, not the temporary file.
    ``overwrite=False`` refuses to replace a file (a ``FileExistsError``),
    also one created while writing where the file system has hard links
    (the temporary file is then linked, not renamed; elsewhere the target
    is checked just before the rename).

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
    given = os.fspath(path)
    if os.path.isdir(given) or not given or is_folder_name(given):
        verb = "is" if os.path.isdir(given) else "names"
        raise IsADirectoryError(f"{given or repr(given)} {verb} a folder; give "
                                f"a file name.")
    folder = os.path.dirname(given)
    if not os.path.isdir(folder or os.curdir):  # as the system reads the path
        raise FileNotFoundError(f"the folder {folder} of {given} does not exist "
                                f"(or passes through a file); give a path in "
                                f"an existing folder.")
    path = os.path.realpath(given)  # a link: its target replaced
    folder, name = os.path.split(path)
    if not os.path.isdir(folder):  # a link into a folder that does not exist
        raise FileNotFoundError(f"{given} links to {path}, whose folder does "
                                f"not exist; give a path in an existing folder.")
    if os.path.exists(path) and not os.path.isfile(path):
        raise ValueError(f"{given} is not a regular file (a pipe, device or "
                         f"socket), and is not replaced; give a file name.")
    # created by os.open with mode 0o666, so that the umask applies (reading
    # the umask would set it, process-wide, for a moment)
    for _ in range(100):
        # 64 bytes of the target's name, which may have the most, 255 (no
        # character cut; named as the system names files: under LC_ALL=C,
        # the bytes of "é" are two surrogates, and "é" itself has no bytes)
        short = os.fsdecode(os.fsencode(name)[:64].decode("utf-8", "ignore")
                            .encode("utf-8"))
        tmp = os.path.join(folder, f".{short}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        except OSError as exc:  # named by the path given, not the temporary
            raise _named(exc, given, folder) from None
    try:
        kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if check_only:
            os.unlink(tmp)
            return
        if not overwrite:
            _create(tmp, path, given, folder)
            return
        try:
            if os.path.exists(path):
                os.chmod(tmp, os.stat(path).st_mode & 0o7777)
            os.replace(tmp, path)
        except OSError as exc:
            raise _named(exc, given, folder) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _named(error, given, folder):
    """``error`` (of a temporary file in ``folder``) naming the path given."""
    return type(error)(error.errno, f"{error.strerror} (writing {given} "
                                    f"through a temporary file in {folder})", given)


def is_folder_name(path):
    """Whether ``path`` can only name a folder: it ends with a separator,
    ``.`` or ``..`` (``"out.json/"``, which :func:`os.path.realpath` would
    turn into the file ``out.json``)."""
    path = os.fspath(path)
    seps = tuple(s for s in (os.sep, os.altsep) if s)
    return path.endswith(seps) or os.path.basename(path) in (os.curdir, os.pardir)


def _create(tmp, path, given, folder):
    """Move ``tmp`` to ``path`` unless ``path`` exists, even if it appears
    meanwhile (a hard link fails on an existing name); other failures name
    the path ``given`` in ``folder``."""
    try:
        os.link(tmp, path)
    except OSError as exc:  # exists, or no hard links here (e.g. FAT)
        exists = isinstance(exc, FileExistsError) or os.path.lexists(path)
        if exists:
            raise FileExistsError(
                f"{given} already exists (it may have been written meanwhile) "
                f"and overwrite=False; it is not replaced.") from None
        try:
            os.replace(tmp, path)  # checked just before: not atomic
        except OSError as exc:
            raise _named(exc, given, folder) from None
        return
    os.unlink(tmp)
