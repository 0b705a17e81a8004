"""Tests of the boosted rankers' engine helpers that need no LightGBM."""

import sys
import threading

import pytest

from skpapk._lightgbm_engine import _quiet, _quietly


def _in_thread(target):
    thread = threading.Thread(target=target)
    thread.start()
    return thread


@pytest.mark.parametrize("exit_order", ["first in, first out", "last in, first out"])
def test_quiet_silences_its_own_thread_only(capsys, exit_order):
    # sys.stdout is the process's: a fit's silencing of LightGBM must not drop
    # other threads' output, nor leave sys.stdout swapped once every
    # overlapping fit has ended, whichever ends first
    stream = sys.stdout
    entered = [threading.Event(), threading.Event()]
    leave = [threading.Event(), threading.Event()]
    left = [threading.Event(), threading.Event()]

    def fit(i):
        with _quiet(verbose=0):
            print(f"silenced {i}")
            entered[i].set()
            leave[i].wait(10)
            print(f"silenced {i} again")
        print(f"after {i}")
        left[i].set()

    threads = [_in_thread(lambda: fit(0))]
    entered[0].wait(10)
    threads.append(_in_thread(lambda: fit(1)))
    entered[1].wait(10)
    print("other thread")
    first, second = (0, 1) if exit_order == "first in, first out" else (1, 0)
    leave[first].set()
    left[first].wait(10)
    print("other thread again")
    leave[second].set()
    for thread in threads:
        thread.join(10)
    assert sys.stdout is stream
    out = capsys.readouterr().out.splitlines()
    assert out == ["other thread", f"after {first}", "other thread again",
                   f"after {second}"]


def test_quiet_nests_and_verbose_2_prints(capsys):
    stream = sys.stdout
    with _quiet(verbose=0):
        with _quiet(verbose=0):
            print("inner")
        print("outer")
        with _quiet(verbose=2):  # already silenced: still silenced
            print("inner, verbose")
    print("out")
    with _quiet(verbose=2):
        assert sys.stdout is stream
        print("verbose")
    assert _quietly(0, print, "call") is None
    assert sys.stdout is stream
    assert capsys.readouterr().out.splitlines() == ["out", "verbose"]
