/* scan: turn command-line paths into the list of files to analyze. */
#ifndef GFPAUDIT_SCAN_H
#define GFPAUDIT_SCAN_H
#include <stddef.h>

struct file_list {
	char **paths;
	size_t n, alloc;
	char **problems;   /* "PATH: reason" for inputs that gave no file */
	size_t nproblems, problems_alloc;
};

void file_list_init(struct file_list *l);
void file_list_release(struct file_list *l);
/* Add PATH: a .c/.h file as is (any other regular file too: the engine will
 * say what is wrong with it), a directory recursively (its .c files, sorted).
 * Missing paths and directories without C files land in problems. */
void file_list_add_path(struct file_list *l, const char *path);

#endif
