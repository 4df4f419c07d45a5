/* Per-order explanation of a site (see explain.h). */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/explain.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"

static bool same_outcome(const struct explain_group *a, const struct sp_outcome *o, const struct sp_flags *f,
			 struct gfp_bits g, const char *role)
{
	if (a->gfp.must != g.must || a->gfp.may != g.may || strcmp(a->role, role))
		return false;
	if (a->out.nsteps != o->nsteps || a->flags.n != f->n)
		return false;
	for (size_t i = 0; i < o->nsteps; i++)
		if (a->out.steps[i].fact != o->steps[i].fact || a->out.steps[i].when != o->steps[i].when ||
		    strcmp(a->out.steps[i].text, o->steps[i].text))
			return false;
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(a->flags.f[i].name, f->f[i].name) || a->flags.f[i].set != f->f[i].set ||
		    a->flags.f[i].line != f->f[i].line)
			return false;
	return true;
}

static const char *role_text(const struct attempt *a, bool only)
{
	if (a->role == ROLE_FALLBACK)
		return "attempts with a fallback";
	return only ? "every attempt" : "last attempt";
}

int explain_site(const struct slowpath_model *m, const struct site *s, struct explanation *x)
{
	memset(x, 0, sizeof(*x));
	x->site = s;
	x->model = m;
	x->order_known = s->order.known;
	/* one pass per attempt class (attempts.h): the same classes the rules judge */
	for (size_t k = 0; k < s->natt; k++) {
		const struct attempt *a = &s->att[k];
		const char *role = role_text(a, s->natt == 1);
		int hi, lo;
		if (s->order.known && a->orders.known) {
			hi = a->orders.hi;
			lo = a->orders.lo;
		} else {
			/* unknown: one order of each class */
			hi = m->costly_order + 1;
			lo = 0;
		}
		if (hi > 20)
			hi = 20;
		if (lo < 0)
			lo = 0;
		size_t first = x->n;
		for (int o = hi; o >= lo; o--) {
			struct sp_outcome out;
			struct sp_flags fl;
			slowpath_simulate(m, a->gfp, o, &out);
			slowpath_alloc_flags(m, a->gfp, o, &fl);
			if (x->n > first && same_outcome(&x->g[x->n - 1], &out, &fl, a->gfp, role)) {
				x->g[x->n - 1].lo = o;
				sp_outcome_release(&out);
				sp_flags_release(&fl);
				continue;
			}
			ALLOC_GROW(x->g, x->n + 1, x->alloc);
			struct explain_group *gr = &x->g[x->n++];
			gr->hi = gr->lo = o;
			gr->role = role;
			gr->when = a->when;
			gr->gfp = a->gfp;
			gr->out = out;
			gr->flags = fl;
		}
	}
	return 0;
}

void explanation_release(struct explanation *x)
{
	for (size_t i = 0; i < x->n; i++) {
		sp_outcome_release(&x->g[i].out);
		sp_flags_release(&x->g[i].flags);
	}
	free(x->g);
	memset(x, 0, sizeof(*x));
}

static void orders_text(struct strbuf *sb, const struct explain_group *g, const struct explanation *x)
{
	if (!x->order_known) {
		strbuf_addf(sb, "if order %d%s", g->hi, g->hi == x->model->costly_order + 1 ? " or above (costly)" :
			    g->hi == 0 ? "" : "..3");
		return;
	}
	if (g->hi == g->lo)
		strbuf_addf(sb, "order %d", g->hi);
	else
		strbuf_addf(sb, "orders %d..%d", g->hi, g->lo);
}

