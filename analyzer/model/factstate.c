/* Where the facts passes ended (factstate.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "gfpaudit/factstate.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct fs_ob {
	uint32_t key;
	int32_t line;
	int64_t lo, hi;
	uint32_t src, known;
};

struct fs_f {
	const char *path, *ident, *digest;
	uint32_t wanted;
	struct fs_ob *obs; /* into the blob, or owned (set) */
	uint32_t *rd;
	uint32_t nobs, nrd;
	bool owned, dead;
};

struct fs_ref {
	uint32_t file, ob;
};

struct factstate {
	char *blob;          /* the loaded blob: strings and arrays point into it */
	GPtrArray *strings;  /* strings made here */
	struct fs_f *f;
	size_t nf, falloc;
	GHashTable *by_path; /* path -> index + 1 */
	const char **key;
	size_t nkey, kalloc, nsorted; /* key[0..nsorted) sorted (a loaded blob's) */
	GHashTable *key_id;  /* key -> id + 1 */
	/* the index: per key, its observations in path order and its readers */
	bool indexed;
	uint32_t *kob_begin, *kob_n, *krd_begin, *krd_n, *krd;
	struct fs_ref *kob;
	size_t nkeys_obs;
};

static const char *own(struct factstate *st, const char *s)
{
	if (!s)
		return NULL;
	char *d = xstrdup(s);
	g_ptr_array_add(st->strings, d);
	return d;
}

struct factstate *factstate_new(void)
{
	struct factstate *st = xcalloc(1, sizeof(*st));
	st->strings = g_ptr_array_new_with_free_func(free);
	st->by_path = g_hash_table_new(g_str_hash, g_str_equal);
	st->key_id = g_hash_table_new(g_str_hash, g_str_equal);
	return st;
}

static void unindex(struct factstate *st)
{
	free(st->kob_begin);
	free(st->kob_n);
	free(st->krd_begin);
	free(st->krd_n);
	free(st->krd);
	free(st->kob);
	st->kob_begin = st->kob_n = st->krd_begin = st->krd_n = st->krd = NULL;
	st->kob = NULL;
	st->indexed = false;
}

void factstate_free(struct factstate *st)
{
	if (!st)
		return;
	unindex(st);
	for (size_t i = 0; i < st->nf; i++)
		if (st->f[i].owned) {
			free(st->f[i].obs);
			free(st->f[i].rd);
		}
	free(st->f);
	free(st->key);
	g_hash_table_destroy(st->by_path);
	g_hash_table_destroy(st->key_id);
	g_ptr_array_free(st->strings, TRUE);
	free(st->blob);
	free(st);
}

/* A key's id: the loaded blob's keys are sorted (binary search), the
 * keys added since are in the hash. */
static long find_key(const struct factstate *st, const char *key)
{
	size_t lo = 0, hi = st->nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(st->key[mid], key);
		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	gpointer v = g_hash_table_lookup(st->key_id, key);
	return v ? (long)GPOINTER_TO_SIZE(v) - 1 : -1;
}

static uint32_t key_id(struct factstate *st, const char *key)
{
	long id = find_key(st, key);
	if (id >= 0)
		return (uint32_t)id;
	ALLOC_GROW(st->key, st->nkey + 1, st->kalloc);
	const char *k = own(st, key);
	st->key[st->nkey] = k;
	g_hash_table_insert(st->key_id, (gpointer)k, GSIZE_TO_POINTER(st->nkey + 1));
	return (uint32_t)st->nkey++;
}

long factstate_find(const struct factstate *st, const char *path)
{
	gpointer v = g_hash_table_lookup(st->by_path, path);
	return v ? (long)GPOINTER_TO_SIZE(v) - 1 : -1;
}

