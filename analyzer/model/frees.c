/* Who frees what (frees.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/frees.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/strbuf.h"

static const char *const kfrees[] = { "kfree", "kfree_sensitive", "kzfree", NULL };

char *frees_key(const char *type)
{
	return xasprintf("frees:%s", type);
}

/* The view of fix/shapes.c (facts.h): it names the first place a struct T
 * is freed, or the first in a second file when the first is its own. */
char *frees_fact_text(const struct fact_value *v)
{
	if (!v)
		return xstrdup("-");
	return xasprintf("%s %s", v->where ? v->where : "", v->nfiles > 1 && v->where2 ? v->where2 : "");
}

/* "struct T" of a pointer to a struct or union, new string; else NULL. */
static char *pointee_record(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind != CXType_Pointer)
		return NULL;
	CXType p = clang_getCanonicalType(clang_getPointeeType(t));
	if (p.kind != CXType_Record)
		return NULL;
	CXCursor decl = clang_getTypeDeclaration(p);
	CXString name = clang_getCursorSpelling(decl);
	const char *n = clang_getCString(name);
	char *r = NULL;
	if (n && *n && !clang_Cursor_isAnonymous(decl))
		r = xasprintf("%s %s", clang_getCursorKind(decl) == CXCursor_UnionDecl ? "union" : "struct", n);
	clang_disposeString(name);
	return r;
}

static void walk(const struct node *n, struct file_result *out)
{
	if (n->kind == CXCursor_CallExpr && n->name && n->line && node_nargs(n) == 1) {
		for (size_t i = 0; kfrees[i]; i++) {
			if (strcmp(n->name, kfrees[i]))
				continue;
			const struct node *a = node_strip(node_arg(n, 0));
			char *type = a ? pointee_record(a->cur) : NULL;
			if (type) {
				char *key = frees_key(type);
				file_result_add_fact(out, key, iv_const(0), SRCB(CONST), (int)n->line);
				free(key);
				free(type);
			}
		}
	}
	for (unsigned i = 0; i < n->nkids; i++)
		walk(n->kids[i], out);
}

void frees_publish(const struct fn_model *f, struct file_result *out)
{
	if (f && f->body && f->in_main)
		walk(f->body, out);
}
