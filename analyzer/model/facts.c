/* The tree-wide fact base (facts.h): a hash map from key to joined value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "gfpaudit/facts.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/provenance.h"

struct entry {
	char *key;
	struct fact_value v;
	char *last_file; /* the file of the last observation added */
};

struct factbase {
	struct entry *slot;
	size_t cap, n;
	GHashTable *reads;  /* keys factbase_get() was asked for, or NULL */
	GHashTable *texts;  /* key -> fact_value_text(), memo for digests */
	/* factbase_set_source: keys filled on first lookup */
	factbase_source_fn source;
	void *source_data;
	size_t source_keys;
	GHashTable *sourced; /* keys asked of the source */
	bool sourcing;
};

static uint64_t hash_key(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct factbase *factbase_new(void)
{
	struct factbase *fb = xcalloc(1, sizeof(*fb));
	fb->cap = 1024;
	fb->slot = xcalloc(fb->cap, sizeof(*fb->slot));
	return fb;
}

void factbase_free(struct factbase *fb)
{
	if (!fb)
		return;
	for (size_t i = 0; i < fb->cap; i++) {
		free(fb->slot[i].key);
		free((char *)fb->slot[i].v.where);
		free((char *)fb->slot[i].v.cmax_where);
		free((char *)fb->slot[i].v.where2);
		free(fb->slot[i].last_file);
	}
	free(fb->slot);
	if (fb->reads)
		g_hash_table_destroy(fb->reads);
	if (fb->texts)
		g_hash_table_destroy(fb->texts);
	if (fb->sourced)
		g_hash_table_destroy(fb->sourced);
	free(fb);
}

void factbase_set_source(struct factbase *fb, factbase_source_fn fn, void *data, size_t nkeys)
{
	fb->source = fn;
	fb->source_data = data;
	fb->source_keys = nkeys;
	if (!fb->sourced)
		fb->sourced = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
}

/* Fill `key` from the source, once. */
static void source_key(const struct factbase *cfb, const char *key)
{
	struct factbase *fb = (struct factbase *)cfb; /* a cache of the source's answers */
	if (!fb->source || !key || g_hash_table_contains(fb->sourced, key))
		return;
	g_hash_table_add(fb->sourced, xstrdup(key));
	fb->sourcing = true;
	fb->source(fb->source_data, key, fb);
	fb->sourcing = false;
}

size_t factbase_size(const struct factbase *fb)
{
	return !fb ? 0 : fb->source ? fb->source_keys : fb->n;
}

static struct entry *find(const struct factbase *fb, const char *key)
{
	size_t j = hash_key(key) & (fb->cap - 1);
	while (fb->slot[j].key) {
		if (!strcmp(fb->slot[j].key, key))
			return &fb->slot[j];
		j = (j + 1) & (fb->cap - 1);
	}
	return &fb->slot[j];
}

static void grow(struct factbase *fb)
{
	struct entry *old = fb->slot;
	size_t ocap = fb->cap;
	fb->cap *= 2;
	fb->slot = xcalloc(fb->cap, sizeof(*fb->slot));
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key)
			*find(fb, old[i].key) = old[i];
	free(old);
}

/* A constant alone: a literal, a sizeof, an enumerator, a Kconfig value. */
static bool obs_const(const struct fact_obs *o)
{
	return o->iv.known && o->iv.lo == o->iv.hi && o->src &&
	       !(o->src & ~(SRCB(CONST) | SRCB(CONFIG)));
}

static void add(struct factbase *fb, const char *file, const struct fact_obs *o)
{
	if (fb->texts && !fb->sourcing) { /* the answers may change (a key from the source is new) */
		g_hash_table_destroy(fb->texts);
		fb->texts = NULL;
	}
	if (2 * (fb->n + 1) > fb->cap)
		grow(fb);
	struct entry *e = find(fb, o->key);
	if (!e->key) {
		e->key = xstrdup(o->key);
		e->v.iv = o->iv;
		e->v.src = o->src;
		e->v.nobs = 1;
		e->v.where = xasprintf("%s:%d", file ? file : "?", o->line);
		e->v.nfiles = 1;
		e->last_file = xstrdup(file ? file : "?");
		fb->n++;
	} else {
		if (strcmp(e->last_file, file ? file : "?")) {
			e->v.nfiles++;
			free(e->last_file);
			e->last_file = xstrdup(file ? file : "?");
			if (!e->v.where2)
				e->v.where2 = xasprintf("%s:%d", file ? file : "?", o->line);
		}
		e->v.iv = e->v.iv.known && o->iv.known ? iv_join(e->v.iv, o->iv) : iv_unknown();
		e->v.src |= o->src;
		e->v.nobs++;
	}
	if (obs_const(o) && (!e->v.has_cmax || o->iv.lo > e->v.cmax)) {
		e->v.has_cmax = true;
		e->v.cmax = o->iv.lo;
		free((char *)e->v.cmax_where);
		e->v.cmax_where = xasprintf("%s:%d", file ? file : "?", o->line);
	}
}

void factbase_add_obs(struct factbase *fb, const char *file, const struct fact_obs *o)
{
	add(fb, file, o);
}

