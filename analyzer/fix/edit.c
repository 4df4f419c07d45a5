/* Edits at byte ranges, and the unified-diff printer.
 *
 * The diff is computed from the old and new texts (Myers' O(ND) line diff
 * after trimming the common head and tail), not from the edits, so any text
 * transformation prints the same way `git diff` would: 3 lines of context,
 * hunks merged when fewer than 7 unchanged lines separate them, "-" lines
 * before "+" lines in a change, and the funcname of the kernel's
 * .gitattributes (`*.[ch] diff=cpp`) after the hunk header.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/fix.h"
#include "gfpaudit/err.h"

/* ---- edits ---------------------------------------------------------- */

void fix_edits_init(struct fix_edits *e)
{
	memset(e, 0, sizeof(*e));
}

void fix_edits_release(struct fix_edits *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	fix_edits_init(e);
}

void fix_edits_replace(struct fix_edits *e, size_t begin, size_t end, const char *text)
{
	ALLOC_GROW(e->v, e->n + 1, e->alloc);
	e->v[e->n++] = (struct fix_edit){ begin, end, xstrdup(text ? text : "") };
}

void fix_edits_insert(struct fix_edits *e, size_t at, const char *text)
{
	fix_edits_replace(e, at, at, text);
}

void fix_edits_delete(struct fix_edits *e, size_t begin, size_t end)
{
	fix_edits_replace(e, begin, end, "");
}

/* Edit indexes sorted by position; ties keep the order they were added in,
 * and an insertion sorts before a replacement starting at the same byte. */
static const struct fix_edits *sort_edits_set;
static int cmp_edit(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct fix_edit *x = &sort_edits_set->v[a], *y = &sort_edits_set->v[b];
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	bool xi = x->begin == x->end, yi = y->begin == y->end;
	if (xi != yi)
		return xi ? -1 : 1;
	return a < b ? -1 : a > b;
}

static size_t *sorted(const struct fix_edits *e)
{
	size_t *ix = xmalloc((e->n ? e->n : 1) * sizeof(*ix));
	for (size_t i = 0; i < e->n; i++)
		ix[i] = i;
	sort_edits_set = e;
	if (e->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(ix, e->n, sizeof(*ix), cmp_edit);
	sort_edits_set = NULL;
	return ix;
}

int fix_edits_apply(const struct fix_edits *e, const char *text, size_t len, struct strbuf *out)
{
	size_t *ix = sorted(e);
	size_t at = 0;
	int rc = 0;
	strbuf_reset(out);
	for (size_t i = 0; i < e->n; i++) {
		const struct fix_edit *x = &e->v[ix[i]];
		if (x->begin > x->end || x->end > len) {
			rc = err_set(GA_EINVAL, "edit [%zu, %zu) leaves the text (%zu bytes)", x->begin, x->end, len);
			goto cleanup;
		}
		if (x->begin < at) {
			rc = err_set(GA_EINVAL, "edit [%zu, %zu) overlaps another edit", x->begin, x->end);
			goto cleanup;
		}
		strbuf_add(out, text + at, x->begin - at);
		strbuf_adds(out, x->text);
		at = x->end;
	}
	strbuf_add(out, text + at, len - at);
cleanup:
	free(ix);
	return rc;
}

size_t fix_edits_map(const struct fix_edits *e, size_t pos)
{
	size_t *ix = sorted(e);
	long long shift = 0;
	size_t r = (size_t)-1;
	for (size_t i = 0; i < e->n && r == (size_t)-1; i++) {
		const struct fix_edit *x = &e->v[ix[i]];
		long long d = (long long)strlen(x->text) - (long long)(x->end - x->begin);
		if (x->end <= pos && !(x->begin == pos && x->end > pos))
			shift += d;
		else if (x->begin <= pos && pos < x->end)
			r = (size_t)((long long)x->begin + shift);
		else
			break;
	}
	free(ix);
	return r != (size_t)-1 ? r : (size_t)((long long)pos + shift);
}

/* ---- line diff ------------------------------------------------------ */

struct line {
	const char *p;
	size_t n; /* with its "\n" when it has one */
};

static size_t split_lines(const char *s, size_t len, struct line **out)
{
	size_t n = 0, alloc = 0;
	struct line *v = NULL;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) + 1 : len;
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = (struct line){ s + i, e - i };
		i = e;
	}
	*out = v;
	return n;
}

static bool line_eq(const struct line *a, const struct line *b)
{
	return a->n == b->n && !memcmp(a->p, b->p, a->n);
}

