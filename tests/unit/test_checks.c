/* The generated registration list (analyzer/checks/gen-list.sh). */
#include <string.h>
#include "harness.h"
#include "gfpaudit/check.h"

TEST(check_table_by_rank)
{
	REQUIRE(check_count() > 0);
	for (size_t i = 0; check_table[i]; i++) {
		const struct check *c = check_table[i];
		CHECK(c->rank > 0);
		CHECK(c->id && *c->id);
		CHECK(c->summary && *c->summary);
		CHECK(c->on_site || c->on_file);
		if (i)
			CHECK(check_table[i - 1]->rank < c->rank);
		CHECK_EQ_INT(check_lookup(c->id), (int)i);
	}
	/* the report order the outputs were written in */
	CHECK_EQ_STR(check_table[0]->id, "costly-no-noretry");
	CHECK_EQ_STR(check_table[1]->id, "costly-no-fallback");
	CHECK_EQ_INT(check_lookup("no-such-rule"), -1);
}
