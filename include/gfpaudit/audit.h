/* The audit run behind `gfpaudit audit` and `gfpaudit facts` (command
 * layer: it prints and returns exit codes).  The commands parse their
 * options into struct audit_args and call audit_main. */
#ifndef GFPAUDIT_AUDIT_H
#define GFPAUDIT_AUDIT_H
#include <stdbool.h>
#include "gfpaudit/cli.h"

struct audit_args {
	struct cli_common c;
	char **paths;            /* PATH... (lent) */
	int npaths;
	int jobs, timeout, mem_mb;
	int sites, want_fixes, want_pch;  /* want_pch: 0 off, 1 if it can be built, 2 required */
	const char *fix_dir, *cache, *baseline_path, *cocci_rules;
	int no_cache, prefilter, candidates, cocci, all_files;  /* prefilter: 0 off, 1 auto, 2 on */
	int shard_k, shard_n;
	int use_facts, facts_passes;
	const char *color;       /* --color: auto (NULL), always, never */
	int progress;            /* progress lines when stderr is not a terminal */
	/* gfpaudit facts: record the tree's facts of the files (root: what
	 * they are the facts of), print no report */
	bool build_tree_facts;
	const char *facts_root;
};

/* Defaults for every field (jobs: the CPUs). */
void audit_args_init(struct audit_args *a);
/* --shard K/N into the struct audit_args an option row points to (cli.h). */
struct cli_option;
int audit_opt_shard(const char *cmd, const struct cli_option *opt, const char *arg);
int audit_main(struct audit_args *a);

#endif