/* One change: old lines [a0, a0+an) became new lines [b0, b0+bn). */
struct change {
	size_t a0, an, b0, bn;
};

struct changes {
	struct change *v;
	size_t n, alloc;
};

static void add_op(struct changes *c, size_t a, size_t b, bool del)
{
	/* ops arrive in reverse order from the backtrack */
	if (c->n) {
		struct change *last = &c->v[c->n - 1];
		if (del && a + 1 == last->a0 && b == last->b0) {
			last->a0--;
			last->an++;
			return;
		}
		if (!del && b + 1 == last->b0 && a == last->a0) {
			last->b0--;
			last->bn++;
			return;
		}
	}
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n++] = del ? (struct change){ a, 1, b, 0 } : (struct change){ a, 0, b, 1 };
}

#define MAX_D 4000

/* Myers' greedy diff of A[0..N) and B[0..M) (offsets ao/bo added to every
 * index).  Fills c in reverse order; false when the edit distance exceeds
 * MAX_D (the caller then replaces the whole range). */
static bool myers(const struct line *A, size_t N, const struct line *B, size_t M,
		  size_t ao, size_t bo, struct changes *c)
{
	long n = (long)N, m = (long)M, max = n + m;
	if (max > MAX_D)
		max = MAX_D;
	long off = max + 1;
	long *v = xcalloc((size_t)(2 * max + 3), sizeof(long));
	long **trace = xcalloc((size_t)max + 1, sizeof(long *));
	long D = -1;
	v[off + 1] = 0;
	for (long d = 0; d <= max && D < 0; d++) {
		/* keep v[-d-1 .. d+1] as it is before step d */
		trace[d] = xmalloc((size_t)(2 * d + 3) * sizeof(long));
		memcpy(trace[d], v + off - d - 1, (size_t)(2 * d + 3) * sizeof(long));
		for (long k = -d; k <= d; k += 2) {
			long x;
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && line_eq(&A[x], &B[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= n && y >= m) {
				D = d;
				break;
			}
		}
	}
	bool ok = D >= 0;
	if (ok) {
		long x = n, y = m;
		for (long d = D; d >= 0; d--) {
			long *tv = trace[d] + d + 1; /* tv[k] for k in [-d-1, d+1] */
			long k = x - y, pk;
			if (k == -d || (k != d && tv[k - 1] < tv[k + 1]))
				pk = k + 1;
			else
				pk = k - 1;
			long px = tv[pk], py = px - pk;
			while (x > px && y > py)
				x--, y--;
			if (d > 0) {
				if (x == px)
					add_op(c, (size_t)x + ao, (size_t)py + bo, false);
				else
					add_op(c, (size_t)px + ao, (size_t)y + bo, true);
			}
			x = px;
			y = py;
		}
	}
	for (long d = 0; d <= max; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return ok;
}

/* git's diff=cpp funcname: the nearest line above the hunk that starts with
 * an identifier at column 0 and is not a jump label. */
static regex_t fn_neg, fn_pos;
static int fn_ready;

static void funcname_init(void)
{
	if (fn_ready)
		return;
	if (regcomp(&fn_neg, "^[ \t]*[A-Za-z_][A-Za-z_0-9]*:[[:space:]]*($|/[/*])", REG_EXTENDED) ||
	    regcomp(&fn_pos, "^((::[[:space:]]*)?[A-Za-z_].*)$", REG_EXTENDED))
		abort(); /* the patterns are constants */
	fn_ready = 1;
}

static size_t funcname(const struct line *A, size_t before, char *buf)
{
	funcname_init();
	for (size_t l = before; l-- > 0;) {
		size_t n = A[l].n;
		if (n && A[l].p[n - 1] == '\n')
			n--;
		if (n && A[l].p[n - 1] == '\r')
			n--;
		char *s = xstrndup(A[l].p, n);
		regmatch_t pm[2];
		int neg = !regexec(&fn_neg, s, 0, NULL, 0);
		int pos = !neg && !regexec(&fn_pos, s, 2, pm, 0);
		size_t r = 0;
		if (pos) {
			int g = pm[1].rm_so >= 0 ? 1 : 0;
			r = (size_t)(pm[g].rm_eo - pm[g].rm_so);
			if (r > 80)
				r = 80;
			memcpy(buf, s + pm[g].rm_so, r);
			while (r > 0 && (buf[r - 1] == ' ' || buf[r - 1] == '\t' || buf[r - 1] == '\n' ||
					 buf[r - 1] == '\r' || buf[r - 1] == '\f' || buf[r - 1] == '\v'))
				r--;
		}
		free(s);
		if (pos)
			return r;
	}
	return 0;
}

static void emit_line(struct strbuf *out, char tag, const struct line *l)
{
	strbuf_addc(out, tag);
	strbuf_add(out, l->p, l->n);
	if (!l->n || l->p[l->n - 1] != '\n')
		strbuf_adds(out, "\n\\ No newline at end of file\n");
}

static void range_out(struct strbuf *out, size_t s, size_t c)
{
	strbuf_addf(out, "%zu", c ? s + 1 : s);
	if (c != 1)
		strbuf_addf(out, ",%zu", c);
}

#define CONTEXT 3

void fix_diff(const char *path, const char *a, size_t alen, const char *b, size_t blen,
	      struct strbuf *out)
{
	struct line *A, *B;
	size_t na = split_lines(a, alen, &A), nb = split_lines(b, blen, &B);
	size_t pre = 0, suf = 0;
	while (pre < na && pre < nb && line_eq(&A[pre], &B[pre]))
		pre++;
	while (suf < na - pre && suf < nb - pre && line_eq(&A[na - 1 - suf], &B[nb - 1 - suf]))
		suf++;
	struct changes c = { 0 };
	if (pre != na || pre != nb) {
		if (!myers(A + pre, na - pre - suf, B + pre, nb - pre - suf, pre, pre, &c)) {
			c.n = 0;
			ALLOC_GROW(c.v, 1, c.alloc);
			c.v[c.n++] = (struct change){ pre, na - pre - suf, pre, nb - pre - suf };
		}
		/* back to file order */
		for (size_t i = 0; i < c.n / 2; i++) {
			struct change t = c.v[i];
			c.v[i] = c.v[c.n - 1 - i];
			c.v[c.n - 1 - i] = t;
		}
	}
	if (!c.n)
		goto cleanup;
	strbuf_addf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", path, path, path, path);
	for (size_t i = 0; i < c.n;) {
		size_t j = i;
		while (j + 1 < c.n && c.v[j + 1].a0 - (c.v[j].a0 + c.v[j].an) <= 2 * CONTEXT)
			j++;
		size_t s1 = c.v[i].a0 > CONTEXT ? c.v[i].a0 - CONTEXT : 0;
		size_t e1 = c.v[j].a0 + c.v[j].an + CONTEXT;
		if (e1 > na)
			e1 = na;
		size_t s2 = s1 + c.v[i].b0 - c.v[i].a0;
		size_t e2 = e1 + (c.v[j].b0 + c.v[j].bn) - (c.v[j].a0 + c.v[j].an);
		char fn[81];
		size_t fl = funcname(A, s1, fn);
		strbuf_adds(out, "@@ -");
		range_out(out, s1, e1 - s1);
		strbuf_adds(out, " +");
		range_out(out, s2, e2 - s2);
		strbuf_adds(out, " @@");
		if (fl) {
			strbuf_addc(out, ' ');
			strbuf_add(out, fn, fl);
		}
		strbuf_addc(out, '\n');
		size_t x = s1;
		for (size_t k = i; k <= j; k++) {
			for (; x < c.v[k].a0; x++)
				emit_line(out, ' ', &A[x]);
			for (size_t d = 0; d < c.v[k].an; d++)
				emit_line(out, '-', &A[c.v[k].a0 + d]);
			for (size_t d = 0; d < c.v[k].bn; d++)
				emit_line(out, '+', &B[c.v[k].b0 + d]);
			x = c.v[k].a0 + c.v[k].an;
		}
		for (; x < e1; x++)
			emit_line(out, ' ', &A[x]);
		i = j + 1;
	}
cleanup:
	free(c.v);
	free(A);
	free(B);
}

void fix_diff_counts(const char *diff, int *added, int *removed)
{
	*added = *removed = 0;
	bool in_hunk = false;
	for (const char *p = diff; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= 2 && !strncmp(p, "@@", 2))
			in_hunk = true;
		else if (n >= 4 && !strncmp(p, "diff", 4))
			in_hunk = false;
		else if (in_hunk && *p == '+')
			(*added)++;
		else if (in_hunk && *p == '-')
			(*removed)++;
		p += n + (nl ? 1 : 0);
	}
}

const char *fix_kind_name(enum fix_kind k)
{
	static const char *const names[] = {
#define X(e, s) s,
		FIX_KIND_LIST(X)
#undef X
	};
	return (unsigned)k < FIX__COUNT ? names[k] : "unknown";
}

