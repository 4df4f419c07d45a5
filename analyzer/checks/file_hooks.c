/* Whole-file rules: the on_file hook and findings that are not about a site. */
#include <stdarg.h>
#include <string.h>
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"

struct finding *check_report_at(const struct check *c, struct check_ctx *ctx, const char *function,
				int line, int col, const char *subject, const char *expr, const char *fmt, ...)
{
	struct site s;
	site_init(&s);
	s.file = xstrdup(ctx->file ? ctx->file : "");
	s.line = line;
	s.col = col;
	s.function = xstrdup(function ? function : "");
	s.api = xstrdup(subject ? subject : "");
	s.gfp = gfp_const(0);
	s.fallback = FB_UNKNOWN;
	s.gfp_expr = xstrdup(expr ? expr : "");
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	struct finding *f = check_report(c, &s, ctx, "%s", sb.buf);
	strbuf_release(&sb);
	site_release(&s);
	return f;
}

void checks_run_file(uint64_t enabled, const struct check_file *f, struct check_ctx *ctx)
{
	for (size_t i = 0; check_table[i]; i++)
		if ((enabled & ((uint64_t)1 << i)) && check_table[i]->on_file)
			check_table[i]->on_file(check_table[i], f, ctx);
}
