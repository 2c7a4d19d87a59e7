# Sync tests: every option of the table in src/cli/cli.c (read through the
# hidden `cbench --list-options`) must appear in --help, in the README's
# Options section, in every completion file, with its short letter and its
# fixed values, and in at least one end-to-end test (curl's
# tests/test1139.pl does this for curl's options and man pages), and in
# the option index of tests/README.md, which names the e2e file that tests
# it (with the file map, which says what each e2e file tests).  Options
# added later are caught here.

source "$(dirname "${BASH_SOURCE[0]}")/../option_table.sh"

# sorted_lines: stdin sorted and de-duplicated.
sorted_lines() { LC_ALL=C sort -u; }

test_list_options_prints_the_table() {
	cb --list-options >list 2>err
	expect_eq "--list-options exit status" "$?" 0
	[ -s list ] || fail "--list-options printed nothing"
	[ ! -s err ] || fail "--list-options wrote to stderr: $(head -c 300 err)"
	# Nine tab-separated fields; kinds, scopes and repeats from their
	# fixed sets.
	awk -F'\t' 'NF != 9 { print "fields " NF ": " $0 }
		$9 !~ /^(once|many)$/ { print "repeats: " $0 }
		$3 !~ /^(flag|count|uint|seconds|percent|enum|choice|file|command|list|export|special)$/ {
			print "kind: " $0 }
		$6 !~ /^(run|compare|both)$/ { print "scope: " $0 }
		$2 !~ /^[[:alnum:]]?$/ { print "letter: " $0 }' list >bad
	[ ! -s bad ] || fail "malformed --list-options lines: $(head -c 400 bad)"
	# A few entries as the table has them (default and range included).
	grep -qxF "$(printf 'min-runs\tm\tcount\t\t\trun\t10\t[1,1000000000]\tonce')" list ||
		fail "no min-runs line: $(grep min-runs list)"
	grep -qxF "$(printf 'confidence\t\tpercent\t\t\tboth\t95\t(50,100)\tonce')" list ||
		fail "no confidence line: $(grep confidence list)"
	grep -qxF "$(printf 'match-by\t\tenum\tcommand|name\t\tboth\tcommand\t\tonce')" list ||
		fail "no match-by line: $(grep match-by list)"
}

test_list_options_is_hidden() {
	cb --help >help
	expect_grep "--help lists options" '^  -r, --runs NUM$' help
	expect_no_grep "--help hides --list-options" 'list-options' help
}

test_help_lists_exactly_the_table() {
	opt_table | cut -f1 | sorted_lines >table
	help_longs | sorted_lines >help
	[ -s help ] || fail "no option found in --help"
	diff table help >d || fail "table (<) and --help (>) differ: $(tr '\n' ' ' <d)"
}

test_compare_help_lists_the_compare_options() {
	opt_table | awk -F'\t' '$6 != "run" {print $1}' | sorted_lines >table
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

# Every option is exercised by name (--long) in some end-to-end test of its
# behaviour: sync.sh and completions.sh only read the table, so they do not
# count.
test_every_option_has_an_e2e_test() {
	local o f missing="" files=()
	for f in "$SRCDIR"/tests/e2e/*.sh; do
		case ${f##*/} in sync.sh | completions.sh) ;; *) files+=("$f") ;; esac
	done
	[ "${#files[@]}" -gt 3 ] || fail "no e2e test files found in $SRCDIR/tests/e2e"
	for o in $(opt_table | cut -f1); do
		grep -qE -- "$(word_re "--$o")" "${files[@]}" || missing="$missing --$o"
	done
	[ -z "$missing" ] || fail "options no e2e test uses by name:$missing"
}

# The index of the tests, tests/README.md: a newcomer finds the test of an
# option by its name.  index_rows SECTION: the rows of the table under
# "## SECTION", one per line, the cells separated by tabs (the header and
# the |---| line left out).
index_rows() {
	awk -v s="## $1" '/^## /{on = ($0 == s)} on && /^\| *`/' "$SRCDIR/tests/README.md" |
		sed -E 's/^\| *//; s/ *\| *$//; s/ *\| */\t/g'
}

# e2e_test_bodies FILE: the test functions of an e2e file as bash prints them
# back (comments dropped: an option named in a comment is not tested).
e2e_test_bodies() {
	(cd "$SRCDIR" && bash -c 'source tests/lib.sh; source "$1" >/dev/null
		for fn in $(declare -F | awk "{print \$3}" | grep "^test_"); do
			declare -f "$fn"; done' _ "tests/e2e/$1")
}

# A line of a test that runs cbench (cb, cb_exec, cbq, "$CBENCH", ...).
CBENCH_CALL='(^|[^[:alnum:]_])(cb|cb_[[:alnum:]_]+|cbq|cbench|"?\$\{?CBENCH\}?"?) '

# Every option of the table has a row in the option index naming its short
# letter (if any) and files that exist and use the option in a test: by
# its long name, or by its letter on a line that runs cbench.
test_every_option_is_in_the_test_index() {
	index_rows "Option index" >rows
	[ -s rows ] || fail "tests/README.md has no '## Option index' table"
	local o s f files bad="" n=0
	mkdir bodies
	while IFS=$'\t' read -r o s; do
		n=$((n + 1))
		files=$(grep -E -- "$(word_re "\`--$o\`")" rows | cut -f2 | grep -oE '[[:alnum:]_]+\.sh')
		if [ -z "$files" ]; then
			bad="$bad --$o(no row)"
			continue
		fi
		if [ -n "$s" ]; then
			grep -E -- "$(word_re "\`--$o\`")" rows | cut -f1 | grep -qF -- "\`-$s\`" ||
				bad="$bad --$o(row lacks -$s)"
		fi
		for f in $files; do
			[ -f "$SRCDIR/tests/e2e/$f" ] || { bad="$bad --$o($f missing)"; continue; }
			[ -f "bodies/$f" ] || e2e_test_bodies "$f" >"bodies/$f"
			grep -qE -- "$(word_re "--$o")" "bodies/$f" && continue
			[ -n "$s" ] && grep -E -- "$CBENCH_CALL" "bodies/$f" |
				grep -qE -- "$(word_re "-$s")" && continue
			bad="$bad --$o(not used in a test of $f)"
		done
	done < <(opt_table | cut -f1,2)
	[ "$n" -gt 40 ] || fail "only $n options in the table"
	# No row for an option the table does not have.
	for o in $(cut -f1 rows | grep -oE -- '--[[:alnum:]-]+'); do
		opt_table | cut -f1 | grep -qxF -- "${o#--}" || bad="$bad $o(not an option)"
	done
	[ -z "$bad" ] || fail "tests/README.md's option index:$bad"
}

# Every file of tests/e2e is in the file map, and the map names no other.
test_every_e2e_file_is_in_the_test_index() {
	index_rows "File map" | cut -f1 | tr -d '`' | sorted_lines >map
	[ -s map ] || fail "tests/README.md has no '## File map' table"
	(cd "$SRCDIR/tests/e2e" && ls -- *.sh) | sorted_lines >files
	diff files map >d ||
		fail "tests/e2e (<) and tests/README.md's file map (>) differ: $(tr '\n' ' ' <d)"
}
