/* The allocator table: parse the data format (see analyzer/data/allocators.tbl). */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static const char builtin[] =
#include "allocators.inc"
;

static void ref_release(struct arg_ref *r)
{
	free(r->text);
	memset(r, 0, sizeof(*r));
}

static void entry_release(struct alloc_entry *e)
{
	free(e->name);
	ref_release(&e->gfp);
	ref_release(&e->order);
	ref_release(&e->size);
	ref_release(&e->count);
}

void alloc_table_release(struct alloc_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		entry_release(&t->e[i]);
	free(t->e);
	memset(t, 0, sizeof(*t));
}

int alloc_table_init(struct alloc_table *t)
{
	memset(t, 0, sizeof(*t));
	return alloc_table_parse(t, builtin, "<built-in allocators.tbl>");
}

static int parse_kind(const char *s)
{
	static const char *const k[] = { "pages", "exact", "slab", "kv", "vmalloc", "wrapper" };
	for (int i = 0; i < 6; i++)
		if (!strcmp(s, k[i]))
			return i;
	return -1;
}

static int is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static void parse_ref(struct arg_ref *r, const char *v, int is_gfp)
{
	ref_release(r);
	if (v[0] == '#' && isdigit((unsigned char)v[1])) {
		r->how = ARG_INDEX;
		r->index = atoi(v + 1);
	} else if (isdigit((unsigned char)v[0]) || (!is_gfp ? 0 : strchr(v, '|') != NULL) ||
		   (is_gfp && !strncmp(v, "GFP_", 4)) || (is_gfp && !strncmp(v, "__GFP_", 6))) {
		r->how = ARG_CONST;
		r->text = xstrdup(v);
	} else if (is_ident(v)) {
		r->how = ARG_PARAM;
		r->text = xstrdup(v);
	} else {
		r->how = ARG_CONST;
		r->text = xstrdup(v);
	}
}

struct alloc_entry *alloc_table_add(struct alloc_table *t, const char *name, enum api_kind kind)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].name, name)) {
			entry_release(&t->e[i]);
			memset(&t->e[i], 0, sizeof(t->e[i]));
			t->e[i].name = xstrdup(name);
			t->e[i].kind = kind;
			t->e[i].fallback = -1;
			t->e[i].probe = -1;
			return &t->e[i];
		}
	ALLOC_GROW(t->e, t->n + 1, t->alloc);
	struct alloc_entry *e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->kind = kind;
	e->fallback = -1;
	e->probe = -1;
	return e;
}

int alloc_table_parse(struct alloc_table *t, const char *text, const char *origin)
{
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		p += len + (nl ? 1 : 0);
		lineno++;
		char *hash = strchr(line, '#');
		/* '#' starts a comment unless it is an argument index "#N" */
		while (hash && hash > line && hash[-1] == '=' )
			hash = strchr(hash + 1, '#');
		if (hash)
			*hash = 0;
		char *save = NULL, *tok[16];
		int n = 0;
		for (char *w = strtok_r(line, " \t\r", &save); w && n < 16; w = strtok_r(NULL, " \t\r", &save))
			tok[n++] = w;
		if (n == 0) {
			free(line);
			continue;
		}
		int kind = n >= 2 ? parse_kind(tok[1]) : -1;
		if (n < 2 || !is_ident(tok[0]) || kind < 0) {
			int rc = err_set(GA_EINVAL, "%s:%d: expected 'NAME KIND [ROLE=ARG]...' with KIND "
					 "pages|exact|slab|kv|vmalloc", origin, lineno);
			free(line);
			return rc;
		}
		struct alloc_entry *e = alloc_table_add(t, tok[0], (enum api_kind)kind);
		for (int i = 2; i < n; i++) {
			char *eq = strchr(tok[i], '=');
			if (!eq || eq == tok[i] || !eq[1]) {
				int rc = err_set(GA_EINVAL, "%s:%d: '%s' is not ROLE=ARG", origin, lineno, tok[i]);
				free(line);
				return rc;
			}
			*eq = 0;
			const char *role = tok[i], *val = eq + 1;
			if (!strcmp(role, "gfp"))
				parse_ref(&e->gfp, val, 1);
			else if (!strcmp(role, "order"))
				parse_ref(&e->order, val, 0);
			else if (!strcmp(role, "size"))
				parse_ref(&e->size, val, 0);
			else if (!strcmp(role, "count"))
				parse_ref(&e->count, val, 0);
			else if (!strcmp(role, "adds")) {
				char *vdup = xstrdup(val), *sv = NULL;
				for (char *f = strtok_r(vdup, "|", &sv); f; f = strtok_r(NULL, "|", &sv)) {
					int fl = gfp_flag_lookup(f);
					if (fl < 0) {
						int rc = err_set(GA_EINVAL, "%s:%d: unknown flag '%s' in adds=", origin, lineno, f);
						free(vdup);
						free(line);
						return rc;
					}
					e->adds |= (uint64_t)1 << fl;
				}
				free(vdup);
			}
			else if (!strcmp(role, "mem")) {
				if (strcmp(val, "physical")) {
					int rc = err_set(GA_EINVAL, "%s:%d: mem=%s: expected mem=physical", origin, lineno, val);
					free(line);
					return rc;
				}
				e->physical = true;
			}
			else if (!strcmp(role, "align") || !strcmp(role, "extra") || !strcmp(role, "pad")) {
				char *end = NULL;
				long long v = strtoll(val, &end, 0);
				bool align = role[0] == 'a';
				if (*end || v < 0 || v > (1LL << 20) || (align && v && (v & (v - 1)))) {
					int rc = err_set(GA_EINVAL, "%s:%d: %s=%s: expected %s", origin, lineno, role, val,
							 align ? "a power of two (bytes)" : "a number of bytes up to 1 MiB");
					free(line);
					return rc;
				}
				*(align ? &e->size_align : role[0] == 'e' ? &e->size_extra : &e->size_pad) = v;
			}
			else {
				int rc = err_set(GA_EINVAL, "%s:%d: unknown role '%s' (gfp, order, size, count, adds, "
						 "pad, align, extra, mem)", origin, lineno, role);
				free(line);
				return rc;
			}
		}
		if ((kind == API_PAGES && e->order.how == ARG_NONE) ||
		    ((kind == API_SLAB || kind == API_KV || kind == API_EXACT) && e->size.how == ARG_NONE)) {
			int rc = err_set(GA_EINVAL, "%s:%d: '%s' needs %s=ARG", origin, lineno, tok[0],
					 kind == API_PAGES ? "order" : "size");
			free(line);
			return rc;
		}
		free(line);
	}
	return 0;
}

int alloc_table_load_file(struct alloc_table *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_file(&sb, path, 1 << 20);
	if (!rc)
		rc = alloc_table_parse(t, sb.buf, path);
	strbuf_release(&sb);
	return rc;
}

const struct alloc_entry *alloc_table_find(const struct alloc_table *t, const char *fn)
{
	size_t len = strlen(fn);
	if (len > 7 && !strcmp(fn + len - 7, "_noprof"))
		len -= 7;
	/* later entries override earlier ones: search from the end */
	for (size_t i = t->n; i-- > 0;)
		if (strlen(t->e[i].name) == len && !strncmp(t->e[i].name, fn, len))
			return &t->e[i];
	return NULL;
}
