/* Site discovery: run the interpreter over every function of the analyzed
 * file, turn allocator calls into sites (order range, gfp bits, fallback,
 * evidence), and promote same-file wrappers to allocators. */
#ifndef GFPAUDIT_SITES_H
#define GFPAUDIT_SITES_H
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/result.h"
#include "gfpaudit/fn.h"

struct sites_opts {
	const char *report_path;       /* file name used in sites */
	struct alloc_table *table;     /* may grow with wrappers (copy per file) */
	int nfunctions; /* out: function definitions found in the file */
	/* The tree-wide fact base (facts.h) reads consult, or NULL; with
	 * collect_facts, every function of the file is also run to record what
	 * it stores into fields and passes to functions (out->facts). */
	const struct factbase *facts;
	bool collect_facts;
};

/* Find every site in the TU's main file and append them to `out`. */
int sites_find(const struct tu *t, struct sites_opts *o, struct file_result *out);

#endif
