/* libFuzzer target: the C front end and everything after it, as a worker
 * runs it on one file: libclang's parse against the kernel-model headers,
 * the site model, value provenance, the checks and the fix stage (fixes
 * verified by re-analysis), then the result's JSON round trip the worker
 * pipe uses.  The input is the file's text, analyzed in-process so a crash
 * in our code is the fuzzer's to see.  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/cli.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/pipeline.h"
#include "gfpaudit/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct engine *e;
	if (!e) {
		struct cli_common c = { 0 };
		struct engine_opts eo;
		if (cli_engine_opts(&c, &eo))
			abort();
		eo.fixes = true;
		if (engine_new(&eo, &e))
			abort();
	}
	struct unsaved_file uf = { "/tmp/gfpaudit-fuzz/drivers/fuzz/input.c", (const char *)data, size };
	struct file_result *r = NULL;
	if (pipeline_analyze_file(e, uf.path, &uf, 1, &r) == 0 && r) {
		json_t *j = file_result_to_json(r);
		struct file_result *back = NULL;
		if (j && file_result_from_json(j, &back) == 0)
			file_result_free(back);
		json_decref(j);
	}
	file_result_free(r);
	return 0;
}
