/* Triage (see triage.h): cache first, then the prefilter, then a worker. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/triage.h"
#include "gfpaudit/store.h"
#include "gfpaudit/prefilter.h"
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/check.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct triage {
	struct engine *engine;
	struct store *store;
	char context[STORE_HASH_HEX];
	struct prefilter *pf;
	/* learning wrappers costs ~0.5 s on a tree: done at the first file the
	 * cache cannot answer, so a warm run never pays it */
	const struct engine_opts *pf_eo;
	GHashTable *pending;  /* path -> content hash, for files sent to workers */
	struct triage_stats st;
	char **ident;         /* by index: triage_identity() */
	size_t ident_alloc;
};

static void set_ident(struct triage *t, size_t index, const char *id)
{
	if (index >= t->ident_alloc) {
		size_t old = t->ident_alloc;
		t->ident_alloc = index + 1 > 2 * old ? index + 1 : 2 * old;
		t->ident = xrealloc(t->ident, t->ident_alloc * sizeof(*t->ident));
		memset(t->ident + old, 0, (t->ident_alloc - old) * sizeof(*t->ident));
	}
	free(t->ident[index]);
	t->ident[index] = id && *id ? xstrdup(id) : NULL;
}

const char *triage_identity(const struct triage *t, size_t index)
{
	return index < t->ident_alloc ? t->ident[index] : NULL;
}

