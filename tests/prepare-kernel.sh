#!/usr/bin/env bash
# Prepare a real kernel tree for libclang from Debian's packages:
# linux-source-VER (tarball under /usr/src) + linux-config-VER (Debian's configs).
# Usage: tests/prepare-kernel.sh [--arch ARCH] [--pages 4K|16K|64K] [--config TARGET] [VERSION] [DESTDIR]
#   x86 (the default): Debian's amd64 config, `make olddefconfig prepare`.
#   arm64, powerpc, riscv: the tree's own defconfig with clang's cross
#   target (`make ARCH=A LLVM=1 defconfig prepare`: no cross binutils needed);
#   s390: 6.12's kbuild wants clang >= 15 for s390 and ld.lld cannot link its
#   vDSO, so Debian's gcc cross compiler (gcc-s390x-linux-gnu) prepares it
#   (`make ARCH=s390 CROSS_COMPILE=s390x-linux-gnu- defconfig prepare`; the
#   tree is then configured for gcc, as Debian's amd64 config is);
#   --pages (arm64 4K/16K/64K, powerpc 4K/64K) switches the page size with
#   scripts/config and olddefconfig.
#   --config TARGET: a kbuild config target (allmodconfig, allyesconfig,
#   tinyconfig, ...) instead of Debian's config or the arch's defconfig;
#   the tree gets the suffix -TARGET (build/linux-6.12-allmodconfig).
# The tree lands in DESTDIR (default build/linux-VERSION, or
# build/linux-VERSION-ARCH[-PAGES] for another arch or page size) and is
# reused when it is already prepared.  Never commit what this produces.
set -euo pipefail
arch=x86
pages=
kconfig=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:?--arch needs a value}; shift 2;;
	--arch=*) arch=${1#--arch=}; shift;;
	--pages) pages=${2:?--pages needs a value}; shift 2;;
	--pages=*) pages=${1#--pages=}; shift;;
	--config) kconfig=${2:?--config needs a value}; shift 2;;
	--config=*) kconfig=${1#--config=}; shift;;
	--) shift; break;;
	-*) echo "prepare-kernel: unknown option $1" >&2; exit 2;;
	*) break;;
	esac
done
case $arch in x86_64|amd64) arch=x86;; aarch64) arch=arm64;; ppc64*|ppc) arch=powerpc;; esac
pages=$(echo "$pages" | tr a-z A-Z)
# 4K is what these defconfigs give already
case $arch/$pages in x86/4K|arm64/4K|s390/4K|riscv/4K) pages=;; esac
case $arch/$pages in
x86/|arm64/|arm64/16K|arm64/64K|powerpc/|powerpc/4K|powerpc/64K|s390/|riscv/) ;;
*) echo "prepare-kernel: unsupported architecture/page size: $arch ${pages:-(default)}" >&2; exit 2;;
esac
ver=${1:-6.12}
top=$(cd "$(dirname "$0")/.." && pwd)
suffix=
[ "$arch" != x86 ] && suffix=-$arch
[ -n "$pages" ] && suffix=$suffix-$(echo "$pages" | tr A-Z a-z)
[ -n "$kconfig" ] && suffix=$suffix-$kconfig
dest=${2:-$top/build/linux-$ver$suffix}
stamp=$dest/.gfpaudit-prepared

if [ -f "$stamp" ]; then
	echo "$dest"
	exit 0
fi
# the caller's make (make kernel ARCH=arm64, make -j) must not leak into kbuild
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES ARCH LLVM CROSS_COMPILE KBUILD_OUTPUT O

need_pkgs=()
tarball=/usr/src/linux-source-$ver.tar.xz
[ -f "$tarball" ] || need_pkgs+=("linux-source-$ver")
if [ "$arch" = x86 ]; then
	case $ver in
	6.12) cfgdir=/usr/src/linux-config-$ver; [ -d "$cfgdir" ] || need_pkgs+=("linux-config-$ver");;
	*) cfgdir=/usr/src/linux-config-6.12; [ -d "$cfgdir" ] || need_pkgs+=("linux-config-6.12");;
	esac
