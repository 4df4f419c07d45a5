/* Textual macro evaluation (see cmacro.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/cmacro.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct evctx {
	const struct cmacro *m;
	int depth;
};

static int ev_ident(void *data, const char *name, int64_t *out);
static int ev_call(void *data, const struct cx *call, int64_t *out);

static int eval_tokens(struct evctx *x, struct csrc *owner, const struct ctok *t, size_t n, int64_t *out)
{
	if (x->depth > 32 || !n)
		return -1;
	struct cx *e = csrc_parse_expr(owner, t, n);
	struct ceval_env env = { ev_ident, ev_call, x };
	x->depth++;
	int rc = cx_eval(e, &env, out);
	x->depth--;
	return rc;
}

static int lookup(struct evctx *x, const char *name, int64_t *out)
{
	const struct cmacro *m = x->m;
	for (size_t i = m->nfiles; i-- > 0;) {
		struct csrc *c = m->files[i];
		const struct cdefine *d = csrc_define(c, name);
		if (d && !d->funclike)
			return eval_tokens(x, c, d->body, d->nbody, out);
		const struct cenum *en = csrc_enum(c, name);
		if (en) {
			if (en->nexpr)
				return eval_tokens(x, c, en->expr, en->nexpr, out);
			if (!en->prev) {
				*out = 0;
				return 0;
			}
			int64_t p;
			if (x->depth > 200 || (x->depth++, lookup(x, en->prev, &p) != 0)) {
				x->depth--;
				return -1;
			}
			x->depth--;
			*out = p + 1;
			return 0;
		}
	}
	return -2;
}

static int ev_ident(void *data, const char *name, int64_t *out)
{
	return lookup(data, name, out) ? -1 : 0;
}

/* Substitute the arguments of `call` into the body of `d` and evaluate. */
static int expand(struct evctx *x, struct csrc *owner, const struct cdefine *d, const struct cx *call, int64_t *out)
{
	if ((int)call->nargs != d->nparams)
		return -1;
	size_t n = 0, alloc = 0;
	struct ctok *v = NULL;
	for (size_t i = 0; i < d->nbody; i++) {
		int p = -1;
		if (d->body[i].kind == CT_IDENT)
			for (int k = 0; k < d->nparams; k++)
				if (!strcmp(d->params[k], d->body[i].text))
					p = k;
		if (p < 0) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = d->body[i];
			continue;
		}
		const struct cx *a = call->args[p];
		/* parenthesize the argument, as the value must not rebind */
		ALLOC_GROW(v, n + (a->te - a->tb) + 2, alloc);
		v[n] = d->body[i];
		v[n].kind = CT_PUNCT;
		v[n++].text = "(";
		for (size_t k = a->tb; k < a->te; k++)
			v[n++] = a->toks[k];
		v[n] = d->body[i];
		v[n].kind = CT_PUNCT;
		v[n++].text = ")";
	}
	/* the parsed nodes live in the owner's arena but point into `v`: they
	 * are only used during this evaluation */
	int rc = n ? eval_tokens(x, owner, v, n, out) : -1;
	free(v);
	return rc;
}

static int builtin_call(struct evctx *x, const char *f, const struct cx *call, int64_t *out)
{
	struct ceval_env env = { ev_ident, ev_call, x };
	int64_t a, b;
	if ((!strcmp(f, "BIT") || !strcmp(f, "BIT_ULL") || !strcmp(f, "_BITUL") || !strcmp(f, "_BITULL")) &&
	    call->nargs == 1) {
		if (cx_eval(call->args[0], &env, &a) || a < 0 || a > 63)
			return -1;
		*out = (int64_t)((uint64_t)1 << a);
		return 0;
	}
	if ((!strcmp(f, "UL") || !strcmp(f, "ULL") || !strcmp(f, "_UL") || !strcmp(f, "_ULL")) && call->nargs == 1)
		return cx_eval(call->args[0], &env, out);
	if (!strcmp(f, "_AC") && call->nargs == 2)
		return cx_eval(call->args[0], &env, out);
	if ((!strcmp(f, "min") || !strcmp(f, "max")) && call->nargs == 2) {
		if (cx_eval(call->args[0], &env, &a) || cx_eval(call->args[1], &env, &b))
			return -1;
		*out = f[1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
		return 0;
	}
	return -2;
}

static int ev_call(void *data, const struct cx *call, int64_t *out)
{
	struct evctx *x = data;
	const char *f = cx_callee(call);
	if (!f)
		return -1;
	for (size_t i = x->m->nfiles; i-- > 0;) {
		const struct cdefine *d = csrc_define(x->m->files[i], f);
		if (d && d->funclike)
			return expand(x, x->m->files[i], d, call, out);
	}
	int rc = builtin_call(x, f, call, out);
	return rc ? -1 : 0;
}

int cmacro_eval(const struct cmacro *m, const char *name, int64_t *out)
{
	struct evctx x = { m, 0 };
	int rc = lookup(&x, name, out);
	if (rc == -2)
		return err_set(GA_ENOTFOUND, "'%s' is not defined in the files read", name);
	if (rc)
		return err_set(GA_EINVAL, "'%s' cannot be evaluated", name);
	return 0;
}

int cmacro_eval_expr(const struct cmacro *m, const struct cx *e, int64_t *out)
{
	struct evctx x = { m, 0 };
	struct ceval_env env = { ev_ident, ev_call, &x };
	return cx_eval(e, &env, out) ? GA_EINVAL : 0;
}

