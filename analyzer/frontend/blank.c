/* Blanking the function bodies a change cannot affect (see blank.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/blank.h"
#include "gfpaudit/clex.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fnscan.h"
#include "gfpaudit/strbuf.h"

/* ---- a set of names ---- */

void blank_names_init(struct blank_names *k) { memset(k, 0, sizeof(*k)); }

void blank_names_release(struct blank_names *k)
{
	for (size_t i = 0; i < k->cap; i++)
		free(k->slot[i]);
	free(k->slot);
	blank_names_init(k);
}

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The slot holding s, or the empty slot where it goes. */
static size_t find_slot(char *const *slot, size_t cap, const char *s, size_t len)
{
	size_t i = hash(s, len) & (cap - 1);
	while (slot[i] && !(strlen(slot[i]) == len && !memcmp(slot[i], s, len)))
		i = (i + 1) & (cap - 1);
	return i;
}

bool blank_names_has(const struct blank_names *k, const char *s, size_t len)
{
	return k->cap && k->slot[find_slot(k->slot, k->cap, s, len)];
}

static void grow(struct blank_names *k)
{
	size_t cap = k->cap ? k->cap * 2 : 64;
	char **slot = xcalloc(cap, sizeof(*slot));
	for (size_t i = 0; i < k->cap; i++)
		if (k->slot[i])
			slot[find_slot(slot, cap, k->slot[i], strlen(k->slot[i]))] = k->slot[i];
	free(k->slot);
	k->slot = slot;
	k->cap = cap;
}

bool blank_names_add(struct blank_names *k, const char *s, size_t len)
{
	if (blank_names_has(k, s, len))
		return false;
	if ((k->n + 1) * 2 > k->cap)
		grow(k);
	k->slot[find_slot(k->slot, k->cap, s, len)] = xstrndup(s, len);
	k->n++;
	return true;
}

/* ---- one side: its tokens and functions ---- */

struct bfn {
	const char *name;  /* the extent's */
	size_t sig, tb, te; /* tokens: the declaration's first, the body's '{' and '}' */
	size_t line_b, line_e; /* bytes: the extent's lines */
};

struct bside {
	const char *text;
	size_t len;
	struct toks t;
	struct fn_extents fx;
	struct bfn *f;
	struct blank_names defined; /* the names of the file's functions */
	/* #define NAME ...: the identifiers each macro of the file brings in,
	 * through the macros it uses (a call hidden in a macro is a call) */
	struct blank_names macros;
	char **mname;
	struct blank_names *mids;
	size_t nm;
};

/* The offset of line `line`, counting on from (*pos, *at): lines only grow. */
static size_t line_offset(const char *s, size_t len, int line, size_t *pos, int *at)
{
	if (line < *at) {
		*pos = 0;
		*at = 1;
	}
	for (; *at < line && *pos < len; (*pos)++)
		if (s[*pos] == '\n')
			(*at)++;
	return *pos;
}

static const char *tok_text(const struct bside *sd, size_t i, size_t *len);

static bool starts_directive(const struct toks *t, size_t i)
{
	return t->v[i].pp && t->v[i].bol && tok_is(t, i, "#");
}

/* The directive word after the '#' at token i ("if", "endif", ...). */
static bool directive_is(const struct toks *t, size_t i, const char *w)
{
	return i + 1 < t->n && t->v[i + 1].pp && tok_is(t, i + 1, w);
}

/* The set of macro `s` (NULL: not a macro of the file). */
static struct blank_names *macro_ids(const struct bside *sd, const char *s, size_t n)
{
	if (!blank_names_has(&sd->macros, s, n))
		return NULL;
	for (size_t i = 0; i < sd->nm; i++)
		if (strlen(sd->mname[i]) == n && !memcmp(sd->mname[i], s, n))
			return &sd->mids[i];
	return NULL;
}

/* Each macro's set takes in the sets of the macros it names (a few rounds). */
static void macros_close(struct bside *sd)
{
	for (int round = 0; round < 4; round++) {
		bool more = false;
		for (size_t i = 0; i < sd->nm; i++) {
			struct blank_names *m = &sd->mids[i];
			for (size_t k = 0; k < m->cap; k++) {
				const char *id = m->slot[k];
				const struct blank_names *o = id && m != macro_ids(sd, id, strlen(id))
					? macro_ids(sd, id, strlen(id)) : NULL;
				for (size_t j = 0; o && j < o->cap; j++)
					if (o->slot[j] && blank_names_add(m, o->slot[j], strlen(o->slot[j])))
						more = true;
			}
		}
		if (!more)
			break;
	}
}

