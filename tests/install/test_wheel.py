"""The Python wheel (`make wheel`): a manylinux wheel that carries the self-contained library and every
library it needs besides glibc, and works in a fresh virtualenv, with no HEARTH_LIBRARY, no PYTHONPATH
and no Swift toolchain, from outside the source tree. (test_bare_root.py runs it where the system has
no libuv and no libcurl at all.)"""
import base64
import hashlib
import http.server
import json
import os
import re
import sys
import threading
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from install_support import (ROOT, VENDORED, VERSION, WHEEL_POLICY, dynamic_entries, emulator_environment,
                             policy_system_libraries, readme_quickstart, run, soname)

WHEEL_NAME = re.compile(r"hearth-(?P<version>[^-]+)-py3-none-(?P<platform>\w+)\.whl")
LIBRARY = "hearth/libhearth.so"


def built_wheels(directory: Path) -> list[Path]:
    return sorted(directory.glob("hearth-*.whl"))


@pytest.fixture(scope="session")
def unpacked(wheel, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


@pytest.fixture(scope="session")
def shared_objects(unpacked) -> dict[str, Path]:
    """Every ELF shared object in the wheel, by its path in the wheel."""
    return {str(path.relative_to(unpacked)): path for path in sorted(unpacked.rglob("*.so*"))
            if path.read_bytes()[:4] == b"\x7fELF"}


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

def test_the_wheel_is_tagged_with_the_manylinux_policy_and_named_after_the_library_version(wheel):
    match = WHEEL_NAME.fullmatch(wheel.name)
    assert match, f"{wheel.name} is not a py3-none-<platform> wheel (a bundled library is never `any`)"
    assert match["platform"] == f"{WHEEL_POLICY}_x86_64"
    assert match["version"] == VERSION
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"hearth-{VERSION}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: false" in metadata
    assert re.findall(r"^Tag: (.*)$", metadata, re.MULTILINE) == [f"py3-none-{WHEEL_POLICY}_x86_64"]
    assert "Generator: hatchling" in metadata


def test_auditwheel_show_names_the_policy(wheel):
    result = run([sys.executable, "-m", "auditwheel", "show", wheel])
    assert result.returncode == 0, result.stdout + result.stderr
    text = " ".join(result.stdout.split())
    assert f'is consistent with the following platform tag: "{WHEEL_POLICY}_x86_64"' in text
    assert f'This constrains the platform tag to "{WHEEL_POLICY}_x86_64"' in text


def test_the_wheel_carries_the_package_the_library_and_exactly_the_vendored_libraries(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if not name.endswith("/")}
    sources = {f"hearth/{path.name}" for path in (ROOT / "bindings" / "python" / "hearth").glob("*.py")}
    assert sources <= names
    assert {"hearth/py.typed", LIBRARY} <= names
    vendored = {name for name in names if name.startswith("hearth.libs/")}
    assert {soname(Path(name).name) for name in vendored} == VENDORED
    assert len(vendored) == len(VENDORED), f"a library is there twice: {sorted(vendored)}"
    # Nothing else: no tests, no build hook, no caches; auditwheel's SBOM of what it vendored.
    extra = names - sources - vendored - {"hearth/py.typed", LIBRARY}
    dist_info = f"hearth-{VERSION}.dist-info"
    assert {name for name in extra if not name.startswith(f"{dist_info}/sboms/")} == {
        f"{dist_info}/{name}" for name in ("METADATA", "WHEEL", "RECORD")}


def test_the_record_lists_every_file_with_its_hash(wheel):
    with zipfile.ZipFile(wheel) as archive:
        record = archive.read(f"hearth-{VERSION}.dist-info/RECORD").decode().splitlines()
        listed = {}
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            listed[name] = (digest, size)
        files = [name for name in archive.namelist() if not name.endswith("/")]
        assert set(listed) == set(files)
        for name in files:
            if name.endswith("/RECORD"):
                continue
            data = archive.read(name)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert listed[name] == (expected, str(len(data))), name


def test_the_library_finds_its_vendored_libraries_next_to_it_and_needs_no_swift_runtime(unpacked):
    library = unpacked / LIBRARY
    needed = dynamic_entries(library, "NEEDED")
    assert {soname(name) for name in needed} - policy_system_libraries() == {"libcurl.so.4", "libuv.so.1",
                                                                           "libcrypto.so.3"}
    for name in needed:
        if soname(name) in VENDORED:
            assert (unpacked / "hearth.libs" / name).is_file(), name
    assert not [name for name in needed if re.match(r"lib(swift|Foundation|dispatch|BlocksRuntime)", name)]
    assert dynamic_entries(library, "RPATH") + dynamic_entries(library, "RUNPATH") == ["$ORIGIN/../hearth.libs"]


def test_each_vendored_library_needs_only_the_others_and_what_the_policy_allows(unpacked, shared_objects):
    allowed = policy_system_libraries()
    for path, binary in shared_objects.items():
        if not path.startswith("hearth.libs/"):
            continue
        for name in dynamic_entries(binary, "NEEDED"):
            assert soname(name) in allowed or (unpacked / "hearth.libs" / name).is_file(), (path, name)


def test_every_shared_object_is_stripped_and_the_library_exports_only_hearth_functions(shared_objects):
    for path, binary in shared_objects.items():
        sections = run(["readelf", "-S", "-W", binary]).stdout
        assert ".debug_info" not in sections and ".symtab" not in sections, f"{path} is not stripped"
    symbols = run(["nm", "-D", "--defined-only", shared_objects[LIBRARY]]).stdout.split("\n")
    names = [line.split()[-1] for line in symbols if line.strip()]
    assert "hearth_version" in names
    assert [name for name in names if not name.startswith("hearth_")] == []


def test_the_vendored_libcurl_speaks_only_http_and_https_through_openssl_and_nghttp2_and_inflates_gzip(unpacked):
    [curl] = (unpacked / "hearth.libs").glob("libcurl-*.so.4")
    probe = ("import ctypes, json, sys\n"
             "curl = ctypes.CDLL(sys.argv[1])\n"
             "curl.curl_version.restype = ctypes.c_char_p\n"
             "class Info(ctypes.Structure):\n"
             "    _fields_ = [('age', ctypes.c_int), ('version', ctypes.c_char_p), ('version_num', ctypes.c_uint),\n"
             "                ('host', ctypes.c_char_p), ('features', ctypes.c_int), ('ssl_version', ctypes.c_char_p),\n"
             "                ('ssl_version_num', ctypes.c_long), ('libz_version', ctypes.c_char_p),\n"
             "                ('protocols', ctypes.POINTER(ctypes.c_char_p))]\n"
             "curl.curl_version_info.restype = ctypes.POINTER(Info)\n"
             "info = curl.curl_version_info(0).contents\n"
             "protocols = []\n"
             "while info.protocols[len(protocols)]:\n"
             "    protocols.append(info.protocols[len(protocols)].decode())\n"
             "print(json.dumps({'version': curl.curl_version().decode(), 'protocols': protocols,\n"
             "                  'features': info.features,\n"
             "                  'zlib': info.libz_version and info.libz_version.decode()}))\n")
    result = run([sys.executable, "-c", probe, curl])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert re.fullmatch(r"libcurl/7\.88\.1 OpenSSL/3\.\S+ zlib/1\.\S+ nghttp2/\S+", report["version"]), report
    assert sorted(report["protocols"]) == ["http", "https"]
    # zlib is inside (Hearth asks for gzip answers only from a libcurl that inflates them:
    # CURL_VERSION_LIBZ), linked in statically: the library needs nothing more than before.
    assert re.fullmatch(r"1\.\d+(\.\d+)*", report["zlib"] or ""), report
    assert report["features"] & (1 << 3), report


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


class EncodingRecorder:
    """Forwards requests to the emulator as they come (Accept-Encoding included) and passes the answers
    back as they were sent (Content-Encoding included), noting both for each request."""

    def __init__(self, target: str) -> None:
        self.seen: list[tuple[str, str, str]] = []  # (path, Accept-Encoding sent, Content-Encoding answered)
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                forwarded = urllib.request.Request(target + self.path, data=body, method="POST")
                for name in ("Content-Type", "Accept-Encoding"):
                    if self.headers.get(name):
                        forwarded.add_header(name, self.headers[name])
                try:
                    with urllib.request.urlopen(forwarded, timeout=30) as answer:
                        status, headers, payload = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as error:
                    status, headers, payload = error.code, error.headers, error.read()
                encoding = headers.get("Content-Encoding", "")
                recorder.seen.append((self.path, self.headers.get("Accept-Encoding", ""), encoding))
                self.send_response(status)
                self.send_header("Content-Type", headers.get("Content-Type", "application/json"))
                if encoding:
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_in_the_virtualenv_the_wheel_asks_for_gzip_and_inflates_the_emulators_compressed_answers(
        venv_python, tmp_path):
    recorder = EncodingRecorder(emulator_environment()["HEARTH_EMULATOR_URL"])
    try:
        result = run([venv_python, "-c", SIGN_IN],
                     env=without_the_source_tree(FIREBASE_AUTH_EMULATOR_HOST=f"127.0.0.1:{recorder.port}"),
                     cwd=tmp_path, timeout=120)
    finally:
        recorder.close()
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["signed_in_uid"] == report["created_uid"] != ""
    assert recorder.seen and all(accepted == "gzip" for _, accepted, _ in recorder.seen), recorder.seen
    compressed = {path.split("?")[0].rsplit("/", 1)[-1] for path, _, encoding in recorder.seen if encoding == "gzip"}
    assert {"accounts:signUp", "accounts:signInWithPassword", "accounts:lookup"} <= compressed, recorder.seen


def test_the_readmes_quick_start_runs_from_the_wheel_alone(venv_python, tmp_path):
    program = tmp_path / "main.py"
    program.write_text(readme_quickstart())
    assert len(program.read_text().splitlines()) <= 10
    result = run([venv_python, program], env=without_the_source_tree(), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.fullmatch(r"signed in as \w+ with a \d+ character ID token\n", result.stdout), result.stdout


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
    # No HEARTH_WHEEL_LIBRARY: the hatchling hook runs the static swift build itself (up to date after
    # `make wheel`, so this measures the command, not a rebuild). Plain pip makes the platform wheel
    # that `make wheel` then repairs: libuv and libcurl still the machine's.
    environment = {key: value for key, value in os.environ.items() if key != "HEARTH_WHEEL_LIBRARY"}
    before = source_tree_status()
    result = run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                  "--disable-pip-version-check", "--wheel-dir", tmp_path, "./bindings/python"],
                 env=environment, cwd=ROOT, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = built_wheels(tmp_path)
    assert built.name == f"hearth-{VERSION}-py3-none-linux_x86_64.whl"
    with zipfile.ZipFile(built) as archive:
        assert archive.getinfo(LIBRARY).file_size > 1_000_000
        assert not [name for name in archive.namelist() if name.startswith("hearth.libs/")]
    # pip builds in the source tree: the build leaves nothing behind there.
    assert source_tree_status() == before


def source_tree_status() -> list[str]:
    status = run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "bindings/python"], cwd=ROOT)
    return sorted(line for line in status.stdout.splitlines() if "__pycache__" not in line)