void factstate_set(struct factstate *st, const struct factstate_file *in)
{
	long i = factstate_find(st, in->path);
	struct fs_f *f;
	if (i < 0) {
		ALLOC_GROW(st->f, st->nf + 1, st->falloc);
		i = (long)st->nf++;
		f = &st->f[i];
		memset(f, 0, sizeof(*f));
		f->path = own(st, in->path);
		g_hash_table_insert(st->by_path, (gpointer)f->path, GSIZE_TO_POINTER((size_t)i + 1));
	} else {
		f = &st->f[i];
		if (f->owned) {
			free(f->obs);
			free(f->rd);
		}
	}
	f->dead = false;
	f->ident = own(st, in->ident);
	f->digest = own(st, in->digest);
	f->wanted = in->wanted;
	f->owned = true;
	f->nobs = (uint32_t)in->nobs;
	f->obs = xcalloc(in->nobs + 1, sizeof(*f->obs));
	for (size_t k = 0; k < in->nobs; k++) {
		const struct fact_obs *o = in->obs[k];
		f->obs[k] = (struct fs_ob){ key_id(st, o->key), o->line, o->iv.lo, o->iv.hi, o->src, o->iv.known };
	}
	f->nrd = (uint32_t)in->nconsulted;
	f->rd = xcalloc(in->nconsulted + 1, sizeof(*f->rd));
	for (size_t k = 0; k < in->nconsulted; k++)
		f->rd[k] = key_id(st, in->consulted[k]);
	unindex(st);
}

bool factstate_drop(struct factstate *st, const char *path)
{
	long i = factstate_find(st, path);
	if (i < 0 || st->f[i].dead)
		return false;
	st->f[i].dead = true;
	unindex(st);
	return true;
}

size_t factstate_nfiles(const struct factstate *st)
{
	return st->nf;
}

bool factstate_file(const struct factstate *st, size_t i, struct factstate_file *out)
{
	memset(out, 0, sizeof(*out));
	if (i >= st->nf || st->f[i].dead)
		return false;
	out->path = st->f[i].path;
	out->ident = st->f[i].ident;
	out->digest = st->f[i].digest;
	out->wanted = st->f[i].wanted;
	return true;
}

static int cmp_path_at(const void *a, const void *b, void *data)
{
	const struct factstate *st = data;
	return strcmp(st->f[*(const size_t *)a].path, st->f[*(const size_t *)b].path);
}

/* The live files in path order (new array of n). */
static size_t *path_order(const struct factstate *st, size_t *n)
{
	size_t *order = xcalloc(st->nf + 1, sizeof(*order));
	*n = 0;
	for (size_t i = 0; i < st->nf; i++)
		if (!st->f[i].dead)
			order[(*n)++] = i;
	g_qsort_with_data(order, (gint)*n, sizeof(*order), cmp_path_at, (gpointer)st);
	return order;
}

static void build_index(struct factstate *st)
{
	if (st->indexed)
		return;
	size_t n;
	size_t *order = path_order(st, &n);
	st->kob_begin = xcalloc(st->nkey + 1, sizeof(uint32_t));
	st->kob_n = xcalloc(st->nkey + 1, sizeof(uint32_t));
	st->krd_begin = xcalloc(st->nkey + 1, sizeof(uint32_t));
	st->krd_n = xcalloc(st->nkey + 1, sizeof(uint32_t));
	size_t nob = 0, nrd = 0;
	for (size_t k = 0; k < n; k++) {
		const struct fs_f *f = &st->f[order[k]];
		for (uint32_t j = 0; j < f->nobs; j++)
			st->kob_n[f->obs[j].key]++;
		for (uint32_t j = 0; j < f->nrd; j++)
			st->krd_n[f->rd[j]]++;
		nob += f->nobs;
		nrd += f->nrd;
	}
	st->nkeys_obs = 0;
	for (size_t k = 0, a = 0, b = 0; k < st->nkey; k++) {
		st->kob_begin[k] = (uint32_t)a;
		st->krd_begin[k] = (uint32_t)b;
		a += st->kob_n[k];
		b += st->krd_n[k];
		st->nkeys_obs += st->kob_n[k] ? 1 : 0;
		st->kob_n[k] = st->krd_n[k] = 0; /* counted again as filled */
	}
	st->kob = xcalloc(nob + 1, sizeof(*st->kob));
	st->krd = xcalloc(nrd + 1, sizeof(*st->krd));
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		const struct fs_f *f = &st->f[i];
		for (uint32_t j = 0; j < f->nobs; j++) {
			uint32_t key = f->obs[j].key;
			st->kob[st->kob_begin[key] + st->kob_n[key]++] = (struct fs_ref){ (uint32_t)i, j };
		}
		for (uint32_t j = 0; j < f->nrd; j++) {
			uint32_t key = f->rd[j];
			if (!st->krd_n[key] || st->krd[st->krd_begin[key] + st->krd_n[key] - 1] != i)
				st->krd[st->krd_begin[key] + st->krd_n[key]++] = (uint32_t)i;
		}
	}
	free(order);
	st->indexed = true;
}