/* The file's #defines: the identifiers of each one's replacement. */
static void macros_read(struct bside *sd)
{
	const struct toks *t = &sd->t;
	for (size_t i = 0; i + 2 < t->n; i++) {
		if (!starts_directive(t, i) || !directive_is(t, i, "define") || !t->v[i + 2].pp ||
		    t->v[i + 2].kind != TK_IDENT)
			continue;
		size_t n;
		const char *name = tok_text(sd, i + 2, &n);
		struct blank_names *m = macro_ids(sd, name, n);
		if (!m) {
			blank_names_add(&sd->macros, name, n);
			sd->mname = xrealloc(sd->mname, (sd->nm + 1) * sizeof(*sd->mname));
			sd->mids = xrealloc(sd->mids, (sd->nm + 1) * sizeof(*sd->mids));
			sd->mname[sd->nm] = xstrndup(name, n);
			blank_names_init(&sd->mids[sd->nm]);
			m = &sd->mids[sd->nm++];
		}
		for (size_t k = i + 3; k < t->n && t->v[k].pp && !starts_directive(t, k); k++)
			if (t->v[k].kind == TK_IDENT) {
				const char *id = tok_text(sd, k, &n);
				blank_names_add(m, id, n);
			}
	}
	macros_close(sd);
}

static void side_open(struct bside *sd, const char *text, size_t len)
{
	memset(sd, 0, sizeof(*sd));
	sd->text = text ? text : "";
	sd->len = text ? len : 0;
	toks_scan(&sd->t, sd->text, sd->len);
	fn_extents_init(&sd->fx);
	fn_scan_functions(sd->text, sd->len, &sd->fx);
	sd->f = xcalloc(sd->fx.n + 1, sizeof(*sd->f));
	blank_names_init(&sd->defined);
	size_t pos = 0;
	int at = 1;
	for (size_t i = 0; i < sd->fx.n; i++) {
		const struct fn_extent *x = &sd->fx.v[i];
		struct bfn *f = &sd->f[i];
		f->name = x->name;
		f->line_b = line_offset(sd->text, sd->len, x->start, &pos, &at);
		f->line_e = line_end(sd->text, sd->len, x->body_e);
		f->sig = toks_at(&sd->t, f->line_b);
		f->tb = toks_at(&sd->t, x->body_b);
		f->te = toks_at(&sd->t, x->body_e);
		if (x->name)
			blank_names_add(&sd->defined, x->name, strlen(x->name));
	}
	macros_read(sd);
}

static void side_close(struct bside *sd)
{
	toks_release(&sd->t);
	fn_extents_release(&sd->fx);
	free(sd->f);
	blank_names_release(&sd->defined);
	blank_names_release(&sd->macros);
	for (size_t i = 0; i < sd->nm; i++) {
		free(sd->mname[i]);
		blank_names_release(&sd->mids[i]);
	}
	free(sd->mname);
	free(sd->mids);
}

static const char *tok_text(const struct bside *sd, size_t i, size_t *len)
{
	*len = sd->t.v[i].end - sd->t.v[i].begin;
	return sd->text + sd->t.v[i].begin;
}

static bool kept(const struct blank_names *keep, const struct bfn *f)
{
	return keep->all || !f->name || blank_names_has(keep, f->name, strlen(f->name));
}

/* Does the function's text (tokens from its declaration to its '}') name
 * something of `names`?  With `fields`, only as a member (after -> or .). */
static bool mentions(const struct bside *sd, const struct bfn *f, const struct blank_names *names, bool fields)
{
	if (!names->n)
		return false;
	for (size_t i = f->sig; i <= f->te && i < sd->t.n; i++) {
		if (sd->t.v[i].kind != TK_IDENT || sd->t.v[i].pp)
			continue;
		if (fields && !(i > 0 && (tok_is(&sd->t, i - 1, "->") || tok_is(&sd->t, i - 1, "."))))
			continue;
		size_t n;
		const char *s = tok_text(sd, i, &n);
		if (blank_names_has(names, s, n))
			return true;
		const struct blank_names *m = fields ? NULL : macro_ids(sd, s, n);
		for (size_t k = 0; m && k < m->cap; k++)
			if (m->slot[k] && blank_names_has(names, m->slot[k], strlen(m->slot[k])))
				return true;
	}
	return false;
}