elif [ "$arch" = s390 ]; then
	command -v s390x-linux-gnu-gcc >/dev/null || need_pkgs+=(gcc-s390x-linux-gnu)
else
	# LLVM=1: clang, ld.lld, llvm-ar, llvm-nm, llvm-objcopy ... (Debian's llvm and lld)
	command -v clang >/dev/null || need_pkgs+=(clang)
	command -v ld.lld >/dev/null || need_pkgs+=(lld)
	command -v llvm-ar >/dev/null || need_pkgs+=(llvm)
fi
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

# Is header H (as an include names it) there for a file of directory D:
# in D or a directory above it up to the tree T (xe's display/ files take
# <generated/xe_wa_oob.h> from drivers/gpu/drm/xe/), or under T/include.
present() {
	local t=$1 d=$2 h=$3
	[ -e "$t/include/$h" ] && return 0
	while :; do
		[ -e "$d/$h" ] && return 0
		[ "$d" = "$t" ] || [ "${d#"$t"/}" = "$d" ] && return 1
		d=${d%/*}
	done
}

# Headers kbuild generates while it builds, after `make prepare` (the asn1
# compiler's *.asn1.h, selinux's flask.h, msm's generated/*.xml.h, radeon's
# *_reg_safe.h, xe's generated/*_wa_oob.h, speakup's speakupmap.h,
# apparmor's *_names.h, lib's crc32table.h, aic7xxx's headers copied from
# *_shipped): without them the files that
# include them stop there.  gfpaudit never runs make, so the tree gets them
# here: for the files the configuration builds (gfpaudit --candidates
# --no-prefilter) that include one that is missing, an object for each
# missing header is built, and one for each directory with a missing
# *_shipped copy.  Best effort: a failure leaves those files as they were.
generated_headers() {
	local t=$1
	shift
	local g=${GFPAUDIT:-$top/gfpaudit}
	[ -x "$g" ] || { echo "prepare-kernel: no gfpaudit binary: generated headers not built" >&2; return 0; }
	local pat='^[[:space:]]*#[[:space:]]*include[[:space:]]+["<][^">]*(\.asn1\.h|\.xml\.h|flask\.h|av_permissions\.h|_reg_safe\.h|_wa_oob\.h|hyp_constants\.h|speakupmap\.h|capability_names\.h|rlim_names\.h|net_names\.h|crc32table\.h)[">]'
	local all files round f d h s n missing seen objs prev= shipped=()
	all=$("$g" audit -q --candidates --no-prefilter --no-cache --tree "$t" "$t" 2>/dev/null || true)
	files=$(printf '%s\n' "$all" | xargs -r grep -lE "$pat" 2>/dev/null || true)
	# and what a directory copies from X_shipped when the objects that need
	# it are built (aic7xxx's *_reg.h and *_seq.h, 53c700_d.h): a built
	# file of that directory that names X, else one whose name starts as
	# X's does (aic7xxx_core.c for aic7xxx_reg.h, included by a header)
	for s in $(find "$t" -name '*_shipped' -not -path "$t/scripts/*" -not -path "$t/tools/*" 2>/dev/null); do
		[ -e "${s%_shipped}" ] && continue
		d=${s%/*} n=${s%_shipped} n=${n##*/}
		f=$(printf '%s\n' "$all" | grep -E "^$d/[^/]*\.c$" | xargs -r grep -lF "$n" 2>/dev/null | head -1 || true)
		[ -n "$f" ] || f=$(printf '%s\n' "$all" | grep -m1 -E "^$d/${n%%_*}[^/]*\.c$" || true)
		[ -n "$f" ] || continue
		case " ${shipped[*]} " in *" ${f#"$t"/} "*) continue;; esac
		shipped+=("${f#"$t"/}")
	done
	# an object a round for each missing header no object chosen this
	# round includes: building one often generates the headers of the
	# others (msm), and a round sees what is still missing; radeon has a
	# *_reg_safe.h per object
	for round in 1 2 3 4; do
		objs=() seen=" "
		for f in $files; do
			d=${f%/*}
			missing=
			for h in $(grep -hoE "$pat" "$f" | sed 's/.*[<"]\([^<">]*\)[">]/\1/'); do
				present "$t" "$d" "$h" && continue
				case $seen in *" $d/$h "*) continue;; esac
				missing="$missing$d/$h "
			done
			[ -n "$missing" ] || continue
			seen="$seen$missing"
			objs+=("${f#"$t"/}")
		done
		[ "$round" = 1 ] && objs+=("${shipped[@]}")
		[ ${#objs[@]} -gt 0 ] && [ "${objs[*]}" != "$prev" ] || return 0
		prev="${objs[*]}"
		objs=("${objs[@]/%.c/.o}")
		echo "prepare-kernel: building ${#objs[@]} objects for the headers their build generates" >&2
		"$@" -k -j"$(nproc)" "${objs[@]}" >/dev/null 2>&1 || true
	done
}

tmp=$dest.tmp.$$
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp"
mkdir -p "$tmp"
echo "prepare-kernel: extracting $tarball" >&2
tar -C "$tmp" --strip-components=1 -xf "$tarball"
if [ "$arch" = x86 ] && [ -n "$kconfig" ]; then
	echo "prepare-kernel: make $kconfig prepare" >&2
	make -C "$tmp" -s "$kconfig" >&2
	make -C "$tmp" -s -j"$(nproc)" prepare >&2
	generated_headers "$tmp" make -C "$tmp" -s
elif [ "$arch" = x86 ]; then
	xz -dc "$cfgdir/config.amd64_none_amd64.xz" > "$tmp/.config"
	echo "prepare-kernel: make olddefconfig prepare" >&2
	make -C "$tmp" -s olddefconfig >&2
	make -C "$tmp" -s -j"$(nproc)" prepare >&2
	generated_headers "$tmp" make -C "$tmp" -s
else
	# llvm-ar and friends may carry a version suffix only (llvm-ar-14)
	kmake=(make -C "$tmp" -s ARCH="$arch" LLVM=1)
	if [ "$arch" = s390 ]; then
		kmake=(make -C "$tmp" -s ARCH="$arch" CROSS_COMPILE=s390x-linux-gnu-)
	elif ! command -v llvm-ar >/dev/null; then
		v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
		kmake=(make -C "$tmp" -s ARCH="$arch" LLVM=-"$v")
	fi
	echo "prepare-kernel: ${kmake[*]:3} defconfig" >&2
	"${kmake[@]}" "${kconfig:-defconfig}" >&2
	if [ -n "$pages" ]; then
		case $arch/$pages in
		arm64/16K) opts=(-d ARM64_4K_PAGES -e ARM64_16K_PAGES -d ARM64_64K_PAGES);;
		arm64/64K) opts=(-d ARM64_4K_PAGES -d ARM64_16K_PAGES -e ARM64_64K_PAGES);;
		powerpc/4K) opts=(-e PPC_4K_PAGES -d PPC_64K_PAGES);;
		powerpc/64K) opts=(-d PPC_4K_PAGES -e PPC_64K_PAGES);;
		*) opts=();;
		esac
		if [ ${#opts[@]} -gt 0 ]; then
			"$tmp/scripts/config" --file "$tmp/.config" "${opts[@]}"
			"${kmake[@]}" olddefconfig >&2
		fi
	fi
	echo "prepare-kernel: ${kmake[*]:3} prepare" >&2
	"${kmake[@]}" -j"$(nproc)" prepare >&2
	generated_headers "$tmp" "${kmake[@]}"
	# what was asked for is what was configured
	case $arch/$pages in
	*/) want=;;
	arm64/*) want=CONFIG_ARM64_${pages}_PAGES;;
	powerpc/*) want=CONFIG_PPC_${pages}_PAGES;;
	*) want=;;
	esac
	if [ -n "$want" ] && ! grep -q "^$want=y" "$tmp/.config"; then
		echo "prepare-kernel: $arch defconfig did not take ${pages} pages ($want not set)" >&2
		exit 3
	fi
fi
printf '%s %s\n' "$arch" "${pages:-default}" > "$tmp/.gfpaudit-prepared"
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
echo "$dest"
