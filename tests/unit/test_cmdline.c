/* Unit tests: the shell/no-shell decision and word splitting (cmdline.c). */
#include "cmdline.h"
#include "unit.h"

#include <errno.h>
#include <stdlib.h>

static void needs_shell_plain_words(void)
{
	CHECK(!cmdline_needs_shell("true"));
	CHECK(!cmdline_needs_shell("sleep 0.1"));
	CHECK(!cmdline_needs_shell("gcc -O2 -o out 'my file.c' --flag=x"));
	CHECK(!cmdline_needs_shell("grep \"a b\" file"));
	CHECK(!cmdline_needs_shell("echo it\\'s"));
	CHECK(!cmdline_needs_shell("make -j4 CC=clang"));
}

static void needs_shell_syntax(void)
{
	const char *yes[] = {
		"a | b", "a && b", "a; b", "a > f", "a < f", "echo $HOME",
		"echo `date`", "ls *.c", "ls ?", "ls [ab]", "a # c", "(a)",
		"x=1 a", "cd /tmp", "for i in 1; do a; done", "echo ~",
		"echo {a,b}", "exit 3", "echo \"$x\"", "export A=1", "a\\\nb",
		"echo 'unterminated",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (!cmdline_needs_shell(yes[i])) {
			printf("FAIL %s: '%s' should need a shell\n", unit_name, yes[i]);
			unit_state = 1;
			return;
		}
	}
	/* Quoted metacharacters are plain text. */
	CHECK(!cmdline_needs_shell("echo 'a | b'"));
	CHECK(!cmdline_needs_shell("echo \"a;b\""));
	CHECK(!cmdline_needs_shell("echo a\\|b"));
}

static void split_words(void)
{
	char err[128];
	char **v = cmdline_split("  gcc  -O2 'my file.c' \"a \\\"b\\\"\" c\\ d  ", err,
				 sizeof err);
	CHECK(v != NULL);
	CHECK_STR(v[0], "gcc");
	CHECK_STR(v[1], "-O2");
	CHECK_STR(v[2], "my file.c");
	CHECK_STR(v[3], "a \"b\"");
	CHECK_STR(v[4], "c d");
	CHECK(v[5] == NULL);
	cmdline_free(v);

	v = cmdline_split("a''b \"\"", err, sizeof err);
	CHECK(v != NULL);
	CHECK_STR(v[0], "ab");
	CHECK_STR(v[1], "");
	CHECK(v[2] == NULL);
	cmdline_free(v);
}

static void split_errors(void)
{
	char err[128];
	CHECK(cmdline_split("   ", err, sizeof err) == NULL);
	CHECK_STR(err, "empty command");
	CHECK(cmdline_split("echo 'oops", err, sizeof err) == NULL);
	CHECK_STR(err, "unterminated single quote");
	CHECK(cmdline_split("echo \"oops", err, sizeof err) == NULL);
	CHECK_STR(err, "unterminated double quote");
}

static void resolve_on_path(void)
{
	char *p = cmdline_resolve("sh");
	CHECK(p != NULL);
	CHECK(p[0] == '/');
	free(p);
	errno = 0;
	CHECK(cmdline_resolve("no-such-program-cbench") == NULL);
	CHECK(errno == ENOENT);
	CHECK(cmdline_resolve("/") == NULL);
	CHECK(errno == EACCES);
}

int main(void)
{
	RUN(needs_shell_plain_words);
	RUN(needs_shell_syntax);
	RUN(split_words);
	RUN(split_errors);
	RUN(resolve_on_path);
	UNIT_EXIT();
}
