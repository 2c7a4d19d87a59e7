# tests/e2e/fish_json.sh: fish offers result files only (*.json, and
# directories to descend into) for `cbench compare` and --baseline, as bash
# (_filedir json) and zsh (_files -g "*.json") do.

FJ_COMPL=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../completions" && pwd)

fj_complete() {
	fish --no-config -c 'source $argv[1]; and complete -C $argv[2]' \
		"$FJ_COMPL/cbench.fish" "$1" | cut -f1 | sort | tr '\n' ' '
}

test_fish_compare_offers_only_json() {
	command -v fish >/dev/null || skip "fish not installed"
	mkdir sub && touch a.json b.txt c.json notes.md sub/x.json
	expect_eq "compare" "$(fj_complete 'cbench compare ')" "a.json c.json sub/ "
	expect_eq "second file" "$(fj_complete 'cbench compare a.json ')" "a.json c.json sub/ "
	expect_eq "in a directory" "$(fj_complete 'cbench compare sub/')" "sub/x.json "
	expect_eq "--baseline" "$(fj_complete 'cbench --baseline ')" "a.json c.json sub/ "
}