/* ---- seeds ---- */

/* The text of every function called `name`, in order. */
static void texts_of(const struct bside *sd, const char *name, struct strbuf *out)
{
	for (size_t i = 0; i < sd->fx.n; i++)
		if (sd->f[i].name && !strcmp(sd->f[i].name, name))
			strbuf_add(out, sd->text + sd->f[i].line_b, sd->f[i].line_e - sd->f[i].line_b);
}

/* Functions whose text differs, or that one side only has. */
static void seed_changed_functions(const struct bside *a, const struct bside *b, struct blank_names *keep)
{
	const struct bside *sides[2] = { a, b };
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->fx.n; i++) {
			const char *name = sides[s]->f[i].name;
			if (!name || blank_names_has(keep, name, strlen(name)))
				continue;
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			texts_of(a, name, &x);
			texts_of(b, name, &y);
			if (x.len != y.len || memcmp(x.buf, y.buf, x.len))
				blank_names_add(keep, name, strlen(name));
			strbuf_release(&x);
			strbuf_release(&y);
		}
}

/* The file-scope lines of a side (outside every function), each trimmed,
 * as a set with counts kept in `count` (parallel to the insertion order). */
struct lines {
	struct blank_names set;
	char **v;
	int *count;
	size_t n, alloc;
};

static void lines_add(struct lines *l, const char *s, size_t len, int d)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (!len)
		return;
	if (blank_names_add(&l->set, s, len)) {
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		l->count = realloc(l->count, l->alloc * sizeof(*l->count));
		if (!l->count)
			abort();
		l->v[l->n] = xstrndup(s, len);
		l->count[l->n++] = 0;
	}
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !memcmp(l->v[i], s, len)) {
			l->count[i] += d;
			return;
		}
}

/* The file-scope code of a side (outside every function, comments
 * left out), line by line: each line's tokens joined by spaces. */
static void outside_lines(const struct bside *sd, struct lines *l, int d)
{
	struct strbuf line = STRBUF_INIT;
	size_t f = 0, pos = 0;
	int at = 1, cur = 0;
	for (size_t i = 0; i < sd->t.n; i++) {
		while (f < sd->fx.n && sd->f[f].te < i)
			f++;
		if (f < sd->fx.n && i >= sd->f[f].sig) {
			i = sd->f[f].te; /* the function, to its closing brace */
			continue;
		}
		for (; pos < sd->t.v[i].begin; pos++)
			if (sd->text[pos] == '\n')
				at++;
		if (at != cur && line.len) {
			lines_add(l, line.buf, line.len, d);
			strbuf_reset(&line);
		}
		cur = at;
		if (line.len)
			strbuf_addc(&line, ' ');
		strbuf_add(&line, sd->text + sd->t.v[i].begin, sd->t.v[i].end - sd->t.v[i].begin);
	}
	if (line.len)
		lines_add(l, line.buf, line.len, d);
	strbuf_release(&line);
}

static bool is_keyword(const char *s, size_t n)
{
	static const char *const kw[] = {
		"static", "inline", "extern", "const", "volatile", "struct", "union", "enum", "void", "int",
		"char", "long", "short", "unsigned", "signed", "bool", "return", "if", "else", "define",
		"include", "sizeof", "typedef", "__init", "__exit", "NULL", "true", "false", NULL,
	};
	for (const char *const *k = kw; *k; k++)
		if (strlen(*k) == n && !memcmp(*k, s, n))
			return true;
	return false;
}

/* File-scope lines one side has more of than the other: the identifiers
 * they name (a macro, a global, a type, a prototype).  A conditional or an
 * #include among them keeps everything. */
