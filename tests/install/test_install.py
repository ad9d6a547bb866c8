"""`make install`: what lands in the prefix, and that hosts build and run against that tree with
pkg-config and with CMake, without a Swift toolchain and without the build tree."""
import filecmp
import os
import re
import shutil
from pathlib import Path

import pytest

from install_support import MAJOR, ROOT, VERSION, dynamic_entries, emulator_environment, make, run

DEMO = ROOT / "examples" / "c" / "demo.c"
CONSUMER = Path(__file__).parent / "consumer"
FIREBASE_HELLO = CONSUMER / "firebase_hello.cpp"
COMPAT = ROOT / "include" / "compat"
COMPAT_HEADERS = sorted(str(path.relative_to(COMPAT)) for path in COMPAT.rglob("*.h"))


def installed_files(root: Path) -> dict[str, str]:
    """relative path -> "file" or "-> link target", for everything under root."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(root))] = "-> " + os.readlink(path)
        elif path.is_file():
            found[str(path.relative_to(root))] = "file"
    return found


def pkg_config(prefix: Path, *args, package: str = "hearth") -> str:
    environment = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    result = run(["pkg-config", *args, package], env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def firebase_app_environment(directory: Path, **extra) -> dict:
    """How a desktop Firebase app runs: google-services.json in its working directory (`directory`),
    the emulator named by the SDK's variables rather than Hearth's."""
    environment = emulator_environment(**extra)
    host = environment.pop("FIREBASE_AUTH_EMULATOR_HOST")
    environment.update(USE_AUTH_EMULATOR="1", AUTH_EMULATOR_PORT=host.rsplit(":", 1)[1],
                       XDG_DATA_HOME=str(directory / "data"))
    project = environment.get("HEARTH_PROJECT", "demo-hearth")
    (directory / "google-services.json").write_text(
        '{"project_info": {"project_number": "1", "project_id": "%s", "storage_bucket": "%s.appspot.com",'
        ' "firebase_url": "https://%s.firebaseio.com"},'
        ' "client": [{"client_info": {"mobilesdk_app_id": "1:1:android:1",'
        ' "android_client_info": {"package_name": "com.example"}}, "api_key": [{"current_key": "key"}]}]}'
        % (project, project, project))
    return environment


def cmake_configure(build: Path, prefix: Path, *definitions):
    if shutil.which("cmake") is None:
        pytest.fail("cmake is not installed (make deps installs it)")
    return run(["cmake", "-S", CONSUMER, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}", *definitions], timeout=300)


# ------------------------------------------------------------------------------------------------
# The installed tree
# ------------------------------------------------------------------------------------------------

def test_install_lays_out_the_versioned_library_and_its_links_headers_pkgconfig_and_cmake_files(prefix):
    assert "firebase/auth.h" in COMPAT_HEADERS and "hearth_compat.h" in COMPAT_HEADERS
    assert installed_files(prefix) == {
        "include/hearth.h": "file",
        "include/hearth.hpp": "file",
        **{f"include/hearth-compat/{header}": "file" for header in COMPAT_HEADERS},
        "lib/cmake/Hearth/HearthConfig.cmake": "file",
        "lib/cmake/Hearth/HearthConfigVersion.cmake": "file",
        f"lib/libhearth.so.{VERSION}": "file",
        f"lib/libhearth.so.{MAJOR}": f"-> libhearth.so.{VERSION}",
        "lib/libhearth.so": f"-> libhearth.so.{MAJOR}",
        "lib/pkgconfig/hearth.pc": "file",
        "lib/pkgconfig/hearth-compat.pc": "file",
    }


def test_the_installed_headers_are_the_source_headers(prefix):
    for name in ("hearth.h", "hearth.hpp"):
        assert filecmp.cmp(prefix / "include" / name, ROOT / "include" / name, shallow=False), name
    for header in COMPAT_HEADERS:
        assert filecmp.cmp(prefix / "include" / "hearth-compat" / header, COMPAT / header, shallow=False), header


def test_the_installed_library_has_the_soname_and_no_runpath(prefix):
    library = prefix / "lib" / f"libhearth.so.{VERSION}"
    assert dynamic_entries(library, "SONAME") == [f"libhearth.so.{MAJOR}"]
    assert dynamic_entries(library, "RUNPATH") == []
    assert dynamic_entries(library, "RPATH") == []


def test_the_installed_library_carries_its_swift_runtime_and_needs_only_system_libraries(prefix):
    needed = dynamic_entries(prefix / "lib" / f"libhearth.so.{VERSION}", "NEEDED")
    assert "libuv.so.1" in needed and "libcurl.so.4" in needed
    swift = [name for name in needed if re.match(r"lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)", name)]
    assert swift == [], f"the installed library still needs the Swift toolchain's {swift}"


def test_the_installed_library_exports_only_hearth_functions(prefix):
    result = run(["nm", "-D", "--defined-only", prefix / "lib" / f"libhearth.so.{VERSION}"])
    assert result.returncode == 0, result.stderr
    symbols = [line.split() for line in result.stdout.splitlines()]
    assert any(name == "hearth_version" for _, _, name in symbols)
    assert [name for _, kind, name in symbols if kind != "T" or not name.startswith("hearth_")] == []


def test_pkg_config_describes_the_installed_tree(prefix):
    assert pkg_config(prefix, "--modversion") == VERSION
    assert pkg_config(prefix, "--cflags-only-I").split()[0] == f"-I{prefix}/include"
    libs = pkg_config(prefix, "--libs").split()
    assert libs[:2] == [f"-L{prefix}/lib", "-lhearth"]
    assert "-luv" in libs  # Requires: libuv
    assert pkg_config(prefix, "--print-requires") == "libuv"


def test_pkg_config_hearth_compat_adds_the_compatibility_headers_to_hearth(prefix):
    package = "hearth-compat"
    assert pkg_config(prefix, "--modversion", package=package) == VERSION
    assert pkg_config(prefix, "--cflags-only-I", package=package).split()[:2] == [
        f"-I{prefix}/include/hearth-compat", f"-I{prefix}/include"]
    assert pkg_config(prefix, "--libs", package=package).split()[:2] == [f"-L{prefix}/lib", "-lhearth"]
    assert pkg_config(prefix, "--print-requires", package=package) == "hearth"


# ------------------------------------------------------------------------------------------------
# Hosts built against the installed tree
# ------------------------------------------------------------------------------------------------

def test_a_c_program_built_with_pkg_config_runs_against_the_installed_library(prefix, tmp_path):
    program = tmp_path / "demo"
    flags = pkg_config(prefix, "--cflags", "--libs").split()
    result = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", program, DEMO, *flags, "-pthread"])
    assert result.returncode == 0, result.stderr
    assert dynamic_entries(program, "NEEDED")[0] == f"libhearth.so.{MAJOR}"
    environment = emulator_environment(LD_LIBRARY_PATH=str(prefix / "lib"))
    loaded = run(["ldd", program], env=environment).stdout
    assert f"libhearth.so.{MAJOR} => {prefix}/lib/libhearth.so.{MAJOR}" in loaded
    assert "libswift" not in loaded and "/opt/swift" not in loaded
    result = run([program], env=environment, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every step succeeded" in result.stdout


def test_firebase_code_built_with_pkg_config_hearth_compat_runs_against_the_installed_library(prefix, tmp_path):
    program = tmp_path / "firebase_hello"
    flags = pkg_config(prefix, "--cflags", "--libs", package="hearth-compat").split()
    result = run(["c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o", program, FIREBASE_HELLO,
                  *flags, "-pthread"], timeout=300)
    assert result.returncode == 0, result.stderr
    assert dynamic_entries(program, "NEEDED")[0] == f"libhearth.so.{MAJOR}"
    environment = firebase_app_environment(tmp_path, LD_LIBRARY_PATH=str(prefix / "lib"))
    result = run([program], env=environment, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^firebase compat signed in \w+$", result.stdout, re.MULTILINE), result.stdout


def test_a_cmake_project_finds_hearth_and_its_c_and_cpp_programs_run(prefix, tmp_path):
    build = tmp_path / "build"
    result = cmake_configure(build, prefix, f"-DHEARTH_DEMO_SOURCE={DEMO}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Hearth::hearth IMPORTED_LOCATION={prefix}/lib/libhearth.so.{VERSION}" in result.stdout
    assert f"Hearth::hearth IMPORTED_SONAME=libhearth.so.{MAJOR}" in result.stdout
    assert f"Hearth::hearth INTERFACE_INCLUDE_DIRECTORIES={prefix}/include" in result.stdout
    assert f"Hearth::firebase_compat INTERFACE_INCLUDE_DIRECTORIES={prefix}/include/hearth-compat" in result.stdout
    assert "Hearth::firebase_compat INTERFACE_LINK_LIBRARIES=Hearth::hearth" in result.stdout
    assert f"Hearth_VERSION={VERSION}" in result.stdout
    result = run(["cmake", "--build", build], timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr

    for name in ("demo", "hello_cpp", "firebase_hello"):
        program = build / name
        assert dynamic_entries(program, "NEEDED")[0] == f"libhearth.so.{MAJOR}"
        # CMake's build-tree RUNPATH points at the installed library, never into this repository.
        runpath = ":".join(dynamic_entries(program, "RUNPATH") + dynamic_entries(program, "RPATH"))
        assert str(prefix / "lib") in runpath.split(":")
        assert str(ROOT) not in runpath
    result = run([build / "demo"], env=emulator_environment(), timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every step succeeded" in result.stdout
    result = run([build / "hello_cpp"], env=emulator_environment(), timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.fullmatch(rf"hearth {re.escape(VERSION)} signed in \w+\n", result.stdout)
    app_directory = tmp_path / "firebase_app"
    app_directory.mkdir()
    result = run([build / "firebase_hello"], env=firebase_app_environment(app_directory), cwd=app_directory, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^firebase compat signed in \w+$", result.stdout, re.MULTILINE), result.stdout


@pytest.mark.parametrize("requested,found", [
    (VERSION, True),
    (MAJOR, True),
    (f"{MAJOR}.{int(VERSION.split('.')[1]) + 1}", False),  # newer than installed
    (str(int(MAJOR) + 1), False),                          # another ABI (soname)
])
def test_find_package_accepts_only_versions_with_the_same_major_not_newer(prefix, tmp_path, requested, found):
    result = cmake_configure(tmp_path / "build", prefix, f"-DHEARTH_REQUESTED_VERSION={requested}")
    assert (result.returncode == 0) == found, result.stdout + result.stderr
    if not found:
        assert "Hearth" in result.stderr and VERSION in result.stderr


# ------------------------------------------------------------------------------------------------
# Staging and removal
# ------------------------------------------------------------------------------------------------

def test_destdir_stages_the_tree_for_prefix_and_the_staged_cmake_package_is_relocatable(tmp_path):
    stage = tmp_path / "stage"
    result = make("install", f"DESTDIR={stage}", "PREFIX=/opt/hearth")
    assert result.returncode == 0, result.stdout + result.stderr
    staged = stage / "opt" / "hearth"
    assert (staged / "lib" / f"libhearth.so.{VERSION}").is_file()
    assert "prefix=/opt/hearth\n" in (staged / "lib" / "pkgconfig" / "hearth.pc").read_text()
    # The CMake package finds its files relative to itself: the staged tree works where it is.
    result = cmake_configure(tmp_path / "build", staged)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"IMPORTED_LOCATION={staged}/lib/libhearth.so.{VERSION}" in result.stdout


def test_install_refuses_a_relative_prefix(tmp_path):
    result = make("install", "PREFIX=relative/prefix")
    assert result.returncode != 0
    assert "PREFIX must be an absolute path" in result.stderr
    assert not (ROOT / "relative").exists()


def test_uninstall_removes_every_installed_file(tmp_path):
    target = tmp_path / "prefix"
    result = make("install", f"PREFIX={target}")
    assert result.returncode == 0, result.stdout + result.stderr
    (target / "lib" / "keep.txt").write_text("not Hearth's")
    result = make("uninstall", f"PREFIX={target}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert installed_files(target) == {"lib/keep.txt": "file"}
