"""Fixtures for the install tests: `make install` into a temporary prefix, `make wheel` from it, and the
bare root the wheel is tried in (made in the background while the library builds)."""
import subprocess
import sys
from pathlib import Path

import pytest

from install_support import ROOT, make

HERE = Path(__file__).resolve().parent
# Kept between runs (out/ is not in git): debootstrap takes a minute, mostly waiting on the network and
# the disk, so it runs while make install compiles.
BARE_ROOT = ROOT / "out" / "bare-root" / "root"
_bare_root_build = None


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "sdist_build: builds libhearth from the sdist (make test-sdist, not "
                                       "make test-install)")


def pytest_collection_finish(session) -> None:
    global _bare_root_build
    if any("bare_root" in getattr(item, "fixturenames", ()) for item in session.items):
        _bare_root_build = subprocess.Popen([sys.executable, str(HERE / "bare_root.py"), "build", str(BARE_ROOT)],
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="session")
def bare_root() -> Path:
    """A minimal Debian root with Python and without libuv or libcurl (bare_root.py build)."""
    assert _bare_root_build is not None, "the bare root's build was not started at collection"
    output, _ = _bare_root_build.communicate(timeout=1800)
    assert _bare_root_build.returncode == 0, output
    return BARE_ROOT


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
