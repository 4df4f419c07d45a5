/* kbuild Makefile flags: ccflags-y, subdir-ccflags-y, CFLAGS_f.o, config
 * conditions, variables, include, the nearest-ancestor fallback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/kmapcache.h"
#include "gfpaudit/strbuf.h"
#undef CHECK /* check.h's, through frontend.h; the harness has its own */
#include "harness.h"

static void put(const char *root, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	free(p);
}

/* The flags for `rel`, joined by spaces, with the tree's path as "T". */
static char *flags_of(const char *tree, const char *rel)
{
	char *path = xasprintf("%s/%s", tree, rel);
	char **v = NULL;
	int n = 0;
	kbuild_flags(tree, path, &v, &n);
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++) {
		const char *a = v[i];
		const char *t = strstr(a, tree);
		if (t) {
			strbuf_add(&sb, a, (size_t)(t - a));
			strbuf_adds(&sb, "T");
			strbuf_adds(&sb, t + strlen(tree));
		} else {
			strbuf_adds(&sb, a);
		}
		if (i + 1 < n)
			strbuf_addc(&sb, ' ');
	}
	flags_free(v, n);
	free(path);
	return strbuf_detach(&sb);
}

TEST(kbuild_flags_from_makefiles)
{
	char tmpl[] = "/tmp/gfpaudit-kbuild-XXXXXX";
	char *t = mkdtemp(tmpl);
	put(t, "include/config/auto.conf", "CONFIG_FOO=y\nCONFIG_BAR=m\nCONFIG_OFF=n\n");
	put(t, "drivers/Makefile", "obj-y += gpu/\n");
	put(t, "drivers/gpu/Makefile",
	    "# subsystem-wide\n"
	    "subdir-ccflags-y += -I$(src)/include -Wno-foo\n"
	    "subdir-ccflags-$(CONFIG_OFF) += -DNEVER\n");
	put(t, "drivers/gpu/card/Makefile",
	    "CARD_TOP = $(src)/..\n"
	    "ccflags-y := -I$(CARD_TOP)/shared \\\n"
	    "\t-DCARD_VER=2 -fno-bar\n"
	    "ccflags-$(CONFIG_FOO) += -DWITH_FOO\n"
	    "ccflags-$(CONFIG_BAR) += -I $(srctree)/include/bar\n"
	    "ccflags-$(CONFIG_OFF) += -DWITH_OFF\n"
	    "ccflags-y += $(call cc-option,-Wx) -Idrivers/gpu/card/rel\n"
	    "CFLAGS_ring.o := -I$(src)\n"
	    "include $(src)/extra.mk\n"
	    "card-y := ring.o main.o\n"
	    "$(obj)/gen.h: $(src)/gen.txt\n");
	put(t, "drivers/gpu/card/extra.mk", "ccflags-y += -DFROM_INCLUDED\n");
	put(t, "drivers/gpu/card/ring.c", "int x;\n");
	put(t, "drivers/gpu/card/main.c", "int y;\n");
	put(t, "drivers/gpu/card/core/Kbuild", "card-y += core/a.o\n");
	put(t, "drivers/gpu/card/core/a.c", "int z;\n");
	put(t, "lib/plain.c", "int w;\n");

	char *f = flags_of(t, "drivers/gpu/card/main.c");
	CHECK_EQ_STR(f, "-IT/drivers/gpu/include -IT/drivers/gpu/card/../shared -DCARD_VER=2 -DWITH_FOO "
		     "-IT/include/bar -IT/drivers/gpu/card/rel -DFROM_INCLUDED");
	free(f);
	/* CFLAGS_<obj>.o for that object only */
	f = flags_of(t, "drivers/gpu/card/ring.c");
	CHECK_EQ_STR(f, "-IT/drivers/gpu/include -IT/drivers/gpu/card/../shared -DCARD_VER=2 -DWITH_FOO "
		     "-IT/include/bar -IT/drivers/gpu/card/rel -IT/drivers/gpu/card -DFROM_INCLUDED");
	free(f);
	/* a directory without ccflags of its own: subdir flags, and the -I
	 * paths (not the -D) of the nearest directory above with ccflags */
	f = flags_of(t, "drivers/gpu/card/core/a.c");
	CHECK_EQ_STR(f, "-IT/drivers/gpu/include -IT/drivers/gpu/card/../shared -IT/include/bar "
		     "-IT/drivers/gpu/card/rel");
	free(f);
	/* a changed config is read again (the table is kept per process) */
	put(t, "include/config/auto.conf", "CONFIG_BAR=m\n");
	f = flags_of(t, "drivers/gpu/card/main.c");
	CHECK(strstr(f, "-DWITH_FOO") == NULL);
	CHECK(strstr(f, "-IT/include/bar") != NULL);
	free(f);
	/* nothing to say: nothing */
	f = flags_of(t, "lib/plain.c");
	CHECK_EQ_STR(f, "");
	free(f);
	/* outside the tree: nothing, no failure */
	char **v = NULL;
	int n = -1;
	CHECK_EQ_INT(kbuild_flags(t, "/nonexistent/x.c", &v, &n), 0);
	CHECK_EQ_INT(n, 0);
	flags_free(v, n);
	char *cmd = xasprintf("rm -rf '%s'", t);
	CHECK_EQ_INT(system(cmd), 0);
	free(cmd);
}

