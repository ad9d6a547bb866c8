"""The wheel on a machine with only glibc and Python (bare_root.py): a minimal Debian root without libuv,
libcurl or nghttp2, entered with chroot in mount and network namespaces of its own, where a fresh
virtualenv installs the wheel with pip and signs in, against hearth-emulator and over TLS under the
production host names. Every library the process maps once Hearth is loaded, and every symbol the
wheel's libraries bind, must come from the wheel or from what the manylinux policy lets a wheel take
from the system (glibc, libgcc_s, libstdc++)."""
import json
import os
import re
import sys
from pathlib import Path

import pytest

from install_support import (ROOT, VENDORED, emulator_environment, policy_system_libraries, readme_quickstart,
                             run, soname)

HERE = Path(__file__).resolve().parent
WHEEL_LIBRARIES = VENDORED | {"libhearth.so"}
SCENARIOS = ("emulator", "tls-debian", "tls-rhel", "tls-wrong-ca", "tls-no-ca")


@pytest.fixture(scope="session")
def report(wheel, bare_root, tmp_path_factory) -> dict:
    """bare_root.py's run, in new mount and network namespaces with an emulator of their own."""
    work = tmp_path_factory.mktemp("bare-root-run")
    example = work / "quickstart.py"
    example.write_text(readme_quickstart())
    inner = (f"ip link set lo up && exec {ROOT}/scripts/with-emulator {sys.executable} {HERE / 'bare_root.py'} run "
             f"--root {bare_root} --wheel {wheel} --example {example} --work {work}")
    environment = {key: value for key, value in emulator_environment().items()
                   if key not in ("FIREBASE_AUTH_EMULATOR_HOST", "HEARTH_EMULATOR_URL", "HEARTH_LIBRARY", "PYTHONPATH")}
    result = run(["unshare", "--mount", "--net", "--fork", "--", "sh", "-c", inner], env=environment, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def scenario(report: dict, name: str) -> dict:
    found = report["scenarios"][name]
    assert not found.get("failed"), found.get("output")
    return found


def in_wheel(report: dict, path: str) -> bool:
    site = report["site_packages"]
    return os.path.normpath(path).startswith((f"{site}/hearth/", f"{site}/hearth.libs/"))


# ------------------------------------------------------------------------------------------------
# The machine
# ------------------------------------------------------------------------------------------------

def test_the_bare_root_has_python_but_no_libuv_libcurl_or_nghttp2(report):
    root = report["root"]
    assert root["python"].startswith("Python 3.")
    assert root["libuv"] == [] and root["libcurl"] == [] and root["libnghttp2"] == [], root
    # Python's own OpenSSL is there: a library that looked for libssl on the system would find it.
    assert root["libssl"], root


def test_pip_installs_the_wheel_into_a_fresh_virtualenv_there(report):
    assert report["pip_install"]["returncode"] == 0, report["pip_install"]["output"]
    assert "Successfully installed hearth-" in report["pip_install"]["output"]


def test_the_readmes_quick_start_runs_there(report):
    quickstart = report["quickstart"]
    assert quickstart["returncode"] == 0, quickstart
    assert re.fullmatch(r"signed in as \w+ with a \d+ character ID token\n", quickstart["stdout"]), quickstart


# ------------------------------------------------------------------------------------------------
# What the process loads
# ------------------------------------------------------------------------------------------------

def test_the_wheel_signs_up_signs_in_and_gets_a_token_against_the_emulator(report):
    found = scenario(report, "emulator")
    assert found["signed_in"] is True, found
    assert found["signed_in_uid"] == found["created_uid"] != ""
    assert found["token_segments"] == 3
    assert found["library"] == f"{report['site_packages']}/hearth/libhearth.so"


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_library_loaded_with_hearth_is_the_wheels_or_one_the_policy_allows(report, name):
    found = scenario(report, name)
    new = [path for path in found["after"] if path not in found["before"]]
    from_wheel = {soname(Path(path).name) for path in new if in_wheel(report, path)}
    from_system = [path for path in new if not in_wheel(report, path)]
    assert from_wheel == WHEEL_LIBRARIES, new
    allowed = policy_system_libraries()
    assert [path for path in from_system if soname(Path(path).name) not in allowed] == [], from_system


def test_the_systems_libssl_was_in_the_process_and_the_wheel_used_its_own(report):
    found = scenario(report, "emulator")
    system_ssl = [path for path in found["before"] if soname(Path(path).name) in ("libssl.so.3", "libcrypto.so.3")]
    assert system_ssl, "Python's ssl module should have mapped the root's OpenSSL before Hearth loaded"
    wheel_ssl = [path for path in found["after"] if in_wheel(report, path) and "libssl" in path]
    assert len(wheel_ssl) == 1


def test_every_symbol_the_wheels_libraries_use_binds_in_the_wheel_or_glibc(report, bare_root):
    bindings = report["bindings"]
    assert report["ld_debug_files"] == 1
    # Every library of the wheel bound symbols (a missing one would mean LD_DEBUG saw another process).
    assert {soname(Path(source).name) for source in bindings} == WHEEL_LIBRARIES
    allowed = policy_system_libraries()
    listing = run(["nm", "-D", "--defined-only", bare_root / "lib" / "x86_64-linux-gnu" / "libc.so.6"]).stdout
    libc_symbols = {line.split()[-1].split("@")[0] for line in listing.splitlines() if line.strip()}
    assert libc_symbols
    python = report["venv_python"]
    for source, targets in bindings.items():
        for target, symbols in targets.items():
            if target == python:
                # The executable holds copies of a few libc objects (stderr, environ) and canonical
                # addresses of functions it takes the address of (malloc, free): glibc's symbols all.
                assert set(symbols) <= libc_symbols, (source, target, symbols)
            else:
                assert in_wheel(report, target) or soname(Path(target).name) in allowed, (source, target, symbols)


def test_libcurls_tls_symbols_bind_to_the_wheels_openssl(report):
    [curl] = [source for source in report["bindings"] if soname(Path(source).name) == "libcurl.so.4"]
    targets = report["bindings"][curl]
    ssl_targets = {target for target, symbols in targets.items()
                   if any(re.match(r"(SSL|OPENSSL|EVP|X509)_", symbol) for symbol in symbols)}
    assert ssl_targets and all(in_wheel(report, target) for target in ssl_targets), ssl_targets


def test_the_loaded_libcurl_is_the_lean_build(report):
    found = scenario(report, "emulator")
    # zlib is linked into it (gzip answers), not loaded from the system: the library checks above hold.
    assert re.fullmatch(r"libcurl/7\.88\.1 OpenSSL/3\.\S+ zlib/1\.\S+ nghttp2/\S+", found["curl_version"]), found


# ------------------------------------------------------------------------------------------------
# TLS: the wheel's libcurl and OpenSSL against the machine's CA bundle
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tls-debian", "tls-rhel"])
def test_over_tls_the_wheel_signs_in_trusting_the_machines_ca_bundle_where_the_distribution_keeps_it(report, name):
    # tls-rhel: only /etc/pki/tls/certs/ca-bundle.crt, not the Debian path the vendored libcurl was
    # built with; Hearth finds it (SystemCABundle).
    found = scenario(report, name)
    assert found["signed_in"] is True, found
    assert found["signed_in_uid"] == found["created_uid"] != ""
    assert found["refused_handshakes"] == 0


def test_over_tls_a_certificate_from_a_ca_the_machine_does_not_trust_is_refused(report):
    found = scenario(report, "tls-wrong-ca")
    assert found["signed_in"] is False
    assert found["error"] == "NetworkRequestFailedError"
    assert "certificate" in found["message"], found["message"]
    assert found["refused_handshakes"] >= 1


def test_over_tls_without_any_ca_bundle_the_error_names_the_file_curl_looked_for(report):
    found = scenario(report, "tls-no-ca")
    assert found["signed_in"] is False
    assert found["error"] == "NetworkRequestFailedError"
    assert "/etc/ssl/certs/ca-certificates.crt" in found["message"], found["message"]
