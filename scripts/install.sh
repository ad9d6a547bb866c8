#!/usr/bin/env bash
# Installs libhearth, its headers and the Firebase C++ SDK compatibility headers (PREFIX/include/hearth-compat)
# into DESTDIR/PREFIX (make install), or removes them again (make uninstall):
#   scripts/install.sh LIBRARY DESTDIR PREFIX
#   scripts/install.sh --uninstall DESTDIR PREFIX
# PREFIX is where the files will live at run time (written into hearth.pc); DESTDIR only stages them.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
die() { echo "install.sh: $*" >&2; exit 1; }

uninstall=0
if [ "${1:-}" = "--uninstall" ]; then uninstall=1; shift; set -- "" "$@"; fi
[ $# -eq 3 ] || die "usage: install.sh LIBRARY DESTDIR PREFIX | install.sh --uninstall DESTDIR PREFIX"
library="$1" destdir="$2" prefix="$3"
case "$prefix" in /*) ;; *) die "PREFIX must be an absolute path (got '$prefix')" ;; esac
prefix="${prefix%/}"

macro() { sed -n "s/^#define $1 //p" "$here/include/hearth.h"; }
major="$(macro HEARTH_VERSION_MAJOR)"
version="$major.$(macro HEARTH_VERSION_MINOR).$(macro HEARTH_VERSION_PATCH)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot read the version from include/hearth.h"

root="$destdir$prefix"
lib="$root/lib"
# The Firebase C++ SDK compatibility headers (opt-in): include/compat/... -> include/hearth-compat/...
compat="$root/include/hearth-compat"
compat_headers=()
while IFS= read -r header; do compat_headers+=("$header"); done < <(cd "$here/include/compat" && find . -name '*.h' | sed 's|^\./||' | sort)
installed=(
  "$lib/libhearth.so" "$lib/libhearth.so.$major" "$lib/libhearth.so.$version"
  "$root/include/hearth.h" "$root/include/hearth.hpp" "$lib/pkgconfig/hearth.pc" "$lib/pkgconfig/hearth-compat.pc"
  "$lib/cmake/Hearth/HearthConfig.cmake" "$lib/cmake/Hearth/HearthConfigVersion.cmake"
)
for header in "${compat_headers[@]}"; do installed+=("$compat/$header"); done

if [ "$uninstall" -eq 1 ]; then
  rm -f "${installed[@]}"
  rmdir "$lib/cmake/Hearth" 2>/dev/null || true
  # The compatibility headers' directories, deepest first, when nothing else is in them.
  if [ -d "$compat" ]; then find "$compat" -depth -type d -empty -delete; fi
  echo "removed libhearth $version from $root"
  exit 0
fi

[ -f "$library" ] || die "$library is not built"
soname="$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ "$soname" = "libhearth.so.$major" ] || die "$library has soname '$soname', expected libhearth.so.$major"

install -d "$lib/pkgconfig" "$lib/cmake/Hearth" "$root/include"
# Debug info would more than double the size; the dynamic symbols (the ABI) stay.
install -m 0755 "$library" "$lib/libhearth.so.$version"
strip --strip-unneeded "$lib/libhearth.so.$version"
ln -sfn "libhearth.so.$version" "$lib/libhearth.so.$major"
ln -sfn "libhearth.so.$major" "$lib/libhearth.so"
install -m 0644 "$here/include/hearth.h" "$here/include/hearth.hpp" "$root/include/"
for header in "${compat_headers[@]}"; do
  install -D -m 0644 "$here/include/compat/$header" "$compat/$header"
done

fill() { sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" "$here/packaging/$1"; }
fill hearth.pc.in > "$lib/pkgconfig/hearth.pc"
fill hearth-compat.pc.in > "$lib/pkgconfig/hearth-compat.pc"
fill HearthConfig.cmake.in > "$lib/cmake/Hearth/HearthConfig.cmake"
fill HearthConfigVersion.cmake.in > "$lib/cmake/Hearth/HearthConfigVersion.cmake"
chmod 0644 "$lib/pkgconfig/hearth.pc" "$lib/pkgconfig/hearth-compat.pc" "$lib/cmake/Hearth/"*.cmake
echo "installed libhearth $version ($(du -h "$lib/libhearth.so.$version" | cut -f1)) into $root"
