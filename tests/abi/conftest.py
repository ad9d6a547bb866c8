"""Fixtures for the ABI checks: the built library, and C programs built against it and the headers."""
import os
import shutil
from pathlib import Path

import pytest

from abi_support import INCLUDE, header_macro, library_path, run


@pytest.fixture(scope="session")
def library() -> Path:
    path = library_path()
    if not path.is_file():
        pytest.fail(f"{path} is not built (run make build, or set HEARTH_LIBRARY)")
    return path


@pytest.fixture(scope="session")
def library_dir(library, tmp_path_factory) -> Path:
    """A directory where programs linked with -lhearth find the library under its soname."""
    directory = tmp_path_factory.mktemp("lib")
    os.symlink(library, directory / "libhearth.so")
    os.symlink(library, directory / f"libhearth.so.{header_macro('HEARTH_VERSION_MAJOR')}")
    return directory


@pytest.fixture(scope="session")
def build_c(library_dir, tmp_path_factory):
    """Compiles tests/abi/<name>.c against include/ and the library; returns the program's path."""
    out = tmp_path_factory.mktemp("bin")
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        pytest.fail(f"C compiler {compiler} not found")

    def build(name: str) -> Path:
        program = out / name
        if not program.exists():
            result = run([compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g",
                          f"-I{INCLUDE}", "-o", program, Path(__file__).parent / f"{name}.c",
                          f"-L{library_dir}", f"-Wl,-rpath,{library_dir}", "-lhearth", "-pthread"])
            assert result.returncode == 0, f"building {name}.c failed:\n{result.stderr}"
        return program

    return build