/* The argv of flags_for_file for `rel`, joined by spaces. */
static char *all_flags_of(const char *tree, const char *rel)
{
	struct flags_ctx fc = { .tree = tree };
	char *path = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", tree, rel);
	char **v = NULL;
	int n = 0;
	flags_for_file(&fc, path, &v, &n);
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++) {
		strbuf_adds(&sb, v[i]);
		strbuf_addc(&sb, ' ');
	}
	flags_free(v, n);
	free(path);
	return strbuf_detach(&sb);
}

static char *object_of(const char *tree, const char *rel)
{
	char *path = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", tree, rel);
	struct kbuild_obj o;
	kbuild_object(tree, path, &o);
	char *s = xasprintf("%c %s %s %s %s%s", o.state ? o.state : '0', o.modname ? o.modname : "-",
			    o.modfile ? o.modfile : "-", o.out_of_tree ? "(external)" : o.builder ? o.builder : "-",
			    o.objrel ? o.objrel : "-", "");
	kbuild_obj_release(&o);
	free(path);
	return s;
}

/* A miniature tree: what the configuration builds, as what, and with the
 * flags of the Makefile that builds it. */
TEST(kbuild_objects_of_a_miniature_tree)
{
	char tmpl[] = "/tmp/gfpaudit-kobj-XXXXXX";
	char *t = mkdtemp(tmpl);
	put(t, "include/config/auto.conf",
	    "CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_NET=y\nCONFIG_CARD=m\nCONFIG_CARD_DISPLAY=y\nCONFIG_CORE=y\n");
	put(t, "Kbuild", "obj-y += kernel/\nobj-y += drivers/ $(ARCH_CORE)\nobj-$(CONFIG_NET) += net/\n"
			 "obj-y += $(ARCH_LIB)\n");
	put(t, "arch/x86/Makefile", "libs-y += arch/x86/lib/\nifeq ($(CONFIG_X86_32),y)\nBITS := 32\nendif\n");
	put(t, "arch/x86/lib/Makefile", "lib-y := memcpy_$(BITS).o\n");
	put(t, "arch/x86/lib/memcpy_64.c", "int m;\n");
	put(t, "arch/arm64/kernel/Makefile", "obj-y += setup.o\n");
	put(t, "arch/arm64/kernel/setup.c", "int s;\n");
	put(t, "kernel/Makefile",
	    "obj-y := fork.o\n"
	    "obj-$(CONFIG_EXTRA) += extra.o\n"
	    "ifeq ($(CONFIG_CORE),y)\nobj-y += core.o\nelse\nobj-y += nocore.o\nendif\n"
	    "ifdef CONFIG_CORE\n\tobj-y += tabbed.o\nendif\n"
	    "$(obj)/gen.h: $(src)/gen.txt\n\tobj-y += recipe.o\n");
	put(t, "kernel/tabbed.c", "int tb;\n");
	put(t, "kernel/recipe.c", "int rc;\n");
	put(t, "kernel/fork.c", "int f;\n");
	put(t, "kernel/extra.c", "int e;\n");
	put(t, "kernel/core.c", "int c;\n");
	put(t, "kernel/nocore.c", "int n;\n");
	put(t, "drivers/Makefile", "obj-$(CONFIG_CARD) += gpu/card/\nobj-$(CONFIG_OFF) += off/\n");
	/* card.o is a composite module that also builds ../display/ files */
	put(t, "drivers/gpu/card/Makefile",
	    "CARD_TOP = $(src)/..\n"
	    "DISPLAY = ../display\n"
	    "ccflags-y := -I$(CARD_TOP)/display/include\n"
	    "card-y := main.o ring-buf.o\n"
	    "ifneq ($(CONFIG_CARD_DISPLAY),)\n"
	    "include $(CARD_TOP)/display/Makefile\n"
	    "card-y += $(DISPLAY_FILES)\n"
	    "endif\n"
	    "CFLAGS_$(DISPLAY)/hw.o := -DHW_ONLY\n"
	    "obj-$(CONFIG_CARD) += card.o\n");
	put(t, "drivers/gpu/card/main.c", "int m;\n");
	put(t, "drivers/gpu/card/ring-buf.c", "int r;\n");
	put(t, "drivers/gpu/display/Makefile",
	    "DC = dc.o hw.o\n"
	    "DISPLAY_FILES := $(addprefix $(DISPLAY)/,$(DC))\n"
	    "subdir-ccflags-y += -DDISPLAY_SUBDIR\n");
	put(t, "drivers/gpu/display/dc.c", "int d;\n");
	put(t, "drivers/gpu/display/hw.c", "int h;\n");
	put(t, "drivers/off/Makefile", "obj-y += gone.o\n");
	put(t, "drivers/off/gone.c", "int g;\n");
	put(t, "net/Makefile", "obj-m += tun.o\nobj-y += sock.o\nobj-m += sock.o\n");
	put(t, "net/tun.c", "int t;\n");
	put(t, "net/sock.c", "int s;\n");

	char *s = object_of(t, "kernel/fork.c");
	CHECK_EQ_STR(s, "y fork kernel/fork kernel fork.o");
	free(s);
	s = object_of(t, "kernel/core.c"); /* the branch the config takes */
	CHECK_EQ_STR(s, "y core kernel/core kernel core.o");
	free(s);
	s = object_of(t, "kernel/nocore.c"); /* the other one: listed nowhere */
	CHECK(s[0] == '0');
	free(s);
	s = object_of(t, "kernel/tabbed.c"); /* a tab-led assignment outside a rule */
	CHECK(s[0] == 'y');
	free(s);
	s = object_of(t, "kernel/recipe.c"); /* a rule's recipe line is no assignment */
	CHECK(s[0] == '0');
	free(s);
	s = object_of(t, "kernel/extra.c");
	CHECK(s[0] == 'n');
	free(s);
	s = object_of(t, "drivers/gpu/card/ring-buf.c");
	CHECK_EQ_STR(s, "m card drivers/gpu/card/card drivers/gpu/card ring-buf.o");
	free(s);
	/* a sibling directory's file, built by card's Makefile */
	s = object_of(t, "drivers/gpu/display/dc.c");
	CHECK_EQ_STR(s, "m card drivers/gpu/card/card drivers/gpu/card ../display/dc.o");
	free(s);
	s = object_of(t, "drivers/off/gone.c");
	CHECK(s[0] == 'n');
	free(s);
	s = object_of(t, "arch/x86/lib/memcpy_64.c"); /* lib-y through the arch Makefile, $(BITS) */
	CHECK_EQ_STR(s, "y memcpy_64 arch/x86/lib/memcpy_64 arch/x86/lib memcpy_64.o");
	free(s);
	s = object_of(t, "net/tun.c");
	CHECK(s[0] == 'm');
	free(s);
	s = object_of(t, "net/sock.c"); /* obj-y wins over obj-m */
	CHECK(s[0] == 'y');
	free(s);
	CHECK(kbuild_other_arch("x86", "arch/arm64/kernel/setup.c"));
	CHECK(!kbuild_other_arch("x86", "arch/x86/lib/memcpy_64.c"));
	CHECK(!kbuild_other_arch("x86", "drivers/gpu/card/main.c"));

	/* the defines kbuild gives */
	char *f = all_flags_of(t, "kernel/fork.c");
	CHECK(strstr(f, "-DKBUILD_MODFILE=\"kernel/fork\" ") != NULL);
	CHECK(strstr(f, "-DKBUILD_MODNAME=\"fork\" ") != NULL);
	CHECK(strstr(f, "-DMODULE ") == NULL);
	free(f);
	f = all_flags_of(t, "drivers/gpu/card/ring-buf.c");
	CHECK(strstr(f, "-DMODULE ") != NULL);
	CHECK(strstr(f, "KBUILD_MODFILE") == NULL);
	CHECK(strstr(f, "-DKBUILD_MODNAME=\"card\" ") != NULL);
	CHECK(strstr(f, "-DKBUILD_BASENAME=\"ring_buf\" ") != NULL);
	CHECK(strstr(f, "-D__KBUILD_MODNAME=kmod_card ") != NULL);
	free(f);
	/* the sibling file takes card's ccflags, the subdir flags of the
	 * Makefile card's includes, and its own CFLAGS_ */
	f = flags_of(t, "drivers/gpu/display/hw.c");
	CHECK_EQ_STR(f, "-IT/drivers/gpu/card/../display/include -DDISPLAY_SUBDIR -DHW_ONLY");
	free(f);
	f = flags_of(t, "drivers/gpu/display/dc.c");
	CHECK_EQ_STR(f, "-IT/drivers/gpu/card/../display/include -DDISPLAY_SUBDIR");
	free(f);

	/* an external module (outside the tree): -DMODULE, its composite */
	char etmpl[] = "/tmp/gfpaudit-kext-XXXXXX";
	char *x = mkdtemp(etmpl);
	put(x, "Kbuild", "obj-m := extmod.o\nextmod-y := a.o b.o\nccflags-y := -DEXT\n");
	put(x, "a.c", "int a;\n");
	char *xa = xasprintf("%s/a.c", x);
	s = object_of(t, xa);
	CHECK(!strncmp(s, "m extmod ", 9) && strstr(s, "(external)"));
	free(s);
	f = all_flags_of(t, xa);
	CHECK(strstr(f, "-DMODULE ") != NULL);
	CHECK(strstr(f, "-DKBUILD_MODNAME=\"extmod\" ") != NULL);
	CHECK(strstr(f, "-DEXT ") != NULL);
	free(f);
	free(xa);

	char *cmd = xasprintf("rm -rf '%s' '%s'", t, x);
	CHECK_EQ_INT(system(cmd), 0);
	free(cmd);
}