static void seed_outside(const struct bside *a, const struct bside *b, struct blank_names *ids, bool *all)
{
	struct lines l = { 0 };
	outside_lines(a, &l, 1);
	outside_lines(b, &l, -1);
	for (size_t i = 0; i < l.n; i++) {
		if (!l.count[i])
			continue;
		const char *s = l.v[i];
		if (*s == '#') {
			const char *d = s + 1 + strspn(s + 1, " \t");
			if (!strncmp(d, "if", 2) || !strncmp(d, "el", 2) || !strncmp(d, "endif", 5) ||
			    !strncmp(d, "include", 7))
				*all = true;
		}
		struct toks t;
		toks_scan(&t, s, strlen(s));
		for (size_t k = 0; k < t.n; k++)
			if (t.v[k].kind == TK_IDENT && !is_keyword(s + t.v[k].begin, t.v[k].end - t.v[k].begin))
				blank_names_add(ids, s + t.v[k].begin, t.v[k].end - t.v[k].begin);
		toks_release(&t);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	free(l.count);
	blank_names_release(&l.set);
}

/* Functions that name what seed_outside() found. */
static void seed_mentions(const struct bside *sd, const struct blank_names *ids, struct blank_names *keep)
{
	for (size_t i = 0; i < sd->fx.n; i++)
		if (!kept(keep, &sd->f[i]) && mentions(sd, &sd->f[i], ids, false))
			blank_names_add(keep, sd->f[i].name, strlen(sd->f[i].name));
}

static bool tok_starts(const struct bside *sd, size_t i, const char *prefix)
{
	size_t n, k = strlen(prefix);
	const char *s = tok_text(sd, i, &n);
	return sd->t.v[i].kind == TK_IDENT && n > k && !memcmp(s, prefix, k);
}

/* Does the function assert an alias of the two bit spaces,
 * BUILD_BUG_ON(... __GFP_X ... ALLOC_Y ...)?  The consistency rules read
 * those from the file's text (model/consistency.c). */
static bool asserts_alias(const struct bside *sd, const struct bfn *f)
{
	for (size_t i = f->tb; i + 1 < f->te; i++) {
		if (!tok_is(&sd->t, i, "BUILD_BUG_ON") || !tok_is(&sd->t, i + 1, "("))
			continue;
		bool g = false, a = false;
		int depth = 0;
		for (size_t k = i + 1; k < f->te; k++) {
			depth += tok_is(&sd->t, k, "(") - tok_is(&sd->t, k, ")");
			if (!depth)
				break;
			g |= tok_starts(sd, k, "__GFP_");
			a |= tok_starts(sd, k, "ALLOC_");
		}
		if (g && a)
			return true;
	}
	return false;
}

static void keep_aliases(const struct bside *sd, struct blank_names *keep)
{
	for (size_t i = 0; i < sd->fx.n; i++)
		if (!kept(keep, &sd->f[i]) && asserts_alias(sd, &sd->f[i]))
			blank_names_add(keep, sd->f[i].name, strlen(sd->f[i].name));
}

/* ---- closure ---- */

/* Every function of the side a kept body names, to a fixed point. */
static bool add_callees(const struct bside *sd, struct blank_names *keep)
{
	bool any = false, more = true;
	while (more) {
		more = false;
		for (size_t f = 0; f < sd->fx.n; f++) {
			if (!sd->f[f].name || !blank_names_has(keep, sd->f[f].name, strlen(sd->f[f].name)))
				continue;
			for (size_t i = sd->f[f].tb; i <= sd->f[f].te && i < sd->t.n; i++) {
				size_t n;
				const char *s = tok_text(sd, i, &n);
				if (sd->t.v[i].kind != TK_IDENT)
					continue;
				if (blank_names_has(&sd->defined, s, n) && blank_names_add(keep, s, n))
					more = any = true;
				const struct blank_names *m = macro_ids(sd, s, n);
				for (size_t k = 0; m && k < m->cap; k++)
					if (m->slot[k] && blank_names_has(&sd->defined, m->slot[k], strlen(m->slot[k])) &&
					    blank_names_add(keep, m->slot[k], strlen(m->slot[k])))
						more = any = true;
			}
		}
	}
	return any;
}

/* The fields kept bodies store into: `->f =`, `.f =`. */
static void stored_fields(const struct bside *sd, const struct blank_names *keep, struct blank_names *fields)
{
	for (size_t f = 0; f < sd->fx.n; f++) {
		if (!sd->f[f].name || !blank_names_has(keep, sd->f[f].name, strlen(sd->f[f].name)))
			continue;
		for (size_t i = sd->f[f].tb + 1; i + 1 < sd->f[f].te; i++)
			if (sd->t.v[i].kind == TK_IDENT && tok_is(&sd->t, i + 1, "=") &&
			    (tok_is(&sd->t, i - 1, "->") || tok_is(&sd->t, i - 1, "."))) {
				size_t n;
				const char *s = tok_text(sd, i, &n);
				blank_names_add(fields, s, n);
			}
	}
}

/* Does the function name one of `allocators` (NULL: any function may
 * allocate)? */
static bool allocates(const struct bside *sd, const struct bfn *f, const struct blank_names *allocators)
{
	return !allocators || allocators->all || mentions(sd, f, allocators, false);
}

/* Is it static: callers in the file may bind its parameters (sites.c's
 * find_bindable). */
static bool is_static(const struct bside *sd, const struct bfn *f)
{
	for (size_t i = f->sig; i < f->tb && i < sd->t.n; i++)
		if (!sd->t.v[i].pp && tok_is(&sd->t, i, "static"))
			return true;
	return false;
}

/* Callers whose arguments the model binds: functions that name one of
 * `from` go into keep and, when they too are static and allocate, into
 * *next.  true when something was added. */
static bool add_callers(const struct bside *sd, const struct blank_names *from, const struct blank_names *allocators,
			struct blank_names *keep, struct blank_names *next)
{
	bool any = false;
	for (size_t f = 0; f < sd->fx.n; f++) {
		if (kept(keep, &sd->f[f]) || !mentions(sd, &sd->f[f], from, false))
			continue;
		blank_names_add(keep, sd->f[f].name, strlen(sd->f[f].name));
		if (is_static(sd, &sd->f[f]) && allocates(sd, &sd->f[f], allocators))
			blank_names_add(next, sd->f[f].name, strlen(sd->f[f].name));
		any = true;
	}
	return any;
}

/* Of `from`, the static functions that call an allocator (into *bound). */
static void bound_seeds(const struct bside *sd, const struct blank_names *from, const struct blank_names *allocators,
			struct blank_names *bound)
{
	for (size_t f = 0; f < sd->fx.n; f++) {
		const struct bfn *x = &sd->f[f];
		if (x->name && blank_names_has(from, x->name, strlen(x->name)) && is_static(sd, x) &&
		    allocates(sd, x, allocators))
			blank_names_add(bound, x->name, strlen(x->name));
	}
}

/* Functions that read or write a field one of `from` stores into. */
static void add_field_users(const struct bside *sd, const struct blank_names *from, struct blank_names *keep)
{
	struct blank_names fields;
	blank_names_init(&fields);
	stored_fields(sd, from, &fields);
	for (size_t f = 0; f < sd->fx.n; f++)
		if (!kept(keep, &sd->f[f]) && mentions(sd, &sd->f[f], &fields, true))
			blank_names_add(keep, sd->f[f].name, strlen(sd->f[f].name));
	blank_names_release(&fields);
}

static void copy_names(const struct blank_names *from, struct blank_names *to)
{
	for (size_t i = 0; i < from->cap; i++)
		if (from->slot[i])
			blank_names_add(to, from->slot[i], strlen(from->slot[i]));
	to->all |= from->all;
}

/* The changed functions (seeds), as blank.h says. */
static void plan_seeds(const struct bside *s, const struct blank_names *seed, struct blank_names *keep)
{
	struct blank_names ids;
	blank_names_init(&ids);
	if (seed)
		copy_names(seed, keep);
	seed_changed_functions(&s[0], &s[1], keep);
	seed_outside(&s[0], &s[1], &ids, &keep->all);
	for (int k = 0; k < 2; k++)
		seed_mentions(&s[k], &ids, keep);
	blank_names_release(&ids);
}

/* The users of the fields the seeds store into (the seeds' allocations
 * may go there, even through a wrapper of the file); the callers of the
 * static seeds that call an allocator, for BLANK_CALLER_ROUNDS rounds
 * through callers of that kind. */
static void plan_callers(const struct bside *s, const struct blank_names *allocators, struct blank_names *keep)
{
	struct blank_names seeds, bound;
	blank_names_init(&seeds);
	blank_names_init(&bound);
	copy_names(keep, &seeds);
	for (int k = 0; k < 2; k++)
		bound_seeds(&s[k], &seeds, allocators, &bound);
	for (int k = 0; k < 2; k++)
		add_field_users(&s[k], &seeds, keep);
	for (int round = 0; round < BLANK_CALLER_ROUNDS && bound.n; round++) {
		struct blank_names next;
		blank_names_init(&next);
		for (int k = 0; k < 2; k++)
			add_callers(&s[k], &bound, allocators, keep, &next);
		blank_names_release(&bound);
		bound = next;
	}
	blank_names_release(&seeds);
	blank_names_release(&bound);
}

void blank_plan(const char *old, size_t olen, const char *new_, size_t nlen, const struct blank_names *seed,
		const struct blank_names *allocators, struct blank_names *keep)
{
	struct bside s[2];
	side_open(&s[0], old, olen);
	side_open(&s[1], new_, nlen);
	plan_seeds(s, seed, keep);
	if (!keep->all)
		plan_callers(s, allocators, keep);
	/* and everything the kept functions call */
	while (!keep->all && (add_callees(&s[0], keep) | add_callees(&s[1], keep)))
		;
	/* read as text: their callees do not matter */
	for (int k = 0; k < 2 && !keep->all; k++)
		keep_aliases(&s[k], keep);
	side_close(&s[0]);
	side_close(&s[1]);
}

/* ---- blanking ---- */

/* Every branch of every conditional balances its braces (counted outside
 * directives), so the scanner's bodies are the compiler's. */
static bool braces_trusted(const struct toks *t)
{
	int depth = 0, stack[64], sp = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (!t->v[i].pp) {
			depth += tok_is(t, i, "{") - tok_is(t, i, "}");
			continue;
		}
		if (!starts_directive(t, i))
			continue;
		if (directive_is(t, i, "if") || directive_is(t, i, "ifdef") || directive_is(t, i, "ifndef")) {
			if (sp == 64)
				return false;
			stack[sp++] = depth;
		} else if (directive_is(t, i, "elif") || directive_is(t, i, "else") ||
			   directive_is(t, i, "elifdef") || directive_is(t, i, "elifndef")) {
			if (!sp || stack[sp - 1] != depth)
				return false;
		} else if (directive_is(t, i, "endif")) {
			if (!sp || stack[--sp] != depth)
				return false;
		}
	}
	return sp == 0 && depth == 0;
}

