"""The sdist (`make sdist`): the Python package and the native library's sources, which pip builds into
a wheel where a Swift 6 toolchain and libuv's and libcurl's development files are, and which says
what is missing where they are not."""
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from install_support import ROOT, VERSION, emulator_environment, make, run

BASE = f"hearth-{VERSION}"


@pytest.fixture(scope="session")
def sdist(tmp_path_factory) -> Path:
    # A folder of its own: make test builds the sdist in two lanes at once (test-install, test-lane).
    directory = tmp_path_factory.mktemp("sdist-archive")
    result = make("sdist", f"WHEEL_DIR={directory}")
    assert result.returncode == 0, result.stdout + result.stderr
    archives = sorted(directory.glob("hearth-*.tar.gz"))
    assert [archive.name for archive in archives] == [f"{BASE}.tar.gz"]
    return archives[0]


@pytest.fixture(scope="session")
def unpacked_sdist(sdist, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as archive:
        archive.extractall(target, filter="data")
    return target / BASE


def library_targets(package: Path, scratch: Path) -> dict[str, str]:
    """name -> source directory of the targets Package.swift keeps under HEARTH_LIBRARY_ONLY=1."""
    result = run(["swift", "package", "--scratch-path", scratch, "describe", "--type", "json"], cwd=package,
                 env=dict(os.environ, HEARTH_LIBRARY_ONLY="1"), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    description = json.loads(result.stdout[result.stdout.index("{"):])
    assert [product["name"] for product in description["products"]] == ["hearth"]
    assert description.get("dependencies", []) == []
    return {target["name"]: target["path"] for target in description["targets"]}


def pip_wheel(source: Path, directory: Path, environment: dict) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                "--disable-pip-version-check", "--wheel-dir", directory, source], env=environment, timeout=1800)


def test_the_sdist_holds_the_package_the_build_hook_and_exactly_the_librarys_sources(sdist, tmp_path):
    with tarfile.open(sdist) as archive:
        names = {member.name.removeprefix(f"{BASE}/") for member in archive.getmembers() if member.isfile()}
    package = {f"hearth/{path.name}" for path in (ROOT / "bindings" / "python" / "hearth").glob("*.py")}
    assert package | {"hearth/py.typed", "hatch_build.py", "pyproject.toml", "README.md", "PKG-INFO"} <= names

    # The sources of the targets the library is made of, as git has them, and no others.
    tracked = set()
    for path in library_targets(ROOT, tmp_path / "scratch").values():
        listed = run(["git", "ls-files", path], cwd=ROOT).stdout.split()
        assert listed, path
        tracked |= {f"native/{name}" for name in listed}
    native = {name for name in names if name.startswith("native/Sources/")}
    assert native == tracked
    assert {"native/Package.swift", "native/include/hearth.h"} <= names
    assert not [name for name in names if re.search(r"Emulator|Fuzz|Tests/|\.build", name)]


def test_the_sdists_manifest_describes_the_library_alone_offline(unpacked_sdist, tmp_path):
    targets = library_targets(unpacked_sdist / "native", tmp_path / "scratch")
    assert {"Hearth", "HearthAuth", "HearthBackend", "HearthTransport"} <= set(targets)
    for path in targets.values():
        assert (unpacked_sdist / "native" / path).is_dir(), path


def test_pip_without_swift_says_a_swift_toolchain_is_missing(unpacked_sdist, tmp_path):
    # PATH keeps Python and the system's tools but loses every directory that has a swift.
    path = ":".join(entry for entry in os.environ["PATH"].split(":")
                    if entry and not (Path(entry) / "swift").exists())
    environment = {key: value for key, value in os.environ.items() if key not in ("SWIFT", "HEARTH_WHEEL_LIBRARY")}
    environment["PATH"] = f"{Path(sys.executable).parent}:{path}"
    assert shutil.which("swift", path=environment["PATH"]) is None
    result = pip_wheel(unpacked_sdist, tmp_path, environment)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "building hearth from source needs what this machine lacks" in output
    assert "a Swift 6 toolchain (`swift` is not on PATH" in output
    assert "development files" not in output  # libuv and libcurl are there
    assert not list(tmp_path.glob("*.whl"))


def test_pip_without_libuv_libcurl_and_libcrypto_development_files_names_them(unpacked_sdist, tmp_path):
    # pkg-config that knows no package stands for a machine without the -dev packages.
    environment = {key: value for key, value in os.environ.items() if key != "HEARTH_WHEEL_LIBRARY"}
    environment["PKG_CONFIG_LIBDIR"] = str(tmp_path / "no-packages")
    environment.pop("PKG_CONFIG_PATH", None)
    result = pip_wheel(unpacked_sdist, tmp_path, environment)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "libuv's development files (Debian/Ubuntu: libuv1-dev; Fedora: libuv-devel)" in output
    assert "libcurl's development files (Debian/Ubuntu: libcurl4-openssl-dev; Fedora: libcurl-devel)" in output
    assert "libcrypto's development files (Debian/Ubuntu: libssl-dev; Fedora: openssl-devel)" in output
    assert "Swift" not in output.split("lacks:")[1].split("Install them")[0]
    assert not list(tmp_path.glob("*.whl"))


@pytest.mark.sdist_build
def test_pip_builds_the_library_from_the_sdist_and_the_wheel_signs_in(unpacked_sdist, tmp_path):
    # A full release build of the library (a minute or two): make test-sdist, outside make test.
    environment = {key: value for key, value in os.environ.items() if key != "HEARTH_WHEEL_LIBRARY"}
    result = pip_wheel(unpacked_sdist, tmp_path / "wheels", environment)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = (tmp_path / "wheels").glob("*.whl")
    # A wheel for this machine: its libuv and libcurl are the system's (auditwheel would vendor them).
    assert built.name == f"{BASE}-py3-none-linux_x86_64.whl"
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", venv], timeout=300).returncode == 0
    python = venv / "bin" / "python"
    result = run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                  "--disable-pip-version-check", built], timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    script = ("import hearth\n"
              "with hearth.App(api_key='sdist-key', project_id='demo-hearth', persistence='none') as app:\n"
              "    user = app.auth.sign_in_anonymously().result(timeout=30).user\n"
              "print(hearth.library_path(), hearth.library_version(), user.is_anonymous)\n")
    environment = {key: value for key, value in emulator_environment().items()
                   if key not in ("HEARTH_LIBRARY", "PYTHONPATH")}
    result = run([python, "-c", script], env=environment, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    library, version, anonymous = result.stdout.split()
    assert Path(library).is_relative_to(venv) and version == VERSION and anonymous == "True"