/* $(eval) lines (lib/Makefile's libfdt flags), shell quoting of defines
 * (arm64's -DARM64_ASM_ARCH='"armv8.5-a"'), and the files that decide a
 * file's flags (kbuild_inputs: the cache keys on them). */
TEST(kbuild_eval_quotes_and_inputs)
{
	char tmpl[] = "/tmp/gfpaudit-kbuild-XXXXXX";
	char *t = mkdtemp(tmpl);
	put(t, "include/config/auto.conf", "CONFIG_X86=y\nCONFIG_LIBFDT=y\n");
	put(t, ".config", "CONFIG_X86=y\nCONFIG_LIBFDT=y\n");
	put(t, "Kbuild", "obj-y += lib/\n");
	put(t, "lib/Makefile",
	    "libfdt_files = fdt.o fdt_ro.o\n"
	    "$(foreach file, $(libfdt_files), \\\n"
	    "\t$(eval CFLAGS_$(file) = -I $(srctree)/scripts/dtc/libfdt))\n"
	    "lib-$(CONFIG_LIBFDT) += $(libfdt_files)\n"
	    "ccflags-y += -DNAME='\"lib x\"' -DESC=\\\"q\\\" -DPLAIN=1\n"
	    "include $(src)/more.mk\n");
	put(t, "lib/more.mk", "ccflags-y += -DMORE\n");
	put(t, "lib/fdt_ro.c", "int x;\n");
	put(t, "lib/other.c", "int y;\n");
	char *f = flags_of(t, "lib/fdt_ro.c");
	CHECK_EQ_STR(f, "-IT/scripts/dtc/libfdt -DNAME=\"lib x\" -DESC=\"q\" -DPLAIN=1 -DMORE");
	free(f);
	f = flags_of(t, "lib/other.c");
	CHECK_EQ_STR(f, "-DNAME=\"lib x\" -DESC=\"q\" -DPLAIN=1 -DMORE");
	free(f);
	char *path = xasprintf("%s/lib/fdt_ro.c", t);
	char **v = NULL;
	int n = 0;
	CHECK_EQ_INT(kbuild_inputs(t, path, &v, &n), 0);
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s ", strstr(v[i], t) ? v[i] + strlen(t) + 1 : v[i]);
	/* lib/Kbuild does not exist: creating it would replace lib/Makefile */
	CHECK_EQ_STR(sb.buf, "include/config/auto.conf .config Kbuild lib/Makefile lib/more.mk lib/Kbuild ");
	strbuf_release(&sb);
	flags_free(v, n);
	free(path);
	char *cmd = xasprintf("rm -rf '%s'", t);
	CHECK_EQ_INT(system(cmd), 0);
	free(cmd);
}

