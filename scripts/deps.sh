#!/usr/bin/env bash
# Installs what a fresh machine lacks; does nothing when everything is there (idempotent).
set -euo pipefail
apt_pkgs=(libuv1-dev libcurl4-openssl-dev pkg-config)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
py_mods=(pytest firebase_admin requests)
py_pkgs=(pytest firebase-admin requests)
need=()
for i in "${!py_mods[@]}"; do
  python3 -c "import ${py_mods[$i]}" 2>/dev/null || need+=("${py_pkgs[$i]}")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: pip installing ${need[*]}"
  python3 -m pip install -q --disable-pip-version-check "${need[@]}"
fi
