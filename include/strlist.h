/*
 * strlist.h: a list of strings, as a repeatable option gives them
 * (cli.h fills them; the layers below read them).  The strings are
 * borrowed; v is owned by whoever filled the list (cli_free for the
 * command line's).
 */
#ifndef CBENCH_STRLIST_H
#define CBENCH_STRLIST_H

#include <stddef.h>

struct strlist {
	const char **v;
	size_t n, cap;
};

#endif
