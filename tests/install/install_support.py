"""Helpers of the install tests: the version the header announces, and running make and tools."""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def header_macro(name: str) -> str:
    match = re.search(rf"^#define {name} (.+)$", (ROOT / "include" / "hearth.h").read_text(), re.MULTILINE)
    assert match, f"hearth.h defines no {name}"
    return match.group(1).strip().strip('"')


MAJOR = header_macro("HEARTH_VERSION_MAJOR")
# HEARTH_VERSION_STRING is spelled out from the numbers by the preprocessor.
VERSION = ".".join(header_macro(f"HEARTH_VERSION_{part}") for part in ("MAJOR", "MINOR", "PATCH"))


def run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def make(*args) -> subprocess.CompletedProcess:
    """Runs this repository's Makefile (the make that runs the tests, when there is one)."""
    return run([os.environ.get("MAKE", "make"), "--no-print-directory", "-C", ROOT, *args], timeout=1800)


def emulator_environment(**extra) -> dict:
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        pytest.fail("run under scripts/with-emulator (FIREBASE_AUTH_EMULATOR_HOST is not set)")
    return dict(os.environ, **extra)