size_t factstate_nkeys(struct factstate *st)
{
	build_index(st);
	return st->nkeys_obs;
}

/* Add key's observations in path order; when `path` is set, its part is
 * left out and `mine` (its new observations of key) put in its place. */
static void add_key_obs(struct factstate *st, const char *key, const char *path, GPtrArray *mine,
			struct factbase *fb)
{
	long id = find_key(st, key);
	bool done = !path;
	build_index(st);
	for (uint32_t k = 0; id >= 0 && k < st->kob_n[id]; k++) {
		const struct fs_ref *r = &st->kob[st->kob_begin[id] + k];
		int c = path ? strcmp(st->f[r->file].path, path) : -1;
		if (!c)
			continue; /* the file's old part */
		for (guint j = 0; c > 0 && !done && mine && j < mine->len; j++)
			factbase_add_obs(fb, path, g_ptr_array_index(mine, j));
		done = done || c > 0;
		const struct fs_ob *b = &st->f[r->file].obs[r->ob];
		struct fact_obs o = { .key = (char *)st->key[id], .iv = { b->lo, b->hi, b->known != 0 },
				      .src = b->src, .line = b->line };
		factbase_add_obs(fb, st->f[r->file].path, &o);
	}
	for (guint j = 0; !done && mine && j < mine->len; j++)
		factbase_add_obs(fb, path, g_ptr_array_index(mine, j));
}

static void source(void *data, const char *key, struct factbase *fb)
{
	add_key_obs(data, key, NULL, NULL, fb);
}

void factstate_source(struct factstate *st, struct factbase *fb)
{
	factbase_set_source(fb, source, st, factstate_nkeys(st));
}

/* The state's join with one file's part replaced (factstate.h). */
struct factstate_overlay {
	struct factstate *st;
	char *path;
	GHashTable *own; /* key -> GPtrArray of its observations, in r's order */
};

struct factstate_overlay *factstate_overlay_new(struct factstate *st, const struct file_result *r)
{
	struct factstate_overlay *ov = xcalloc(1, sizeof(*ov));
	ov->st = st;
	ov->path = xstrdup(r->file);
	ov->own = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
	for (size_t k = 0; k < r->nfacts; k++) {
		GPtrArray *a = g_hash_table_lookup(ov->own, r->facts[k].key);
		if (!a) {
			a = g_ptr_array_new();
			g_hash_table_insert(ov->own, r->facts[k].key, a);
		}
		g_ptr_array_add(a, &r->facts[k]);
	}
	return ov;
}

void factstate_overlay_free(struct factstate_overlay *ov)
{
	if (!ov)
		return;
	g_hash_table_destroy(ov->own);
	free(ov->path);
	free(ov);
}

/* The key's observations in path order, the file's own in its place. */
static void source_over(void *data, const char *key, struct factbase *fb)
{
	struct factstate_overlay *ov = data;
	add_key_obs(ov->st, key, ov->path, g_hash_table_lookup(ov->own, key), fb);
}

void factstate_overlay_source(struct factstate_overlay *ov, struct factbase *fb)
{
	factbase_set_source(fb, source_over, ov, factstate_nkeys(ov->st));
}

