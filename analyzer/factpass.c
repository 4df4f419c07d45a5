/* The facts passes (factpass.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "gfpaudit/factpass.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/factstate.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/phase.h"

struct fp_run {
	const struct factpass_opts *o;
	struct factbase *fb;
	struct file_result **files;
	struct file_result **first; /* each file's first-pass result */
	size_t *idx;        /* position in files of each file of this pass */
	char **content;     /* its content hash, when the cache knows it */
	int pass;
	size_t reused;      /* of this pass's lookups: first-pass second judgements */
	/* GFPAUDIT_PROFILE: of this pass's judgements, those whose findings,
	 * observations, or both came out as the file's result before */
	size_t same_f, same_o, same_fo;
	size_t failures_alloc;
	bool *failed;       /* files whose judgement failed in this run */
	bool *wanted;       /* the last demand (pick) */
	bool *ever;         /* wanted by some pass's demand (the state's flag) */
	GHashTable *by_path; /* file (as reported) -> index + 1 */
	struct factpass_stats *st;
};


/* "field:S.f" -> "field:S.*"; "param:F#2" -> "param:F#*" (facts.h) */
static char *wildcard_of(const char *key)
{
	const char *sep = !strncmp(key, "field:", 6) ? strrchr(key, '.') : strrchr(key, '#');
	return sep ? xasprintf("%.*s%c*", (int)(sep - key), key, *sep) : NULL;
}

static void want_keys(GHashTable *keys, const struct file_result *r)
{
	for (size_t k = 0; k < r->nconsulted; k++) {
		if (g_hash_table_contains(keys, r->consulted[k]))
			continue;
		g_hash_table_add(keys, xstrdup(r->consulted[k]));
		char *w = wildcard_of(r->consulted[k]);
		if (w && !g_hash_table_contains(keys, w))
			g_hash_table_add(keys, w);
		else
			free(w);
	}
}

/* Demand: the files the facts can change.  The ones with an open site, and
 * the publishers of an open value into a key that one of those (or another
 * such publisher, transitively) consults: a publisher nobody downstream
 * reads from changes no finding.  wanted[i] is set for them. */
static void demand(struct file_result **files, size_t n, bool all_publishers, bool *wanted)
{
	GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct file_result *r = files[i];
		wanted[i] = r && r->status == FILE_ANALYZED && r->facts_digest &&
			    (file_result_wants_facts(r) ||
			     (all_publishers && file_result_facts_eligible(r) && file_result_publishes_open(r)));
		if (wanted[i])
			want_keys(keys, r);
	}
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			const struct file_result *r = files[i];
			if (wanted[i] || !r || !file_result_facts_eligible(r))
				continue;
			for (size_t k = 0; k < r->nfacts; k++) {
				const struct fact_obs *o = &r->facts[k];
				bool open = !o->iv.known || (o->src & ~(SRCB(CONST) | SRCB(CONFIG)));
				if (open && g_hash_table_contains(keys, o->key)) {
					wanted[i] = more = true;
					want_keys(keys, r);
					break;
				}
			}
		}
	}
	g_hash_table_destroy(keys);
}

/* The keys r consulted answer now as they did when r was judged. */
static bool fresh(void *data, const struct file_result *r)
{
	struct fp_run *run = data;
	if (!r->facts_digest)
		return false;
	char d[FACTBASE_DIGEST_HEX + 1];
	factbase_digest(run->fb, r->consulted, r->nconsulted, d);
	return !strcmp(d, r->facts_digest);
}

struct joined {
	const struct file_result *r, *first; /* first: its first pass's result, or NULL */
};

