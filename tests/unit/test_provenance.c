/* Provenance kinds, confidence from a site's order and sources, the
 * string pool, and the JSON round trip of a site's provenance. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "harness.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/site.h"
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"

TEST(provenance_names_round_trip)
{
	for (int k = 0; k < SRC_NKINDS; k++)
		CHECK_EQ_INT(src_kind_lookup(src_kind_name((enum src_kind)k)), k);
	CHECK_EQ_INT(src_kind_lookup("width"), -1);
	for (int c = CONF_NONE; c <= CONF_PROVEN; c++)
		CHECK_EQ_INT(confidence_lookup(confidence_name((enum confidence)c)), c);
}

TEST(provenance_primary_prefers_outside_control)
{
	CHECK_EQ_INT(src_primary(0), -1);
	CHECK_EQ_INT(src_primary(SRCB(CONST) | SRCB(UNKNOWN)), SRC_UNKNOWN);
	CHECK_EQ_INT(src_primary(SRCB(CONST) | SRCB(UNKNOWN) | SRCB(DEVICE)), SRC_DEVICE);
	CHECK_EQ_INT(src_primary(SRCB(PARAM) | SRCB(USER) | SRCB(REMOTE)), SRC_USER);
	CHECK_EQ_INT(src_primary(SRCB(RUNTIME) | SRCB(UNKNOWN)), SRC_RUNTIME);
}

TEST(provenance_intern_is_one_copy)
{
	char buf[32];
	strcpy(buf, "field 'foo.n'");
	const char *a = str_intern(buf);
	buf[0] = 'F';
	const char *b = str_intern("field 'foo.n'");
	CHECK(a == b);
	CHECK_EQ_STR(a, "field 'foo.n'");
	CHECK(str_intern(buf) != a);
	CHECK(str_intern(NULL) == NULL);
}

static struct site mk(int lo, int hi, unsigned src)
{
	struct site s;
	site_init(&s);
	s.order = (struct order_range){ lo, hi, true };
	s.src = src;
	return s;
}

TEST(provenance_site_confidence)
{
	struct site s = mk(0, 3, SRCB(USER));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_NONE);          /* never costly */
	s = mk(4, 4, SRCB(UNKNOWN));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_PROVEN);        /* every path costly */
	s = mk(0, 10, SRCB(CONST) | SRCB(USER));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);
	s = mk(0, 4, SRCB(CONST) | SRCB(UNKNOWN));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_POSSIBLE);      /* a u16 field's width */
	s = mk(0, 10, SRCB(RUNTIME));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_POSSIBLE);
	s = mk(0, 10, SRCB(DEVICE) | SRCB(CONST));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_POSSIBLE);      /* device data: usually small */
	s = mk(0, 10, SRCB(DEVICE) | SRCB(PARAM));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);
	s = mk(0, 5, SRCB(CONST));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_PROVEN);
	CHECK_EQ_INT(site_confidence(&s, 5), CONF_NONE);          /* 64K pages: costly is higher */
	s.order.known = false;
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_NONE);
}

/* Module parameters whose defaults make every path costly (sites.c,
 * defaults_run): proven; joined from other files' stores: likely. */
TEST(provenance_param_default)
{
	struct site s = mk(0, 10, SRCB(PARAM) | SRCB(CONST) | SRC_AT_DEFAULT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_PROVEN);
	s = mk(0, 10, SRCB(PARAM) | SRCB(CONST));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);        /* a small default */
	s = mk(0, 10, SRCB(PARAM) | SRCB(CONST) | SRC_AT_DEFAULT | SRC_FROM_FACTS);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);
	s = mk(0, 3, SRCB(PARAM) | SRC_AT_DEFAULT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_NONE);          /* never costly */
}

/* User data up to a kernel limit any user reaches (an xattr value's size):
 * proven alone or with constants, likely once anything else joins in. */
TEST(provenance_user_limit)
{
	struct site s = mk(0, 4, SRCB(USER) | SRC_USER_LIMIT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_PROVEN);
	s = mk(0, 5, SRCB(USER) | SRCB(CONST) | SRC_USER_LIMIT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_PROVEN);
	s = mk(0, 10, SRCB(USER) | SRCB(UNKNOWN) | SRC_USER_LIMIT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);        /* plus a caller's unknown */
	s = mk(0, 10, SRCB(USER) | SRCB(PARAM) | SRC_USER_LIMIT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);
	s = mk(0, 10, SRCB(USER));
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_LIKELY);        /* a write() count: no limit known */
	s = mk(0, 3, SRCB(USER) | SRC_USER_LIMIT);
	CHECK_EQ_INT(site_confidence(&s, 3), CONF_NONE);          /* capped below costly */
}

TEST(provenance_json_round_trip)
{
	struct site s = mk(0, 10, SRCB(CONST) | SRCB(USER) | SRCB(UNKNOWN));
	s.file = xstrdup("drivers/x.c");
	s.api = xstrdup("kmalloc");
	s.kind = API_SLAB;
	site_set_source(&s, s.src, "the count of a user buffer, 'count'", 42);
	s.conf = site_confidence(&s, 3);
	s.unknown_why = NULL;
	json_t *j = site_to_json(&s);
	struct site t;
	REQUIRE(site_from_json(j, &t) == 0);
	CHECK_EQ_INT(t.src, s.src);
	CHECK_EQ_INT(t.conf, CONF_LIKELY);
	CHECK_EQ_STR(t.src_why, "the count of a user buffer, 'count'");
	CHECK_EQ_INT(t.src_line, 42);
	const json_t *ss = json_object_get(j, "size_source");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(ss, 0), "kind")), "user");
	CHECK_EQ_INT(json_array_size(ss), 3);
	json_decref(j);
	site_release(&t);
	site_release(&s);
}
