/* kbuild Makefile flags: ccflags-y, subdir-ccflags-y, CFLAGS_f.o, config
 * conditions, variables, include, the nearest-ancestor fallback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gfpaudit/frontend.h"
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
