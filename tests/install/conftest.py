"""Fixtures for the install tests: `make install` into a temporary prefix."""
from pathlib import Path

import pytest

from install_support import make


@pytest.fixture(scope="session")
def prefix(tmp_path_factory) -> Path:
    """A tree made by `make install PREFIX=...`."""
    path = tmp_path_factory.mktemp("prefix") / "hearth"
    result = make("install", f"PREFIX={path}")
    assert result.returncode == 0, result.stdout + result.stderr
    return path
