"""hatchling build hook: the native library inside the ``hearth`` wheel.

The wheel is the Python package plus ``hearth/libhearth.so``, tagged for this platform
(``py3-none-linux_x86_64``): any Python 3 can load it through ctypes. The library it carries is, in
order:

1. ``HEARTH_WHEEL_LIBRARY``: a libhearth.so built already (``make wheel`` passes the one ``make install``
   builds, so nothing is built twice);
2. in the Hearth repository, the library built as ``make install`` builds it (``swift build -c release
   --product hearth --scratch-path .build-install -Xswiftc -static-stdlib --disable-local-rpath``);
3. in an unpacked sdist, the same build of the sources under ``native/`` (``HEARTH_LIBRARY_ONLY=1``:
   the library's targets alone). What this needs and does not find (a Swift 6 toolchain with its static
   runtime, libuv's and libcurl's development files) is named before anything is built.

The library must be self-contained (the Swift runtime linked in, no RUNPATH into a toolchain): the wheel
is installed where no Swift is. It still needs this machine's libuv and libcurl; ``make wheel`` then runs
``auditwheel repair``, which copies them (and libcurl's TLS libraries) into the wheel and gives it its
manylinux tag.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, Dict, List

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LIBRARY_ENV = "HEARTH_WHEEL_LIBRARY"
LIBRARY_FILE = "libhearth.so"
# make install's static build (the Makefile's INSTALL_BUILD).
INSTALL_SCRATCH = ".build-install"
# Shared objects of the Swift toolchain that a self-contained libhearth must not need.
TOOLCHAIN_LIBRARY = re.compile(r"^lib(swift|Foundation|_Foundation|FoundationEssentials|dispatch|BlocksRuntime)")
# Package.swift's swift-tools-version.
SWIFT_MAJOR = 6


class BuildError(RuntimeError):
    """Why no wheel could be built, in words pip shows to the user."""


class HearthBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if version == "editable":
            raise BuildError("hearth has no editable install: use PYTHONPATH=bindings/python with HEARTH_LIBRARY "
                             "(bindings/python/README.md)")
        self._scratch = tempfile.mkdtemp(prefix="hearth-wheel-")
        library = _bundled_library(Path(self.root), Path(self._scratch))
        build_data["force_include"][str(library)] = f"hearth/{LIBRARY_FILE}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{_platform()}"

    def finalize(self, version: str, build_data: Dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def _platform() -> str:
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


# ---------------------------------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------------------------------

def _bundled_library(project: Path, scratch: Path) -> Path:
    """A stripped copy, in scratch, of the self-contained libhearth the wheel carries."""
    given = os.environ.get(LIBRARY_ENV)
    if given:
        source = Path(given)
        if not source.is_file():
            raise BuildError(f"{LIBRARY_ENV}={given} is not a file")
    elif (project / "native" / "Package.swift").is_file():
        source = _build_from_sdist(project / "native")
    elif (project.parents[1] / "Package.swift").is_file():
        source = _build(project.parents[1], project.parents[1] / INSTALL_SCRATCH, {})
    else:
        raise BuildError(f"no Swift sources next to {project} (native/ of the sdist, or the Hearth repository) "
                         f"to build libhearth from: set {LIBRARY_ENV} to a self-contained {LIBRARY_FILE}")
    _check_self_contained(source)
    copy = scratch / LIBRARY_FILE
    shutil.copyfile(source, copy)
    # Debug info would more than double the wheel; the dynamic symbols (the ABI) stay.
    strip = shutil.which("strip")
    if not strip:
        raise BuildError("strip (binutils) not found: the wheel's library would carry its debug information")
    subprocess.run([strip, "--strip-unneeded", str(copy)], check=True)
    return copy


def _build_from_sdist(native: Path) -> Path:
    missing = _missing_prerequisites()
    if missing:
        raise BuildError(
            "building hearth from source needs what this machine lacks:\n"
            + "".join(f"  - {item}\n" for item in missing)
            + "Install them and build again, or install a prebuilt hearth wheel (manylinux) instead.")
    return _build(native, native / INSTALL_SCRATCH, {"HEARTH_LIBRARY_ONLY": "1"})


def _swift() -> str:
    return os.environ.get("SWIFT", "swift")


def _missing_prerequisites() -> List[str]:
    """Everything the from-source build needs and this machine does not have, each as a sentence."""
    missing: List[str] = []
    swift = shutil.which(_swift())
    if not swift:
        missing.append(f"a Swift {SWIFT_MAJOR} toolchain (`{_swift()}` is not on PATH; "
                       f"https://www.swift.org/install/linux/, or set SWIFT to its swift)")
    else:
        version = subprocess.run([swift, "--version"], capture_output=True, text=True).stdout
        found = re.search(r"Swift version (\d+)\.", version)
        if not found or int(found.group(1)) < SWIFT_MAJOR:
            missing.append(f"Swift {SWIFT_MAJOR} or later (`{swift} --version` says: "
                           f"{version.strip().splitlines()[0] if version.strip() else 'nothing'})")
        else:
            toolchain = Path(swift).resolve().parents[1]  # .../usr
            if not (toolchain / "lib" / "swift_static" / "linux" / "libswiftCore.a").is_file():
                missing.append(f"the Swift toolchain's static runtime ({toolchain}/lib/swift_static/linux/"
                               f"libswiftCore.a), which links the runtime into libhearth")
    if not shutil.which("pkg-config"):
        missing.append("pkg-config (Debian/Ubuntu: pkg-config; Fedora: pkgconf-pkg-config)")
    else:
        for module, debian, fedora in (("libuv", "libuv1-dev", "libuv-devel"),
                                       ("libcurl", "libcurl4-openssl-dev", "libcurl-devel"),
                                       ("libcrypto", "libssl-dev", "openssl-devel")):
            if subprocess.run(["pkg-config", "--exists", module]).returncode != 0:
                missing.append(f"{module}'s development files (Debian/Ubuntu: {debian}; Fedora: {fedora})")
    if not shutil.which("strip"):
        missing.append("strip (binutils)")
    return missing


def _build(package: Path, scratch_path: Path, environment: Dict[str, str]) -> Path:
    command = [_swift(), "build", "-c", "release", "--product", "hearth", "--scratch-path", str(scratch_path),
               "-Xswiftc", "-static-stdlib", "--disable-local-rpath"]
    print("hearth: building the native library:", " ".join(command), file=sys.stderr, flush=True)
    try:
        # pip shows a build's output only when it fails; keep it off stdout, which is pip's.
        subprocess.run(command, cwd=package, check=True, stdout=sys.stderr, env={**os.environ, **environment})
    except FileNotFoundError as error:
        raise BuildError(f"{_swift()} not found: install Swift {SWIFT_MAJOR}, or set {LIBRARY_ENV}") from error
    except subprocess.CalledProcessError as error:
        raise BuildError(f"building libhearth failed (exit status {error.returncode}); its output is above") from error
    library = scratch_path / "release" / LIBRARY_FILE
    if not library.is_file():
        raise BuildError(f"swift build did not produce {library}")
    return library


def _check_self_contained(library: Path) -> None:
    """Refuses a library that would need the Swift toolchain where the wheel is installed."""
    readelf = shutil.which("readelf")
    if not readelf:
        raise BuildError("readelf (binutils) not found: cannot check that the library is self-contained")
    result = subprocess.run([readelf, "-d", str(library)], capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"{library} is not a shared library: {result.stderr.strip()}")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", result.stdout)
    toolchain = [name for name in needed if TOOLCHAIN_LIBRARY.match(name)]
    runpath = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", result.stdout)
    if toolchain or runpath:
        raise BuildError(
            f"{library} is not self-contained (needs {', '.join(toolchain) or 'nothing from Swift'}, "
            f"runpath {runpath or 'none'}): build it with -Xswiftc -static-stdlib --disable-local-rpath "
            f"as `make install` does")
