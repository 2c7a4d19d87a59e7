# Completion tests in the real shells: ask bash (with bash-completion), zsh
# (through zpty, as a user pressing Tab) and fish for the completions of
# partial command lines and compare the answers with the option table
# (`cbench --help` and `cbench --list-options`).  A shell that is not
# installed is skipped with the reason.

source "$(dirname "${BASH_SOURCE[0]}")/../option_table.sh"
COMPL=$SRCDIR/completions
BASH_COMPLETION_SCRIPT=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}

# need_shell SHELL: skip unless SHELL and what its test needs exist.
need_shell() {
	case $1 in
	bash)
		[ -r "$BASH_COMPLETION_SCRIPT" ] ||
			skip "bash-completion not installed ($BASH_COMPLETION_SCRIPT)" ;;
	zsh)
		command -v zsh >/dev/null || skip "zsh not installed"
		zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip "zsh has no zpty module" ;;
	fish)
		command -v fish >/dev/null || skip "fish not installed" ;;
	esac
}

# bash: set up COMP_* as readline would (words split at blanks, an empty
# last word after a trailing blank) and call the completion function.
raw_bash() {
	bash --norc --noprofile -c '
		source "$1" || exit 1
		source "$2" || exit 1
		COMP_LINE=$3
		COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_cbench cbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$BASH_COMPLETION_SCRIPT" "$COMPL/cbench.bash" "$1"
}

