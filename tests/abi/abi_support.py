"""Helpers of the ABI checks: where the library and the headers are, and how to run tools."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "include"
HEADER = INCLUDE / "hearth.h"


def library_path() -> Path:
    """The library under test: $HEARTH_LIBRARY (make test-abi sets it), else the normal release build."""
    return Path(os.environ.get("HEARTH_LIBRARY", ROOT / ".build" / "release" / "libhearth.so")).resolve()


def header_macro(name: str) -> str:
    match = re.search(rf"^#define {name} (.+)$", HEADER.read_text(), re.MULTILINE)
    assert match, f"{HEADER} defines no {name}"
    return match.group(1).strip().strip('"')


def run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def c_test_names(name: str) -> list[str]:
    """The TEST_ENTRY names of tests/abi/<name>.c, in order (one pytest case each)."""
    source = (Path(__file__).parent / f"{name}.c").read_text()
    return re.findall(r"TEST_ENTRY\((\w+)\)", source)