void explain_print_text(const struct explanation *x, FILE *f, bool verbose, const struct diag_style *st)
{
	static const struct diag_style plain;
	const struct site *s = x->site;
	const struct slowpath_model *m = x->model;
	struct strbuf sb = STRBUF_INIT;
	char *path = diag_path(st ? st : &plain, s->file);
	bool color = st && st->color;
	/* the locus bold and the API as GCC colours a quoted name */
	fprintf(f, color ? "\033[01m%s:%d:%d:\033[m '\033[01m%s\033[m' in %s()\n" : "%s:%d:%d: '%s' in %s()\n", path,
		s->line, s->col, s->api ? s->api : "?", s->function ? s->function : "?");
	free(path);
	if (s->order.known)
		fprintf(f, "  order:      %d..%d%s\n", s->order.lo, s->order.hi,
			s->order.hi > m->costly_order ? " (costly above PAGE_ALLOC_COSTLY_ORDER)" : "");
	else
		fprintf(f, "  order:      unknown\n");
	gfp_bits_text(&sb, s->gfp);
	fprintf(f, "  gfp:        %s\n", sb.buf);
	strbuf_reset(&sb);
	fprintf(f, "  fallback:   %s\n", fallback_name(s->fallback));
	for (size_t i = 0; s->natt > 1 && i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		gfp_bits_text(&sb, a->gfp);
		if (a->orders.known)
			fprintf(f, "  attempts:   %d..%d %s%s%s%s: gfp %s\n", a->orders.hi, a->orders.lo,
				role_text(a, false), a->when ? " (" : "", a->when ? a->when : "", a->when ? ")" : "", sb.buf);
		strbuf_reset(&sb);
	}
	char *d = slowpath_model_describe(m);
	fprintf(f, "  allocator:  %s\n", d);
	free(d);
	for (size_t i = 0; i < x->n; i++) {
		const struct explain_group *g = &x->g[i];
		strbuf_reset(&sb);
		orders_text(&sb, g, x);
		fprintf(f, "  %s (%s%s%s): %s\n", sb.buf, g->role, g->when ? ", when " : "", g->when ? g->when : "",
			g->out.summary);
		strbuf_reset(&sb);
		for (size_t k = 0; k < g->flags.n; k++)
			strbuf_addf(&sb, "%s%s%s", k ? " " : "", g->flags.f[k].name,
				    g->flags.f[k].set == SP_MAYBE ? "?" : "");
		if (g->flags.from_tree)
			fprintf(f, "      alloc_flags: %s (gfp_to_alloc_flags(), %s:%d; ? = depends on the mask or the task)\n",
				sb.buf, m->facts[SPF_ALLOC_FLAGS].file, m->facts[SPF_ALLOC_FLAGS].line);
		else
			fprintf(f, "      alloc_flags: %s (built-in derivation: %s)\n", sb.buf,
				g->flags.note ? g->flags.note : "no tree");
		if (verbose)
			for (size_t k = 0; k < g->flags.n; k++)
				if (g->flags.f[k].file && g->flags.f[k].line)
					fprintf(f, "        %s:%d: %s%s\n", g->flags.f[k].file, g->flags.f[k].line,
						g->flags.f[k].name, g->flags.f[k].set == SP_MAYBE ? " (maybe)" : "");
		for (size_t k = 0; k < g->out.nsteps; k++) {
			const struct sp_fact *fa = &m->facts[g->out.steps[k].fact];
			if (fa->file)
				fprintf(f, "      %s:%d: %s\n", fa->file, fa->line, g->out.steps[k].text);
			else
				fprintf(f, "      [built-in %s]: %s\n", m->name, g->out.steps[k].text);
		}
	}
	if (s->nev) {
		fprintf(f, "  evidence:\n");
		for (size_t i = 0; i < s->nev; i++)
			fprintf(f, "    %s:%d: %s\n", s->ev[i].file, s->ev[i].line, s->ev[i].note);
	}
	strbuf_release(&sb);
}

static const char *tri_name(enum sp_tri t)
{
	return t == SP_YES ? "yes" : t == SP_MAYBE ? "maybe" : "no";
}

static json_t *flags_json(uint64_t set)
{
	json_t *a = json_array();
	for (int i = 0; i < GFPF__COUNT; i++)
		if (set & ((uint64_t)1 << i))
			json_array_append_new(a, json_string(gfp_flag_name(i)));
	return a;
}

static json_t *fact_json(const struct slowpath_model *m, enum sp_fact_id id)
{
	const struct sp_fact *x = &m->facts[id];
	if (!x->present || !x->file)
		return json_pack("{s:n,s:n}", "file", "line");
	return json_pack("{s:s,s:i}", "file", x->file, "line", x->line);
}

