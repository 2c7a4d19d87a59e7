# Sync tests: every option of the table in src/cli.c must appear in --help,
# in the README's Options section and in every completion file, with its
# short letter and its fixed values (curl's tests/test1139.pl does this for
# curl's options and man pages).  Options added later are caught here.

source "$(dirname "${BASH_SOURCE[0]}")/../option_table.sh"

# sorted_lines: stdin sorted and de-duplicated.
sorted_lines() { LC_ALL=C sort -u; }

test_table_parser_sees_every_entry() {
	local entries parsed
	entries=$(grep -c '{OPT_' "$SRCDIR/src/cli.c")
	parsed=$(opt_table | wc -l)
	expect_eq "entries parsed from cli_options[]" "$parsed" "$entries"
	[ "$parsed" -gt 0 ] || fail "no option parsed from src/cli.c"
}

test_help_lists_exactly_the_table() {
	opt_table | cut -f1 | sorted_lines >table
	help_longs | sorted_lines >help
	[ -s help ] || fail "no option found in --help"
	diff table help >d || fail "table (<) and --help (>) differ: $(tr '\n' ' ' <d)"
}

test_compare_help_lists_the_compare_options() {
	opt_table | awk -F'\t' '$5 != "SCOPE_RUN" {print $1}' | sorted_lines >table
	help_longs compare | sorted_lines >help
	diff table help >d ||
		fail "compare-scope options (<) and 'compare --help' (>) differ: $(tr '\n' ' ' <d)"
}

test_help_shows_short_letters_of_the_table() {
	opt_table | awk -F'\t' '$2 != "" {print $2 " " $1}' | sorted_lines >table
	help_pairs | sorted_lines >help
	diff table help >d || fail "short letters differ: $(tr '\n' ' ' <d)"
}

test_readme_options_section_has_every_option() {
	# The section from "## Options" to the next "## ".
	awk '/^## /{on = ($0 == "## Options")} on' "$SRCDIR/README.md" >options
	[ -s options ] || fail "README has no '## Options' section"
	local o missing=""
	for o in $(help_longs); do
		grep -qE -- "$(word_re "--$o")" options || missing="$missing --$o"
	done
	[ -z "$missing" ] || fail "README's Options section lacks:$missing"
}

# check_completion_file FILE LONG_FMT SHORT_FMT: every option, short letter,
# fixed value and counter event appears in FILE.  LONG_FMT and SHORT_FMT are
# printf formats for how the file spells an option (--%s or "-l %s").
check_completion_file() {
	local file=$SRCDIR/completions/$1 lf=$2 sf=$3 o s v missing=""
	[ -f "$file" ] || fail "$file missing"
	for o in $(help_longs); do
		# shellcheck disable=SC2059
		grep -qE -- "$(word_re "$(printf -- "$lf" "$o")")" "$file" ||
			missing="$missing --$o"
	done
	# A short letter must be on the same line as its long name.
	while read -r s o; do
		# shellcheck disable=SC2059
		grep -E -- "$(word_re "$(printf -- "$lf" "$o")")" "$file" |
			grep -qE -- "$(word_re "$(printf -- "$sf" "$s")")" ||
			missing="$missing -$s(with --$o)"
	done < <(help_pairs)
	while read -r o v; do
		grep -qE -- "$(word_re "$v")" "$file" ||
			missing="$missing $v(value of --$o)"
	done < <(opt_values)
	for v in $(counter_events); do
		grep -qE -- "$(word_re "$v")" "$file" ||
			missing="$missing $v(counter event)"
	done
	[ -z "$missing" ] || fail "$1 lacks:$missing"
}

test_bash_completion_has_every_option() {
	check_completion_file cbench.bash '--%s' '-%s'
}

test_zsh_completion_has_every_option() {
	check_completion_file _cbench '--%s' '-%s'
}

test_fish_completion_has_every_option() {
	check_completion_file cbench.fish '-l %s' '-s %s'
}
