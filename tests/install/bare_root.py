"""A machine with only glibc and Python, for the wheel: a minimal Debian root (debootstrap --variant=
minbase, plus python3-venv) with no libuv, no libcurl and no nghttp2 (it has Python's own libssl3 and,
through pip, ca-certificates), entered with chroot inside mount and network namespaces of its own.

  bare_root.py build DIR
      Makes the root in DIR (once: DIR/.bare-root records how it was made, and a matching root is
      reused). The Debian release and archive are this machine's own.
  bare_root.py run --root DIR --wheel WHEEL --example PROGRAM --work DIR
      Run as `unshare --mount --net --fork` with loopback up, under scripts/with-emulator (an emulator
      inside the new network namespace). Lays a writable overlay over the root (the root itself is never changed),
      installs the wheel with pip into a fresh virtualenv there, and runs bare_root_probe.py in it
      once per scenario:
        emulator      signs in against the emulator, with LD_DEBUG=bindings recording where every
                      symbol of the wheel's libraries was found;
        tls-debian    signs in over TLS under the production host names (tls_front.py), the test CA
                      in Debian's bundle file;
        tls-rhel      the same, the CA only where Fedora and RHEL keep their bundle;
        tls-wrong-ca  Debian's bundle file holds another CA: the certificate must be refused;
        tls-no-ca     no bundle file at all: curl must say which file it lacks.
      and runs PROGRAM (the README's quick start) against the emulator. Prints one JSON report on
      stdout.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tls_front import TLSFront

HERE = Path(__file__).resolve().parent
ROOT_REPO = HERE.parents[1]
MAKE_PKI = ROOT_REPO / "Tests" / "HearthClientTests" / "Fixtures" / "make_test_pki.sh"
STAMP = ".bare-root"
PRODUCTION_HOSTS = ("identitytoolkit.googleapis.com", "securetoken.googleapis.com")
DEBIAN_BUNDLE = "etc/ssl/certs/ca-certificates.crt"
RHEL_BUNDLE = "etc/pki/tls/certs/ca-bundle.crt"
CHROOT_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
              "LANG": "C.UTF-8"}
VENV = "/venv"


def run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def checked(args, **kwargs) -> subprocess.CompletedProcess:
    result = run(args, **kwargs)
    if result.returncode != 0:
        sys.exit(f"bare_root: {' '.join(map(str, args))} failed ({result.returncode}):\n"
                 f"{result.stdout}{result.stderr}")
    return result


# ------------------------------------------------------------------------------------------------
# build
# ------------------------------------------------------------------------------------------------

def this_release() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    sys.exit("bare_root: /etc/os-release names no VERSION_CODENAME (a Debian machine is needed)")


def debian_archive(release: str) -> str:
    """The archive this machine installs `release` from (its apt sources)."""
    targets = checked(["apt-get", "indextargets", "--format", "$(ORIGIN)|$(RELEASE)|$(REPO_URI)",
                       "Created-By: Packages"]).stdout
    for line in targets.splitlines():
        origin, suite, uri = line.split("|")
        if origin == "Debian" and suite == release:
            return uri
    sys.exit(f"bare_root: no Debian archive for {release} in this machine's apt sources")


def build(directory: Path) -> None:
    release = this_release()
    archive = debian_archive(release)
    recipe = f"debootstrap --variant=minbase --include=python3-venv {release}"
    if (directory / STAMP).is_file() and (directory / STAMP).read_text() == recipe:
        return
    if not shutil.which("debootstrap"):
        sys.exit("bare_root: debootstrap not found (make deps installs it)")
    scratch = directory.with_name(directory.name + ".partial")
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.rmtree(directory, ignore_errors=True)
    checked(["debootstrap", "--variant=minbase", "--include=python3-venv", release, scratch, archive],
            timeout=1200)
    (scratch / STAMP).write_text(recipe)
    scratch.rename(directory)


# ------------------------------------------------------------------------------------------------
# run
# ------------------------------------------------------------------------------------------------

def libraries_named(root: Path, pattern: str) -> list:
    found = []
    for directory in ("lib", "usr/lib", "usr/local/lib"):
        base = root / directory
        if base.is_dir():
            found += [str(path.relative_to(root)) for path in base.rglob(pattern)]
    return sorted(found)


def chroot(merged: Path, *args, env=None, timeout=300) -> subprocess.CompletedProcess:
    return run(["chroot", merged, *args], env={**CHROOT_ENV, **(env or {})}, timeout=timeout)


def probe(merged: Path, scenario: str, env=None) -> dict:
    result = chroot(merged, f"{VENV}/bin/python", "/tmp/bare_root_probe.py", scenario, env=env, timeout=180)
    if result.returncode != 0:
        return {"scenario": scenario, "failed": True, "output": result.stdout + result.stderr}
    return json.loads(result.stdout)


def bindings_from_wheel(debug_files: list, site: str) -> dict:
    """{library in the wheel: {library it bound symbols in: [symbols]}} from LD_DEBUG=bindings."""
    pattern = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: \w+ symbol `([^']+)'")
    found: dict = {}
    for path in debug_files:
        with open(path, errors="replace") as lines:
            for line in lines:
                match = pattern.search(line)
                if match and match.group(1).startswith(site):
                    found.setdefault(match.group(1), {}).setdefault(match.group(2), set()).add(match.group(3))
    return {source: {target: sorted(symbols) for target, symbols in targets.items()}
            for source, targets in found.items()}


def run_scenarios(root: Path, wheel: Path, example: Path, work: Path) -> dict:
    for name in ("upper", "overlay-work", "merged"):
        (work / name).mkdir(parents=True, exist_ok=True)
    merged = work / "merged"
    checked(["mount", "-t", "overlay", "overlay", "-o",
             f"lowerdir={root},upperdir={work / 'upper'},workdir={work / 'overlay-work'}", merged])
    checked(["mount", "-t", "proc", "proc", merged / "proc"])
    report: dict = {"root": {
        "libuv": libraries_named(merged, "libuv.so*"),
        "libcurl": libraries_named(merged, "libcurl*.so*"),
        "libnghttp2": libraries_named(merged, "libnghttp2.so*"),
        "libssl": libraries_named(merged, "libssl.so*"),
        "python": chroot(merged, "python3", "--version").stdout.strip(),
    }}

    shutil.copy(wheel, merged / "tmp" / wheel.name)
    shutil.copy(HERE / "bare_root_probe.py", merged / "tmp" / "bare_root_probe.py")
    checked(["chroot", merged, "python3", "-m", "venv", VENV], env=CHROOT_ENV, timeout=300)
    install = chroot(merged, f"{VENV}/bin/python", "-m", "pip", "install", "--no-index", "--no-deps",
                     "--disable-pip-version-check", f"/tmp/{wheel.name}")
    report["pip_install"] = {"returncode": install.returncode, "output": install.stdout + install.stderr}
    if install.returncode != 0:
        return report
    site = chroot(merged, f"{VENV}/bin/python", "-c", "import sysconfig; print(sysconfig.get_path('platlib'))")
    report["site_packages"] = site.stdout.strip()
    report["venv_python"] = f"{VENV}/bin/python"

    scenarios = report["scenarios"] = {}
    # Against the emulator (plain http), every binding recorded.
    emulator = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    scenarios["emulator"] = probe(merged, "emulator", env={
        "FIREBASE_AUTH_EMULATOR_HOST": emulator, "LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": "/tmp/ld-debug"})
    debug_files = sorted((merged / "tmp").glob("ld-debug.*"))
    report["ld_debug_files"] = len(debug_files)
    report["bindings"] = bindings_from_wheel(debug_files, report["site_packages"])
    for path in debug_files:
        path.unlink()
    # The README's quick start, as a reader would run it against the emulator.
    shutil.copy(example, merged / "tmp" / "quickstart.py")
    quickstart = chroot(merged, f"{VENV}/bin/python", "/tmp/quickstart.py",
                        env={"FIREBASE_AUTH_EMULATOR_HOST": emulator}, timeout=120)
    report["quickstart"] = {"returncode": quickstart.returncode, "stdout": quickstart.stdout,
                            "stderr": quickstart.stderr}

    # Over TLS, as in production: the front holds a certificate for Google's names from a test CA.
    pki = work / "pki"
    checked(["sh", MAKE_PKI, pki])
    (merged / "etc" / "hosts").write_text(
        "127.0.0.1 localhost\n" + "".join(f"127.0.0.1 {host}\n" for host in PRODUCTION_HOSTS))
    host, port = emulator.rsplit(":", 1)
    front = TLSFront(("127.0.0.1", 443), (host, int(port)), str(pki / "valid.pem"), str(pki / "valid.key")).start()

    def place_ca(relative, authority):
        for bundle in (DEBIAN_BUNDLE, RHEL_BUNDLE):
            (merged / bundle).unlink(missing_ok=True)
        if relative:
            (merged / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(pki / authority, merged / relative)

    for scenario, bundle, authority in (("tls-debian", DEBIAN_BUNDLE, "ca.pem"), ("tls-rhel", RHEL_BUNDLE, "ca.pem"),
                                        ("tls-wrong-ca", DEBIAN_BUNDLE, "other-ca.pem"), ("tls-no-ca", None, None)):
        place_ca(bundle, authority)
        failures_before = front.handshake_failures
        scenarios[scenario] = probe(merged, scenario)
        scenarios[scenario]["refused_handshakes"] = front.handshake_failures - failures_before
    front.shutdown()
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build")
    make.add_argument("directory", type=Path)
    use = commands.add_parser("run")
    use.add_argument("--root", type=Path, required=True)
    use.add_argument("--wheel", type=Path, required=True)
    use.add_argument("--example", type=Path, required=True)
    use.add_argument("--work", type=Path, required=True)
    arguments = parser.parse_args()
    if arguments.command == "build":
        build(arguments.directory.resolve())
    else:
        print(json.dumps(run_scenarios(arguments.root.resolve(), arguments.wheel.resolve(),
                                       arguments.example.resolve(), arguments.work.resolve())))


if __name__ == "__main__":
    main()
