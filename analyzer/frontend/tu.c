/* Parse one translation unit with libclang and evaluate the tree's facts in
 * it: every __GFP_* bit value and the allocator constants are probed by
 * appending declarations to the main file (in memory), so values always
 * come from the tree being analyzed, never from gfpaudit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define MAX_FILE (16u << 20)

static const char *const fixed_probes[] = {
	"PAGE_ALLOC_COSTLY_ORDER", "MAX_PAGE_ORDER", "MAX_ORDER", "PAGE_SHIFT",
	"KMALLOC_MAX_CACHE_SIZE", "HPAGE_PMD_ORDER", "NR_CPUS", "MAX_NUMNODES", "XATTR_SIZE_MAX",
	"MAX_PAGECACHE_ORDER", "PREFERRED_MAX_PAGECACHE_ORDER", "MAX_XAS_ORDER",
};
enum { P_COSTLY, P_MAXPAGE, P_MAXORDER, P_SHIFT, P_KMCS, P_HPMD, P_NRCPUS, P_NUMNODES, P_XATTR, P_PCORDER, P_PCPREF, P_XAS, P__N };

static void build_probe(struct strbuf *sb, const char *const *extra, size_t nextra)
{
	strbuf_adds(sb, "\n");
	for (int i = 0; i < GFPF__COUNT; i++) {
		const char *n = gfp_flag_name(i);
		strbuf_addf(sb, "#ifdef %s\nstatic const unsigned long long __gfpaudit_g%d = "
			    "(unsigned long long)(%s);\n#endif\n", n, i, n);
	}
	for (int i = 0; i < P__N; i++)
		strbuf_addf(sb, "#ifdef %s\nstatic const long long __gfpaudit_k%d = (long long)(%s);\n#endif\n",
			    fixed_probes[i], i, fixed_probes[i]);
	for (size_t i = 0; i < nextra; i++)
		strbuf_addf(sb, "static const unsigned long long __gfpaudit_x%zu = "
			    "(unsigned long long)(%s);\n", i, extra[i]);
}

struct probe_walk {
	struct tu *t;
	long long k[P__N];
	bool have[P__N];
	long long *x;
	bool *xhave;
	size_t nx;
};

bool tu_eval_int(CXCursor c, long long *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return false;
	bool ok = false;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		if (clang_EvalResult_isUnsignedInt(r))
			*out = (long long)clang_EvalResult_getAsUnsigned(r);
		else
			*out = clang_EvalResult_getAsLongLong(r);
		ok = true;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static enum CXChildVisitResult probe_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct probe_walk *w = data;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_VarDecl)
		return CXChildVisit_Continue;
	CXString s = clang_getCursorSpelling(c);
	const char *n = clang_getCString(s);
	long long v;
	if (!strncmp(n, "__gfpaudit_", 11) && tu_eval_int(c, &v)) {
		int idx = atoi(n + 12);
		if (n[11] == 'g' && idx >= 0 && idx < GFPF__COUNT)
			w->t->gfp.value[idx] = (uint64_t)v;
		else if (n[11] == 'k' && idx >= 0 && idx < P__N) {
			w->k[idx] = v;
			w->have[idx] = true;
		} else if (n[11] == 'x' && (size_t)idx < w->nx) {
			w->x[idx] = v;
			w->xhave[idx] = true;
		}
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

bool tu_probe_value(const struct tu *t, size_t i, long long *out)
{
	if (i >= t->nx || !t->xhave[i])
		return false;
	*out = t->xval[i];
	return true;
}

static bool is_binary(const char *s, size_t len)
{
	return memchr(s, 0, len) != NULL;
}

/* Count the TU's errors outside the probe block and keep the first
 * TU_MAX_ERRORS offsets and the first message. */
static void collect_errors(struct tu *t)
{
	unsigned nd = clang_getNumDiagnostics(t->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(t->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			CXSourceLocation loc = clang_getDiagnosticLocation(d);
			CXFile f;
			unsigned line, col, off;
			clang_getExpansionLocation(loc, &f, &line, &col, &off);
			bool in_probe = f && clang_File_isEqual(f, t->main_file) && off >= t->probe_offset;
			if (!in_probe) {
				t->errors++;
				if (t->nerrs < TU_MAX_ERRORS) {
					if (!t->errs)
						t->errs = xcalloc(TU_MAX_ERRORS, sizeof(*t->errs));
					t->errs[t->nerrs].in_main = f && clang_File_isEqual(f, t->main_file);
					t->errs[t->nerrs++].off = off;
				}
				if (!t->first_error) {
					CXString fn = clang_getFileName(f);
					CXString m = clang_getDiagnosticSpelling(d);
					t->first_error = xasprintf("%s:%u: %s", clang_getCString(fn) ? clang_getCString(fn) : "?",
								   line, clang_getCString(m));
					t->first_message = xstrdup(clang_getCString(m));
					clang_disposeString(fn);
					clang_disposeString(m);
				}
			}
		}
		clang_disposeDiagnostic(d);
	}
}

/* Evaluate the probe block build_probe() appended: the gfp flag values,
 * the fixed constants (the facts, with x86-64 defaults when absent) and
 * the caller's `nextra` expressions. */
