# Miniature prepared kernel trees for the suites (source it): mini_tree
# makes one for an architecture and page size, arm64_makefile gives it
# arm64's Makefile, asm/page.h and drivers/ring.c (t09-arch.sh, and
# t30-cocci.sh for the Coccinelle rules' constants).

# mini_tree DIR ARCH PAGE_SHIFT [CONFIG_LINES...]
mini_tree() {
	local T=$1 arch=$2 shift_=$3
	shift 3
	mkdir -p "$T/include/linux" "$T/include/generated" "$T/include/config" \
		"$T/arch/$arch/include/generated/asm" "$T/arch/$arch/include/asm" "$T/scripts" "$T/drivers"
	local sym
	case $arch in arm64) sym=ARM64;; x86) sym=X86;; esac
	{ printf '#define CONFIG_%s 1\n#define CONFIG_PAGE_SHIFT %s\n' "$sym" "$shift_"; } > "$T/include/generated/autoconf.h"
	{ printf 'CONFIG_%s=y\nCONFIG_64BIT=y\n' "$sym"; for l in "$@"; do echo "$l"; done; } > "$T/include/config/auto.conf"
	cp "$T/include/config/auto.conf" "$T/.config"
	cat > "$T/scripts/Makefile.clang" <<'M'
CLANG_TARGET_FLAGS_arm64	:= aarch64-linux-gnu
CLANG_TARGET_FLAGS_x86		:= x86_64-linux-gnu
CLANG_TARGET_FLAGS		:= $(CLANG_TARGET_FLAGS_$(SRCARCH))
CLANG_FLAGS	+= --target=$(CLANG_TARGET_FLAGS)
M
	printf '#include <generated/autoconf.h>\n' > "$T/include/linux/kconfig.h"
	cat > "$T/include/linux/gfp.h" <<'C'
#ifndef _MINI_GFP_H
#define _MINI_GFP_H
#include <asm/page.h>
typedef unsigned int gfp_t;
#define __GFP_DIRECT_RECLAIM ((gfp_t)0x400u)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)0x800u)
#define GFP_KERNEL (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define PAGE_ALLOC_COSTLY_ORDER 3
struct page;
struct page *alloc_pages_noprof(gfp_t gfp, unsigned int order);
static inline int get_order(unsigned long size)
{
	int order = 0;
	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}
#endif
C
	printf 'obj-y += drivers/ $(ARCH_CORE)\n' > "$T/Kbuild"
	printf 'obj-y += ring.o\n' > "$T/drivers/Makefile"
}

arm64_makefile() {
	cat > "$1/arch/arm64/Makefile" <<'M'
KBUILD_CFLAGS	+= -mgeneral-regs-only
KBUILD_CFLAGS	+= $(call cc-option,-mabi=lp64)
KBUILD_CFLAGS	+= -mbranch-protection=pac-ret+bti
KBUILD_CFLAGS	+= -Wa,-march=armv8.5-a -DARM64_ASM_ARCH='"armv8.5-a"'
ifeq ($(CONFIG_CPU_BIG_ENDIAN), y)
KBUILD_CPPFLAGS	+= -mbig-endian
else
KBUILD_CPPFLAGS	+= -mlittle-endian
endif
ifeq ($(CONFIG_MINI_BAD_FLAG), y)
KBUILD_CFLAGS	+= -march=armv99-z
endif
core-y		+= arch/arm64/
M
	cat > "$1/arch/arm64/include/asm/page.h" <<'C'
#ifndef __aarch64__
#error "not parsed for aarch64"
#endif
#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (1UL << PAGE_SHIFT)
C
	# the order says how it was parsed: 64 KiB by get_order(), plus 1 on a
	# big-endian target; the arch Makefile's define must be a string
	cat > "$1/drivers/ring.c" <<'C'
#include <linux/gfp.h>
_Static_assert(sizeof(ARM64_ASM_ARCH) == 10, "ARM64_ASM_ARCH is the string \"armv8.5-a\"");
#ifdef __AARCH64EB__
#define EXTRA 1
#else
#define EXTRA 0
#endif
struct page *ring(void)
{
	return alloc_pages_noprof(GFP_KERNEL, get_order(65536) + EXTRA);
}
C
	mkdir -p "$1/arch/x86/mm"
	printf '#include <linux/gfp.h>\nstruct page *x(void) { return alloc_pages_noprof(GFP_KERNEL, 5); }\n' > "$1/arch/x86/mm/x.c"
}
