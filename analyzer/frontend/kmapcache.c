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

/* The stored map's text, when its header and every input hold. */
char *kmap_cache_open(const char *tree)
{
	char *path = cache_path(tree, false);
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_file(&sb, path, 256u << 20);
	free(path);
	if (rc) {
		strbuf_release(&sb);
		return NULL;
	}
	char *head = xasprintf("%s %s\ntree\t%s\n", KMAP_MAGIC, gfpaudit_version, tree);
	bool ok = !strncmp(sb.buf, head, strlen(head));
	char *p = sb.buf + (ok ? strlen(head) : 0);
	free(head);
	/* the inputs come first, then the rows */
	while (ok && (!strncmp(p, "in\t", 3) || !strncmp(p, "glob\t", 5))) {
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		ok = *p == 'i' ? input_holds(p + 3, false) : input_holds(p + 5, true);
		*nl = '\n';
		p = nl + 1;
	}
	if (!ok) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* The row that starts at `hit` ("\nobj\t..."): 0 with *row pointing
 * into *buf (caller frees), or -1. */
static int parse_row(const char *hit, struct kmap_row *row, char **buf)
{
	const char *end = strchr(hit + 1, '\n');
	*buf = end ? xstrndup(hit + 5, (size_t)(end - hit - 5)) : xstrdup(hit + 5);
	char *f[6] = { *buf };
	int n = 1;
	for (char *c = *buf; *c && n < 6; c++)
		if (*c == '\t') {
			*c = 0;
			f[n++] = c + 1;
		}
	if (n < 6 || !f[1][0]) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	*row = (struct kmap_row){ f[0], f[1][0], f[2], f[3], f[4], f[5] };
	return 0;
}

int kmap_cache_find(const char *text, const char *path, struct kmap_row *row, char **buf)
{
	char *needle = xasprintf("\nobj\t%s\t", path);
	const char *hit = strstr(text, needle);
	free(needle);
	*buf = NULL;
	return hit ? parse_row(hit, row, buf) : -1;
}

void kmap_cache_each(const char *text, void (*fn)(const struct kmap_row *row, void *data), void *data)
{
	for (const char *hit = strstr(text, "\nobj\t"); hit; hit = strstr(hit + 1, "\nobj\t")) {
		struct kmap_row r;
		char *buf;
		if (!parse_row(hit, &r, &buf)) {
			fn(&r, data);
			free(buf);
		}
	}
}