static int cmp_joined(const void *a, const void *b)
{
	return strcmp(((const struct joined *)a)->r->file, ((const struct joined *)b)->r->file);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool consults(const struct file_result *r, const char *key)
{
	return r->nconsulted && bsearch(&key, r->consulted, r->nconsulted, sizeof(char *), cmp_key);
}

/* A file's observations, except that for the keys it reads itself its
 * first pass's stay: a file does not feed itself from pass to pass (a
 * `x -= 5` of a field it reads would shrink the field each pass).  Its
 * part in the join (new array of *n pointers into r and first). */
static const struct fact_obs **contributions(const struct joined *j, size_t *n)
{
	const struct fact_obs **out = xcalloc((j->r->nfacts + (j->first ? j->first->nfacts : 0)) + 1, sizeof(*out));
	*n = 0;
	if (!j->first || j->first == j->r) {
		for (size_t k = 0; k < j->r->nfacts; k++)
			out[(*n)++] = &j->r->facts[k];
		return out;
	}
	for (size_t k = 0; k < j->first->nfacts; k++)
		if (consults(j->r, j->first->facts[k].key))
			out[(*n)++] = &j->first->facts[k];
	for (size_t k = 0; k < j->r->nfacts; k++)
		if (!consults(j->r, j->r->facts[k].key))
			out[(*n)++] = &j->r->facts[k];
	return out;
}

static void add_file(struct factbase *fb, const struct joined *j)
{
	size_t n;
	const struct fact_obs **c = contributions(j, &n);
	for (size_t k = 0; k < n; k++)
		factbase_add_obs(fb, j->r->file, c[k]);
	free(c);
}

static struct factbase *join_mixed(struct file_result *const *a, size_t na, struct file_result *const *b,
				   struct file_result *const *first_b, size_t nb)
{
	struct joined *all = xcalloc(na + nb + 1, sizeof(*all));
	size_t m = 0;
	for (size_t i = 0; i < na + nb; i++) {
		const struct file_result *r = i < na ? a[i] : b[i - na];
		if (r && r->status == FILE_ANALYZED)
			all[m++] = (struct joined){ r, i < na || !first_b ? NULL : first_b[i - na] };
	}
	qsort(all, m, sizeof(*all), cmp_joined);
	struct factbase *fb = factbase_new();
	for (size_t i = 0; i < m; i++)
		add_file(fb, &all[i]);
	free(all);
	return fb;
}

/* One join of every file's observations, in path order (the first
 * observation of a key is the one its value names). */
struct factbase *factpass_join(struct file_result *const *a, size_t na, struct file_result *const *b, size_t nb)
{
	return join_mixed(a, na, b, NULL, nb);
}

/* A judgement not made by a worker, kept as a worker's would be (the
 * results row of the file's content has it not). */
static void put_judged(const struct factpass_opts *o, const char *file, const char content[STORE_HASH_HEX],
		       const struct file_result *r)
{
	struct store_key k = { .path = file };
	snprintf(k.context, sizeof(k.context), "%s", o->context);
	memcpy(k.content, content, sizeof(k.content));
	if (store_judged_put(o->store, &k, r))
		err_clear();
}

static struct file_result *on_lookup(void *data, size_t i, const char *path)
{
	struct fp_run *run = data;
	const struct factpass_opts *o = run->o;
	/* the first pass's second judgement, made on its parse (result.h
	 * spec): as good as a worker's when its keys answer the same */
	struct file_result *f0 = run->first[run->idx[i]];
	struct file_result *spec = NULL;
	if (f0->spec && !strcmp(f0->spec->file, f0->file) && fresh(run, f0->spec)) {
		spec = f0->spec;
		f0->spec = NULL;
		run->reused++;
	}
	if (!o->store)
		return spec;
	char content[STORE_HASH_HEX];
	if (store_content_hash(o->store, path, content)) {
		err_clear(); /* the worker reports what is wrong with the file */
		return spec;
	}
	if (spec) { /* kept as a worker's judgement would be (the results row has it not) */
		put_judged(o, f0->file, content, spec);
		return spec;
	}
	run->content[i] = xstrdup(content);
	struct store_key k = { .path = run->files[run->idx[i]]->file };
	snprintf(k.context, sizeof(k.context), "%s", o->context);
	memcpy(k.content, content, sizeof(k.content));
	struct file_result *r = NULL;
	if (store_judged_get(o->store, &k, fresh, run, &r)) {
		err_clear();
		r = NULL;
		store_commit(o->store); /* a worker takes the file: hold no write lock */
	}
	return r;
}

static void on_store(void *data, size_t i, const char *path, const struct file_result *r)
{
	struct fp_run *run = data;
	const struct factpass_opts *o = run->o;
	if (o->on_parsed)
		o->on_parsed(o->data, run->pass, run->files[run->idx[i]]->file);
	if (!o->store || !run->content[i] || r->status != FILE_ANALYZED || !r->facts_digest)
		return;
	struct store_key k = { .path = run->files[run->idx[i]]->file };
	snprintf(k.context, sizeof(k.context), "%s", o->context);
	memcpy(k.content, run->content[i], sizeof(k.content));
	if (store_judged_put(o->store, &k, r) || store_commit(o->store))
		err_clear(); /* a cache that cannot be written costs speed, not results */
	(void)path;
}

static void on_idle(void *data)
{
	struct fp_run *run = data;
	if (run->o->store && store_commit(run->o->store))
		err_clear();
}

/* Do two results of a file report the same findings? */
static bool same_findings(const struct file_result *a, const struct file_result *b)
{
	if (a->nfindings != b->nfindings)
		return false;
	for (size_t i = 0; i < a->nfindings; i++) {
		const struct finding *x = &a->findings[i], *y = &b->findings[i];
		if (strcmp(x->rule, y->rule) || x->severity != y->severity || x->site.line != y->site.line ||
		    strcmp(x->message ? x->message : "", y->message ? y->message : ""))
			return false;
	}
	return true;
}

/* Do two results of a file make the same observations (key, value, kinds)? */
static bool same_obs(const struct file_result *a, const struct file_result *b)
{
	if (a->nfacts != b->nfacts)
		return false;
	for (size_t k = 0; k < a->nfacts; k++) {
		const struct fact_obs *x = &a->facts[k], *y = &b->facts[k];
		if (strcmp(x->key, y->key) || x->src != y->src || x->iv.known != y->iv.known ||
		    (x->iv.known && (x->iv.lo != y->iv.lo || x->iv.hi != y->iv.hi)))
			return false;
	}
	return true;
}

static void on_done(void *data, size_t i, struct file_result *r)
{
	struct fp_run *run = data;
	struct file_result **slot = &run->files[run->idx[i]];
	if (r->status != FILE_ANALYZED || strcmp(r->file, (*slot)->file)) {
		/* keep the answer it had, and say so: a crash, a timeout, a
		 * parse that failed this time */
		run->st->failed++;
		run->failed[run->idx[i]] = true; /* not tried again in this run */
		ALLOC_GROW(run->st->failures, run->st->nfailures + 1, run->failures_alloc);
		run->st->failures[run->st->nfailures++] = xasprintf("%s: %s", (*slot)->file,
								     r->reason ? r->reason : "no reason given");
		file_result_free(r);
		return;
	}
	run->st->judged++;
	r->not_in_config = (*slot)->not_in_config;
	bool sf = same_findings(r, *slot);
	if (!sf)
		run->st->changed++;
	if (phase_on()) {
		bool so = same_obs(r, *slot);
		run->same_f += sf;
		run->same_o += so;
		run->same_fo += sf && so;
	}
	if (*slot != run->first[run->idx[i]])
		file_result_free(*slot);
	*slot = r;
}

/* The files of the next pass, publishers first; their count. */
static size_t pick(struct fp_run *run, size_t n, char *const *paths, char **out)
{
	size_t m = 0;
	bool *wanted = run->wanted;
	demand(run->files, n, run->o->all_publishers, wanted);
	for (size_t i = 0; i < n; i++)
		run->ever[i] = run->ever[i] || wanted[i];
	size_t why[4] = { 0 };
	for (int publishers = 1; publishers >= 0; publishers--)
		for (size_t i = 0; i < n; i++) {
			struct file_result *r = run->files[i];
			if (!wanted[i] || run->failed[i] || (file_result_publishes_open(r) ? 1 : 0) != publishers || fresh(run, r))
				continue;
			why[(file_result_wants_facts(r) ? 1 : 0) + (publishers ? 2 : 0)]++;
			run->idx[m] = i;
			out[m++] = paths[i];
		}
	if (phase_on())
		fprintf(stderr, "phase: picked: open site only %zu, publisher only %zu, both %zu\n", why[1], why[2], why[3]);
	return m;
}

/* ---- the run record ---- */

struct ident_at {
	const char *path, *id;
	size_t i;
};

static int cmp_ident(const void *a, const void *b)
{
	const struct ident_at *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : strcmp(x->id, y->id);
}

/* The passes' inputs but the files (the record's and the state's). */
static void inputs_text(const struct factpass_opts *o, struct strbuf *sb)
{
	/* no extra file: nothing of the tree's facts enters the passes, whether
	 * the cache held none (a cold run that builds them) or holds this run's
	 * own files only (the warm run after it: a digest of the root alone) */
	const char *xd = o->nextra && o->extra_digest && *o->extra_digest ? o->extra_digest : "-";
	strbuf_addf(sb, "context %s\npasses %d all-publishers %d\nextra %zu %s\n", o->context, o->max_passes,
		    o->all_publishers ? 1 : 0, o->nextra, xd);
}

/* The state's head (new string), or NULL when an input is not known. */
static char *state_head(const struct factpass_opts *o)
{
	if (!o->store || !o->context || (o->nextra && !o->extra_digest))
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "gfpaudit facts state 1\n");
	inputs_text(o, &sb);
	char hex[STORE_HASH_HEX];
	store_hash_buf(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

/* The record's key (new string), and order[k]: the file at position k of
 * the files sorted by path.  NULL when an input is not known. */
static char *record_key(const struct factpass_opts *o, struct file_result *const *files, size_t n, size_t *order)
{
	if (!o->store || !o->ident || !o->context || (o->nextra && !o->extra_digest))
		return NULL;
	struct ident_at *v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		if (!o->ident[i] || !files[i] || !files[i]->file) {
			free(v);
			return NULL;
		}
		v[i] = (struct ident_at){ files[i]->file, o->ident[i], i };
	}
	qsort(v, n, sizeof(*v), cmp_ident);
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "gfpaudit facts run 1\n");
	inputs_text(o, &sb);
	strbuf_addf(&sb, "files %zu\n", n);
	for (size_t k = 0; k < n; k++) {
		/* length-prefixed: a path may hold any byte but NUL */
		strbuf_addf(&sb, "%zu:%s %s\n", strlen(v[k].path), v[k].path, v[k].id);
		order[k] = v[k].i;
	}
	free(v);
	char hex[STORE_HASH_HEX];
	store_hash_buf(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

/* The record's body: how the passes ended and, by position in path
 * order, the digest of each file's judged row. */
static char *record_body(const struct factpass_stats *st, struct file_result *const *files,
			 struct file_result *const *first, const size_t *order, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "keys %zu converged %d\n", st->keys, st->converged ? 1 : 0);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		if (files[i] == first[i])
			continue;
		if (!files[i]->facts_digest || strlen(files[i]->facts_digest) != FACTBASE_DIGEST_HEX) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "judged %zu %s\n", k, files[i]->facts_digest);
	}
	return strbuf_detach(&sb);
}