const char **factstate_file_obs_keys(const struct factstate *st, size_t i, size_t *n)
{
	*n = 0;
	if (i >= st->nf || st->f[i].dead)
		return NULL;
	const struct fs_f *f = &st->f[i];
	const char **out = xcalloc(f->nobs + 1, sizeof(*out));
	for (uint32_t j = 0; j < f->nobs; j++)
		out[(*n)++] = st->key[f->obs[j].key];
	return out;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static void add_readers(const struct factstate *st, uint32_t id, size_t **out, size_t *n, size_t *alloc)
{
	for (uint32_t k = 0; k < st->krd_n[id]; k++) {
		uint32_t i = st->krd[st->krd_begin[id] + k];
		if (st->f[i].dead)
			continue;
		ALLOC_GROW(*out, *n + 1, *alloc);
		(*out)[(*n)++] = i;
	}
}

size_t *factstate_readers(struct factstate *st, const char *key, size_t *n)
{
	build_index(st);
	size_t *out = NULL, alloc = 0;
	*n = 0;
	long id = find_key(st, key);
	if (id >= 0)
		add_readers(st, (uint32_t)id, &out, n, &alloc);
	/* a wildcard's readers: every key it covers ("field:S.*" -> "field:S.") */
	size_t len = strlen(key);
	bool wild = len >= 2 && key[len - 1] == '*' && (key[len - 2] == '.' || key[len - 2] == '#') &&
		    (!strncmp(key, "field:", 6) || !strncmp(key, "param:", 6));
	if (wild) {
		size_t plen = len - 1;
		/* the blob's keys are sorted: from the first at or after the prefix */
		size_t lo = 0, hi = st->nsorted;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strncmp(st->key[mid], key, plen) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < st->nsorted && !strncmp(st->key[k], key, plen); k++)
			if ((long)k != id)
				add_readers(st, (uint32_t)k, &out, n, &alloc);
		for (size_t k = st->nsorted; k < st->nkey; k++)
			if ((long)k != id && !strncmp(st->key[k], key, plen))
				add_readers(st, (uint32_t)k, &out, n, &alloc);
	}
	if (*n) {
		qsort(out, *n, sizeof(*out), cmp_size);
		size_t m = 1;
		for (size_t k = 1; k < *n; k++)
			if (out[k] != out[m - 1])
				out[m++] = out[k];
		*n = m;
	}
	return out;
}

/* ---- the blob ---- */

#define MAGIC "GFPSTATE"
#define BOM 0x01020304u
#define VERSION 1u

struct blob_head {
	char magic[8];
	uint32_t bom, version;
	uint64_t nf, nk, nob, nrd, nstr;
};

struct blob_file {
	uint32_t path, ident, digest, wanted, nobs, nrd; /* ident/digest: offset + 1, 0 none */
};

struct str_tab {
	struct strbuf sb;
	GHashTable *at; /* string -> offset + 1 */
};

static uint32_t str_at(struct str_tab *t, const char *s)
{
	gpointer v = g_hash_table_lookup(t->at, s);
	if (v)
		return (uint32_t)(GPOINTER_TO_SIZE(v) - 1);
	uint32_t off = (uint32_t)t->sb.len;
	strbuf_add(&t->sb, s, strlen(s) + 1);
	g_hash_table_insert(t->at, (gpointer)s, GSIZE_TO_POINTER((size_t)off + 1));
	return off;
}

static int cmp_key_id(const void *a, const void *b, void *data)
{
	const struct factstate *st = data;
	return strcmp(st->key[*(const uint32_t *)a], st->key[*(const uint32_t *)b]);
}