static void eval_probes(struct tu *t, size_t nextra)
{
	t->nx = nextra;
	t->xval = xcalloc(nextra + 1, sizeof(*t->xval));
	t->xhave = xcalloc(nextra + 1, sizeof(*t->xhave));
	struct probe_walk w = { .t = t, .x = t->xval, .xhave = t->xhave, .nx = nextra };
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), probe_visit, &w);
	if (debug_on()) {
		for (int i = 0; i < GFPF__COUNT; i++)
			fprintf(stderr, "debug: %s = %#llx\n", gfp_flag_name(i), (unsigned long long)t->gfp.value[i]);
		for (int i = 0; i < P__N; i++)
			fprintf(stderr, "debug: %s = %lld (%s)\n", fixed_probes[i], w.k[i], w.have[i] ? "found" : "absent");
	}
	t->facts.costly_order = w.have[P_COSTLY] ? (int)w.k[P_COSTLY] : 3;
	if (w.have[P_MAXPAGE])
		t->facts.max_order = (int)w.k[P_MAXPAGE];
	else if (w.have[P_MAXORDER]) /* before 6.4 MAX_ORDER was exclusive (11) */
		t->facts.max_order = (int)(w.k[P_MAXORDER] >= 11 ? w.k[P_MAXORDER] - 1 : w.k[P_MAXORDER]);
	else
		t->facts.max_order = 10;
	t->facts.page_shift = w.have[P_SHIFT] ? (int)w.k[P_SHIFT] : 12;
	t->kmalloc_max_cache_size = w.have[P_KMCS] ? w.k[P_KMCS] : 2LL << t->facts.page_shift;
	t->hpage_pmd_order = w.have[P_HPMD] ? w.k[P_HPMD] : 9;
	t->max_order_macro = w.have[P_MAXORDER] ? w.k[P_MAXORDER] : -1;
	t->facts.nr_cpus = w.have[P_NRCPUS] ? w.k[P_NRCPUS] : 0;
	t->facts.max_numnodes = w.have[P_NUMNODES] ? w.k[P_NUMNODES] : 0;
	t->facts.xattr_size_max = w.have[P_XATTR] ? w.k[P_XATTR] : 0;
	/* 0 without the macro (linux/pagemap.h not included): no bound.
	 * 6.12 defines it as min(MAX_XAS_ORDER, PREFERRED_...), no constant
	 * expression for a static initializer: then the two halves. */
	t->facts.pagecache_max_order = w.have[P_PCORDER] ? w.k[P_PCORDER] : 0;
	if (!w.have[P_PCORDER] && w.have[P_PCPREF])
		t->facts.pagecache_max_order = w.have[P_XAS] && w.k[P_XAS] < w.k[P_PCPREF] ? w.k[P_XAS] : w.k[P_PCPREF];
	if (t->facts.pagecache_max_order > t->facts.max_order)
		t->facts.pagecache_max_order = t->facts.max_order;
}

void tu_constants(const struct tu *t, struct tree_constants *out)
{
	*out = (struct tree_constants){
		.page_shift = t->facts.page_shift, .costly_order = t->facts.costly_order,
		.max_order = t->facts.max_order, .max_order_macro = t->max_order_macro,
		.kmalloc_max_cache_size = t->kmalloc_max_cache_size, .hpage_pmd_order = t->hpage_pmd_order,
	};
}