/* With the passes answered by the record nothing reads a result's facts,
 * includes or consulted keys (the caller does not save the tree's facts
 * either: factpass.h stamp): their text is most of a result read back. */
static void drop_deferred(struct file_result *r)
{
	free(r->deferred);
	free(r->deferred_ref);
	r->deferred = r->deferred_ref = NULL;
}

/* Answer the passes from the record under key: true when every file it
 * names took its judged row (files[] then hold them). */
static bool from_record(const struct factpass_opts *o, struct file_result **files, char *const *paths, size_t n,
			const char *key, const size_t *order, struct factpass_stats *st)
{
	char *body = NULL;
	if (store_run_get(o->store, o->context, key, &body)) {
		err_clear();
		return false;
	}
	struct file_result **repl = xcalloc(n + 1, sizeof(*repl));
	bool ok = true, stamped = false;
	size_t keys = 0;
	int converged = 0;
	char *save = NULL;
	for (char *line = strtok_r(body, "\n", &save); ok && line; line = strtok_r(NULL, "\n", &save)) {
		size_t k;
		char digest[FACTBASE_DIGEST_HEX + 1];
		if (!strncmp(line, "stamp ", 6)) {
			stamped = !strcmp(line + 6, o->stamp ? o->stamp : "-");
			ok = stamped;
		} else if (sscanf(line, "keys %zu converged %d", &keys, &converged) == 2) {
			;
		} else if (sscanf(line, "judged %zu %" G_STRINGIFY(FACTBASE_DIGEST_HEX) "s", &k, digest) == 2 &&
			   k < n && !repl[order[k]]) {
			size_t i = order[k];
			struct store_key sk = { .path = files[i]->file };
			snprintf(sk.context, sizeof(sk.context), "%s", o->context);
			ok = !store_content_hash(o->store, paths[i], sk.content) &&
			     !store_judged_get_digest(o->store, &sk, digest, &repl[i]);
			if (ok)
				drop_deferred(repl[i]);
		} else {
			ok = false;
		}
	}
	free(body);
	ok = ok && stamped;
	if (!ok)
		err_clear();
	for (size_t i = 0; i < n; i++) {
		if (!repl[i])
			continue;
		if (!ok) {
			file_result_free(repl[i]);
			continue;
		}
		repl[i]->not_in_config = files[i]->not_in_config;
		file_result_free(files[i]);
		files[i] = repl[i];
		st->recorded++;
	}
	free(repl);
	if (!ok)
		return false;
	for (size_t i = 0; i < n; i++)
		if (files[i]) {
			file_result_free(files[i]->spec);
			files[i]->spec = NULL;
			drop_deferred(files[i]);
		}
	st->from_record = true;
	st->keys = keys;
	st->converged = converged != 0;
	return true;
}

