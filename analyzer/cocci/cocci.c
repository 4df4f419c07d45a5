/* cocci: spatch as a pipeline stage (see include/gfpaudit/cocci.h).
 *
 * One spatch process per rule file and batch of files, started with
 * posix_spawnp; its stdout and stderr come back over pipes.  The rules print
 * their findings as JSON lines only under -D gfpaudit, so the kernel's
 * coccicheck output (-D report) stays in the kernel's format.
 */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/check.h"
#include "gfpaudit/cocci.h"
#include "gfpaudit/err.h"
#include "gfpaudit/source.h"
#include "gfpaudit/strbuf.h"

extern char **environ;


/* Files per spatch process: keeps the argument list far below ARG_MAX on
 * whole trees. */
#define COCCI_BATCH 1000
/* What is kept of spatch's stderr for the error message. */
#define STDERR_KEEP (64 * 1024)

static const char line_prefix[] = "gfpaudit-cocci: ";

static int is_cocci_name(const char *name)
{
	size_t n = strlen(name);
	return n > 6 && !strcmp(name + n - 6, ".cocci") && name[0] != '.';
}

const char *cocci_rules_dir(void)
{
	const char *d = datadir_rules();
	return d ? d : "rules";
}

/* A rule file and what its header says: the gfpaudit rule id (the python
 * line RULE = '...') and the "// Options:" coccicheck passes to spatch. */
struct rule_file {
	char *path;
	char *id;
	char **opts;
	size_t nopts, opts_alloc;
};

static void rule_file_release(struct rule_file *rf)
{
	free(rf->path);
	free(rf->id);
	for (size_t i = 0; i < rf->nopts; i++)
		free(rf->opts[i]);
	free(rf->opts);
	memset(rf, 0, sizeof(*rf));
}

static int rule_file_read(const char *path, struct rule_file *rf)
{
	struct strbuf sb = STRBUF_INIT;
	memset(rf, 0, sizeof(*rf));
	int rc = strbuf_read_file(&sb, path, 4 << 20);
	if (rc)
		return rc;
	rf->path = xstrdup(path);
	for (char *l = sb.buf; l && *l; ) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(l, "// Options:", 11) && !rf->nopts) {
			for (char *t = strtok(l + 11, " \t"); t; t = strtok(NULL, " \t")) {
				ALLOC_GROW(rf->opts, rf->nopts + 1, rf->opts_alloc);
				rf->opts[rf->nopts++] = xstrdup(t);
			}
		} else if (!strncmp(l, "RULE = '", 8) && !rf->id) {
			char *end = strchr(l + 8, '\'');
			if (end)
				rf->id = xstrndup(l + 8, (size_t)(end - (l + 8)));
		}
		l = nl ? nl + 1 : NULL;
	}
	strbuf_release(&sb);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .cocci files of dir, sorted so runs are reproducible. */
static int list_rules(const char *dir, char ***out, size_t *nout)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, alloc = 0;
	if (!d)
		return err_set(GA_EIO, "cannot read the rules directory '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!is_cocci_name(de->d_name))
			continue;
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (!n)
		return err_set(GA_EIO, "no .cocci rules in '%s'", dir);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	*nout = n;
	return 0;
}

/* Run spatch to completion; its stdout lands in out, the tail of its stderr
 * in err.  GA_ETOOL when it cannot start or does not exit 0. */
