"""Shared by the crash suites: the C programs `make test-crash` builds, found through the environment."""
import os

import pytest


def built_program(variable: str, name: str) -> str:
    """The path in `variable`, which must name the built tests/crash/`name`.c, run against an emulator."""
    path = os.environ.get(variable)
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"{variable} must name the built {name} (make test-crash builds it)")
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        pytest.fail("run under scripts/with-emulator")
    return path