int factpass_save_record(const struct factpass_opts *o, const struct factpass_stats *st, const char *stamp)
{
	if (!o->store || !st->record_key || !st->record_body)
		return 0;
	char *body = xasprintf("stamp %s\n%s", stamp ? stamp : "-", st->record_body);
	int rc = store_run_put(o->store, o->context, st->record_key, body);
	free(body);
	char ctx[STORE_HASH_HEX];
	snprintf(ctx, sizeof(ctx), "%s", o->context);
	if (!rc && st->state && st->state_head)
		rc = store_state_put(o->store, ctx, st->state_head, stamp ? stamp : "-", st->state, st->state_len);
	else if (!rc && st->nparts && st->state_head)
		rc = store_state_put_parts(o->store, ctx, st->state_head, stamp ? stamp : "-", st->part_path, st->part,
					   st->part_len, st->nparts);
	phase_mark("facts: record and state saved");
	return rc;
}

void factpass_stats_release(struct factpass_stats *st)
{
	for (size_t i = 0; i < st->nfailures; i++)
		free(st->failures[i]);
	free(st->failures);
	free(st->record_key);
	free(st->record_body);
	free(st->state);
	free(st->state_head);
	free(st->touched);
	for (size_t i = 0; i < st->nparts; i++) {
		free(st->part_path[i]);
		free(st->part[i]);
	}
	free(st->part_path);
	free(st->part);
	free(st->part_len);
	st->part_path = NULL;
	st->part = NULL;
	st->part_len = NULL;
	st->nparts = 0;
	st->failures = NULL;
	st->nfailures = 0;
	st->record_key = st->record_body = st->state_head = NULL;
	st->state = NULL;
	st->touched = NULL;
}

/* ---- the state: where the passes ended ---- */

/* A joined file's part in the state. */
static void state_set(struct factstate *fs, const struct file_result *r, const struct file_result *first,
		      const char *ident, bool wanted)
{
	struct joined j = { r, first };
	size_t nobs;
	const struct fact_obs **c = contributions(&j, &nobs);
	struct factstate_file f = { .path = r->file, .ident = ident,
				    .digest = first && r != first ? r->facts_digest : NULL, .wanted = wanted,
				    .obs = c, .nobs = nobs, .consulted = r->consulted, .nconsulted = r->nconsulted };
	factstate_set(fs, &f);
	free(c);
}

/* The state of a run whose passes ended on files[] (new blob in st). */
static void keep_state(const struct factpass_opts *o, struct fp_run *run, size_t n, struct factstate *fs)
{
	struct factstate *mine = NULL;
	if (!fs) {
		fs = mine = factstate_new();
		for (size_t k = 0; k < o->nextra; k++)
			if (o->extra[k] && o->extra[k]->status == FILE_ANALYZED)
				state_set(fs, o->extra[k], NULL, NULL, false);
		for (size_t i = 0; i < n; i++)
			if (run->files[i] && run->files[i]->status == FILE_ANALYZED)
				state_set(fs, run->files[i], run->first[i], o->ident[i], run->ever[i]);
	}
	run->st->state_head = state_head(o);
	if (run->st->state_head)
		factstate_save(fs, &run->st->state, &run->st->state_len);
	factstate_free(mine);
	phase_mark("facts: state made");
}

