"""PEP 517 build backend of the ``hearth`` package: a platform wheel with libhearth inside.

The package is pure Python over a native library, so the wheel is written here directly (a zip with a
``.dist-info``), with no build requirements for pip to fetch. The library it bundles is, in order:

1. ``HEARTH_WHEEL_LIBRARY``: a libhearth.so built elsewhere (``make wheel`` passes the one ``make install``
   builds, so nothing is built twice);
2. otherwise, when the package sits in the Hearth repository, the library built from the repository root
   as ``make install`` builds it: ``swift build -c release --product hearth --scratch-path .build-install
   -Xswiftc -static-stdlib --disable-local-rpath``.

Either way it must be self-contained (the Swift runtime linked in, no RUNPATH into a toolchain), because
the wheel is installed where no Swift toolchain is; a library that needs ``libswift*`` is refused. The
wheel is tagged for this platform (``py3-none-linux_x86_64``): it runs on any Python 3 there, but it
needs the system's libuv 1 and libcurl 4, which is why it is not a ``manylinux`` wheel.

Metadata comes from ``pyproject.toml``'s ``[project]`` table. An sdist holds the Python sources only; a
wheel built from it needs ``HEARTH_WHEEL_LIBRARY``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

__all__ = [
    "build_wheel",
    "build_sdist",
    "get_requires_for_build_wheel",
    "get_requires_for_build_sdist",
    "prepare_metadata_for_build_wheel",
]

PROJECT = Path(__file__).resolve().parents[1]  # bindings/python
PACKAGE = "hearth"
LIBRARY_ENV = "HEARTH_WHEEL_LIBRARY"
LIBRARY_FILE = "libhearth.so"
# The static build `make install` uses; the Makefile's INSTALL_BUILD.
INSTALL_SCRATCH = ".build-install"
# Shared objects of the Swift toolchain that a self-contained libhearth must not need.
TOOLCHAIN_LIBRARY = re.compile(r"^lib(swift|Foundation|_Foundation|FoundationEssentials|dispatch|BlocksRuntime)")


class BuildError(RuntimeError):
    """Why no wheel could be built, in words pip shows to the user."""


# ---------------------------------------------------------------------------------------------------
# PEP 517 hooks
# ---------------------------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return [] if sys.version_info >= (3, 11) else ["tomli>=1.1"]


get_requires_for_build_sdist = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: Optional[Dict[str, Any]] = None) -> str:
    project = _project()
    dist_info = Path(metadata_directory) / _dist_info_name(project)
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_bytes(_metadata(project))
    (dist_info / "WHEEL").write_bytes(_wheel_file(_platform_tag()))
    return dist_info.name


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    project = _project()
    tag = _platform_tag()
    with tempfile.TemporaryDirectory(prefix="hearth-wheel-") as scratch:
        library = _bundled_library(Path(scratch))
        files: List[Tuple[str, bytes, int]] = [
            (f"{PACKAGE}/{path.name}", path.read_bytes(), 0o644) for path in _package_files()
        ]
        files.append((f"{PACKAGE}/{LIBRARY_FILE}", library.read_bytes(), 0o755))
    dist_info = _dist_info_name(project)
    files.append((f"{dist_info}/METADATA", _metadata(project), 0o644))
    files.append((f"{dist_info}/WHEEL", _wheel_file(tag), 0o644))
    name = f"{_normalized_name(project)}-{project['version']}-{tag}.whl"
    _write_wheel(Path(wheel_directory) / name, files, f"{dist_info}/RECORD")
    return name


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    project = _project()
    base = f"{_normalized_name(project)}-{project['version']}"
    sources = [PROJECT / "pyproject.toml", PROJECT / "README.md", Path(__file__).resolve(), *_package_files()]
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in sources:
            archive.add(path, arcname=f"{base}/{path.relative_to(PROJECT).as_posix()}", filter=_plain_member)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        metadata = _metadata(project)
        info.size, info.mode, info.mtime = len(metadata), 0o644, _timestamp()
        archive.addfile(info, io.BytesIO(metadata))
    return name


# ---------------------------------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------------------------------

def _bundled_library(scratch: Path) -> Path:
    """A stripped copy, in scratch, of the self-contained libhearth the wheel carries."""
    given = os.environ.get(LIBRARY_ENV)
    if given:
        source = Path(given)
        if not source.is_file():
            raise BuildError(f"{LIBRARY_ENV}={given} is not a file")
    else:
        source = _build_library()
    _check_self_contained(source)
    copy = scratch / LIBRARY_FILE
    shutil.copyfile(source, copy)
    # Debug info would more than double the wheel; the dynamic symbols (the ABI) stay.
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-unneeded", str(copy)], check=True)
    return copy


def _build_library() -> Path:
    root = PROJECT.parents[1]
    if not (root / "Package.swift").is_file():
        raise BuildError(
            f"no Hearth repository around {PROJECT} to build libhearth from: set {LIBRARY_ENV} to a "
            f"self-contained {LIBRARY_FILE} (`make install` or `make wheel` builds one)")
    swift = os.environ.get("SWIFT", "swift")
    command = [swift, "build", "-c", "release", "--product", "hearth", "--scratch-path", INSTALL_SCRATCH,
               "-Xswiftc", "-static-stdlib", "--disable-local-rpath"]
    print("hearth: building the native library:", " ".join(command), file=sys.stderr, flush=True)
    try:
        # pip shows the build's output only when it fails; keep it off stdout, where pip expects ours.
        subprocess.run(command, cwd=root, check=True, stdout=sys.stderr)
    except FileNotFoundError as error:
        raise BuildError(f"{swift} not found: install Swift, or set {LIBRARY_ENV}") from error
    except subprocess.CalledProcessError as error:
        raise BuildError(f"building libhearth failed (exit status {error.returncode})") from error
    library = root / INSTALL_SCRATCH / "release" / LIBRARY_FILE
    if not library.is_file():
        raise BuildError(f"swift build did not produce {library}")
    return library


def _check_self_contained(library: Path) -> None:
    """Refuses a library that would need the Swift toolchain where the wheel is installed."""
    if not shutil.which("readelf"):
        print("hearth: readelf not found; cannot check that the bundled library is self-contained",
              file=sys.stderr)
        return
    result = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True)
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


# ---------------------------------------------------------------------------------------------------
# Metadata and the archive
# ---------------------------------------------------------------------------------------------------

def _project() -> Dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # get_requires_for_build_wheel asked for it
        import tomli as tomllib
    with open(PROJECT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]


def _package_files() -> List[Path]:
    # Exactly the sources and the typing marker: never a library copied into the tree by hand, caches
    # or editor files.
    package = PROJECT / PACKAGE
    return sorted(package.glob("*.py")) + [package / "py.typed"]


def _normalized_name(project: Dict[str, Any]) -> str:
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _dist_info_name(project: Dict[str, Any]) -> str:
    return f"{_normalized_name(project)}-{project['version']}.dist-info"


def _platform_tag() -> str:
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"py3-none-{platform}"


def _metadata(project: Dict[str, Any]) -> bytes:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
    ]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    license_ = project.get("license", {})
    if "text" in license_:
        lines.append(f"License: {license_['text']}")
    lines += [f"Classifier: {classifier}" for classifier in project.get("classifiers", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {requirement}; extra == \"{extra}\"" for requirement in requirements]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = (PROJECT / readme).read_text(encoding="utf-8")
    return ("\n".join(lines) + "\n\n" + body).encode("utf-8")


def _wheel_file(tag: str) -> bytes:
    return (f"Wheel-Version: 1.0\nGenerator: hearth_backend\nRoot-Is-Purelib: false\nTag: {tag}\n").encode()


def _timestamp() -> int:
    # Reproducible archives when the caller asks for it.
    return int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, zip's earliest date


def _write_wheel(path: Path, files: Iterable[Tuple[str, bytes, int]], record_name: str) -> None:
    import time

    date_time = time.gmtime(max(_timestamp(), 315532800))[:6]
    record: List[str] = []
    temporary = path.with_suffix(".whl.part")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=date_time)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        record.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, date_time=date_time)
        info.external_attr = (0o100000 | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, "\n".join(record) + "\n")
    os.replace(temporary, path)


def _plain_member(member: tarfile.TarInfo) -> tarfile.TarInfo:
    member.uid = member.gid = 0
    member.uname = member.gname = ""
    member.mtime = _timestamp()
    return member
