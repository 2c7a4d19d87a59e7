/*
 * fileid.c: is it the same file?  Two paths name one file when they are
 * the same string, or when the files they finally reach (through symbolic
 * links) have one device and inode, or, for files not there yet, one
 * canonical directory and name.  Used wherever cbench must not write over
 * what it reads or write one file twice (exports, --output, --input).
 */
#include "fileid.h"
#include "xalloc.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fileid_dir(const char *path)
{
	char *copy = xstrdup(path);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	return dir;
}

/*
 * Where the bytes finally go: path itself, or for a symbolic link (even a
 * dangling one), the file it points to, so the link survives the rename.
 */
char *fileid_target(const char *path)
{
	char *cur = xstrdup(path);
	for (int depth = 0; depth < 40; depth++) {
		struct stat st;
		char buf[PATH_MAX];
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		ssize_t n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0)
			break;
		buf[n] = '\0';
		char *next;
		if (buf[0] == '/') {
			next = xstrdup(buf);
		} else {
			char *dir = fileid_dir(cur);
			next = xasprintf("%s/%s", dir, buf);
			free(dir);
		}
		free(cur);
		cur = next;
	}
	return cur;
}

struct file_id {
	bool exists;
	dev_t dev;
	ino_t ino;
	char *where;       /* for a file not there yet */
};

static void file_id_get(const char *path, struct file_id *id)
{
	struct stat st;
	memset(id, 0, sizeof *id);
	char *target = fileid_target(path);
	if (stat(target, &st) == 0) {
		id->exists = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	} else {
		char *dir = fileid_dir(target), *copy = xstrdup(target);
		char *canon = realpath(dir, NULL);
		id->where = canon ? xasprintf("%s/%s", canon, basename(copy))
				  : xstrdup(target);
		free(canon);
		free(copy);
		free(dir);
	}
	free(target);
}

static bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	if (a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->where, b->where) == 0;
}

bool fileid_same(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	struct file_id x, y;
	file_id_get(a, &x);
	file_id_get(b, &y);
	bool same = file_id_same(&x, &y);
	free(x.where);
	free(y.where);
	return same;
}

