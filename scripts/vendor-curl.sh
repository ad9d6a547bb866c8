#!/usr/bin/env bash
# The libcurl the Python wheel carries (make wheel): built from Debian's own source of the libcurl that
# Hearth is compiled against (same version, Debian's security patches applied, same OpenSSL flavour and
# symbol versions, so libhearth binds to it unchanged), configured for HTTP and HTTPS only, with
# OpenSSL for TLS, nghttp2 for HTTP/2 (as Debian's libcurl speaks it to Google) and zlib for gzip answers
# (Hearth asks for them; Google's servers compress when asked), and nothing else. Debian's libcurl4
# needs 29 libraries besides glibc (GnuTLS through librtmp, Kerberos, LDAP, SASL, libssh2, libidn2 and
# libunistring, libpsl, brotli, zstd, zlib), several of which can load plugins or read configuration from
# the host; this one needs libssl, libcrypto and libnghttp2: zlib is linked in (Debian's libz.a, built
# position-independent) and its symbols stay hidden behind curl's version script.
#
# Usage: scripts/vendor-curl.sh OUTDIR
# Leaves OUTDIR/lib/libcurl.so.4 (stripped) and OUTDIR/BUILDINFO; does nothing when OUTDIR already
# holds the build of this version with this script.
set -euo pipefail
out=${1:?usage: scripts/vendor-curl.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

dev_package=libcurl4-openssl-dev
source_package=$(dpkg-query -W -f='${source:Package}' "$dev_package" 2>/dev/null) || {
  echo "vendor-curl: $dev_package is not installed (make deps installs it)" >&2; exit 1; }
version=$(dpkg-query -W -f='${source:Version}' "$dev_package")
stamp="$source_package $version $(sha256sum "$0" | cut -c1-16)"
if [ -f "$out/lib/libcurl.so.4" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
echo "vendor-curl: building $source_package $version (HTTP/HTTPS, OpenSSL, nghttp2, zlib) in $out"
rm -rf "$out/work" "$out/lib" "$out/stamp" "$out/BUILDINFO"
work="$out/work"
mkdir -p "$work/apt/sources" "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src" "$out/lib"

# The source comes from the Debian archives this machine installs its packages from: their deb-src
# twins, in an apt configuration of our own (the machine's is not touched).
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/apt/sources"
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
apt-get indextargets --format '$(ORIGIN)|$(REPO_URI)|$(RELEASE)|$(COMPONENT)' 'Created-By: Packages' \
  | awk -F'|' '$1 == "Debian" { print $2 "|" $3 "|" $4 }' | sort -u \
  | while IFS='|' read -r uri suite component; do
      printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: %s\n\n' \
        "$uri" "$suite" "$component" /usr/share/keyrings/debian-archive-keyring.gpg
    done > "$work/apt/sources/debian-src.sources"
[ -s "$work/apt/sources/debian-src.sources" ] || {
  echo "vendor-curl: no Debian archive in this machine's apt sources to fetch $source_package's source from" >&2
  exit 1; }
apt-get "${apt_opts[@]}" -qq update
# The installed version's source; once a newer Debian revision of the same upstream release replaced it
# in the archive (a security update), that one: same ABI, more fixes.
available=$(apt-cache "${apt_opts[@]}" showsrc "$source_package" | sed -n 's/^Version: //p' | sort -u)
if ! grep -qxF "$version" <<<"$available"; then
  upstream=${version%-*}
  newer=""
  while read -r candidate; do
    [ "${candidate%-*}" = "$upstream" ] && dpkg --compare-versions "$candidate" gt "$version" || continue
    if [ -z "$newer" ] || dpkg --compare-versions "$candidate" gt "$newer"; then newer=$candidate; fi
  done <<<"$available"
  [ -n "$newer" ] || {
    echo "vendor-curl: Debian's archive has no source of $source_package $upstream as new as the installed" \
         "$dev_package $version (it has: $(echo $available)); upgrade $dev_package and run make wheel again" >&2
    exit 1; }
  echo "vendor-curl: the archive has $newer in place of the installed $version; building that"
  version=$newer
fi
(cd "$work/src" && apt-get "${apt_opts[@]}" -qq source --download-only "$source_package=$version")
dsc=$(ls "$work/src"/*.dsc)
# apt checked the files against the archive's signed index; dpkg-source has no keyring to check the
# .dsc's own signature with, and would only warn.
dpkg-source --skip-patches -x "$dsc" "$work/curl" >/dev/null 2> >(grep -v -e 'cannot verify inline signature' -e '^gpgv:' >&2)
cd "$work/curl"

# Debian's patch series, as its OpenSSL flavour is built: every patch except the last two, which turn
# the tree into the GnuTLS and NSS flavours (debian/rules pops them with quilt).
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' debian/patches/series)
for flavour in 90_gnutls.patch 99_nss.patch; do
  grep -qx "$flavour" <<<"$series" || { echo "vendor-curl: debian/patches/series has no $flavour" >&2; exit 1; }
done
while read -r patch options; do
  case "$patch" in 90_gnutls.patch|99_nss.patch) continue ;; esac
  patch -s -f ${options:--p1} < "debian/patches/$patch"
done <<<"$series"
# Some of those patches touch configure.ac and Makefile.am: regenerate, as Debian's build does.
autoreconf -fi >"$work/autoreconf.log" 2>&1 || { tail -20 "$work/autoreconf.log" >&2; exit 1; }

# zlib from Debian's zlib1g-dev, static: a directory holding only libz.a and the headers makes -lz
# resolve to the archive (the linker takes the first directory with either, and this one comes first).
zlib_archive=$(dpkg -L zlib1g-dev 2>/dev/null | grep '/libz\.a$' | head -n1) || true
[ -n "$zlib_archive" ] && [ -f "$zlib_archive" ] || {
  echo "vendor-curl: zlib1g-dev's libz.a is missing (make deps installs zlib1g-dev)" >&2; exit 1; }
mkdir -p "$work/zlib/lib" "$work/zlib/include"
cp "$zlib_archive" "$work/zlib/lib/libz.a"
cp /usr/include/zlib.h /usr/include/zconf.h "$work/zlib/include/"

# Debian's compiler and linker hardening flags.
eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
configure_args=(
  --disable-dependency-tracking --disable-static --enable-shared
  # Debian's symbol versions (CURL_OPENSSL_4), which libhearth was linked against.
  --enable-versioned-symbols --enable-symbol-hiding
  --enable-threaded-resolver --enable-ipv6
  --with-openssl --with-nghttp2 --with-zlib="$work/zlib"
  --without-brotli --without-zstd --without-libidn2 --without-libpsl --without-librtmp
  --without-libssh2 --without-libssh --without-gssapi
  --disable-ldap --disable-ldaps --disable-rtsp --disable-dict --disable-telnet --disable-tftp
  --disable-pop3 --disable-imap --disable-smb --disable-smtp --disable-gopher --disable-mqtt
  --disable-ftp --disable-file --disable-ntlm-wb --disable-manual
  # Debian's locations; where they do not exist Hearth finds the machine's bundle itself
  # (SystemCABundle in Sources/HearthTransport/Transport).
  --with-ca-bundle=/etc/ssl/certs/ca-certificates.crt --with-ca-path=/etc/ssl/certs
)
./configure "${configure_args[@]}" >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log" >&2; exit 1; }
make -C lib -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; exit 1; }

library=$(readlink -f lib/.libs/libcurl.so.4)
needed=$(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
if [ "$needed" != "libc.so.6 libcrypto.so.3 libnghttp2.so.14 libssl.so.3 " ]; then
  echo "vendor-curl: the built libcurl needs $needed- expected only libssl, libcrypto, libnghttp2 and libc" >&2
  exit 1
fi
objdump -T "$library" | grep -q ' CURL_OPENSSL_4 *curl_easy_setopt$' || {
  echo "vendor-curl: the built libcurl lacks Debian's CURL_OPENSSL_4 symbol version" >&2; exit 1; }
grep -Eq '^[[:space:]]+Features:.*\blibz\b' "$work/configure.log" || {
  echo "vendor-curl: the built libcurl has no zlib (gzip answers would not be decoded)" >&2; exit 1; }
if objdump -T "$library" | grep -Eq '\s(inflate|deflate|zlibVersion)$'; then
  echo "vendor-curl: the built libcurl exports zlib's symbols" >&2; exit 1
fi
install -m 0755 "$library" "$out/lib/libcurl.so.4"
strip --strip-unneeded "$out/lib/libcurl.so.4"
{
  echo "source: Debian $source_package $version"
  echo "configure: ${configure_args[*]}"
  grep -E '^\s+(SSL|HTTP2|Protocols|Features):' "$work/configure.log" | sed 's/^[[:space:]]*//' || true
} > "$out/BUILDINFO"
cd "$out"
rm -rf "$work"
echo "$stamp" > "$out/stamp"
echo "vendor-curl: $out/lib/libcurl.so.4 ($(stat -c %s "$out/lib/libcurl.so.4") bytes)"
