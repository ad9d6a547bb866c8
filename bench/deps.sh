#!/usr/bin/env bash
# What `make bench` needs beyond scripts/deps.sh: Debian's nginx (the canned-response server), wrk
# (load on the emulator), valgrind (callgrind instruction counts), and the Python peers and plotting
# (requests, httpx, matplotlib). Installs only what is missing: a second run does nothing.
set -euo pipefail
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
missing=()
for p in nginx wrk valgrind; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  # Without recommends: nginx must not be enabled as a system service by a recommended package.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's package starts a system nginx on port 80 when installed; the bench runs its own.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then
  $SUDO systemctl stop nginx || true
fi
py_mods=(requests httpx matplotlib)
py_pkgs=(requests httpx matplotlib)
need=()
for i in "${!py_mods[@]}"; do
  python3 -c "import ${py_mods[$i]}" 2>/dev/null || need+=("${py_pkgs[$i]}")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "bench deps: pip installing ${need[*]}"
  python3 -m pip install -q --disable-pip-version-check "${need[@]}"
fi
