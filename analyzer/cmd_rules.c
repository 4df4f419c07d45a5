/* gfpaudit rules: the rules this binary runs, from the check table.  The
 * corpus runner and other tools read `--format json` instead of keeping
 * their own list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/check.h"
#include "gfpaudit/err.h"
#include "gfpaudit/finding.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit rules [--format text|json]\n"
"\n"
"List the rules, in report order: id, default severity and what each finds.\n"
"JSON gives each rule's id, severity, summary, scope (\"site\": a finding at an\n"
"allocation call; \"function\": about a function's mask bookkeeping or the file),\n"
"whether its severity follows the size's confidence (judged_by_size), why it\n"
"matters and the advice given when no fix is offered.\n"
"\n");
	cli_print_options(f, opts);
	fprintf(f, "\nexit: 0 listed, 2 usage, 3 tool failure\n");
}

static int print_json(void)
{
	json_t *root = json_object(), *arr = json_array();
	for (size_t i = 0; check_table[i]; i++) {
		const struct check *c = check_table[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_string(c->id));
		json_object_set_new(o, "severity", json_string(severity_name(c->severity)));
		json_object_set_new(o, "summary", json_string(c->summary ? c->summary : ""));
		json_object_set_new(o, "scope", json_string(c->on_site ? "site" : "function"));
		json_object_set_new(o, "judged_by_size", json_boolean(c->judged_by_size));
		json_object_set_new(o, "why", c->why ? json_string(c->why) : json_null());
		json_object_set_new(o, "advice", c->advice ? json_string(c->advice) : json_null());
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "rules", arr);
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (rc || putchar('\n') == EOF || fflush(stdout)) {
		fprintf(stderr, "gfpaudit rules: cannot write the list\n");
		return EXIT_TOOL;
	}
	return 0;
}

int cmd_rules(int argc, char **argv)
{
	const char *format = "text";
	const struct cli_option opts[] = {
		CLI_CHOICE(0, "format", &format, "FMT", "text|json", "text (default) or json"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, first = cli_parse_options("rules", opts, argc, argv, usage, &rc);
	if (first < 0)
		return rc;
	if (first != argc) {
		fprintf(stderr, "gfpaudit rules: takes no arguments ('%s')\n", argv[first]);
		return EXIT_USAGE;
	}
	if (!strcmp(format, "json"))
		return print_json();
	cli_print_rules(stdout);
	return fflush(stdout) ? EXIT_TOOL : 0;
}
