/* Running sparse on one file with the tree's flags (sparse.h): its
 * restricted gfp_t warnings feed gfp-alloc-flags-mix (model/consistency.c). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gfpaudit/sparse.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

extern char **environ;

void sparse_warnings_free(struct sparse_warning *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].text);
	free(w);
}

int sparse_run(const char *path, const char *tree, const char *include_dir,
	       struct sparse_warning **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	const char *argv[64];
	char *own[32];
	int na = 0, no = 0;
	argv[na++] = "sparse";
	if (tree) {
		/* the tree's arch (frontend/flags.c) */
		char **sf = NULL;
		int nsf = 0;
		if (flags_sparse(tree, &sf, &nsf))
			return err_set(GA_ETOOL, "sparse needs a prepared tree: %s", err_last());
		for (int i = 0; i < nsf; i++)
			if (na < 48 && no < 32)
				argv[na++] = own[no++] = sf[i];
			else
				free(sf[i]);
		free(sf);
		argv[na++] = "-DKBUILD_MODNAME=\"gfpaudit\"";
		argv[na++] = "-DKBUILD_BASENAME=\"gfpaudit\"";
	} else if (include_dir) {
		argv[na++] = own[no++] = xasprintf("-I%s", include_dir);
		argv[na++] = "-D__KERNEL__";
	}
	argv[na++] = "-nostdinc";
	argv[na++] = "-std=gnu11";
	argv[na++] = "-Wbitwise";
	argv[na++] = "-Wno-return-void";
	argv[na++] = "-Wno-unknown-attribute";
	argv[na++] = "-Wno-context";
	argv[na++] = "-Wno-decl";
	argv[na++] = path;
	argv[na] = NULL;

	int pipefd[2];
	int rc = 0;
	if (pipe(pipefd)) {
		rc = err_set(GA_ETOOL, "pipe: %s", strerror(errno));
		goto cleanup;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addclose(&fa, pipefd[1]);
	pid_t pid;
	int sp = posix_spawnp(&pid, "sparse", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (sp) {
		close(pipefd[0]);
		rc = err_set(GA_ETOOL, "cannot run sparse: %s", strerror(sp));
		goto cleanup;
	}
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	ssize_t r;
	while ((r = read(pipefd[0], buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && sb.len < (4u << 20))
			strbuf_add(&sb, buf, (size_t)r);
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* "file:line:col: warning: text" then "file:line:col:    expected …" lines */
	size_t alloc = 0;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	for (char *line = sb.buf, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		char *c1 = strchr(line, ':');
		if (!c1)
			continue;
		*c1 = 0;
		const char *fb = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
		bool ours = !strcmp(fb, base);
		char *rest = c1 + 1;
		int ln = (int)strtol(rest, &rest, 10), col = 0;
		if (*rest == ':')
			col = (int)strtol(rest + 1, &rest, 10);
		if (*rest != ':' || !ours)
			continue;
		rest++;
		bool cont = rest[0] == ' ' && rest[1] == ' ';
		while (*rest == ' ')
			rest++;
		if (cont && *nout && (*out)[*nout - 1].line == ln) {
			char *t = xasprintf("%s; %s", (*out)[*nout - 1].text, rest);
			free((*out)[*nout - 1].text);
			(*out)[*nout - 1].text = t;
			continue;
		}
		if (strncmp(rest, "warning:", 8) && strncmp(rest, "error:", 6))
			continue;
		ALLOC_GROW(*out, *nout + 1, alloc);
		(*out)[*nout].line = ln;
		(*out)[*nout].col = col;
		(*out)[(*nout)++].text = xstrdup(rest);
	}
	strbuf_release(&sb);
	/* keep only what is about gfp_t */
	size_t k = 0;
	for (size_t i = 0; i < *nout; i++) {
		if (strstr((*out)[i].text, "gfp_t"))
			(*out)[k++] = (*out)[i];
		else
			free((*out)[i].text);
	}
	*nout = k;
cleanup:
	for (int i = 0; i < no; i++)
		free(own[i]);
	return rc;
}