/* A resumed run keeps the parts of the files it changed beside the state
 * (all of the state again once they are a tenth of its files). */
static void keep_parts(const struct factpass_opts *o, struct fp_run *run, struct factstate *fs, GHashTable *changed,
		       size_t had)
{
	struct factpass_stats *st = run->st;
	size_t n = g_hash_table_size(changed);
	if (had + n > factstate_nfiles(fs) / 10 + 16) {
		keep_state(o, run, 0, fs);
		return;
	}
	st->state_head = state_head(o);
	st->part_path = xcalloc(n + 1, sizeof(*st->part_path));
	st->part = xcalloc(n + 1, sizeof(*st->part));
	st->part_len = xcalloc(n + 1, sizeof(*st->part_len));
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, changed);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		st->part_path[st->nparts] = xstrdup(k);
		factstate_part_save(fs, k, &st->part[st->nparts], &st->part_len[st->nparts]);
		st->nparts++;
	}
	phase_mark("facts: state parts made");
}

/* ---- resuming from the state of an earlier run ---- */

/* The digest of each key's answer (what a reader sees of it). */
static char **key_texts(struct factbase *fb, char *const *keys, size_t n)
{
	char **t = xcalloc(n + 1, sizeof(*t));
	for (size_t k = 0; k < n; k++) {
		char d[FACTBASE_DIGEST_HEX + 1];
		factbase_digest(fb, &keys[k], 1, d);
		t[k] = xstrdup(d);
	}
	return t;
}

static void free_strv(char **v, size_t n)
{
	for (size_t k = 0; v && k < n; k++)
		free(v[k]);
	free(v);
}

struct resume {
	struct fp_run *run;
	struct factstate *fs;
	size_t n;
	char *const *paths;
	bool *next;          /* files to judge in the next pass */
	GHashTable *changed; /* the paths whose part this run set or dropped */
};

static struct factbase *state_fb(struct factstate *fs)
{
	struct factbase *fb = factbase_new();
	factstate_source(fs, fb);
	return fb;
}

/* One file's new part (r NULL: drop it). */
struct part {
	const char *path;
	const struct file_result *r, *first;
	const char *ident;
	bool wanted;
};

/* Set the files' parts and mark for the next pass the readers of every key
 * whose answer moved.  The run's factbase is renewed. */
static void resume_apply(struct resume *rs, const struct part *p, size_t np)
{
	struct fp_run *run = rs->run;
	/* the keys the parts touch, before and after */
	GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	for (size_t x = 0; x < np; x++) {
		long at = factstate_find(rs->fs, p[x].path);
		size_t nold = 0;
		const char **old = at >= 0 ? factstate_file_obs_keys(rs->fs, (size_t)at, &nold) : NULL;
		for (size_t k = 0; k < nold; k++)
			g_hash_table_add(keys, xstrdup(old[k]));
		free(old);
		for (size_t k = 0; p[x].r && k < p[x].r->nfacts; k++)
			g_hash_table_add(keys, xstrdup(p[x].r->facts[k].key));
		for (size_t k = 0; p[x].r && p[x].first && k < p[x].first->nfacts; k++)
			g_hash_table_add(keys, xstrdup(p[x].first->facts[k].key));
	}
	guint nk = 0;
	char **kv = (char **)g_hash_table_get_keys_as_array(keys, &nk);
	char **before = key_texts(run->fb, kv, nk);
	for (size_t x = 0; x < np; x++) {
		if (p[x].r)
			state_set(rs->fs, p[x].r, p[x].first, p[x].ident, p[x].wanted);
		else
			factstate_drop(rs->fs, p[x].path);
		g_hash_table_add(rs->changed, xstrdup(p[x].path));
	}
	factbase_free(run->fb);
	run->fb = state_fb(rs->fs);
	char **after = key_texts(run->fb, kv, nk);
	for (size_t k = 0; k < nk; k++) {
		if (!strcmp(before[k], after[k]))
			continue;
		size_t nr;
		size_t *rd = factstate_readers(rs->fs, kv[k], &nr);
		for (size_t x = 0; x < nr; x++) {
			struct factstate_file f;
			if (!factstate_file(rs->fs, rd[x], &f) || !f.ident || !f.wanted)
				continue;
			gpointer v = g_hash_table_lookup(run->by_path, f.path);
			if (v)
				rs->next[GPOINTER_TO_SIZE(v) - 1] = true;
		}
		free(rd);
	}
	free_strv(before, nk);
	free_strv(after, nk);
	g_free(kv);
	g_hash_table_destroy(keys);
}

