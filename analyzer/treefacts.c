/* The tree's facts in the cache (treefacts.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include <jansson.h>
#include "gfpaudit/treefacts.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct load {
	struct store *s;
	struct treefacts *t;
	GHashTable *skip;
	size_t alloc;
	GChecksum *sum; /* of the rows loaded */
};

static long long mtime_ns(const struct stat *st)
{
	return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

/* Is the file as it was when its row was made? */
static bool unchanged(struct store *s, const struct store_tree_file *f)
{
	struct stat st;
	if (stat(f->abs, &st) || !S_ISREG(st.st_mode))
		return false;
	if ((long long)st.st_size == f->size && mtime_ns(&st) == f->mtime)
		return true;
	char h[STORE_HASH_HEX];
	if (store_content_hash(s, f->abs, h)) {
		err_clear();
		return false;
	}
	return !strcmp(h, f->content);
}

static int load_one(void *data, const struct store_tree_file *f)
{
	struct load *l = data;
	l->t->rows++;
	if (g_hash_table_contains(l->skip, f->abs))
		return 0;
	if (!f->facts || !*f->facts) /* published nothing: nothing to check */
		return 0;
	if (!unchanged(l->s, f)) {
		l->t->stale++;
		return 0;
	}
	json_error_t jerr;
	json_t *j = json_loads(f->facts, 0, &jerr);
	struct file_result *r = NULL;
	if (j && file_result_from_json(j, &r) == 0) {
		ALLOC_GROW(l->t->files, l->t->n + 1, l->alloc);
		l->t->files[l->t->n++] = r;
		/* NUL-separated: what the rows hold, not how they split */
		g_checksum_update(l->sum, (const guchar *)f->path, (gssize)strlen(f->path) + 1);
		g_checksum_update(l->sum, (const guchar *)f->content, (gssize)strlen(f->content) + 1);
		g_checksum_update(l->sum, (const guchar *)f->facts, (gssize)strlen(f->facts) + 1);
	} else {
		err_clear();
		l->t->stale++;
	}
	json_decref(j);
	return 0;
}

static bool want_row(void *data, const char *abs)
{
	return !g_hash_table_contains(((struct load *)data)->skip, abs);
}

int treefacts_load(struct store *s, const char *context, char *const *skip, size_t nskip, struct treefacts *out)
{
	memset(out, 0, sizeof(*out));
	char ctx[STORE_HASH_HEX];
	snprintf(ctx, sizeof(ctx), "%s", context);
	size_t rows = 0;
	int rc = store_tree_info(s, ctx, &out->root, &rows);
	if (rc == GA_ENOTFOUND) {
		err_clear();
		return 0;
	}
	if (rc)
		return rc;
	out->built = true;
	struct load l = { .s = s, .t = out, .skip = g_hash_table_new(g_str_hash, g_str_equal),
			  .sum = g_checksum_new(G_CHECKSUM_SHA1) };
	for (size_t i = 0; i < nskip; i++)
		g_hash_table_add(l.skip, skip[i]);
	g_checksum_update(l.sum, (const guchar *)out->root, (gssize)strlen(out->root) + 1);
	rc = store_tree_each(s, ctx, want_row, load_one, &l);
	snprintf(out->digest, sizeof(out->digest), "%s", g_checksum_get_string(l.sum));
	g_checksum_free(l.sum);
	g_hash_table_destroy(l.skip);
	return rc;
}

void treefacts_release(struct treefacts *t)
{
	for (size_t i = 0; i < t->n; i++)
		file_result_free(t->files[i]);
	free(t->files);
	free(t->root);
	memset(t, 0, sizeof(*t));
}

/* file and observations only: what the join reads */
static char *facts_json(const struct file_result *r)
{
	if (!r->nfacts)
		return xstrdup("");
	struct file_result o;
	file_result_init(&o, r->file);
	o.facts = r->facts;
	o.nfacts = r->nfacts;
	json_t *j = file_result_to_json(&o);
	o.facts = NULL;
	o.nfacts = 0;
	file_result_release(&o);
	char *txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return txt;
}

int treefacts_save(struct store *s, const char *context, const char *root, bool rebuild,
		   struct file_result **files, char *const *paths, size_t n, const bool *only)
{
	char ctx[STORE_HASH_HEX];
	snprintf(ctx, sizeof(ctx), "%s", context);
	int rc = 0;
	if (rebuild && (rc = store_tree_begin(s, ctx, root)))
		return rc;
	for (size_t i = 0; !rc && i < n; i++) {
		struct file_result *r = files[i];
		if (only && !only[i])
			continue;
		if (r && store_load_deferred(s, r))
			err_clear();
		struct stat st;
		char real[PATH_MAX];
		if (!r || r->status != FILE_ANALYZED || stat(paths[i], &st) || !realpath(paths[i], real))
			continue;
		struct store_tree_file f = { .path = r->file, .abs = real, .size = (long long)st.st_size,
					     .mtime = mtime_ns(&st) };
		if (store_content_hash(s, paths[i], f.content)) {
			err_clear();
			continue;
		}
		char *txt = facts_json(r);
		f.facts = txt;
		rc = store_tree_put(s, ctx, &f);
		free(txt);
	}
	if (!rc)
		rc = store_tree_finish(s, ctx);
	return rc;
}
