"""Strict JSON for model files: plain values out, checked text in."""

import json
import math
import os
import stat

import numpy as np

from ..utils._messages import cut
from ..utils._parallel import physical_memory

#: First bytes of pickle (protocol 2+) and of joblib's compressed files
#: (zlib, gzip, bz2, xz, lzma, lz4).
_PICKLE_MAGIC = (b"\x80", b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda",
                 b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"\x5d\x00\x00", b"\x04\x22\x4d\x18")


#: A model file may take at most this share of the machine's memory: its
#: bytes, their text, the parsed JSON and LightGBM's copy of a booster each
#: hold about as much again.
MEMORY_SHARE = 4

#: Bytes that parsing takes (at most, about) for each value after a ","
#: (a float 24 and its place in a list 8), and for each list, object or
#: key (a list 56, a dict 64, a key's string and pair, with their places),
#: against 1 to 20 bytes of text each: ``[[],[],...]`` took 28 times its
#: size.
_BYTES_PER_ITEM, _BYTES_PER_CONTAINER = 32, 128
#: A file whose parsing takes less is not refused for it (every machine has
#: that much).
_PARSE_FLOOR = 2**26

#: How deep metadata may nest.
_MAX_DEPTH = 100


def _plain(value, where, depth=0):
    """``value`` as JSON data (numpy scalars as Python's); a ValueError
    naming ``where`` when it is not JSON data."""
    if depth > _MAX_DEPTH:
        raise ValueError(f"metadata is nested more than {_MAX_DEPTH} levels deep "
                         f"(or holds itself), at {cut(where, 60, quote=False)}.")
    if isinstance(value, np.generic) and value.ndim == 0:
        value = value.item()
        if isinstance(value, np.floating):  # longdouble: item() keeps it
            with np.errstate(over="ignore"):
                rounded = float(value)
            if np.isfinite(value) and not math.isfinite(rounded):
                raise ValueError(f"{where} is the {type(value).__name__} "
                                 f"{value!s}, beyond float64's range (JSON "
                                 f"numbers are read as float64).")
            if np.isfinite(value) and rounded != value:
                raise ValueError(f"{where} is the {type(value).__name__} "
                                 f"{value!s}, which no float64 holds exactly "
                                 f"(JSON numbers are read as float64); pass "
                                 f"float({cut(where, 40, quote=False)}) to "
                                 f"store it rounded.")
            value = rounded
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} is {value}, not a finite number (JSON has "
                             f"no NaN or infinity).")
        return value
    if isinstance(value, list):
        return [_plain(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ValueError(f"{where} has the key {key!r}, not a string (JSON "
                                 f"keys are strings: it would come back as "
                                 f"{json.dumps(str(key))}).")
        return {key: _plain(v, f"{where}[{key!r}]", depth + 1)
                for key, v in value.items()}
    fix = " (use a list)" if isinstance(value, (tuple, np.ndarray)) else ""
    raise ValueError(f"{where} holds a {type(value).__name__}, which is not JSON "
                     f"data (str, int, float, bool, None, list or dict){fix}.")


def _shown(value):
    """A value of the file, as JSON, cut with its length."""
    return cut(json.dumps(value), 40, quote=False)


def _unique_keys(pairs):
    """The object of ``pairs``; a ValueError naming a key given twice (found
    in one pass: an object may hold many keys)."""
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {_shown(key)} appears twice in one "
                             f"object")
        seen.add(key)
    return dict(pairs)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON (JSON has no NaN or infinity)")


def _finite_float(text):
    """A JSON number with a fraction or exponent as a float; a ValueError for
    one beyond float64 (``1e999`` would be infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {cut(text, 40, quote=False)} is beyond "
                         f"float64 (it would be infinity; model files hold "
                         f"finite numbers)")
    return value


def _deeper_than(value, limit):
    """Whether JSON data ``value`` holds a value more than ``limit`` levels
    below it, :func:`_plain`'s rule for metadata (without recursion: Python's
    copy, pickle and repr of such data recurse, and fail from about 350
    levels). Level by level, holding the containers of one level only (a
    stack of every item with its depth took more memory and time than the
    parse, on a file of millions of empty lists)."""
    level = [value] if isinstance(value, (dict, list)) else []
    for _ in range(limit):  # level: the containers ``_ + 1`` levels down
        level = [item for container in level for item in (
            container.values() if isinstance(container, dict) else container)
            if isinstance(item, (dict, list))]
        if not level:
            return False
    return any(level)  # a value ``limit + 1`` levels down: in a container


def _content(path):
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path} is a folder, not a model file.")
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ValueError(f"{path} is not a regular file (a pipe, device or "
                         f"socket); give a model file.")
    with open(path, "rb") as handle:
        size, memory = os.fstat(handle.fileno()).st_size, physical_memory()
        if memory is not None and size > memory // MEMORY_SHARE:
            raise ValueError(
                f"{path} is {size / 2**30:.3g} GiB, more than a model file "
                f"may be here (1/{MEMORY_SHARE} of the "
                f"{memory / 2**30:.3g} GiB of memory this process may use: "
                f"reading and parsing it takes several times its size); is it "
                f"a model file?")
        raw = handle.read()
    if raw.startswith(_PICKLE_MAGIC):
        raise ValueError(
            f"{path} looks like a pickle or joblib file. skpapk does not load "
            f"pickles: loading one can run any code its author put in it. Its "
            f"model files are JSON, written by skpapk.io.save_ranker or "
            f"'skpapk fit'.")
    try:
        text = raw.decode("utf-8-sig")  # a BOM, as an editor may add, is fine
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a skpapk model file (not UTF-8 text; "
                         f"skpapk model files are UTF-8 JSON, and pickle or "
                         f"joblib files are refused).") from None
    # what parsing would hold with the bytes and the text (those inside
    # strings counted too: an overestimate)
    containers = sum(text.count(char) for char in ":[{")
    needed = (2 * len(text) + _BYTES_PER_ITEM * text.count(",")
              + _BYTES_PER_CONTAINER * containers)
    if memory is not None and needed > max(memory, _PARSE_FLOOR):
        raise ValueError(
            f"{path} holds about {containers:,} JSON lists, objects and keys "
            f"and {text.count(','):,} values, which would take about "
            f"{needed / 2**30:.3g} GiB to parse, more than the "
            f"{memory / 2**30:.3g} GiB of memory this process may use; is it "
            f"a model file? (Model files hold numbers, and LightGBM's trees as "
            f"one string.)")
    try:
        content = json.loads(text, object_pairs_hook=_unique_keys,
                             parse_constant=_no_constant,
                             parse_float=_finite_float)
        if _deeper_than(content, _MAX_DEPTH):  # what save_ranker writes
            raise ValueError(f"it is nested more than {_MAX_DEPTH} levels deep "
                             f"(save_ranker's limit for metadata)")
        return content
    except json.JSONDecodeError as exc:
        problem = (f"not JSON: {exc}; skpapk model files are JSON, and pickle "
                   f"or joblib files are refused")
    except ValueError as exc:  # the hooks, or an integer of 4,300+ digits
        problem = f"its JSON is refused: {exc}"
    except RecursionError:
        problem = "its JSON is nested too deeply"
    raise ValueError(f"{path} is not a skpapk model file ({problem}).")
