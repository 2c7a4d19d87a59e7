/*
 * cmdline.c: GNU make's rule for running commands cheaply.  A line made only
 * of words (with quotes and backslashes) is executed directly; a line with
 * any shell syntax is handed to a shell.  Direct execution spares every run
 * the shell's start-up, which for a 1 ms command is as large as the command.
 *
 * The set of characters and words that force a shell follows make's
 * job.c (sh_chars and sh_cmds for POSIX shells), written afresh here.
 */
#include "cmdline.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Characters that make a line shell syntax when they appear unquoted. */
static const char shell_chars[] = "#;|&<>()$`*?[]{}~\n\r";

/* Reserved words and builtins that only exist inside a shell (or whose
 * behaviour as a builtin differs from any binary of the same name). */
static const char *const shell_words[] = {
	".", ":", "alias", "bg", "break", "case", "cd", "command", "continue",
	"do", "done", "elif", "else", "esac", "eval", "exec", "exit", "export",
	"fc", "fg", "fi", "for", "function", "getopts", "hash", "if", "jobs",
	"let", "local", "read", "readonly", "return", "select", "set", "shift",
	"source", "then", "times", "trap", "type", "typeset", "ulimit", "umask",
	"unalias", "unset", "until", "wait", "while", "!", "{", "}", "[[",
	NULL,
};

static bool is_shell_word(const char *w, size_t n)
{
	for (const char *const *p = shell_words; *p; p++)
		if (strlen(*p) == n && memcmp(*p, w, n) == 0)
			return true;
	return false;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

bool cmdline_needs_shell(const char *line)
{
	bool in_single = false, in_double = false;
	bool word_start = true, first_word = true;
	const char *word = line;

	for (const char *p = line; *p; p++) {
		char c = *p;
		if (in_single) {
			if (c == '\'')
				in_single = false;
			continue;
		}
		if (in_double) {
			/* Expansions stay live inside double quotes. */
			if (c == '$' || c == '`')
				return true;
			if (c == '\\' && p[1] != '\0')
				p++;
			else if (c == '"')
				in_double = false;
			continue;
		}
		if (is_blank(c)) {
			if (!word_start && first_word) {
				if (is_shell_word(word, (size_t)(p - word)))
					return true;
				first_word = false;
			}
			word_start = true;
			continue;
		}
		if (word_start) {
			word = p;
			word_start = false;
		}
		if (c == '\\') {
			/* A backslash-newline is a continuation: shell syntax. */
			if (p[1] == '\0' || p[1] == '\n')
				return true;
			p++;
			continue;
		}
		if (c == '\'') {
			in_single = true;
			continue;
		}
		if (c == '"') {
			in_double = true;
			continue;
		}
		if (strchr(shell_chars, c))
			return true;
		/* NAME=value before the command is an assignment. */
		if (c == '=' && first_word)
			return true;
	}
	if (in_single || in_double)
		return true; /* let the shell report the unterminated quote */
	if (!word_start && first_word && is_shell_word(word, strlen(word)))
		return true;
	return false;
}

char **cmdline_split(const char *line, char *err, size_t errlen)
{
	size_t n = 0, cap = 0;
	char **argv = NULL;
	size_t len = strlen(line);
	char *buf = xmalloc(len + 1);
	const char *p = line;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (*p == '\0')
			break;
		size_t b = 0;
		char quote = 0;
		while (*p && (quote || !is_blank(*p))) {
			char c = *p++;
			if (quote == '\'') {
				if (c == '\'')
					quote = 0;
				else
					buf[b++] = c;
			} else if (quote == '"') {
				if (c == '"')
					quote = 0;
				else if (c == '\\' && *p && strchr("\"\\$`", *p))
					buf[b++] = *p++;
				else
					buf[b++] = c;
			} else if (c == '\'' || c == '"') {
				quote = c;
			} else if (c == '\\' && *p) {
				buf[b++] = *p++;
			} else {
				buf[b++] = c;
			}
		}
		if (quote) {
			snprintf(err, errlen, "unterminated %s quote",
				 quote == '\'' ? "single" : "double");
			free(buf);
			argv = xreallocarray(argv, n + 1, sizeof *argv);
			argv[n] = NULL;
			cmdline_free(argv);
			return NULL;
		}
		xgrow((void **)&argv, &cap, n + 2, sizeof *argv);
		argv[n++] = xstrndup(buf, b);
	}
	free(buf);
	if (n == 0) {
		snprintf(err, errlen, "empty command");
		free(argv);
		return NULL;
	}
	argv[n] = NULL;
	return argv;
}

void cmdline_free(char **argv)
{
	if (argv == NULL)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

/* Is path an executable regular file?  Sets errno as execve would. */
static bool executable(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (S_ISDIR(st.st_mode)) {
		errno = EACCES;
		return false;
	}
	if (access(path, X_OK) != 0)
		return false;
	return true;
}

char *cmdline_resolve(const char *prog)
{
	if (prog[0] == '\0') {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(prog, '/'))
		return executable(prog) ? xstrdup(prog) : NULL;

	const char *path = getenv("PATH");
	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	int saved = ENOENT;
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t dl = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = dl ? xasprintf("%.*s/%s", (int)dl, p, prog)
				: xasprintf("./%s", prog);
		if (executable(cand))
			return cand;
		if (errno == EACCES)
			saved = EACCES;
		free(cand);
		if (colon == NULL)
			break;
		p = colon + 1;
	}
	errno = saved;
	return NULL;
}
