"""Helpers of the install tests: the version the header announces, and running make and tools."""
import json
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


def dynamic_entries(binary: Path, tag: str) -> list[str]:
    """The values of one tag (NEEDED, SONAME, RUNPATH, ...) of an ELF file's dynamic section."""
    result = run(["readelf", "-d", binary])
    assert result.returncode == 0, result.stderr
    return re.findall(rf"\({tag}\)\s+[^\[]*\[(.*)\]", result.stdout)


def make(*args) -> subprocess.CompletedProcess:
    """Runs this repository's Makefile (the make that runs the tests, when there is one)."""
    return run([os.environ.get("MAKE", "make"), "--no-print-directory", "-C", ROOT, *args], timeout=1800)


def emulator_environment(**extra) -> dict:
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        pytest.fail("run under scripts/with-emulator (FIREBASE_AUTH_EMULATOR_HOST is not set)")
    return dict(os.environ, **extra)


#: The manylinux policy `make wheel` meets (the Makefile's WHEEL_PLAT).
WHEEL_POLICY = "manylinux_2_34"
#: The libraries the wheel carries besides libhearth: the lean libcurl (scripts/vendor-curl.sh), its TLS
#: and HTTP/2 libraries, and libuv, by soname.
VENDORED = {"libcurl.so.4", "libssl.so.3", "libcrypto.so.3", "libnghttp2.so.14", "libuv.so.1"}


def policy_system_libraries(policy: str = WHEEL_POLICY) -> set:
    """The libraries a manylinux policy lets a wheel take from the system (auditwheel's own list), and
    the dynamic loader."""
    import auditwheel

    document = Path(auditwheel.__file__).parent / "policy" / "manylinux-policy.json"
    [entry] = [entry for entry in json.loads(document.read_text()) if entry["name"] == policy]
    return set(entry["lib_whitelist"]) | {"ld-linux-x86-64.so.2"}


def soname(file_name: str) -> str:
    """libstdc++.so.6.0.30 -> libstdc++.so.6; libcurl-f68aa95b.so.4 -> libcurl.so.4 (auditwheel's
    renamed copies carry a hash)."""
    match = re.match(r"(?P<stem>.+?)(?:-[0-9a-f]{8})?\.so(?P<major>\.\d+)?", file_name)
    assert match, file_name
    return f"{match['stem']}.so{match['major'] or ''}"


def readme_quickstart() -> str:
    """The complete program bindings/python/README.md opens with (marked `<!-- quickstart: program -->`)."""
    text = (ROOT / "bindings" / "python" / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- quickstart: program -->\s*\n```python\n(.*?)\n```", text, flags=re.S)
    assert match, "bindings/python/README.md has no marked quick start program"
    return match.group(1) + "\n"
