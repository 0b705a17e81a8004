"""The test suite's warning filters (pyproject.toml): every warning is an
error, except those that dependencies raise where an error does harm."""

import threading
import warnings

import pytest


def test_loky_recycling_warning_is_not_an_error_in_its_thread():
    # loky warns from its executor's manager thread before it replaces a
    # recycled worker; as an error it ended that thread and the search
    # waited forever (joblib.Parallel hung in CI)
    errors = []

    def manager():
        try:
            warnings.warn("A worker stopped while some jobs were given to the "
                          "executor. This can be caused by a too short worker "
                          "timeout or by a memory leak.", UserWarning)
        except UserWarning as exc:  # pragma: no cover - the regression
            errors.append(exc)

    thread = threading.Thread(target=manager)
    thread.start()
    thread.join()
    assert errors == []


def test_other_warnings_are_still_errors():
    with pytest.raises(UserWarning, match="anything else"):
        warnings.warn("anything else", UserWarning)
