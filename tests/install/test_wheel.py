"""The Python wheel (`make wheel`, `pip wheel ./bindings/python`): a platform wheel that carries the
self-contained library and works in a fresh virtualenv, with no HEARTH_LIBRARY, no PYTHONPATH and no
Swift toolchain, from outside the source tree."""
import base64
import hashlib
import json
import os
import re
import sys
import zipfile
from pathlib import Path

import pytest

from install_support import ROOT, VERSION, emulator_environment, make, run

WHEEL_NAME = re.compile(r"hearth-(?P<version>[^-]+)-py3-none-(?P<platform>linux_\w+)\.whl")


def built_wheels(directory: Path) -> list[Path]:
    return sorted(directory.glob("hearth-*.whl"))


@pytest.fixture(scope="session")
def wheel(prefix) -> Path:
    """out/wheel's wheel, made by `make wheel` from the static build the `prefix` fixture's
    `make install` has just brought up to date (so nothing is built twice)."""
    result = make("wheel", f"HEARTH_WHEEL_LIBRARY={ROOT / '.build-install' / 'release' / 'libhearth.so'}")
    assert result.returncode == 0, result.stdout + result.stderr
    wheels = built_wheels(ROOT / "out" / "wheel")
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="session")
def bundled_library(wheel, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(wheel) as archive:
        return Path(archive.extract("hearth/libhearth.so", target))


def without_the_source_tree(**extra) -> dict:
    """The environment of a host that never saw this repository: no HEARTH_LIBRARY, no PYTHONPATH."""
    environment = {key: value for key, value in emulator_environment().items()
                   if key not in ("HEARTH_LIBRARY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    environment.update(extra)
    return environment


@pytest.fixture(scope="session")
def venv_python(wheel, tmp_path_factory) -> Path:
    """A fresh virtualenv (outside the repository) with only the wheel installed, offline."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    result = run([sys.executable, "-m", "venv", venv], timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    python = venv / "bin" / "python"
    result = run([python, "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check",
                  "--quiet", wheel], env=without_the_source_tree(), cwd=venv, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return python


# ------------------------------------------------------------------------------------------------
# The wheel file
# ------------------------------------------------------------------------------------------------

def test_the_wheel_is_tagged_for_this_platform_and_named_after_the_library_version(wheel):
    match = WHEEL_NAME.fullmatch(wheel.name)
    assert match, f"{wheel.name} is not a py3-none-<platform> wheel (a bundled library is never `any`)"
    assert match["version"] == VERSION
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"hearth-{VERSION}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: false" in metadata
    assert f"Tag: py3-none-{match['platform']}" in metadata


def test_the_wheel_carries_the_package_its_type_marker_and_the_library(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    sources = {f"hearth/{path.name}" for path in (ROOT / "bindings" / "python" / "hearth").glob("*.py")}
    assert sources <= names
    assert {"hearth/py.typed", "hearth/libhearth.so"} <= names
    # Nothing else: no tests, no build backend, no caches.
    extra = names - sources - {"hearth/py.typed", "hearth/libhearth.so"}
    assert sorted(extra) == sorted(f"hearth-{VERSION}.dist-info/{name}" for name in ("METADATA", "WHEEL", "RECORD"))


def test_the_record_lists_every_file_with_its_hash(wheel):
    with zipfile.ZipFile(wheel) as archive:
        record = archive.read(f"hearth-{VERSION}.dist-info/RECORD").decode().splitlines()
        listed = {}
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            listed[name] = (digest, size)
        assert set(listed) == set(archive.namelist())
        for name in archive.namelist():
            if name.endswith("/RECORD"):
                continue
            data = archive.read(name)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert listed[name] == (expected, str(len(data))), name


def test_the_bundled_library_needs_no_swift_runtime_and_has_no_runpath(bundled_library):
    loaded = run(["ldd", bundled_library])
    assert loaded.returncode == 0, loaded.stderr
    assert "libuv.so.1" in loaded.stdout and "libcurl.so.4" in loaded.stdout
    assert "not found" not in loaded.stdout, loaded.stdout
    assert not re.search(r"libswift|libFoundation|libdispatch|/opt/swift", loaded.stdout), loaded.stdout
    dynamic = run(["readelf", "-d", bundled_library]).stdout
    assert "(RUNPATH)" not in dynamic and "(RPATH)" not in dynamic


def test_the_bundled_library_is_stripped_and_exports_only_hearth_functions(bundled_library):
    assert "debug_info" not in run(["readelf", "-S", bundled_library]).stdout
    symbols = run(["nm", "-D", "--defined-only", bundled_library]).stdout.split("\n")
    names = [line.split()[-1] for line in symbols if line.strip()]
    assert "hearth_version" in names
    assert [name for name in names if not name.startswith("hearth_")] == []


# ------------------------------------------------------------------------------------------------
# Installed in a fresh virtualenv
# ------------------------------------------------------------------------------------------------

SIGN_IN = """
import importlib.metadata, json, os, sys
import hearth

email = f"wheel-{os.getpid()}@example.com"
password = "wheel-Password-42"
with hearth.App(api_key="wheel-test-key", project_id="demo-hearth", persistence="none") as app:
    auth = app.auth
    created = auth.create_user_with_email_and_password(email, password).result(timeout=30)
    auth.sign_out()
    signed_in = auth.sign_in_with_email_and_password(email, password).result(timeout=30)
    token = signed_in.user.get_token().result(timeout=30)
    print(json.dumps({
        "package": hearth.__file__,
        "library": hearth.library_path(),
        "library_version": hearth.library_version(),
        "distribution_version": importlib.metadata.version("hearth"),
        "package_version": hearth.__version__,
        "created_uid": created.user.uid,
        "is_new_user": created.additional_user_info.is_new_user,
        "signed_in_uid": signed_in.user.uid,
        "token": token,
    }))
"""


def test_in_a_fresh_virtualenv_the_wheel_signs_up_signs_in_and_gets_a_token(venv_python, tmp_path):
    result = run([venv_python, "-c", SIGN_IN], env=without_the_source_tree(), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)

    # The installed package and its bundled library were used, nothing from this repository.
    site = venv_python.parent.parent
    assert Path(report["package"]).is_relative_to(site)
    assert Path(report["library"]) == Path(report["package"]).parent / "libhearth.so"
    assert report["library_version"] == VERSION
    assert report["distribution_version"] == report["package_version"] == VERSION

    assert report["is_new_user"] is True
    assert report["signed_in_uid"] == report["created_uid"] != ""
    # An emulator ID token: an unsigned JWT whose claims name the user.
    header, payload, _ = report["token"].split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert claims["user_id"] == report["created_uid"]
    assert claims["firebase"]["sign_in_provider"] == "password"


def test_in_the_virtualenv_hearth_library_still_overrides_the_bundled_library(venv_python, tmp_path):
    missing = tmp_path / "elsewhere" / "libhearth.so"
    result = run([venv_python, "-c", "import hearth"], env=without_the_source_tree(HEARTH_LIBRARY=str(missing)),
                 cwd=tmp_path, timeout=60)
    assert result.returncode != 0
    assert "ImportError" in result.stderr and str(missing) in result.stderr


def test_in_the_virtualenv_help_and_type_information_come_with_the_package(venv_python, tmp_path):
    script = ("import pydoc, pathlib, hearth\n"
              "text = pydoc.plain(pydoc.render_doc(hearth))\n"
              "print('asyncio.run(' in text, 'result(timeout=' in text,\n"
              "      (pathlib.Path(hearth.__file__).parent / 'py.typed').is_file())\n")
    result = run([venv_python, "-c", script], env=without_the_source_tree(), cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split() == ["True", "True", "True"]


# ------------------------------------------------------------------------------------------------
# The plain pip command
# ------------------------------------------------------------------------------------------------

def test_pip_wheel_of_the_package_directory_alone_builds_the_library_and_bundles_it(wheel, tmp_path):
    # No HEARTH_WHEEL_LIBRARY: the backend runs the static swift build itself (up to date after
    # `make wheel`, so this measures the command, not a rebuild).
    environment = {key: value for key, value in os.environ.items() if key != "HEARTH_WHEEL_LIBRARY"}
    before = source_tree_status()
    result = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "--disable-pip-version-check",
                  "--wheel-dir", tmp_path, "./bindings/python"], env=environment, cwd=ROOT, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = built_wheels(tmp_path)
    assert built.name == wheel.name
    with zipfile.ZipFile(built) as archive:
        assert archive.getinfo("hearth/libhearth.so").file_size > 1_000_000
    # pip builds in the source tree: the backend leaves nothing behind there (setuptools would leave
    # build/ and hearth.egg-info/).
    assert source_tree_status() == before


def source_tree_status() -> list[str]:
    status = run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "bindings/python"], cwd=ROOT)
    return sorted(line for line in status.stdout.splitlines() if "__pycache__" not in line)