/* One pass over todo[0..m): judged by the pool against run->fb. */
static int run_pass(struct fp_run *run, char **todo, size_t m)
{
	const struct factpass_opts *o = run->o;
	struct factpass_stats *st = run->st;
	struct pool_stats ps = { 0 };
	struct pool_opts po = o->pool;
	po.done = on_done;
	po.lookup = on_lookup;
	po.store = on_store;
	po.idle = on_idle;
	po.data = run;
	po.stats = &ps;
	run->reused = 0;
	run->same_f = run->same_o = run->same_fo = 0;
	size_t judged0 = st->judged;
	engine_set_facts(o->engine, run->fb);
	int rc = pool_run(o->engine, todo, m, &po);
	engine_set_facts(o->engine, NULL);
	if (phase_on())
		fprintf(stderr, "phase: facts pass %d: %zu judged; as before: findings %zu, observations %zu, both %zu\n",
			run->pass, st->judged - judged0, run->same_f, run->same_o, run->same_fo);
	for (size_t i = 0; i < m; i++) {
		free(run->content[i]);
		run->content[i] = NULL;
	}
	st->passes++;
	st->parsed += ps.forked;
	st->cached += ps.answered - run->reused;
	st->reused += run->reused;
	st->wall += ps.wall;
	st->worker_cpu += ps.worker_cpu;
	phase_mark("facts: pass");
	return rc;
}

/* Each unchanged file takes its judged row as the state names it. */
static bool resume_rows(const struct factpass_opts *o, struct fp_run *run, struct factstate *fs, char *const *paths,
			size_t n, const bool *changed)
{
	for (size_t i = 0; i < n; i++) {
		struct factstate_file f;
		long at = run->files[i] && !changed[i] ? factstate_find(fs, run->files[i]->file) : -1;
		if (at < 0 || !factstate_file(fs, (size_t)at, &f) || !f.digest)
			continue;
		struct store_key sk = { .path = run->files[i]->file };
		struct file_result *r = NULL;
		snprintf(sk.context, sizeof(sk.context), "%s", o->context);
		if (store_content_hash(o->store, paths[i], sk.content) ||
		    store_judged_get_digest(o->store, &sk, f.digest, &r)) {
			err_clear();
			return false;
		}
		r->not_in_config = run->files[i]->not_in_config;
		run->files[i] = r; /* run->first[i] keeps the first pass's */
	}
	return true;
}

/* Which files changed since the state: *nchanged, and the state's files
 * the run no longer has (new array of *ngone paths into fs). */
static bool *resume_changes(const struct factpass_opts *o, struct fp_run *run, struct factstate *fs, size_t n,
			    size_t *nchanged, const char ***gone, size_t *ngone)
{
	bool *changed = xcalloc(n + 1, sizeof(*changed));
	*nchanged = *ngone = 0;
	for (size_t i = 0; i < n; i++) {
		const struct file_result *r = run->files[i];
		if (!r || !r->file)
			continue;
		struct factstate_file f;
		long at = factstate_find(fs, r->file);
		bool have = at >= 0 && factstate_file(fs, (size_t)at, &f) && f.ident;
		bool analyzed = r->status == FILE_ANALYZED;
		if ((analyzed && have && !strcmp(f.ident, o->ident[i])) || (!analyzed && !have))
			continue;
		changed[i] = true;
		(*nchanged)++;
	}
	size_t alloc = 0;
	*gone = NULL;
	for (size_t k = 0; k < factstate_nfiles(fs); k++) {
		struct factstate_file f;
		if (factstate_file(fs, k, &f) && f.ident && !g_hash_table_contains(run->by_path, f.path)) {
			ALLOC_GROW(*gone, *ngone + 1, alloc);
			(*gone)[(*ngone)++] = f.path;
		}
	}
	return changed;
}

/* The resumed passes: the marked files judged, their new parts set and
 * their readers marked, round after round.  Returns pool_run's code. */
static int resume_passes(const struct factpass_opts *o, struct resume *rs, struct part *parts, bool *touched,
			 char **todo)
{
	struct fp_run *run = rs->run;
	struct factstate *fs = rs->fs;
	struct factpass_stats *st = run->st;
	char *const *paths = rs->paths;
	bool *next = rs->next;
	size_t n = rs->n, np;
	int rc = 0;
	for (run->pass = 1;; run->pass++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			struct file_result *r = run->files[i];
			if (!next[i] || run->failed[i] || !r || r->status != FILE_ANALYZED)
				continue;
			next[i] = false;
			if (store_load_deferred(o->store, r))
				err_clear();
			if (fresh(run, r))
				continue;
			run->idx[m] = i;
			todo[m++] = paths[i];
		}
		memset(next, 0, n * sizeof(*next));
		if (!m) {
			st->converged = true;
			break;
		}
		if (run->pass > o->max_passes)
			break;
		struct file_result **was = xcalloc(m + 1, sizeof(*was));
		for (size_t k = 0; k < m; k++)
			was[k] = run->files[run->idx[k]];
		size_t *idx = xcalloc(m + 1, sizeof(*idx));
		memcpy(idx, run->idx, m * sizeof(*idx));
		rc = run_pass(run, todo, m);
		np = 0;
		for (size_t k = 0; !rc && k < m; k++) {
			size_t i = idx[k];
			if (run->files[i] == was[k])
				continue; /* failed: keeps its answer */
			touched[i] = true;
			if (store_load_deferred(o->store, run->first[i]))
				err_clear();
			struct factstate_file f;
			long at = factstate_find(fs, run->files[i]->file);
			bool wanted = at >= 0 && factstate_file(fs, (size_t)at, &f) ? f.wanted : run->wanted[i];
			parts[np++] = (struct part){ run->files[i]->file, run->files[i], run->first[i], o->ident[i], wanted };
		}
		if (np)
			resume_apply(rs, parts, np);
		free(was);
		free(idx);
		if (rc)
			break;
	}
	return rc;
}