/* Blank t's text in dst between the body's braces (tokens tb, te): spaces,
 * newlines kept, directive lines kept whole.  false (nothing done) when
 * the body #includes something: the included text may use its locals. */
static bool blank_one(const struct toks *t, size_t tb, size_t te, char *dst)
{
	for (size_t i = tb + 1; i < te; i++)
		if (starts_directive(t, i) && directive_is(t, i, "include"))
			return false;
	size_t p = t->v[tb].end, end = t->v[te].begin;
	size_t i = tb + 1;
	while (p < end) {
		while (i < te && t->v[i].end <= p)
			i++;
		if (i < te && starts_directive(t, i) && line_begin(t->text, t->v[i].begin) <= p) {
			size_t k = i;
			while (k + 1 < te && t->v[k + 1].pp && !starts_directive(t, k + 1))
				k++;
			p = t->v[k].end; /* the directive, continuation lines and all */
			i = k + 1;
			continue;
		}
		if (dst[p] != '\n')
			dst[p] = ' ';
		p++;
	}
	return true;
}

int blank_bodies(const char *src, size_t len, const struct blank_names *keep, char **out, size_t *out_len,
		 size_t *nblanked)
{
	struct bside sd;
	*out = NULL;
	*out_len = 0;
	*nblanked = 0;
	side_open(&sd, src, len);
	if (!braces_trusted(&sd.t)) {
		side_close(&sd);
		return err_set(GA_EINVAL, "unbalanced braces in a conditional: no body blanked");
	}
	char *dst = xmalloc(len + 1);
	memcpy(dst, src, len);
	dst[len] = 0;
	for (size_t f = 0; f < sd.fx.n; f++)
		if (sd.fx.v[f].plain && !kept(keep, &sd.f[f]) && sd.f[f].te < sd.t.n &&
		    blank_one(&sd.t, sd.f[f].tb, sd.f[f].te, dst))
			(*nblanked)++;
	side_close(&sd);
	*out = dst;
	*out_len = len;
	return 0;
}