# zsh: an interactive zsh in a pseudo-terminal loads compinit with our
# directory first in $fpath (and only zsh's generic completion directories
# after it, which halves compinit's time), wraps compadd to record every match it is
# given, and exits right after the completion; the line is typed followed
# by a Tab.
raw_zsh() {
	local out
	out=$(mktemp "$T/zsh-matches.XXXXXX")
	cat >"$T/zq.zsh" <<'ZSH'
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PS1='' RPS1=''; unsetopt autolist listambiguous automenu; LISTMAX=100000"
zpty -w z "fpath=(${(q)1} \${(M)fpath:#*/Completion(|/Base|/Unix|/Zsh)}); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
	local -a __hits
	builtin compadd -A __hits "$@"
	(( $#__hits )) && print -rl -- $__hits >>'"${(q)2}"'
	builtin compadd "$@"
}'
zpty -w z 'comppostfuncs=(exit)'
zpty -w -n z "$3"$'\t'
while zpty -r z chunk; do :; done
zpty -d z
ZSH
	timeout 30 zsh -f "$T/zq.zsh" "$COMPL" "$out" "$1" >/dev/null 2>&1 ||
		echo "zsh exited with $? for '$1'" >&2
	cat "$out"
	rm -f "$out"
}

# fish: --no-config leaves fish_complete_path empty, so only our file,
# sourced, completes cbench (an installed cbench.fish cannot interfere).
raw_fish() {
	fish --no-config -c 'source $argv[1]; and complete -C $argv[2]' \
		"$COMPL/cbench.fish" "$1" | cut -f1
}

# candidates SHELL LINE: the completions SHELL offers for LINE (cursor at the
# end), sorted and unique.  "--opt=value" is reduced to the value and a
# comma list to its last item, as shells differ there.
candidates() {
	"raw_$1" "$2" | sed -E 's/^--[[:alnum:]-]+=//; s/.*,//; /^$/d' | LC_ALL=C sort -u
}

# expect_candidates SHELL LINE EXPECTED...: exactly these candidates.
expect_candidates() {
	local sh=$1 line=$2 got want
	shift 2
	got=$(candidates "$sh" "$line" | tr '\n' ' ')
	want=""
	[ $# -eq 0 ] || want=$(printf '%s\n' "$@" | LC_ALL=C sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] ||
		fail "$sh: '$line' completes to '${got:0:400}', expected '$want'"
}

# expect_includes SHELL LINE WORD...: at least these candidates.
expect_includes() {
	local sh=$1 line=$2 w got
	shift 2
	got=$(candidates "$sh" "$line")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" ||
			fail "$sh: '$line' does not offer '$w' (got: $(tr '\n' ' ' <<<"$got" | head -c 400))"
	done
}

# An empty directory, so that file completion offers nothing unexpected.
in_empty_dir() { mkdir -p "$T/empty" && cd "$T/empty" || fail "mkdir"; }

check_long_options() {
	in_empty_dir
	expect_candidates "$1" "cbench --" $(help_longs | sed 's/^/--/')
}

check_short_options() {
	in_empty_dir
	local got want
	got=$(candidates "$1" "cbench -" | grep -E '^-[[:alnum:]]$' | tr '\n' ' ')
	want=$(help_pairs | cut -d' ' -f1 | sed 's/^/-/' | LC_ALL=C sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$1: 'cbench -' offers short options '$got', expected '$want'"
}

check_option_prefix() {
	in_empty_dir
	expect_candidates "$1" "cbench --sty" --style
	expect_candidates "$1" "cbench -r 5 --export-csv" --export-csv --export-csv-runs
	expect_candidates "$1" "cbench compare --ma" --match-by
}

check_compare_options() {
	in_empty_dir
	expect_candidates "$1" "cbench compare --" $(help_longs compare | sed 's/^/--/')
}

# Every fixed set of the table, after "--opt " and "--opt=", in both modes
# where the option applies.
check_fixed_values() {
	in_empty_dir
	local o s vals comp scope
	while IFS=$'\t' read -r o vals scope; do
		expect_candidates "$1" "cbench --$o " ${vals//|/ }
		expect_candidates "$1" "cbench --$o=" ${vals//|/ }
		if [ "$scope" != run ]; then
			expect_candidates "$1" "cbench compare --$o " ${vals//|/ }
		fi
	done < <(opt_table | awk -F'\t' '$4 != "" {print $1 "\t" $4 "\t" $6}')
	expect_candidates "$1" "cbench --style=f" full
	expect_candidates "$1" "cbench -u m" microsecond millisecond
}

check_counter_events() {
	in_empty_dir
	expect_candidates "$1" "cbench --counters " $(counter_events)
	expect_candidates "$1" "cbench --counters task-clock,pa" page-faults
	expect_candidates "$1" "cbench --counters=cycles,page-faults,b" branches branch-misses
	# After a comma: the events not yet listed, and never "none", "sim"
	# or "sim-cache" (each stands alone).
	expect_candidates "$1" "cbench --counters task-clock," \
		$(counter_events | grep -vxE 'task-clock|none|sim|sim-cache')
}

check_files() {
	in_empty_dir
	touch base.json new.json notes.txt
	expect_includes "$1" "cbench --export-json " base.json notes.txt
	expect_candidates "$1" "cbench --input no" notes.txt
	expect_candidates "$1" "cbench --export-markdown=no" notes.txt
	expect_includes "$1" "cbench --output " null pipe inherit notes.txt
	expect_includes "$1" "cbench compare " base.json new.json
	expect_includes "$1" "cbench compare base.json " new.json
	expect_includes "$1" "cbench --baseline " base.json
}

check_commands() {
	in_empty_dir
	expect_includes "$1" "cbench tru" true
	expect_includes "$1" "cbench comp" compare
	expect_includes "$1" "cbench -r 3 --setup tru" true
	expect_includes "$1" "cbench -N -w 2 tru" true
}

# -P takes three words and -L two: none of them is completed as a command.
check_multiword_arguments() {
	in_empty_dir
	expect_candidates "$1" "cbench -P n 1 tru"
	expect_candidates "$1" "cbench -L n tru"
	expect_includes "$1" "cbench -P n 1 3 tru" true
	expect_includes "$1" "cbench -L n a,b tru" true
	expect_includes "$1" "cbench -L n a,b --sty" --style
	# Numbers and exit codes have nothing to offer.
	expect_candidates "$1" "cbench -r "
	expect_candidates "$1" "cbench --ignore-failure="
}

# `cbench report` and `cbench history report`: their options, JSON inputs
# and an HTML output.
check_report() {
	in_empty_dir
	touch base.json new.json notes.txt page.html
	expect_candidates "$1" "cbench report --" --output --compare --title \
		--fail-if-slower --confidence --match-by --help
	expect_includes "$1" "cbench report " base.json new.json
	expect_includes "$1" "cbench report --compare base.json " new.json
	expect_candidates "$1" "cbench report --match-by " command name
	expect_includes "$1" "cbench report base.json -o " page.html
	expect_includes "$1" "cbench report base.json --output " page.html
	expect_includes "$1" "cbench rep" report
	expect_includes "$1" "cbench history " report
}

for _sh in bash zsh fish; do
	for _check in long_options short_options option_prefix compare_options \
		fixed_values counter_events files commands multiword_arguments report; do
		eval "test_${_sh}_${_check}() { need_shell $_sh; check_${_check} $_sh; }"
	done
done
unset _sh _check