void factstate_save(struct factstate *st, void **blob, size_t *len)
{
	size_t n;
	size_t *order = path_order(st, &n);
	/* the keys in use, sorted, and their new ids */
	uint32_t *newid = xcalloc(st->nkey + 1, sizeof(*newid));
	bool *used = xcalloc(st->nkey + 1, sizeof(*used));
	size_t nob = 0, nrd = 0;
	for (size_t k = 0; k < n; k++) {
		const struct fs_f *f = &st->f[order[k]];
		for (uint32_t j = 0; j < f->nobs; j++)
			used[f->obs[j].key] = true;
		for (uint32_t j = 0; j < f->nrd; j++)
			used[f->rd[j]] = true;
		nob += f->nobs;
		nrd += f->nrd;
	}
	uint32_t *ids = xcalloc(st->nkey + 1, sizeof(*ids));
	size_t nk = 0;
	for (size_t k = 0; k < st->nkey; k++)
		if (used[k])
			ids[nk++] = (uint32_t)k;
	g_qsort_with_data(ids, (gint)nk, sizeof(*ids), cmp_key_id, st);
	for (size_t k = 0; k < nk; k++)
		newid[ids[k]] = (uint32_t)k;
	struct str_tab t = { STRBUF_INIT, g_hash_table_new(g_str_hash, g_str_equal) };
	struct blob_file *bf = xcalloc(n + 1, sizeof(*bf));
	uint32_t *bk = xcalloc(nk + 1, sizeof(*bk));
	for (size_t k = 0; k < nk; k++)
		bk[k] = str_at(&t, st->key[ids[k]]);
	for (size_t k = 0; k < n; k++) {
		const struct fs_f *f = &st->f[order[k]];
		bf[k] = (struct blob_file){ str_at(&t, f->path), f->ident ? str_at(&t, f->ident) + 1 : 0,
					    f->digest ? str_at(&t, f->digest) + 1 : 0, f->wanted, f->nobs, f->nrd };
	}
	struct blob_head h = { .bom = BOM, .version = VERSION, .nf = n, .nk = nk, .nob = nob, .nrd = nrd,
			       .nstr = t.sb.len };
	memcpy(h.magic, MAGIC, 8);
	size_t total = sizeof(h) + n * sizeof(*bf) + nk * sizeof(*bk);
	total = (total + 7) & ~(size_t)7;
	size_t obs_at = total;
	total += nob * sizeof(struct fs_ob) + nrd * sizeof(uint32_t) + t.sb.len;
	char *b = xcalloc(total + 1, 1);
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), bf, n * sizeof(*bf));
	memcpy(b + sizeof(h) + n * sizeof(*bf), bk, nk * sizeof(*bk));
	struct fs_ob *ob = (struct fs_ob *)(b + obs_at);
	uint32_t *rd = (uint32_t *)(b + obs_at + nob * sizeof(struct fs_ob));
	for (size_t k = 0; k < n; k++) {
		const struct fs_f *f = &st->f[order[k]];
		for (uint32_t j = 0; j < f->nobs; j++) {
			*ob = f->obs[j];
			ob->key = newid[f->obs[j].key];
			ob++;
		}
		for (uint32_t j = 0; j < f->nrd; j++)
			*rd++ = newid[f->rd[j]];
	}
	memcpy(rd, t.sb.buf, t.sb.len);
	g_hash_table_destroy(t.at);
	strbuf_release(&t.sb);
	free(bf);
	free(bk);
	free(ids);
	free(used);
	free(newid);
	free(order);
	*blob = b;
	*len = total;
}

int factstate_load(const void *blob, size_t len, struct factstate **out)
{
	char *copy = xcalloc(len + 1, 1);
	memcpy(copy, blob, len);
	return factstate_adopt(copy, len, out);
}

