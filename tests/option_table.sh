# tests/option_table.sh: the option table as the sync and completion tests
# see it (sourced by tests/e2e/sync.sh and tests/e2e/completions.sh).
#
# Two sources, cross-checked by sync.sh: `cbench --help`, which prints every
# entry of cli_options[], and the table itself in src/cli.c, read with a
# small parser (entries are `{OPT_X, "long", 's', ARG_..., "ARG", "a|b",
# "completion", SCOPE_..., "help"}`, strings possibly split across lines).

SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# opt_table: one line per table entry, tab-separated:
# long name, short letter (or empty), fixed values "a|b|c" (or empty),
# completion kind (or empty), scope (SCOPE_RUN, SCOPE_COMPARE, SCOPE_BOTH).
opt_table() {
	perl -0777 -ne '
		my $s = qr/(?:"(?:[^"\\]|\\.)*"\s*)+/;
		sub lit { my $t = shift; return "" if $t eq "NULL"; my $o = "";
			  $o .= $1 while $t =~ /"((?:[^"\\]|\\.)*)"/g; return $o; }
		while (/\{OPT_\w+,\s*"([^"]+)",\s*(?:\x27(.)\x27|0),\s*ARG_\w+,\s*
			(?:NULL|$s),\s*(NULL|$s),\s*(NULL|$s),\s*(SCOPE_\w+)/gx) {
			my @f = ($1, $2 // "", $3, $4, $5);
			print join("\t", $f[0], $f[1], lit($f[2]), lit($f[3]), $f[4]), "\n";
		}' "$SRCDIR/src/cli.c"
}

# opt_values: "long value" for every value of every fixed set.
opt_values() {
	opt_table | awk -F'\t' '{ n = split($3, v, "|"); for (i = 1; i <= n; i++) print $1, v[i] }'
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

# counter_events: the event names --counters accepts (counters.c's table),
# then "none".
counter_events() {
	perl -ne 'print "$1\n" if /^\s*\[CTR_\w+\]\s*=\s*\{"([a-z-]+)"/' \
		"$SRCDIR/src/counters.c"
	echo none
}

# word_re WORD: an extended regex matching WORD not inside a longer option
# or identifier (so --export-csv does not match --export-csv-runs).
word_re() {
	printf '(^|[^[:alnum:]_-])%s([^[:alnum:]_-]|$)' "$1"
}
