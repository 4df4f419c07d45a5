/* The tree's object map on disk (see kmapcache.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gfpaudit/fs.h"
#include "gfpaudit/kmapcache.h"
#include "gfpaudit/kmake.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/version.h"

#define KMAP_MAGIC "gfpaudit-kmap 1"

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

/* The cache file of `tree` (mkdir'ed when `make`). */
static char *cache_path(const char *tree, bool make)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = xdg && *xdg ? xasprintf("%s/gfpaudit/kmap", xdg)
				: xasprintf("%s/.cache/gfpaudit/kmap", home && *home ? home : "/tmp");
	if (make)
		fs_mkdir_p(dir, 0777);
	char *f = xasprintf("%s/%016llx.map", dir, (unsigned long long)fnv(0xcbf29ce484222325ULL, tree, strlen(tree)));
	free(dir);
	return f;
}

/* A file's stamp: size, modification time to the nanosecond, inode ("-"
 * when it is not there), as the results cache keys on files. */
static char *content_key(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return xstrdup("-");
	return xasprintf("%lld:%lld.%09ld:%llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
}

static bool clean(const char *s)
{
	return !s || !strpbrk(s, "\t\n");
}

static void save_inputs(FILE *f, GPtrArray *files, GPtrArray *globs, bool *ok)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < files->len; i++) {
		const char *p = g_ptr_array_index(files, i);
		if (!clean(p) || !g_hash_table_add(seen, (gpointer)p))
			continue;
		char *k = *p == '-' ? xstrdup("-") : content_key(p);
		fprintf(f, "in\t%s\t%s\n", k, *p == '-' ? p + 1 : p);
		free(k);
	}
	g_hash_table_destroy(seen);
	for (guint i = 0; i < globs->len; i++) {
		const char *g = g_ptr_array_index(globs, i);
		if (strchr(g, '\n'))
			*ok = false;
		fprintf(f, "glob\t%s\n", g);
	}
}

void kmap_cache_save(const char *tree, GPtrArray *rows, GPtrArray *files, GPtrArray *globs)
{
	if (!clean(tree))
		return;
	char *path = cache_path(tree, true);
	char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f != NULL;
	if (f) {
		fprintf(f, "%s %s\ntree\t%s\n", KMAP_MAGIC, gfpaudit_version, tree);
		save_inputs(f, files, globs, &ok);
		for (guint i = 0; i < rows->len; i++) {
			const struct kmap_row *r = g_ptr_array_index(rows, i);
			if (!clean(r->path) || !clean(r->modname) || !clean(r->modfile) || !clean(r->builder) ||
			    !clean(r->objrel))
				ok = false;
			fprintf(f, "obj\t%s\t%c\t%s\t%s\t%s\t%s\n", r->path, r->state, r->modname ? r->modname : "",
				r->modfile ? r->modfile : "", r->builder ? r->builder : "", r->objrel ? r->objrel : "");
		}
		ok &= fclose(f) == 0;
	}
	if (!ok || rename(tmp, path))
		unlink(tmp);
	free(tmp);
	free(path);
}

/* Does input line `l` (after its tag) still hold? */
static bool input_holds(char *l, bool is_glob)
{
	char *tab = strchr(l, '\t');
	if (!tab)
		return false;
	*tab = 0;
	char *now = is_glob ? kmake_glob_key(l) : NULL;
	bool same;
	if (is_glob) {
		same = !strcmp(now, tab + 1);
	} else if (!strcmp(l, "-")) {
		struct stat st;
		same = stat(tab + 1, &st) != 0; /* still absent */
	} else {
		now = content_key(tab + 1);
		same = !strcmp(now, l);
	}
	free(now);
	*tab = '\t';
	return same;
}

/* The stored map's lines, split, when its header and every input hold. */
static char **valid_lines(const char *tree)
{
	char *path = cache_path(tree, false);
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_file(&sb, path, 256u << 20);
	free(path);
	if (rc) {
		strbuf_release(&sb);
		return NULL;
	}
	char **l = g_strsplit(sb.buf, "\n", -1);
	strbuf_release(&sb);
	char *head = xasprintf("%s %s", KMAP_MAGIC, gfpaudit_version), *t = xasprintf("tree\t%s", tree);
	bool ok = l[0] && l[1] && !strcmp(l[0], head) && !strcmp(l[1], t);
	free(head);
	free(t);
	for (size_t i = 2; ok && l[i]; i++) {
		if (!strncmp(l[i], "in\t", 3))
			ok = input_holds(l[i] + 3, false);
		else if (!strncmp(l[i], "glob\t", 5))
			ok = input_holds(l[i] + 5, true);
	}
	if (!ok) {
		g_strfreev(l);
		return NULL;
	}
	return l;
}

int kmap_cache_load(const char *tree, void (*add)(void *data, const struct kmap_row *row), void *data)
{
	char **l = valid_lines(tree);
	if (!l)
		return -1;
	for (size_t i = 2; l[i]; i++) {
		if (strncmp(l[i], "obj\t", 4))
			continue;
		char **f = g_strsplit(l[i] + 4, "\t", 6);
		if (g_strv_length(f) == 6 && f[1][0]) {
			struct kmap_row r = { f[0], f[1][0], f[2], f[3], f[4], f[5] };
			add(data, &r);
		}
		g_strfreev(f);
	}
	g_strfreev(l);
	return 0;
}