int factstate_adopt(void *blob, size_t len, struct factstate **out)
{
	*out = NULL;
	struct blob_head h;
	if (len < sizeof(h)) {
		free(blob);
		return err_set(GA_EINVAL, "facts state: too short");
	}
	memcpy(&h, blob, sizeof(h));
	int bad = 0;
	size_t at = sizeof(h), need = 0, obs_at = 0;
	if (memcmp(h.magic, MAGIC, 8) || h.bom != BOM || h.version != VERSION) {
		bad = err_set(GA_EINVAL, "facts state: not one this build reads");
	} else if (h.nf > len || h.nk > len || h.nob > len || h.nrd > len || h.nstr > len || h.nk > UINT32_MAX) {
		/* every count bounded by the length before any product is formed */
		bad = err_set(GA_EINVAL, "facts state: bad counts");
	} else {
		need = at + h.nf * sizeof(struct blob_file) + h.nk * sizeof(uint32_t);
		need = (need + 7) & ~(size_t)7;
		obs_at = need;
		need += h.nob * sizeof(struct fs_ob) + h.nrd * sizeof(uint32_t) + h.nstr;
		if (need != len || !h.nstr)
			bad = err_set(GA_EINVAL, "facts state: bad length");
	}
	if (bad) {
		free(blob);
		return bad;
	}
	struct factstate *st = factstate_new();
	st->blob = blob; /* its own (xcalloc'd) buffer: aligned for the arrays */
	const char *str = st->blob + obs_at + h.nob * sizeof(struct fs_ob) + h.nrd * sizeof(uint32_t);
	if (str[h.nstr - 1]) {
		factstate_free(st);
		return err_set(GA_EINVAL, "facts state: strings not terminated");
	}
	const struct blob_file *bf = (const struct blob_file *)(st->blob + at);
	const uint32_t *bk = (const uint32_t *)(st->blob + at + h.nf * sizeof(*bf));
	struct fs_ob *ob = (struct fs_ob *)(st->blob + obs_at);
	uint32_t *rd = (uint32_t *)(st->blob + obs_at + h.nob * sizeof(struct fs_ob));
	int rc = 0;
	st->key = xcalloc(h.nk + 1, sizeof(*st->key));
	st->kalloc = h.nk + 1;
	for (size_t k = 0; !rc && k < h.nk; k++) {
		if (bk[k] >= h.nstr || (k && strcmp(str + bk[k - 1], str + bk[k]) >= 0)) {
			rc = err_set(GA_EINVAL, "facts state: keys out of order");
			break;
		}
		st->key[k] = str + bk[k];
	}
	st->nkey = st->nsorted = rc ? 0 : h.nk;
	size_t used_ob = 0, used_rd = 0;
	for (size_t i = 0; !rc && i < h.nf; i++) {
		const struct blob_file *b = &bf[i];
		if (b->path >= h.nstr || (b->ident && b->ident - 1 >= h.nstr) || (b->digest && b->digest - 1 >= h.nstr) ||
		    b->nobs > h.nob - used_ob || b->nrd > h.nrd - used_rd || factstate_find(st, str + b->path) >= 0) {
			rc = err_set(GA_EINVAL, "facts state: bad file entry");
			break;
		}
		ALLOC_GROW(st->f, st->nf + 1, st->falloc);
		struct fs_f *f = &st->f[st->nf];
		*f = (struct fs_f){ .path = str + b->path, .ident = b->ident ? str + b->ident - 1 : NULL,
				    .digest = b->digest ? str + b->digest - 1 : NULL, .wanted = b->wanted,
				    .obs = ob + used_ob, .rd = rd + used_rd, .nobs = b->nobs, .nrd = b->nrd };
		for (uint32_t j = 0; j < f->nobs; j++)
			if (f->obs[j].key >= h.nk)
				rc = err_set(GA_EINVAL, "facts state: bad key");
		for (uint32_t j = 0; j < f->nrd; j++)
			if (f->rd[j] >= h.nk)
				rc = err_set(GA_EINVAL, "facts state: bad key");
		used_ob += b->nobs;
		used_rd += b->nrd;
		g_hash_table_insert(st->by_path, (gpointer)f->path, GSIZE_TO_POINTER(st->nf + 1));
		st->nf++;
	}
	if (rc) {
		factstate_free(st);
		return rc;
	}
	*out = st;
	return 0;
}

/* ---- one file's part ---- */

#define PART_MAGIC "GFPPART1"

struct part_head {
	char magic[8];
	uint32_t bom, flags, nobs, nrd, nstr, pad;
};
#define PART_WANTED 1u
#define PART_IDENT 2u
#define PART_DIGEST 4u
#define PART_GONE 8u

void factstate_part_save(const struct factstate *st, const char *path, void **blob, size_t *len)
{
	long i = factstate_find(st, path);
	const struct fs_f *f = i >= 0 && !st->f[i].dead ? &st->f[i] : NULL;
	struct part_head h = { .bom = BOM };
	memcpy(h.magic, PART_MAGIC, 8);
	struct strbuf str = STRBUF_INIT;
	strbuf_add(&str, path, strlen(path) + 1);
	if (!f) {
		h.flags = PART_GONE;
	} else {
		h.flags = (f->wanted ? PART_WANTED : 0) | (f->ident ? PART_IDENT : 0) | (f->digest ? PART_DIGEST : 0);
		if (f->ident)
			strbuf_add(&str, f->ident, strlen(f->ident) + 1);
		if (f->digest)
			strbuf_add(&str, f->digest, strlen(f->digest) + 1);
		h.nobs = f->nobs;
		h.nrd = f->nrd;
	}
	struct fs_ob *ob = xcalloc(h.nobs + 1, sizeof(*ob));
	uint32_t *rd = xcalloc(h.nrd + 1, sizeof(*rd));
	for (uint32_t j = 0; j < h.nobs; j++) {
		ob[j] = f->obs[j];
		ob[j].key = (uint32_t)str.len;
		strbuf_add(&str, st->key[f->obs[j].key], strlen(st->key[f->obs[j].key]) + 1);
	}
	for (uint32_t j = 0; j < h.nrd; j++) {
		rd[j] = (uint32_t)str.len;
		strbuf_add(&str, st->key[f->rd[j]], strlen(st->key[f->rd[j]]) + 1);
	}
	h.nstr = (uint32_t)str.len;
	size_t total = sizeof(h) + h.nobs * sizeof(*ob) + h.nrd * sizeof(*rd) + str.len;
	char *b = xcalloc(total + 1, 1);
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), ob, h.nobs * sizeof(*ob));
	memcpy(b + sizeof(h) + h.nobs * sizeof(*ob), rd, h.nrd * sizeof(*rd));
	memcpy(b + sizeof(h) + h.nobs * sizeof(*ob) + h.nrd * sizeof(*rd), str.buf, str.len);
	free(ob);
	free(rd);
	strbuf_release(&str);
	*blob = b;
	*len = total;
}