/* A changed file's judgement made on its first parse against the state
 * (engine.h engine_set_spec_state) becomes its result: its part then is
 * the one a pass would give it, and the pass does not parse it again when
 * the keys it read answer the same after the changes.  NULL: none. */
static struct file_result *adopt_spec(const struct factpass_opts *o, struct fp_run *run, size_t i, const char *path)
{
	struct file_result *f0 = run->first[i], *spec = f0->spec;
	char content[STORE_HASH_HEX];
	if (!spec || strcmp(spec->file, f0->file) || !spec->facts_digest || !o->store)
		return NULL;
	if (store_content_hash(o->store, path, content)) {
		err_clear();
		return NULL;
	}
	put_judged(o, f0->file, content, spec);
	f0->spec = NULL;
	run->files[i] = spec; /* run->first[i] keeps the first pass's */
	run->st->judged++;
	run->st->reused++;
	return spec;
}

static int load_part(void *data, const void *blob, size_t len)
{
	return factstate_part_load(data, blob, len);
}

struct factpass_state {
	char *head, *stamp;
	struct factstate *fs;
	size_t had; /* parts beside the state */
};

int factpass_state_load(const struct factpass_opts *o, struct factpass_state **out)
{
	*out = NULL;
	char *head = state_head(o);
	char ctx[STORE_HASH_HEX];
	void *blob = NULL;
	size_t len = 0;
	char *stamp = NULL;
	struct factstate *fs = NULL;
	snprintf(ctx, sizeof(ctx), "%s", o->context ? o->context : "");
	if (!head)
		return err_set(GA_ENOTFOUND, "no facts state: the passes' inputs are not known");
	int rc = store_state_get(o->store, ctx, head, &stamp, &blob, &len);
	if (!rc)
		rc = factstate_adopt(blob, len, &fs);
	size_t had = 0;
	if (!rc)
		rc = store_state_parts(o->store, ctx, head, load_part, fs, &had);
	if (rc) {
		free(head);
		free(stamp);
		factstate_free(fs);
		return rc;
	}
	struct factpass_state *ps = xcalloc(1, sizeof(*ps));
	*ps = (struct factpass_state){ head, stamp, fs, had };
	*out = ps;
	phase_mark("facts: state loaded");
	return 0;
}

struct factstate *factpass_state_facts(const struct factpass_state *ps)
{
	return ps ? ps->fs : NULL;
}

void factpass_state_free(struct factpass_state *ps)
{
	if (!ps)
		return;
	free(ps->head);
	free(ps->stamp);
	factstate_free(ps->fs);
	free(ps);
}

/* Start from where the passes of an earlier run with the same inputs but
 * a few files ended (factstate.h): those files' parts replace their old
 * ones, and only the readers of keys whose answer moved are judged, for
 * up to max_passes rounds.  False: no state, or too much changed (the
 * caller runs the passes from the start). */
static bool resume(const struct factpass_opts *o, struct fp_run *run, char *const *paths, size_t n, char **todo,
		   struct factpass_state *ps, int *rcp)
{
	if (!ps && factpass_state_load(o, &ps)) {
		err_clear();
		return false;
	}
	struct factstate *fs = ps->fs;
	size_t had = ps->had;
	/* the tree's facts as that run left them: only the files whose part
	 * changes need writing again (the caller's call) */
	run->st->tree_intact = !strcmp(ps->stamp, o->stamp ? o->stamp : "-");
	ps->fs = NULL;
	factpass_state_free(ps);
	size_t nchanged, ngone;
	const char **gone;
	bool *changed = resume_changes(o, run, fs, n, &nchanged, &gone, &ngone);
	/* past a tenth of the files, starting over costs about as much */
	if (nchanged + ngone > n / 10 + 16 || !resume_rows(o, run, fs, paths, n, changed)) {
		for (size_t i = 0; i < n; i++)
			if (run->files[i] != run->first[i]) {
				file_result_free(run->files[i]);
				run->files[i] = run->first[i];
			}
		free(changed);
		free(gone);
		factstate_free(fs);
		return false;
	}
	struct factpass_stats *st = run->st;
	bool *next = xcalloc(n + 1, sizeof(*next));
	bool *touched = xcalloc(n + 1, sizeof(*touched));
	struct resume rs = { run, fs, n, paths, next, g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL) };
	run->fb = state_fb(fs);
	struct part *parts = xcalloc(n + ngone + 1, sizeof(*parts));
	size_t np = 0;
	for (size_t k = 0; k < ngone; k++)
		parts[np++] = (struct part){ .path = gone[k] };
	for (size_t i = 0; i < n; i++) {
		if (!changed[i])
			continue;
		struct file_result *r = run->files[i];
		touched[i] = true;
		if (r->status != FILE_ANALYZED) {
			parts[np++] = (struct part){ .path = r->file };
			continue;
		}
		if (store_load_deferred(o->store, r))
			err_clear();
		/* the demand as a file alone shows it (factpass.h) */
		run->wanted[i] = r->facts_digest && (file_result_wants_facts(r) ||
						     (file_result_facts_eligible(r) && file_result_publishes_open(r)));
		struct file_result *spec = adopt_spec(o, run, i, paths[i]);
		parts[np++] = spec ? (struct part){ r->file, spec, r, o->ident[i], run->wanted[i] }
				   : (struct part){ r->file, r, NULL, o->ident[i], run->wanted[i] };
	}
	resume_apply(&rs, parts, np);
	for (size_t i = 0; i < n; i++)
		next[i] = next[i] || (changed[i] && run->wanted[i]);
	free(changed);
	free(gone);
	phase_mark("facts: changes applied");
	int rc = resume_passes(o, &rs, parts, touched, todo);
	for (size_t i = 0; i < n; i++)
		if (run->first[i]) {
			file_result_free(run->first[i]->spec);
			run->first[i]->spec = NULL;
		}
	factbase_free(run->fb);
	run->fb = NULL;
	st->keys = factstate_nkeys(fs);
	st->resumed = true;
	st->resume_changed = nchanged + ngone;
	st->touched = touched;
	if (!rc && !st->failed)
		keep_parts(o, run, fs, rs.changed, had);
	g_hash_table_destroy(rs.changed);
	factstate_free(fs);
	free(next);
	free(parts);
	*rcp = rc;
	return true;
}

