"""Fixtures for the install tests: `make install` into a temporary prefix, and `make wheel` from it."""
from pathlib import Path

import pytest

from install_support import ROOT, make


@pytest.fixture(scope="session")
def prefix(tmp_path_factory) -> Path:
    """A tree made by `make install PREFIX=...`."""
    path = tmp_path_factory.mktemp("prefix") / "hearth"
    result = make("install", f"PREFIX={path}")
    assert result.returncode == 0, result.stdout + result.stderr
    return path


@pytest.fixture(scope="session")
def wheel(prefix) -> Path:
    """out/wheel's manylinux wheel, made by `make wheel` from the static build the `prefix` fixture's
    `make install` has just brought up to date (so nothing is built twice)."""
    result = make("wheel", f"HEARTH_WHEEL_LIBRARY={ROOT / '.build-install' / 'release' / 'libhearth.so'}")
    assert result.returncode == 0, result.stdout + result.stderr
    wheels = sorted((ROOT / "out" / "wheel").glob("hearth-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]
