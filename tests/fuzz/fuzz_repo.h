/* A tiny git repository for the fuzz targets: a driver file with a costly
 * allocation and a header, committed with libgit2 in a temporary directory.
 * Written for gfpaudit's fuzzers; no kernel code. */
#ifndef FUZZ_REPO_H
#define FUZZ_REPO_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>

static const char fuzz_ring_c[] =
	"/* a fixture for gfpaudit's fuzzers */\n"
	"#include <linux/gfp.h>\n"
	"#include <linux/slab.h>\n"
	"#include <linux/errno.h>\n"
	"#include \"ring.h\"\n"
	"\n"
	"static struct page *ring_pages;\n"
	"static void *ring_table;\n"
	"\n"
	"int ring_init(unsigned int n)\n"
	"{\n"
	"\tring_pages = alloc_pages(GFP_KERNEL, 5);\n"
	"\tif (!ring_pages)\n"
	"\t\treturn -ENOMEM;\n"
	"\tring_table = kmalloc(RING_BYTES, GFP_KERNEL);\n"
	"\tif (!ring_table)\n"
	"\t\treturn -ENOMEM;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"void ring_exit(void)\n"
	"{\n"
	"\tkfree(ring_table);\n"
	"}\n";
static const char fuzz_ring_h[] =
	"#ifndef RING_H\n#define RING_H\n#define RING_BYTES (64 * 1024)\n#endif\n";

static int fuzz_write(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Creates the repository under $TMPDIR and returns its directory (static
 * storage), or NULL. */
static const char *fuzz_repo_create(void)
{
	static char dir[] = "/tmp/gfpaudit-fuzz-repo.XXXXXX";
	git_repository *repo = NULL;
	git_index *idx = NULL;
	git_oid tree_id, commit_id;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	char sub[4200];
	if (!mkdtemp(dir))
		return NULL;
	snprintf(sub, sizeof(sub), "%s/drivers", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/drivers/foo", dir);
	mkdir(sub, 0755);
	if (fuzz_write(dir, "drivers/foo/ring.c", fuzz_ring_c) || fuzz_write(dir, "drivers/foo/ring.h", fuzz_ring_h))
		return NULL;
	if (git_repository_init(&repo, dir, 0) || git_repository_index(&idx, repo) ||
	    git_index_add_bypath(idx, "drivers/foo/ring.c") || git_index_add_bypath(idx, "drivers/foo/ring.h") ||
	    git_index_write(idx) || git_index_write_tree(&tree_id, idx) ||
	    git_tree_lookup(&tree, repo, &tree_id) || git_signature_new(&sig, "Fuzz", "fuzz@example.org", 1700000000, 0) ||
	    git_commit_create_v(&commit_id, repo, "HEAD", sig, sig, NULL, "base", tree, 0))
		return NULL;
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
	git_repository_free(repo);
	return dir;
}
#endif