static int spawn_spatch(const char *spatch, char **argv, char **envp, struct strbuf *out, struct strbuf *err)
{
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, rc = 0, status = 0;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if (pipe2(op, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		rc = err_set(GA_ETOOL, "pipe: %s", strerror(errno));
		goto cleanup;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, op[1], 1);
	posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
	int sr = posix_spawnp(&pid, spatch, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(op[1]);
	close(ep[1]);
	op[1] = ep[1] = -1;
	if (sr) {
		rc = err_set(GA_ETOOL, sr == ENOENT ?
			     "'%s' not found: install coccinelle or set $SPATCH" : "cannot run '%s': %s",
			     spatch, strerror(sr));
		goto cleanup;
	}

	struct pollfd pf[2] = { { op[0], POLLIN, 0 }, { ep[0], POLLIN, 0 } };
	int open_fds = 2;
	char buf[8192];
	while (open_fds) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = read(pf[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			struct strbuf *sb = i ? err : out;
			strbuf_add(sb, buf, (size_t)r);
			if (i && sb->len > 2 * STDERR_KEEP) {
				memmove(sb->buf, sb->buf + sb->len - STDERR_KEEP, STDERR_KEEP);
				sb->len = STDERR_KEEP;
				sb->buf[sb->len] = '\0';
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		/* the last non-empty stderr line says why */
		char *last = NULL;
		for (char *l = err->buf; *l; ) {
			char *nl = strchr(l, '\n');
			if (nl != l)
				last = l;
			if (!nl)
				break;
			*nl = '\0';
			l = nl + 1;
		}
		if (WIFEXITED(status))
			rc = err_set(GA_ETOOL, "exit %d: %s", WEXITSTATUS(status), last ? last : "no message");
		else
			rc = err_set(GA_ETOOL, "killed by signal %d", WTERMSIG(status));
	}
cleanup:
	for (int i = 0; i < 2; i++) {
		if (op[i] >= 0)
			close(op[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	return rc;
}

static char *json_str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int cocci_parse_line(const char *line, struct finding *out)
{
	finding_init(out);
	if (strncmp(line, line_prefix, sizeof(line_prefix) - 1))
		return GA_ENOTFOUND;
	json_error_t je;
	json_t *j = json_loads(line + sizeof(line_prefix) - 1, 0, &je);
	int rc = 0;
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "rule")) ||
	    !json_is_string(json_object_get(j, "file")) || !json_is_integer(json_object_get(j, "line"))) {
		rc = err_set(GA_EINVAL, "malformed spatch finding: %.200s", line);
		goto cleanup;
	}
	out->rule = json_str(j, "rule");
	int idx = check_lookup(out->rule);
	out->severity = idx >= 0 ? check_table[idx]->severity : SEV_WARNING;
	out->message = json_str(j, "message");
	if (!out->message)
		out->message = xstrdup("");
	out->source = xstrdup("cocci");
	struct site *s = &out->site;
	s->file = json_str(j, "file");
	s->line = (int)json_integer_value(json_object_get(j, "line"));
	s->col = json_is_integer(json_object_get(j, "column")) ?
		(int)json_integer_value(json_object_get(j, "column")) : 0;
	s->function = json_str(j, "function");
	s->api = json_str(j, "api");
	s->gfp_expr = json_str(j, "gfp");
	s->order_expr = json_str(j, "order");
	const json_t *ov = json_object_get(j, "order_value");
	if (json_is_integer(ov)) {
		int v = (int)json_integer_value(ov);
		s->order = (struct order_range){ v, v, true };
	}
	char *fb = json_str(j, "fallback");
	int fk = fb ? fallback_lookup(fb) : -1;
	s->fallback = fk < 0 ? FB_UNKNOWN : (enum fallback_kind)fk;
	free(fb);
	out->fingerprint = finding_fingerprint(out->rule, s);
cleanup:
	json_decref(j);
	if (rc)
		finding_release(out);
	return rc;
}

int cocci_merge(struct report *rep, struct finding *f)
{
	struct file_result *fr = NULL;
	const char *file = f->site.file ? f->site.file : "";
	for (size_t i = 0; i < rep->n && !fr; i++)
		if (!strcmp(rep->files[i]->file, file))
			fr = rep->files[i];
	if (!fr) {
		fr = xcalloc(1, sizeof(*fr));
		file_result_init(fr, file);
		fr->status = FILE_ANALYZED;
		report_add(rep, fr);
	}
	for (size_t i = 0; i < fr->nfindings; i++) {
		const struct finding *g = &fr->findings[i];
		if (g->site.line == f->site.line && g->rule && f->rule && !strcmp(g->rule, f->rule)) {
			finding_release(f);
			return 0;
		}
	}
	struct finding *d = file_result_add_finding(fr);
	*d = *f;
	finding_init(f);
	return 1;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	if (x->site.line != y->site.line)
		return x->site.line < y->site.line ? -1 : 1;
	if (x->site.col != y->site.col)
		return x->site.col < y->site.col ? -1 : 1;
	return strcmp(x->rule ? x->rule : "", y->rule ? y->rule : "");
}

/* Findings of one spatch run: parse, name the API kind, re-path, merge. */
static int take_output(const struct cocci_opts *o, const struct alloc_table *at,
		       const struct rule_file *rf, struct strbuf *out, struct report *rep)
{
	for (char *l = out->buf; l && *l; ) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		struct finding f;
		int rc = cocci_parse_line(l, &f);
		if (rc == GA_EINVAL) {
			char *why = xstrdup(err_last());
			rc = err_set(GA_ETOOL, "%s: %s", rf->path, why);
			free(why);
			return rc;
		}
		if (!rc) {
			const struct alloc_entry *e = f.site.api ? alloc_table_find(at, f.site.api) : NULL;
			if (e)
				f.site.kind = e->kind;
			if (o->report_path) {
				char *p = o->report_path(o->data, f.site.file);
				free(f.site.file);
				f.site.file = p;
				free(f.fingerprint);
				f.fingerprint = finding_fingerprint(f.rule, &f.site);
			}
			cocci_merge(rep, &f);
		}
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

char *cocci_constants(const struct tree_constants *c)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "PAGE_SHIFT=%d PAGE_ALLOC_COSTLY_ORDER=%d MAX_PAGE_ORDER=%d KMALLOC_MAX_CACHE_SIZE=%lld "
		    "HPAGE_PMD_ORDER=%lld", c->page_shift, c->costly_order, c->max_order, c->kmalloc_max_cache_size,
		    c->hpage_pmd_order);
	if (c->max_order_macro >= 0)
		strbuf_addf(&sb, " MAX_ORDER=%lld", c->max_order_macro);
	return strbuf_detach(&sb);
}

/* environ, with COCCI_CONSTANTS_ENV set to `value` when there is one
 * (the array is the caller's to free, the strings but the last are
 * environ's). */
static char **spatch_env(const char *value, char **own)
{
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	char **v = xcalloc(n + 2, sizeof(*v));
	size_t len = strlen(COCCI_CONSTANTS_ENV);
	for (size_t i = 0; i < n; i++)
		if (!value || strncmp(environ[i], COCCI_CONSTANTS_ENV, len) || environ[i][len] != '=')
			v[k++] = environ[i];
	*own = value ? xasprintf("%s=%s", COCCI_CONSTANTS_ENV, value) : NULL;
	if (*own)
		v[k++] = *own;
	v[k] = NULL;
	return v;
}

int cocci_run(const struct cocci_opts *o, char *const *files, size_t n, struct report *rep)
{
	const char *spatch = o->spatch ? o->spatch : getenv("SPATCH");
	const char *dir = o->rules_dir ? o->rules_dir : cocci_rules_dir();
	char **paths = NULL, jobs[16];
	size_t npaths = 0;
	struct alloc_table at = { 0 };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char **argv = NULL, **envp = NULL, *own_env = NULL, *consts = NULL;
	int rc;

	if (!spatch || !*spatch)
		spatch = "spatch";
	if (!n)
		return 0;
	rc = list_rules(dir, &paths, &npaths);
	if (rc)
		return rc;
	rc = alloc_table_init(&at);
	if (rc)
		goto cleanup;
	snprintf(jobs, sizeof(jobs), "%d", o->jobs);
	if (o->constants)
		consts = cocci_constants(o->constants);
	envp = spatch_env(consts, &own_env);
	argv = xcalloc(32 + (n < COCCI_BATCH ? n : COCCI_BATCH), sizeof(*argv));
	for (size_t r = 0; r < npaths && !rc; r++) {
		struct rule_file rf;
		rc = rule_file_read(paths[r], &rf);
		if (rc)
			break;
		int idx = rf.id ? check_lookup(rf.id) : -1;
		if (o->rules && idx >= 0 && idx < 64 && !(o->rules & ((uint64_t)1 << idx))) {
			rule_file_release(&rf);
			continue;
		}
		for (size_t b = 0; b < n && !rc; b += COCCI_BATCH) {
			size_t k = 0, m = n - b < COCCI_BATCH ? n - b : COCCI_BATCH;
			argv[k++] = (char *)spatch;
			argv[k++] = "-D";
			argv[k++] = "gfpaudit";
			argv[k++] = "--very-quiet";
			argv[k++] = "--no-show-diff";
			for (size_t i = 0; i < rf.nopts && i < 16; i++)
				argv[k++] = rf.opts[i];
			if (o->jobs > 1 && m > 1) {
				argv[k++] = "--jobs";
				argv[k++] = jobs;
				argv[k++] = "--chunksize";
				argv[k++] = "1";
			}
			argv[k++] = "--cocci-file";
			argv[k++] = rf.path;
			for (size_t i = 0; i < m; i++)
				argv[k++] = files[b + i];
			argv[k] = NULL;
			if (o->verbose)
				fprintf(stderr, "gfpaudit: %s ... (%zu files)\n", rf.path, m);
			strbuf_reset(&out);
			strbuf_reset(&err);
			rc = spawn_spatch(spatch, argv, envp, &out, &err);
			if (rc) {
				char *why = xstrdup(err_last()); /* err_set reuses its buffer */
				rc = err_set(rc, "spatch with %s: %s", rf.path, why);
				free(why);
			} else
				rc = take_output(o, &at, &rf, &out, rep);
		}
		rule_file_release(&rf);
	}
	/* spatch prints in its own order; the printers go by array order */
	for (size_t i = 0; i < rep->n; i++)
		if (rep->files[i]->nfindings > 1)
			qsort(rep->files[i]->findings, rep->files[i]->nfindings, sizeof(struct finding),
			      cmp_finding);
cleanup:
	free(argv);
	free(envp);
	free(own_env);
	free(consts);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	alloc_table_release(&at);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
