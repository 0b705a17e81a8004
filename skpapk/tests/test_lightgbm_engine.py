"""Tests of the silencing of LightGBM's messages by a fit (``_quiet``)."""

import sys
import threading

import pytest

from skpapk._lightgbm_engine import _quiet, _quietly

basic = pytest.importorskip("lightgbm.basic")


def _in_thread(target):
    thread = threading.Thread(target=target)
    thread.start()
    return thread


@pytest.mark.parametrize("exit_order", ["first in, first out", "last in, first out"])
def test_quiet_silences_its_own_thread_only(capsys, exit_order):
    # LightGBM's Dask interface prints "Finding random open ports for
    # workers" whatever its verbosity: a quiet fit silences it in its own
    # thread, not other threads' output (sys.stdout is the process's), and
    # leaves LightGBM's logger as it was once every overlapping fit ended
    stream, logger = sys.stdout, basic._LOGGER
    entered = [threading.Event(), threading.Event()]
    leave = [threading.Event(), threading.Event()]
    left = [threading.Event(), threading.Event()]

    def fit(i):
        with _quiet(verbose=0):
            basic._log_info(f"silenced {i}")
            entered[i].set()
            leave[i].wait(10)
            print(f"printed {i}")  # the thread's own output is not touched
        basic._log_info(f"after {i}")
        left[i].set()

    threads = [_in_thread(lambda: fit(0))]
    entered[0].wait(10)
    threads.append(_in_thread(lambda: fit(1)))
    entered[1].wait(10)
    basic._log_info("other thread")
    first, second = (0, 1) if exit_order == "first in, first out" else (1, 0)
    leave[first].set()
    left[first].wait(10)
    basic._log_info("other thread again")
    leave[second].set()
    for thread in threads:
        thread.join(10)
    assert sys.stdout is stream and basic._LOGGER is logger
    assert capsys.readouterr().out.splitlines() == [
        "other thread", f"printed {first}", f"after {first}",
        "other thread again", f"printed {second}", f"after {second}"]


def test_quiet_nests_keeps_warnings_and_verbose_2_logs(capsys):
    logger = basic._LOGGER
    with _quiet(verbose=0):
        with _quiet(verbose=0):
            basic._log_info("inner")
        basic._log_info("outer")
        with _quiet(verbose=2):  # already silenced: still silenced
            basic._log_info("inner, verbose")
        with pytest.warns(UserWarning, match="a warning"):
            basic._log_warning("a warning")  # warnings are not silenced
    basic._log_info("out")
    with _quiet(verbose=2):
        assert basic._LOGGER is logger
        basic._log_info("verbose")
    assert _quietly(0, basic._log_info, "call") is None
    assert basic._LOGGER is logger
    assert capsys.readouterr().out.splitlines() == ["out", "verbose"]


def test_quiet_keeps_a_logger_registered_meanwhile(capsys):
    class Logger:
        def __init__(self):
            self.messages = []

        def info(self, msg):
            self.messages.append(msg)

        def warning(self, msg):
            self.messages.append(f"warning: {msg}")

    before, mine = basic._LOGGER, Logger()
    try:
        with _quiet(verbose=0):
            basic.register_logger(mine)  # the user's, during a fit
            basic._log_info("theirs")
        assert basic._LOGGER is mine and mine.messages == ["theirs"]
        with _quiet(verbose=0):  # a quiet fit silences it too, then restores it
            basic._log_info("silenced")
        basic._log_warning("kept")
        assert basic._LOGGER is mine
        assert mine.messages == ["theirs", "warning: kept"]
    finally:
        basic.register_logger(before)
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("verbose", [0, 2])
def test_quiet_drops_the_warnings_asked_in_its_own_thread_only(recwarn, verbose):
    logger, done = basic._LOGGER, threading.Event()
    with _quiet(verbose, drop=("Parameter n_jobs",)):
        basic._log_warning("Parameter n_jobs will be ignored.")
        basic._log_warning("another warning")
        thread = _in_thread(lambda: (
            basic._log_warning("Parameter n_jobs, in another thread"),
            done.set()))
        done.wait(10)
        thread.join(10)
        with _quiet(0):  # nested, without drop: still dropped
            basic._log_warning("Parameter n_jobs, nested")
    basic._log_warning("Parameter n_jobs, after")
    assert basic._LOGGER is logger
    assert [str(w.message) for w in recwarn] == [
        "another warning", "Parameter n_jobs, in another thread",
        "Parameter n_jobs, after"]


def test_quiet_keeps_where_lightgbms_warnings_come_from():
    # LightGBM's default logger warns with stacklevel=3, the function that
    # called _log_warning: so it stays where no thread drops warnings, and
    # in the threads that drop none while another thread does
    def caller():
        basic._log_warning("from the caller")

    with _quiet(0), pytest.warns(UserWarning) as records:
        caller()
    entered, leave = threading.Event(), threading.Event()

    def dropping():
        with _quiet(0, drop=("Parameter n_jobs",)):
            entered.set()
            leave.wait(10)

    thread = _in_thread(dropping)
    entered.wait(10)
    try:
        with pytest.warns(UserWarning) as others:
            caller()
    finally:
        leave.set()
        thread.join(10)
    assert [r.filename for r in [*records, *others]] == [__file__] * 2


def test_quiet_drops_of_contexts_that_end_out_of_order():
    # the drops of the context that ends go, not the last ones entered
    a, b = _quiet(0, drop=("AAA",)), _quiet(0, drop=("BBB",))
    a.__enter__()
    b.__enter__()
    a.__exit__(None, None, None)
    try:
        with pytest.warns(UserWarning) as records:
            basic._log_warning("AAA, no longer dropped")
            basic._log_warning("BBB, still dropped")
    finally:
        b.__exit__(None, None, None)
    assert [str(r.message) for r in records] == ["AAA, no longer dropped"]
    with pytest.raises(TypeError, match="must be a tuple of message starts"):
        with _quiet(0, drop="Parameter n_jobs"):  # not its characters
            pass
