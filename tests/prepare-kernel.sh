#!/usr/bin/env bash
# Prepare a real kernel tree for libclang from Debian's packages:
# linux-source-VER (tarball under /usr/src) + linux-config-VER (Debian's configs).
# Usage: tests/prepare-kernel.sh [VERSION] [DESTDIR]
# The tree lands in DESTDIR (default build/linux-VERSION) and is reused when
# it is already prepared.  Never commit what this produces.
set -euo pipefail
ver=${1:-6.12}
top=$(cd "$(dirname "$0")/.." && pwd)
dest=${2:-$top/build/linux-$ver}
stamp=$dest/.gfpaudit-prepared

if [ -f "$stamp" ]; then
	echo "$dest"
	exit 0
fi

need_pkgs=()
tarball=/usr/src/linux-source-$ver.tar.xz
[ -f "$tarball" ] || need_pkgs+=("linux-source-$ver")
case $ver in
6.12) cfgdir=/usr/src/linux-config-$ver; [ -d "$cfgdir" ] || need_pkgs+=("linux-config-$ver");;
*) cfgdir=/usr/src/linux-config-6.12; [ -d "$cfgdir" ] || need_pkgs+=("linux-config-6.12");;
esac
for tool in flex bison bc; do command -v $tool >/dev/null || need_pkgs+=("$tool"); done
[ -f /usr/include/libelf.h ] || need_pkgs+=(libelf-dev)
[ -f /usr/include/openssl/ssl.h ] || need_pkgs+=(libssl-dev)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "prepare-kernel: missing packages: ${need_pkgs[*]} (run as root or apt-get install them)" >&2
		exit 3
	fi
	echo "prepare-kernel: installing ${need_pkgs[*]}" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >&2
fi

tmp=$dest.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
echo "prepare-kernel: extracting $tarball" >&2
tar -C "$tmp" --strip-components=1 -xf "$tarball"
xz -dc "$cfgdir/config.amd64_none_amd64.xz" > "$tmp/.config"
echo "prepare-kernel: make olddefconfig prepare" >&2
make -C "$tmp" -s olddefconfig >&2
make -C "$tmp" -s -j"$(nproc)" prepare >&2
touch "$tmp/.gfpaudit-prepared"
rm -rf "$dest"
mv "$tmp" "$dest"
echo "$dest"