void factbase_add_result(struct factbase *fb, const struct file_result *r)
{
	for (size_t i = 0; i < r->nfacts; i++)
		add(fb, r->file, &r->facts[i]);
}

/* "field:S.f" -> "field:S.*"; "param:F#2" -> "param:F#*" */
static char *wildcard(const char *key)
{
	const char *sep = !strncmp(key, "field:", 6) ? strrchr(key, '.') : strrchr(key, '#');
	if (!sep)
		return NULL;
	return xasprintf("%.*s%c*", (int)(sep - key), key, *sep);
}

bool factbase_get(const struct factbase *fb, const char *key, struct fact_value *out)
{
	if (!fb || !key)
		return false;
	if (fb->reads && !g_hash_table_contains(fb->reads, key))
		g_hash_table_add(fb->reads, xstrdup(key));
	char *w = wildcard(key);
	source_key(fb, key);
	if (w && strcmp(w, key))
		source_key(fb, w);
	const struct entry *e = find(fb, key);
	const struct entry *x = w && strcmp(w, key) ? find(fb, w) : NULL;
	free(w);
	if (x && !x->key)
		x = NULL;
	if (!e->key && !x)
		return false;
	const struct entry *first = e->key ? e : x;
	*out = first->v;
	if (e->key && x) {
		out->iv = e->v.iv.known && x->v.iv.known ? iv_join(e->v.iv, x->v.iv) : iv_unknown();
		out->src |= x->v.src;
		out->nobs += x->v.nobs;
		out->nfiles += x->v.nfiles;
		if (!out->where2)
			out->where2 = x->v.where;
		if (x->v.has_cmax && (!out->has_cmax || x->v.cmax > out->cmax)) {
			out->has_cmax = true;
			out->cmax = x->v.cmax;
			out->cmax_where = x->v.cmax_where;
		}
	}
	return true;
}

void factbase_track(struct factbase *fb, bool on)
{
	if (fb->reads)
		g_hash_table_destroy(fb->reads);
	fb->reads = on ? g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL) : NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **factbase_reads(const struct factbase *fb, size_t *n)
{
	*n = fb && fb->reads ? g_hash_table_size(fb->reads) : 0;
	if (!*n)
		return NULL;
	char **keys = xcalloc(*n, sizeof(*keys));
	GHashTableIter it;
	gpointer k;
	size_t i = 0;
	g_hash_table_iter_init(&it, fb->reads);
	while (g_hash_table_iter_next(&it, &k, NULL))
		keys[i++] = xstrdup(k);
	qsort(keys, *n, sizeof(*keys), cmp_str);
	return keys;
}

/* Everything factbase_get() answers for `key`, as text: for keys no
 * reader below knows. */
static char *full_text(const char *key, bool have, const struct fact_value *v)
{
	if (!have)
		return xasprintf("%s -", key);
	return xasprintf("%s %d %lld %lld %u %u %s %u %s %d %lld %s", key, v->iv.known ? 1 : 0,
			 v->iv.known ? (long long)v->iv.lo : 0, v->iv.known ? (long long)v->iv.hi : 0, v->src, v->nobs,
			 v->where ? v->where : "", v->nfiles, v->where2 ? v->where2 : "", v->has_cmax ? 1 : 0,
			 v->has_cmax ? (long long)v->cmax : 0, v->cmax_where ? v->cmax_where : "");
}

/* What the judgement made of the answer for `key`, as text: the digest of a
 * judged file covers it.  Each kind of key has one reader, and the text is
 * that reader's own view (facts.h fact_reader_text): an answer that changed
 * only where the reader does not look (the order of the callers, the
 * second file's line, an unbounded join it ignores) digests the same, so it
 * re-judges nothing. */
static char *fact_value_text(struct factbase *fb, const char *key)
{
	struct fact_value v;
	GHashTable *reads = fb->reads;
	fb->reads = NULL; /* a digest is no read */
	bool have = factbase_get(fb, key, &v);
	fb->reads = reads;
	char *(*reader)(const struct fact_value *) =
		!strncmp(key, "field:", 6) || !strncmp(key, "param:", 6) ? eval_fact_text
		: !strncmp(key, "fails:", 6) ? callers_fact_text
		: !strncmp(key, "frees:", 6) ? frees_fact_text : NULL;
	if (!reader)
		return full_text(key, have, &v);
	char *t = reader(have ? &v : NULL);
	char *r = xasprintf("%s %s", key, t);
	free(t);
	return r;
}

void factbase_digest(struct factbase *fb, char *const *keys, size_t n, char out[FACTBASE_DIGEST_HEX + 1])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA1);
	struct factbase *w = fb;
	if (!w->texts)
		w->texts = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	for (size_t i = 0; i < n; i++) {
		const char *t = g_hash_table_lookup(w->texts, keys[i]);
		if (!t) {
			char *nt = fact_value_text(fb, keys[i]);
			g_hash_table_insert(w->texts, xstrdup(keys[i]), nt);
			t = nt;
		}
		g_checksum_update(ck, (const guchar *)t, (gssize)strlen(t));
		g_checksum_update(ck, (const guchar *)"\n", 1);
	}
	snprintf(out, FACTBASE_DIGEST_HEX + 1, "%s", g_checksum_get_string(ck));
	g_checksum_free(ck);
}
