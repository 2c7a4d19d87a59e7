# End-to-end tests of the table exports --export-markdown, --export-asciidoc
# and --export-orgmode: header, rows, relative column, escaping.

test_markup_tables() {
	cb -r 2 -n 'a|b ünï' true 'sleep 0.001' --export-markdown t.md \
		--export-asciidoc t.adoc --export-orgmode t.org >out 2>err || fail "exit $?"
	expect_grep "markdown header" '^\| Command \| Mean \[(µs|ms|s)\] \| Min' t.md
	expect_grep "markdown escaped pipe, text kept" '^\| `a\\\|b ünï` \|' t.md
	expect_grep "markdown relative" '\| 1\.00 \|' t.md
	expect_grep "markdown significance" 'Significance \|$' t.md
	expect_eq "markdown rows" "$(grep -c '^|' t.md)" 4
	expect_grep "asciidoc table" '^\|===$' t.adoc
	expect_grep "asciidoc escaped pipe" '^\| `\+a\\\|b ünï\+`$' t.adoc
	expect_grep "org escaped pipe" '^\| a\\vert\{\}b ünï \|' t.org
}