int factpass_run(const struct factpass_opts *o, struct file_result **files, char *const *paths, size_t n,
		 struct factpass_stats *st)
{
	memset(st, 0, sizeof(*st));
	phase_mark("before the facts passes");
	size_t *order = xcalloc(n + 1, sizeof(*order));
	char *key = record_key(o, files, n, order);
	phase_mark("facts: record key");
	if (key && from_record(o, files, paths, n, key, order, st)) {
		phase_mark("facts: from the record");
		free(key);
		free(order);
		return 0;
	}
	struct fp_run run = { .o = o, .files = files, .st = st };
	run.idx = xcalloc(n + 1, sizeof(*run.idx));
	run.first = xcalloc(n + 1, sizeof(*run.first));
	memcpy(run.first, files, n * sizeof(*files));
	run.content = xcalloc(n + 1, sizeof(*run.content));
	run.failed = xcalloc(n + 1, sizeof(*run.failed));
	run.wanted = xcalloc(n + 1, sizeof(*run.wanted));
	run.ever = xcalloc(n + 1, sizeof(*run.ever));
	run.by_path = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < n; i++)
		if (files[i] && files[i]->file)
			g_hash_table_insert(run.by_path, files[i]->file, GSIZE_TO_POINTER(i + 1));
	char **todo = xcalloc(n + 1, sizeof(*todo));
	int rc = 0;
	struct factpass_state *ps = o->preloaded ? *o->preloaded : NULL;
	if (o->preloaded)
		*o->preloaded = NULL;
	if (ps) { /* loaded for inputs that may not be these */
		char *head = state_head(o);
		if (!head || strcmp(head, ps->head)) {
			factpass_state_free(ps);
			ps = NULL;
		}
		free(head);
	}
	/* resume() takes ps, whatever it answers */
	bool may_resume = key && !getenv("GFPAUDIT_NO_RESUME");
	bool resumed = may_resume && resume(o, &run, paths, n, todo, ps, &rc);
	if (!may_resume)
		factpass_state_free(ps);
	if (!resumed) {
		/* the passes read every file's facts and consulted keys */
		for (size_t i = 0; i < n; i++)
			if (files[i] && store_load_deferred(o->store, files[i]))
				err_clear(); /* then it has none: judged again, as a file that consulted nothing */
		phase_mark("facts: record missed, deferred loaded");
		if (phase_on()) {
			size_t nspec = 0;
			for (size_t i = 0; i < n; i++)
				nspec += files[i] && files[i]->spec;
			fprintf(stderr, "phase: first pass: %zu second judgements\n", nspec);
		}
	}
	for (run.pass = 1; !resumed; run.pass++) {
		factbase_free(run.fb);
		run.fb = join_mixed(o->extra, o->nextra, files, run.first, n);
		st->keys = factbase_size(run.fb);
		phase_mark("facts: join");
		size_t m = pick(&run, n, paths, todo);
		phase_mark("facts: pick");
		if (!m) {
			st->converged = true;
			break;
		}
		if (run.pass > o->max_passes)
			break;
		rc = run_pass(&run, todo, m);
		/* the second judgements of the first parse the first pass did not
		 * take: the join after it was their best chance (memory) */
		for (size_t i = 0; run.pass == 1 && i < n; i++) {
			file_result_free(run.first[i]->spec);
			run.first[i]->spec = NULL;
		}
		if (rc)
			break;
	}
	factbase_free(run.fb);
	/* the end the passes came to is a function of their inputs (what the
	 * cache answers is what a worker would): kept for the next run with
	 * the same inputs, unless a judgement failed or the run stopped */
	if (key && !rc && !st->failed) {
		st->record_body = record_body(st, files, run.first, order, n);
		if (st->record_body)
			st->record_key = xstrdup(key);
		if (st->record_body && !resumed)
			keep_state(o, &run, n, NULL);
	}
	free(key);
	free(order);
	for (size_t i = 0; i < n; i++)
		if (run.first[i] != files[i])
			file_result_free(run.first[i]);
	free(run.first);
	free(todo);
	free(run.content);
	free(run.failed);
	free(run.wanted);
	free(run.ever);
	free(run.idx);
	g_hash_table_destroy(run.by_path);
	phase_mark("facts: record made");
	return rc;
}
