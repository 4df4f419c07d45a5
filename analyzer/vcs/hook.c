/* Installing and removing the pre-commit hook (see vcs.h).
 *
 * The hook is a few lines of sh with a marker comment: the marker is how we
 * tell our hook from somebody else's, so that install never clobbers a
 * foreign hook by accident and uninstall never removes one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gfpaudit/vcs.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fs.h"

#define CHAINED "pre-commit.gfpaudit-chained"
#define SAVED "pre-commit.gfpaudit-saved"

int vcs_hooks_dir(struct vcs *v, char **out)
{
	char *hp = NULL;
	int rc = vcs_config_path(v, "core.hooksPath", &hp);
	if (rc == 0 && hp[0]) {
		if (hp[0] == '/') {
			*out = hp;
			return 0;
		}
		/* git runs hooks from the top of the work tree (bare: the git dir),
		 * and a relative core.hooksPath is read from there */
		const char *base = vcs_workdir(v) ? vcs_workdir(v) : vcs_commondir(v);
		*out = xasprintf("%s%s%s", base, base[strlen(base) - 1] == '/' ? "" : "/", hp);
		free(hp);
		return 0;
	}
	free(hp);
	if (rc && rc != GA_ENOTFOUND)
		return rc;
	const char *cd = vcs_commondir(v);
	*out = xasprintf("%s%shooks", cd, cd[strlen(cd) - 1] == '/' ? "" : "/");
	return 0;
}

/* Single-quote for sh: ' becomes '\'' */
static void sh_quote(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '\'');
}

char *vcs_hook_script(const char *bin)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "#!/bin/sh\n" VCS_HOOK_MARKER "\n"
		"# Installed by 'gfpaudit hook install'; 'gfpaudit hook uninstall' removes it.\n"
		"# Checks the staged changes for new costly page allocations;\n"
		"# 'git commit --no-verify' skips it once.\n"
		"chained=\"$(dirname \"$0\")/" CHAINED "\"\n"
		"if [ -x \"$chained\" ]; then\n"
		"\t\"$chained\" \"$@\" || exit $?\n"
		"fi\n"
		"gfpaudit=");
	sh_quote(&sb, bin);
	strbuf_adds(&sb, "\n"
		/* a moved binary must not block every commit: warn and let it pass */
		"if [ ! -x \"$gfpaudit\" ]; then\n"
		"\techo \"gfpaudit hook: $gfpaudit is gone; not checking (run 'gfpaudit hook install' again)\" >&2\n"
		"\texit 0\n"
		"fi\n"
		"exec \"$gfpaudit\" check --staged\n");
	return strbuf_detach(&sb);
}

/* 1 ours, 0 foreign, GA_ENOTFOUND absent (lstat: a dangling symlink is a hook too) */
static int hook_kind(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? GA_ENOTFOUND : err_set(GA_EIO, "%s: %s", path, strerror(errno));
	struct strbuf sb = STRBUF_INIT;
	int ours = 0;
	if (S_ISREG(st.st_mode) && strbuf_read_file(&sb, path, 1 << 20) == 0)
		ours = strstr(sb.buf, "\n" VCS_HOOK_MARKER "\n") != NULL;
	strbuf_release(&sb);
	return ours;
}

/* Write through a temporary file and rename, so a failed write never leaves
 * a half hook that blocks commits. */