int factstate_part_load(struct factstate *st, const void *blob, size_t len)
{
	struct part_head h;
	if (len < sizeof(h))
		return err_set(GA_EINVAL, "facts state part: too short");
	memcpy(&h, blob, sizeof(h));
	if (memcmp(h.magic, PART_MAGIC, 8) || h.bom != BOM || !h.nstr ||
	    len != sizeof(h) + (size_t)h.nobs * sizeof(struct fs_ob) + (size_t)h.nrd * sizeof(uint32_t) + h.nstr)
		return err_set(GA_EINVAL, "facts state part: not one this build reads");
	const char *b = blob;
	const char *str = b + sizeof(h) + (size_t)h.nobs * sizeof(struct fs_ob) + (size_t)h.nrd * sizeof(uint32_t);
	if (str[h.nstr - 1])
		return err_set(GA_EINVAL, "facts state part: strings not terminated");
	const char *path = str, *ident = NULL, *digest = NULL;
	size_t at = strlen(path) + 1;
	if ((h.flags & PART_IDENT) && at < h.nstr) {
		ident = str + at;
		at += strlen(ident) + 1;
	}
	if ((h.flags & PART_DIGEST) && at < h.nstr) {
		digest = str + at;
		at += strlen(digest) + 1;
	}
	if (h.flags & PART_GONE) {
		factstate_drop(st, path);
		return 0;
	}
	struct fs_ob *ob = xcalloc(h.nobs + 1, sizeof(*ob));
	memcpy(ob, b + sizeof(h), (size_t)h.nobs * sizeof(*ob));
	uint32_t *rd = xcalloc(h.nrd + 1, sizeof(*rd));
	memcpy(rd, b + sizeof(h) + (size_t)h.nobs * sizeof(*ob), (size_t)h.nrd * sizeof(*rd));
	struct fact_obs *obs = xcalloc(h.nobs + 1, sizeof(*obs));
	const struct fact_obs **pobs = xcalloc(h.nobs + 1, sizeof(*pobs));
	char **cons = xcalloc(h.nrd + 1, sizeof(*cons));
	int rc = 0;
	for (uint32_t j = 0; !rc && j < h.nobs; j++) {
		if (ob[j].key >= h.nstr)
			rc = err_set(GA_EINVAL, "facts state part: bad key");
		else
			obs[j] = (struct fact_obs){ .key = (char *)str + ob[j].key, .iv = { ob[j].lo, ob[j].hi, ob[j].known != 0 },
						    .src = ob[j].src, .line = ob[j].line };
		pobs[j] = &obs[j];
	}
	for (uint32_t j = 0; !rc && j < h.nrd; j++) {
		if (rd[j] >= h.nstr)
			rc = err_set(GA_EINVAL, "facts state part: bad key");
		else
			cons[j] = (char *)str + rd[j];
	}
	if (!rc) {
		struct factstate_file f = { .path = path, .ident = ident, .digest = digest,
					    .wanted = (h.flags & PART_WANTED) != 0, .obs = pobs, .nobs = h.nobs,
					    .consulted = cons, .nconsulted = h.nrd };
		factstate_set(st, &f);
	}
	free(ob);
	free(rd);
	free(obs);
	free(pobs);
	free(cons);
	return rc;
}

void factstate_prepare(struct factstate *st)
{
	build_index(st);
}
