# tests/option_table.sh: the option table as the sync and completion tests
# see it (sourced by tests/e2e/sync.sh and tests/e2e/completions.sh).
#
# Two views of cli_options[], cross-checked by sync.sh: `cbench --help`,
# which prints every entry for people, and the hidden `cbench
# --list-options`, which prints it for these tests (as git's
# --git-completion-helper does for git's completion script).

SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# opt_table: one line per table entry, tab-separated, as --list-options
# prints it: long name, short letter (or empty), kind (flag, count, uint,
# seconds, percent, enum, choice, file, command, list, export, special),
# fixed values "a|b|c" (or empty), completion kind (file, command, counter
# or empty), scope (run, compare, both), default (or empty), range (or
# empty: "[1,255]", "(0,1e7]", percent for percent options), and once or
# many (whether it may be given more than once).
# Run without cb's valgrind wrapper: it is called by many tests, and
# --list-options has its own run under cb in sync.sh.
opt_table() {
	"$CBENCH" --list-options
}

# opt_values: "long value" for every value of every fixed set.
opt_values() {
	opt_table | awk -F'\t' '{ n = split($4, v, "|"); for (i = 1; i <= n; i++) print $1, v[i] }'
}

# help_longs [compare]: the long options `cbench [compare] --help` lists.
# Option lines are indented 2 ("  -w, --warmup") or 6 ("      --seed");
# help text is indented 10, so a wrapped "--max-time" there never counts.
help_longs() {
	cb "$@" --help | sed -nE 's/^(  -[[:alnum:]], |      )--([[:alnum:]-]+).*/\2/p'
}

# help_pairs: "s long" for every option with a short letter.
help_pairs() {
	cb --help | sed -nE 's/^  -([[:alnum:]]), --([[:alnum:]-]+).*/\1 \2/p'
}

# counter_events: the event names --counters accepts (its value set in the
# table, filled from counters.c's table), "none" last.
counter_events() {
	opt_table | awk -F'\t' '$1 == "counters" { print $4 }' | tr '|' '\n'
}

# word_re WORD: an extended regex matching WORD not inside a longer option
# or identifier (so --export-csv does not match --export-csv-runs).
word_re() {
	printf '(^|[^[:alnum:]_-])%s([^[:alnum:]_-]|$)' "$1"
}