json_t *explain_model_to_json(const struct slowpath_model *m)
{
	char *d = slowpath_model_describe(m);
	json_t *mj = json_pack("{s:s,s:s,s:o,s:o,s:s,s:b}", "name", m->name, "description", d,
			       "reason", m->reason ? json_string(m->reason) : json_null(),
			       "version", m->version ? json_string(m->version) : json_null(),
			       "config", m->config_source ? m->config_source : "", "compaction", m->compaction);
	free(d);
	json_t *facts = json_array();
	static const char *const fact_names[] = {
#define X(n, desc) #n,
		SP_FACT_LIST(X)
#undef X
	};
	for (int i = 0; i < SPF__COUNT; i++) {
		if (!m->facts[i].present)
			continue;
		json_t *fj = fact_json(m, (enum sp_fact_id)i);
		json_object_set_new(fj, "fact", json_string(fact_names[i]));
		json_array_append_new(facts, fj);
	}
	json_object_set_new(mj, "facts", facts);
	json_t *al = json_array();
	for (size_t i = 0; i < m->naliases; i++)
		json_array_append_new(al, json_pack("{s:s,s:s,s:o}", "gfp", m->aliases[i].gfp, "alloc", m->aliases[i].alloc,
						    "line", m->aliases[i].line ? json_integer(m->aliases[i].line) : json_null()));
	json_object_set_new(mj, "aliases", al);
	const struct sp_fact *w = NULL;
	bool c = slowpath_costly_noretry_compacts(m, &w);
	json_object_set_new(mj, "costly_noretry_compacts", json_boolean(c));
	json_object_set_new(mj, "costly_noretry_where", w && w->file ? json_pack("{s:s,s:i}", "file", w->file, "line", w->line)
									 : json_null());
	return mj;
}

void explain_print_model(const struct slowpath_model *m, FILE *f)
{
	slowpath_model_print(m, f);
	const struct sp_fact *w = NULL;
	bool c = slowpath_costly_noretry_compacts(m, &w);
	char *where = w && w->file ? xasprintf("%s:%d", w->file, w->line) : xasprintf("built-in %s", m->name);
	fprintf(f, "costly __GFP_NORETRY requests with direct reclaim: %s (%s)\n",
		c ? "still enter direct compaction" : "skip direct compaction", where);
	free(where);
}

json_t *explain_to_json(const struct explanation *x)
{
	const struct slowpath_model *m = x->model;
	json_t *o = json_object();
	json_object_set_new(o, "site", site_to_json(x->site));
	json_t *mj = explain_model_to_json(m);
	json_object_set_new(o, "model", mj);
	json_t *orders = json_array();
	for (size_t i = 0; i < x->n; i++) {
		const struct explain_group *g = &x->g[i];
		json_t *gj = json_pack("{s:i,s:i,s:s,s:{s:o,s:o},s:s}", "hi", g->hi, "lo", g->lo, "role", g->role,
				       "gfp", "must", flags_json(g->gfp.must), "may", flags_json(g->gfp.may & ~g->gfp.must),
				       "summary", g->out.summary);
		json_object_set_new(gj, "order_known", json_boolean(x->order_known));
		if (g->when)
			json_object_set_new(gj, "when", json_string(g->when));
		json_t *fl = json_array();
		for (size_t k = 0; k < g->flags.n; k++)
			json_array_append_new(fl, json_pack("{s:s,s:s,s:o,s:o}", "name", g->flags.f[k].name,
				"set", tri_name(g->flags.f[k].set),
				"file", g->flags.f[k].file ? json_string(g->flags.f[k].file) : json_null(),
				"line", g->flags.f[k].line ? json_integer(g->flags.f[k].line) : json_null()));
		json_object_set_new(gj, "alloc_flags", fl);
		json_object_set_new(gj, "alloc_flags_from_tree", json_boolean(g->flags.from_tree));
		if (g->flags.note)
			json_object_set_new(gj, "alloc_flags_note", json_string(g->flags.note));
		json_t *st = json_array();
		for (size_t k = 0; k < g->out.nsteps; k++) {
			json_t *sj = fact_json(m, g->out.steps[k].fact);
			json_object_set_new(sj, "text", json_string(g->out.steps[k].text));
			json_object_set_new(sj, "when", json_string(tri_name(g->out.steps[k].when)));
			json_array_append_new(st, sj);
		}
		json_object_set_new(gj, "steps", st);
		json_object_set_new(gj, "kswapd", json_string(tri_name(g->out.kswapd)));
		json_object_set_new(gj, "compaction", json_string(tri_name(g->out.compacts)));
		json_object_set_new(gj, "reclaim", json_string(tri_name(g->out.reclaims)));
		json_object_set_new(gj, "retries", json_string(tri_name(g->out.retries)));
		json_object_set_new(gj, "oom", json_string(tri_name(g->out.oom)));
		json_array_append_new(orders, gj);
	}
	json_object_set_new(o, "orders", orders);
	return o;
}