int tu_parse(struct tu *t, const struct flags_ctx *fc, const char *path,
	     const struct unsaved_file *unsaved, size_t nunsaved,
	     const char *const *extra, size_t nextra)
{
	memset(t, 0, sizeof(*t));
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	const struct unsaved_file *mine = NULL;
	for (size_t i = 0; i < nunsaved; i++)
		if (!strcmp(unsaved[i].path, path))
			mine = &unsaved[i];
	if (mine) {
		if (mine->len > MAX_FILE)
			return err_set(GA_EIO, "file is larger than %u bytes", MAX_FILE);
		strbuf_add(&sb, mine->contents, mine->len);
	} else if ((rc = strbuf_read_file(&sb, path, MAX_FILE))) {
		return rc;
	}
	if (is_binary(sb.buf, sb.len)) {
		strbuf_release(&sb);
		return err_set(GA_EINVAL, "binary file (NUL bytes), not C source");
	}
	t->main_len = sb.len;
	t->probe_offset = sb.len;
	build_probe(&sb, extra, nextra);
	t->buf = strbuf_detach(&sb);
	t->main_text = t->buf;
	t->main_path = xstrdup(path);

	char **argv = NULL;
	int argc = 0;
	if ((rc = flags_for_file(fc, path, &argv, &argc)))
		return rc;
	/* the in-memory copies are the untrusted ones (mailed, staged) */
	const char *roots[] = { fc->tree, fc->kmodel_dir ? fc->kmodel_dir : datadir_kmodel(),
				GFPAUDIT_CLANG_RESOURCE_DIR, fc->compdb_dir };
	size_t nroots = sizeof(roots) / sizeof(roots[0]);
	rc = incguard_check(path, t->main_text, t->main_len, mine != NULL, argv, argc, roots, nroots);
	for (size_t i = 0; !rc && i < nunsaved; i++)
		if (&unsaved[i] != mine)
			rc = incguard_check(unsaved[i].path, unsaved[i].contents, unsaved[i].len, true, argv, argc,
					    roots, nroots);
	if (rc) {
		flags_free(argv, argc);
		return rc;
	}
	if (debug_on()) {
		fprintf(stderr, "debug: clang flags for %s:", path);
		for (int i = 0; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fputc('\n', stderr);
	}
	struct CXUnsavedFile *uf = xcalloc(nunsaved + 1, sizeof(*uf));
	size_t nuf = 0;
	uf[nuf++] = (struct CXUnsavedFile){ path, t->buf, (unsigned long)strlen(t->buf) };
	for (size_t i = 0; i < nunsaved; i++)
		if (&unsaved[i] != mine)
			uf[nuf++] = (struct CXUnsavedFile){ unsaved[i].path, unsaved[i].contents,
							    (unsigned long)unsaved[i].len };
	/* excludeDeclarationsFromPCH: a walk of the TU cursor then visits the
	 * file's own top-level declarations (and those of headers not in the
	 * PCH), not every declaration the PCH holds; walking those would load
	 * them all (the PCH's whole point is not to) */
	t->index = clang_createIndex(1, 0);
	unsigned opts = CXTranslationUnit_KeepGoing | CXTranslationUnit_IncludeAttributedTypes;
	enum CXErrorCode ec = clang_parseTranslationUnit2(t->index, path, (const char *const *)argv, argc,
							 uf, (unsigned)nuf, opts, &t->tu);
	free(uf);
	flags_free(argv, argc);
	if (ec != CXError_Success || !t->tu)
		return err_set(GA_EPARSE, "libclang could not parse the file (error %d)", (int)ec);
	t->main_file = clang_getFile(t->tu, path);

	collect_errors(t);
	eval_probes(t, nextra);
	return 0;
}

void tu_release(struct tu *t)
{
	if (t->tu)
		clang_disposeTranslationUnit(t->tu);
	if (t->index)
		clang_disposeIndex(t->index);
	free(t->buf);
	free(t->main_path);
	free(t->first_error);
	free(t->first_message);
	free(t->errs);
	free(t->xval);
	free(t->xhave);
	memset(t, 0, sizeof(*t));
}

bool tu_main_loc(const struct tu *t, CXCursor c, unsigned *line, unsigned *col, unsigned *off)
{
	CXFile f;
	unsigned l, cc, o;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, &cc, &o);
	if (!f || !clang_File_isEqual(f, t->main_file) || o >= t->probe_offset)
		return false;
	if (line) *line = l;
	if (col) *col = cc;
	if (off) *off = o;
	return true;
}

bool tu_main_range(const struct tu *t, CXCursor c, unsigned *begin, unsigned *end)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned b, e;
	clang_getFileLocation(clang_getRangeStart(r), &f1, NULL, NULL, &b);
	clang_getFileLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
	if (!f1 || !f2 || !clang_File_isEqual(f1, t->main_file) || !clang_File_isEqual(f2, t->main_file))
		return false;
	if (b > e || e > t->main_len)
		return false;
	/* When the range ends in a macro (GFP_KERNEL, BIT(3)) libclang's end is
	 * the start of that macro's name: take the whole invocation. */
	const char *txt = t->main_text;
#define IDCH(c) ((c) == '_' || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9'))
	if (e < t->main_len && IDCH(txt[e]) && (e == b || !IDCH(txt[e - 1]))) {
		while (e < t->main_len && IDCH(txt[e]))
			e++;
		unsigned k = e;
		while (k < t->main_len && (txt[k] == ' ' || txt[k] == '\t'))
			k++;
		if (k < t->main_len && txt[k] == '(') {
			int depth = 0;
			for (; k < t->main_len; k++) {
				if (txt[k] == '(')
					depth++;
				else if (txt[k] == ')' && --depth == 0)
					break;
			}
			if (k < t->main_len)
				e = k + 1;
		}
	}
#undef IDCH
	*begin = b;
	*end = e;
	return true;
}

/* analyzer/frontend/opcode.cc */
const char *gfpaudit_cursor_operator(CXCursor c, int *postfix);

const char *tu_operator(const struct tu *t, CXCursor c, bool *postfix)
{
	int pf = 0;
	(void)t;
	const char *op = gfpaudit_cursor_operator(c, &pf);
	if (postfix)
		*postfix = pf != 0;
	return op;
}

char *tu_expansion_name(const struct tu *t, CXCursor c)
{
	unsigned off;
	if (!tu_main_loc(t, c, NULL, NULL, &off))
		return NULL;
	const char *s = t->main_text + off, *e = s;
	while (e < t->main_text + t->main_len && (e[0] == '_' || (e[0] >= 'a' && e[0] <= 'z') ||
		(e[0] >= 'A' && e[0] <= 'Z') || (e[0] >= '0' && e[0] <= '9')))
		e++;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}
