/* Kernel configuration as a set of enabled options (see kconf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/kconf.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* What Debian's amd64 configs enable among the options the allocator code
 * branches on; used only when the tree carries no configuration at all. */
static const char *const defaults[] = {
	"CONFIG_MMU", "CONFIG_64BIT", "CONFIG_X86_64", "CONFIG_NUMA", "CONFIG_COMPACTION",
	"CONFIG_MIGRATION", "CONFIG_ZONE_DMA", "CONFIG_ZONE_DMA32", "CONFIG_CMA",
	"CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_MEMORY_HOTPLUG", "CONFIG_MEMORY_HOTREMOVE",
	"CONFIG_CPUSETS", "CONFIG_MEMCG", "CONFIG_SPARSEMEM", "CONFIG_SPARSEMEM_VMEMMAP",
	"CONFIG_CONTIG_ALLOC", "CONFIG_PAGE_OWNER", "CONFIG_SLAB_OBJ_EXT", NULL,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add(struct kconf *k, size_t *alloc, const char *name, size_t len)
{
	ALLOC_GROW(k->names, k->n + 1, *alloc);
	k->names[k->n++] = xstrndup(name, len);
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* autoconf.h: "#define CONFIG_X 1" (y) or "#define CONFIG_X_MODULE 1" (m). */
static void parse_autoconf(struct kconf *k, size_t *alloc, const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "#define CONFIG_", 15))
			continue;
		const char *name = p + 8, *e = name;
		while (*e && *e != ' ' && *e != '\n')
			e++;
		const char *v = e;
		while (*v == ' ')
			v++;
		if (strncmp(v, "1", 1) || (v[1] != '\n' && v[1] != 0))
			continue; /* string or numeric options are not switches */
		size_t len = (size_t)(e - name);
		if (len > 7 && !strncmp(e - 7, "_MODULE", 7))
			len -= 7;
		add(k, alloc, name, len);
	}
}

/* .config: "CONFIG_X=y" or "=m". */
static void parse_dotconfig(struct kconf *k, size_t *alloc, const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "CONFIG_", 7))
			continue;
		const char *eq = strchr(p, '=');
		const char *nl = strchr(p, '\n');
		if (!eq || (nl && eq > nl))
			continue;
		if ((eq[1] == 'y' || eq[1] == 'm') && (eq[2] == '\n' || eq[2] == 0))
			add(k, alloc, p, (size_t)(eq - p));
	}
}

int kconf_load(struct kconf *out, const char *tree)
{
	memset(out, 0, sizeof(*out));
	size_t alloc = 0;
	int rc = 0;
	if (tree) {
		char *ac = xasprintf("%s/include/generated/autoconf.h", tree);
		char *dc = xasprintf("%s/.config", tree);
		struct strbuf sb = STRBUF_INIT;
		if (exists(ac)) {
			if (!(rc = strbuf_read_file(&sb, ac, 16u << 20))) {
				parse_autoconf(out, &alloc, sb.buf);
				out->source = xstrdup(ac);
			}
		} else if (exists(dc)) {
			if (!(rc = strbuf_read_file(&sb, dc, 16u << 20))) {
				parse_dotconfig(out, &alloc, sb.buf);
				out->source = xstrdup(dc);
			}
		}
		strbuf_release(&sb);
		free(ac);
		free(dc);
		if (rc)
			return rc;
	}
	if (!out->source) {
		for (size_t i = 0; defaults[i]; i++)
			add(out, &alloc, defaults[i], strlen(defaults[i]));
		out->source = xstrdup("built-in defaults");
	}
	if (out->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(out->names, out->n, sizeof(*out->names), cmp_str);
	return 0;
}

void kconf_release(struct kconf *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->names[i]);
	free(k->names);
	free(k->source);
	memset(k, 0, sizeof(*k));
}

bool kconf_enabled(const struct kconf *k, const char *name)
{
	if (!k)
		return false;
	char buf[256];
	if (strncmp(name, "CONFIG_", 7)) {
		snprintf(buf, sizeof(buf), "CONFIG_%s", name);
		name = buf;
	}
	const char *key = name;
	return bsearch(&key, k->names, k->n, sizeof(*k->names), cmp_str) != NULL;
}