static void count_row(const struct kmap_row *r, void *data)
{
	struct strbuf *sb = data;
	strbuf_addf(sb, "%s %c %s %s %s %s|", r->path, r->state, r->modname, r->modfile, r->builder, r->objrel);
}

/* the stored map's rows: one by one (a check) and all at once (an audit) */
TEST(kmap_cache_rows_one_and_all)
{
	static const char text[] = "gfpaudit-kmap x\ntree\t/t\nin\t-\t/t/Kbuild\n"
				   "obj\tmm/a.o\ty\t\t\t\t\n"
				   "obj\tdrivers/b.o\tm\tbmod\tdrivers/bmod.ko\tdrivers/bmod.o\tdrivers/b.o\n"
				   "obj\tbroken.o\n";
	struct kmap_row r;
	char *buf;
	REQUIRE_EQ_INT(kmap_cache_find(text, "drivers/b.o", &r, &buf), 0);
	CHECK(r.state == 'm');
	CHECK_EQ_STR(r.modname, "bmod");
	CHECK_EQ_STR(r.objrel, "drivers/b.o");
	free(buf);
	CHECK_EQ_INT(kmap_cache_find(text, "mm/b.o", &r, &buf), -1);
	CHECK_EQ_INT(kmap_cache_find(text, "broken.o", &r, &buf), -1);
	struct strbuf sb = STRBUF_INIT;
	kmap_cache_each(text, count_row, &sb);
	CHECK_EQ_STR(sb.buf, "mm/a.o y    |drivers/b.o m bmod drivers/bmod.ko drivers/bmod.o drivers/b.o|");
	strbuf_release(&sb);
}