static int write_hook(const char *path, const char *text)
{
	char *tmp = xasprintf("%s.gfpaudit-tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;
	if (!f) {
		rc = err_set(GA_EIO, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	size_t n = strlen(text);
	int bad = fwrite(text, 1, n, f) != n;
	bad |= fclose(f) != 0;
	if (bad || chmod(tmp, 0755) < 0 || rename(tmp, path) < 0) {
		rc = err_set(GA_EIO, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
out:
	free(tmp);
	return rc;
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

int vcs_hook_install(struct vcs *v, const char *bin, unsigned flags,
		     enum vcs_hook_outcome *outcome, char **path_out, char **saved_out)
{
	char *dir = NULL, *hook = NULL, *chained = NULL, *saved = NULL, *text = NULL;
	int rc = vcs_hooks_dir(v, &dir);
	if (rc)
		return rc;
	hook = xasprintf("%s/pre-commit", dir);
	chained = xasprintf("%s/" CHAINED, dir);
	saved = xasprintf("%s/" SAVED, dir);
	if ((rc = fs_mkdir_p(dir, 0777)))
		goto cleanup;
	int kind = hook_kind(hook);
	enum vcs_hook_outcome oc = VCS_HOOK_INSTALLED;
	if (kind < 0 && kind != GA_ENOTFOUND) {
		rc = kind;
		goto cleanup;
	}
	if (kind == 1) {
		oc = VCS_HOOK_UPDATED;
	} else if (kind == 0) {
		if (flags & VCS_HOOK_CHAIN) {
			if (exists(chained)) {
				rc = err_set(GA_EINVAL, "%s already exists: cannot chain a second hook", chained);
				goto cleanup;
			}
			if (rename(hook, chained) < 0) {
				rc = err_set(GA_EIO, "cannot move %s aside: %s", hook, strerror(errno));
				goto cleanup;
			}
			oc = VCS_HOOK_CHAINED;
		} else if (flags & VCS_HOOK_FORCE) {
			/* a hook saved by an earlier --force stays: the next free
			 * name, taken with link() so nothing is ever replaced */
			for (int k = 1; ; k++) {
				if (link(hook, saved) == 0)
					break;
				if (errno != EEXIST || k > 999) {
					rc = err_set(GA_EIO, "cannot move %s aside: %s", hook, strerror(errno));
					goto cleanup;
				}
				free(saved);
				saved = xasprintf("%s/" SAVED ".%d", dir, k);
			}
			if (unlink(hook) < 0) {
				rc = err_set(GA_EIO, "cannot move %s aside: %s", hook, strerror(errno));
				unlink(saved);
				goto cleanup;
			}
			oc = VCS_HOOK_REPLACED;
		} else {
			rc = err_set(GA_EINVAL, "%s exists and is not gfpaudit's: '--chain' runs it before "
				     "gfpaudit, '--force' replaces it (kept as " SAVED ")", hook);
			goto cleanup;
		}
	}
	text = vcs_hook_script(bin);
	rc = write_hook(hook, text);
	if (rc && oc == VCS_HOOK_CHAINED)
		rename(chained, hook); /* put the user's hook back where it was */
	if (rc && oc == VCS_HOOK_REPLACED)
		rename(saved, hook); /* put the user's hook back where it was */
	if (!rc) {
		*outcome = oc;
		if (path_out)
			*path_out = xstrdup(hook);
		if (saved_out && oc == VCS_HOOK_REPLACED)
			*saved_out = xstrdup(saved);
	}
cleanup:
	free(dir);
	free(hook);
	free(chained);
	free(saved);
	free(text);
	return rc;
}

int vcs_hook_uninstall(struct vcs *v, enum vcs_hook_outcome *outcome, char **path_out)
{
	char *dir = NULL, *hook = NULL, *chained = NULL;
	int rc = vcs_hooks_dir(v, &dir);
	if (rc)
		return rc;
	hook = xasprintf("%s/pre-commit", dir);
	chained = xasprintf("%s/" CHAINED, dir);
	if (path_out)
		*path_out = xstrdup(hook);
	int kind = hook_kind(hook);
	if (kind == GA_ENOTFOUND) {
		*outcome = VCS_HOOK_ABSENT;
	} else if (kind < 0) {
		rc = kind;
	} else if (kind == 0) {
		rc = err_set(GA_EINVAL, "%s is not gfpaudit's hook: left alone", hook);
	} else if (exists(chained)) {
		if (rename(chained, hook) < 0)
			rc = err_set(GA_EIO, "cannot restore %s: %s", chained, strerror(errno));
		else
			*outcome = VCS_HOOK_RESTORED;
	} else if (unlink(hook) < 0) {
		rc = err_set(GA_EIO, "cannot remove %s: %s", hook, strerror(errno));
	} else {
		*outcome = VCS_HOOK_REMOVED;
	}
	if (rc && path_out) {
		free(*path_out);
		*path_out = NULL;
	}
	free(dir);
	free(hook);
	free(chained);
	return rc;
}
