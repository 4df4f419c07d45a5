/* b4's tracking file (B4_TRACKING_FILE): where patch N of a series sits.
 *
 * `b4 review` keeps a series on the branch b4/review/<change-id>: the
 * base-commit, then one commit per patch, then a tracking commit on top.
 * The tracking file (series.base-commit, series.change-id,
 * series.expected, series.first-patch-commit) is enough to name the tree
 * patch N applies to: the base for patch 1, else the commit of patch N-1,
 * <branch>~(expected - N + 2).  See review.h. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/review.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static const char *str_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) && *json_string_value(v) ? json_string_value(v) : NULL;
}

int review_tracking_base(const char *path, int index, struct review_tracking *out)
{
	memset(out, 0, sizeof(*out));
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root)
		return err_set(GA_EINVAL, "B4_TRACKING_FILE '%s': %s (line %d)", path, je.text, je.line);
	json_t *series = json_object_get(root, "series");
	const char *base = str_at(series, "base-commit"), *change = str_at(series, "change-id");
	const char *first = str_at(series, "first-patch-commit");
	json_t *exp = json_object_get(series, "expected");
	int rc = 0;
	if (!base) {
		rc = err_set(GA_EINVAL, "B4_TRACKING_FILE '%s' names no series.base-commit", path);
	} else if (index <= 1) {
		out->rev = xstrdup(base);
		out->note = xasprintf("base %.12s from B4_TRACKING_FILE", base);
	} else if (index == 2 && first) {
		out->rev = xstrdup(first);
		out->note = xasprintf("patch 1 of the series (%.12s) from B4_TRACKING_FILE", first);
	} else if (!change || !json_is_integer(exp) || json_integer_value(exp) < index) {
		rc = err_set(GA_EINVAL, "B4_TRACKING_FILE '%s' does not say where patch %d applies "
			     "(series.change-id and series.expected are needed)", path, index);
	} else {
		long long back = json_integer_value(exp) - index + 2;
		out->rev = xasprintf("b4/review/%s~%lld", change, back);
		out->note = xasprintf("patch %d of the series (%s) from B4_TRACKING_FILE", index - 1, out->rev);
		out->first = first ? xstrdup(first) : NULL;
		out->first_rev = xasprintf("b4/review/%s~%lld", change, (long long)json_integer_value(exp));
	}
	json_decref(root);
	return rc;
}

void review_tracking_release(struct review_tracking *t)
{
	free(t->rev);
	free(t->note);
	free(t->first);
	free(t->first_rev);
	memset(t, 0, sizeof(*t));
}
