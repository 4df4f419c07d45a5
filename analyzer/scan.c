/* scan: expand paths into files, deterministically (sorted). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/scan.h"
#include "gfpaudit/strbuf.h"

void file_list_init(struct file_list *l) { memset(l, 0, sizeof(*l)); }

void file_list_release(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	for (size_t i = 0; i < l->nproblems; i++)
		free(l->problems[i]);
	free(l->paths);
	free(l->problems);
	memset(l, 0, sizeof(*l));
}

static void push(struct file_list *l, char *p)
{
	ALLOC_GROW(l->paths, l->n + 1, l->alloc);
	l->paths[l->n++] = p;
}

static void problem(struct file_list *l, char *p)
{
	ALLOC_GROW(l->problems, l->nproblems + 1, l->problems_alloc);
	l->problems[l->nproblems++] = p;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t walk(struct file_list *l, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		problem(l, xasprintf("%s: cannot read directory: %s", dir, strerror(errno)));
		return 0;
	}
	char **names = NULL;
	size_t n = 0, alloc = 0, found = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue; /* ., .., .git and hidden files */
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			found += walk(l, p);
			free(p);
		} else if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && strlen(names[i]) > 2 &&
			   !strcmp(names[i] + strlen(names[i]) - 2, ".c")) {
			push(l, p);
			found++;
		} else {
			free(p);
		}
		free(names[i]);
	}
	free(names);
	return found;
}

void file_list_add_path(struct file_list *l, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		problem(l, xasprintf("%s: %s", path, strerror(errno)));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		size_t len = strlen(path);
		char *dir = xstrdup(path);
		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = 0;
		if (!walk(l, dir))
			problem(l, xasprintf("%s: no C files in this directory", path));
		free(dir);
		return;
	}
	push(l, xstrdup(path));
}