static double now_sec(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The consistency rules read whole functions of allocator code, not
 * allocation sites (analyzer/model/consistency.c): what each needs in a file
 * before it can report.  Kept in step with the names that module keys on;
 * a rule that is not enabled adds nothing. */
static const char *const capability_names[] = {
	"__GFP_DIRECT_RECLAIM", "__GFP_KSWAPD_RECLAIM", "__GFP_RECLAIM", "__GFP_NORETRY",
	"__GFP_RETRY_MAYFAIL", "__GFP_NOFAIL", "__GFP_IO", "__GFP_FS", "__GFP_HIGH",
	"__GFP_MEMALLOC", "__GFP_NOMEMALLOC", "__GFP_THISNODE",
	"gfp_compaction_allowed", "gfpflags_allow_blocking", "gfpflags_normal_context",
	"gfp_pfmemalloc_allowed", "gfpflags_allow_spinning", NULL,
};
static const char *const mask_sinks[] = {
	"__alloc_pages_direct_*", "trace_*", "gfp_pfmemalloc_allowed", "__gfp_pfmemalloc_flags",
	"prepare_alloc_pages", NULL,
};

static bool rule_on(const struct engine_opts *eo, const char *id)
{
	int i = check_lookup(id);
	return i >= 0 && i < 64 && (eo->rules & ((uint64_t)1 << i));
}

static void add_rule_triggers(struct prefilter *pf, const struct engine_opts *eo)
{
	if (rule_on(eo, "stale-alloc-flags") || rule_on(eo, "gfp-alloc-flags-mix") ||
	    rule_on(eo, "gfp-derived-divergence")) {
		/* alloc_flags variables and derivations, ALLOC_* constants */
		prefilter_add_trigger(pf, "ALLOC_", "alloc_flags");
		prefilter_add_trigger(pf, "__gfp_pfmemalloc_flags", NULL);
		prefilter_add_trigger(pf, "prepare_alloc_pages", NULL);
	}
	if (rule_on(eo, "gfp-derived-divergence"))
		/* a capability derived from the mask, and a sink the mask reaches */
		prefilter_add_pair(pf, capability_names, mask_sinks);
}

/* Wrappers are learned from the headers the files will include: the tree's
 * include/ and arch/$(SRCARCH)/include/ (the architecture it is configured
 * for), or the kernel-model headers without a tree. */
static int prefilter_setup(struct triage *t, const struct engine_opts *eo)
{
	struct alloc_table at;
	int rc = alloc_table_init(&at);
	for (const char **a = eo->allocator_files; !rc && a && *a; a++)
		rc = alloc_table_load_file(&at, *a);
	if (rc) {
		alloc_table_release(&at);
		return rc;
	}
	prefilter_new(&at, &t->pf);
	alloc_table_release(&at);
	double t0 = now_sec();
	if (eo->tree) {
		const char *arch = "x86";
		if (flags_tree_arch(eo->tree, &arch, NULL))
			err_clear();
		char *archinc = xasprintf("arch/%s/include", arch);
		const char *sub[] = { "include", archinc };
		for (size_t i = 0; i < 2; i++) {
			char *d = xasprintf("%s/%s", eo->tree, sub[i]);
			if (is_dir(d))
				prefilter_learn_dir(t->pf, d);
			free(d);
		}
		free(archinc);
	} else {
		prefilter_learn_dir(t->pf, eo->kmodel_dir ? eo->kmodel_dir : datadir_kmodel());
	}
	t->st.learned = prefilter_learn_finish(t->pf);
	add_rule_triggers(t->pf, eo);
	t->st.learn_sec = now_sec() - t0;
	/* learning used ~90 MB of tables on a real tree; workers fork from this
	 * process, so hand the freed heap back to the system first */
	malloc_trim(0);
	return 0;
}

int triage_new(const struct triage_opts *o, struct triage **out)
{
	struct triage *t = xcalloc(1, sizeof(*t));
	int rc = 0;
	t->engine = o->engine;
	t->pending = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	if (o->cache_path) {
		if ((rc = store_open(o->cache_path, &t->store)) || (rc = store_context(o->eo, o->engine ? engine_pch_identity(o->engine) : NULL, t->context)) ||
		    (rc = store_use_context(t->store, t->context)))
			goto fail;
	}
	if (o->prefilter && !o->cache_path && (rc = prefilter_setup(t, o->eo)))
		goto fail;
	if (o->prefilter && o->cache_path)
		t->pf_eo = o->eo;
	*out = t;
	return 0;
fail:
	triage_free(t);
	*out = NULL;
	return rc;
}

/* A cache that cannot be written costs speed, not results: counted, the
 * first reason kept for the summary, the run goes on. */
static void store_failed(struct triage *t)
{
	if (!t->st.store_failed++)
		snprintf(t->st.store_error, sizeof(t->st.store_error), "%s", err_last());
	err_clear();
}

void triage_free(struct triage *t)
{
	if (!t)
		return;
	store_close(t->store);
	for (size_t i = 0; i < t->ident_alloc; i++)
		free(t->ident[i]);
	free(t->ident);
	prefilter_free(t->pf);
	g_hash_table_destroy(t->pending);
	free(t);
}

void triage_idle(struct triage *t)
{
	if (t->store && store_commit(t->store))
		err_clear(); /* a cache that cannot be written costs speed, not results */
}

void triage_get_stats(const struct triage *t, struct triage_stats *out)
{
	*out = t->st;
}

struct store *triage_cache(const struct triage *t)
{
	return t->store;
}

const char *triage_context(const struct triage *t)
{
	return t->context;
}

bool triage_is_prefiltered(const struct file_result *r)
{
	return r->status == FILE_ANALYZED && r->nsites == 0 && r->reason &&
	       !strcmp(r->reason, TRIAGE_PREFILTER_REASON);
}

/* The headers a result depends on (every file the TU opened, filled by the
 * engine): the cache checks them on every lookup, so a header edit that
 * leaves the config alone still invalidates the files that include it. */
static const char *const *result_includes(const struct file_result *r, size_t *n)
{
	*n = r->nincludes;
	return (const char *const *)r->includes;
}

struct file_result *triage_lookup(struct triage *t, size_t index, const char *path)
{
	if (!t->store && !t->pf)
		return NULL;
	double t0 = now_sec();
	int want_pf = t->pf || t->pf_eo;
	struct strbuf sb = STRBUF_INIT;
	struct file_result *r = NULL;
	char *rep = engine_report_path(t->engine, path);
	struct store_key k = { .path = rep };
	struct stat st;
	int have_stat = stat(path, &st) == 0 && S_ISREG(st.st_mode), have_text = 0;
	if (t->store) {
		memcpy(k.context, t->context, sizeof(k.context));
		/* a warm run reads no file whose inode and times are unchanged */
		if (!have_stat || store_stat_hash(t->store, &st, k.content)) {
			if (strbuf_read_file(&sb, path, 0)) {
				err_clear(); /* the engine reports unreadable files itself */
				goto out;
			}
			have_text = 1;
			store_hash_buf(sb.buf, sb.len, k.content);
			if (have_stat)
				store_stat_remember(t->store, &st, k.content);
		}
		if (store_get(t->store, &k, &r) == 0) {
			set_ident(t, index, store_last_row(t->store));
			t->st.cached++;
			if (triage_is_prefiltered(r))
				t->st.prefiltered++;
			goto out;
		}
		err_clear();
	}
	if (want_pf && !t->pf) {
		const struct engine_opts *eo = t->pf_eo;
		t->pf_eo = NULL;
		if (prefilter_setup(t, eo)) {
			err_clear(); /* without the prefilter every file is parsed: slower, not wrong */
			prefilter_free(t->pf);
			t->pf = NULL;
		}
	}
	if (t->pf && !have_text) {
		if (strbuf_read_file(&sb, path, 0)) {
			err_clear();
			goto out;
		}
		have_text = 1;
	}
	if (t->pf && !prefilter_match(t->pf, sb.buf, sb.len, path, NULL)) {
		r = xcalloc(1, sizeof(*r));
		file_result_init(r, rep);
		r->status = FILE_ANALYZED;
		r->reason = xstrdup(TRIAGE_PREFILTER_REASON);
		t->st.prefiltered++;
		if (t->store && store_put(t->store, &k, NULL, 0, r) == 0) {
			set_ident(t, index, store_last_row(t->store));
			t->st.stored++;
		} else if (t->store)
			store_failed(t);
		goto out;
	}
	if (t->store) {
		/* "CONTENT REPORTED-PATH": the key the result will be stored under */
		g_hash_table_replace(t->pending, xstrdup(path), xasprintf("%s %s", k.content, rep));
		/* the file goes to a worker now: hold no write lock meanwhile */
		store_commit(t->store);
	}
out:
	free(rep);
	strbuf_release(&sb);
	t->st.lookup_sec += now_sec() - t0;
	return r;
}

void triage_store(struct triage *t, size_t index, const char *path, const struct file_result *r)
{
	const char *pend = t->store ? g_hash_table_lookup(t->pending, path) : NULL;
	/* a file that failed because of its own text (it parsed, with errors,
	 * into nothing we understood) fails the same way next time; a crash, a
	 * timeout or a parse libclang gave up on may not */
	if (!pend)
		return;
	if (r->status == FILE_FAILED && r->parse_errors <= 0) {
		/* it gives the facts nothing: a failure like any other */
		set_ident(t, index, "failed");
		return;
	}
	struct store_key k = { .path = pend + STORE_HASH_HEX };
	memcpy(k.context, t->context, sizeof(k.context));
	memcpy(k.content, pend, STORE_HASH_HEX - 1);
	k.content[STORE_HASH_HEX - 1] = 0;
	size_t ninc;
	const char *const *inc = result_includes(r, &ninc);
	if (store_put(t->store, &k, inc, ninc, r) == 0 && store_commit(t->store) == 0) {
		set_ident(t, index, store_last_row(t->store));
		t->st.stored++;
	}
	else
		store_failed(t);
	g_hash_table_remove(t->pending, path);
}
