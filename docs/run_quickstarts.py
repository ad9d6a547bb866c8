#!/usr/bin/env python3
"""Builds and runs the complete programs of the quick starts (and of the pages in EXPECTED that have
some, such as tenants.md), so the docs cannot drift from the API.

    python3 docs/run_quickstarts.py        (make test-docs; needs the built library and emulator)

A quick start marks its complete program with the line `<!-- quickstart: program -->` right before
the fenced block. Each program is written to $OUT/docs/, built (C and C++ against include/ and
.build/release, as the quick start tells readers to), and run through scripts/with-emulator against a
fresh hearth-emulator. Any program that fails to build, exits non-zero, or is missing fails the run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent
RELEASE = ROOT / ".build" / "release"
MARKER = "<!-- quickstart: program -->"
# Each quick start and the languages of the programs it must contain.
EXPECTED = {
    "quickstart-c.md": ["c"],
    "quickstart-cpp.md": ["cpp"],
    "quickstart-python.md": ["python", "python"],
    "tenants.md": ["c", "cpp", "python"],
}


def programs(path: Path) -> List[Tuple[str, str]]:
    """(language, source) of every marked block."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(re.escape(MARKER) + r"\s*\n```(\w+)\n(.*?)\n```", text, flags=re.S):
        found.append((match.group(1), match.group(2) + "\n"))
    return found


def run(command: List[str], env: dict) -> bool:
    print("+ " + " ".join(command), flush=True)
    return subprocess.run(command, cwd=ROOT, env=env).returncode == 0


def main() -> int:
    out = ROOT / os.environ.get("OUT", "out") / "docs"
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("HEARTH_LIBRARY", str(RELEASE / "libhearth.so"))
    env["PYTHONPATH"] = str(ROOT / "bindings" / "python") + os.pathsep + env.get("PYTHONPATH", "")
    link = ["-L" + str(RELEASE), "-Wl,-rpath," + str(RELEASE), "-lhearth", "-luv", "-pthread"]
    failures = []
    for name, languages in EXPECTED.items():
        found = programs(ROOT / "docs" / name)
        if [language for language, _ in found] != languages:
            failures.append(f"{name}: expected marked programs {languages}, found {[l for l, _ in found]}")
            continue
        for index, (language, source) in enumerate(found):
            stem = out / f"{Path(name).stem}-{index}"
            if language == "c":
                source_path = stem.with_suffix(".c")
                build = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", "include",
                         "-o", str(stem), str(source_path)] + link
                command = [str(stem)]
            elif language == "cpp":
                source_path = stem.with_suffix(".cpp")
                build = [os.environ.get("CXX", "c++"), "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", "include",
                         "-o", str(stem), str(source_path)] + link
                command = [str(stem)]
            else:
                source_path = stem.with_suffix(".py")
                build = []
                command = [sys.executable, str(source_path)]
            source_path.write_text(source, encoding="utf-8")
            if build and not run(build, env):
                failures.append(f"{name}: the {language} program does not build")
                continue
            if not run(["scripts/with-emulator"] + command, env):
                failures.append(f"{name}: the {language} program #{index + 1} failed")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    if failures:
        return 1
    print("quick starts: every program built and ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
