# End-to-end: one file under two names (another spelling, a symbolic link).
# --output may be shared by commands (opened once, written in turn); an
# export or --input that is an --output file is a usage error, checked
# before anything runs, and so is an export over a file cbench reads (a
# --baseline, an --input, a hook's or a command's script, compare's files).

test_output_aliases_share_one_file() {
	cb -r 2 --order sequential --style none --output sh.txt --output ./sh.txt 'echo a' 'echo b' \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "both commands' output, in turn" "$(tr '\n' ' ' <sh.txt)" "a a b b "
	ln -s sh.txt link.txt
	cb -r 2 --order sequential --style none --output link.txt --output "$PWD/sh.txt" 'echo c' 'echo d' \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "through a link" "$(tr '\n' ' ' <sh.txt)" "c c d d "
}

test_input_equal_to_output_is_not_truncated() {
	seq 100 >same.txt
	cb -r 2 --input same.txt --output ./same.txt 'wc -l' >out 2>err
	expect_eq "exit code" "$?" 2
	expect_eq "input intact" "$(wc -l <same.txt)" 100
	expect_grep "message" "^cbench: error: --input 'same.txt' and --output './same.txt' are the same file" err
}

test_export_over_output_file() {
	cb -r 2 --output o.txt --export-json ./o.txt 'echo a' >out 2>err
	expect_eq "exit code" "$?" 2
	[ ! -e o.txt ] || fail "o.txt created"
}

# refused WHAT ARGS...: cbench exits 2 with one error line, nothing runs
# (a marker command would create ran.txt).
refused() {
	local what=$1
	shift
	cb "$@" >out 2>err
	local rc=$?
	expect_eq "$what: exit" "$rc" 2
	expect_grep "$what: message" "^cbench: error: .*would write over a file it reads" err
	[ ! -e ran.txt ] || fail "$what: something ran"
}

test_compare_refuses_export_over_baseline() {
	results a.json
	results b.json
	cp a.json a.orig
	refused "compare md over BASE" compare a.json b.json --export-markdown a.json
	cmp -s a.json a.orig || fail "a.json was changed"
	refused "compare md over NEW, other spelling" compare a.json b.json --export-markdown ./b.json
	ln -s b.json link.json
	refused "through a symlink" compare a.json link.json --export-markdown b.json
	# Positive: a different file is written. a.json and b.json are two real
	# measurements of `true`, so the gate may call them a regression (exit 3,
	# seen under valgrind); either verdict writes the report.
	cb compare a.json b.json --export-markdown report.md >out 2>err
	local rc=$?
	case $rc in
	0|3) ;;
	*) fail "plain compare: exit $rc: $(cat err)" ;;
	esac
	expect_grep "report written" '`true`' report.md
}

test_baseline_refused_as_export() {
	results cb.json
	cp cb.json cb.orig
	refused "--baseline as markdown" -r 2 -N --baseline cb.json --export-markdown cb.json 'touch ran.txt'
	refused "--baseline as csv" -r 2 -N --baseline cb.json --export-csv ./cb.json 'touch ran.txt'
	refused "--baseline as save-baseline" -r 2 -N --baseline cb.json --save-baseline cb.json 'touch ran.txt'
	refused "--baseline as --output" -r 2 -N --baseline cb.json --output cb.json 'touch ran.txt'
	cmp -s cb.json cb.orig || fail "cb.json was changed"
	cb -r 2 -N --baseline cb.json --export-json new.json true >out 2>err
	[ -s new.json ] || fail "positive: new.json not written: $(cat err)"
}

test_input_refused_as_export() {
	echo data >data
	refused "--input as json" -r 2 -N --input data --export-json data 'touch ran.txt'
	expect_eq "data kept" "$(cat data)" data
	cb -r 2 -N --input data --export-json out.json cat >out 2>err ||
		fail "positive: exit $?: $(cat err)"
	[ -s out.json ] || fail "out.json not written"
}

test_hook_script_refused_as_export() {
	printf '#!/bin/sh\ntrue\n' >hook.sh
	chmod +x hook.sh
	cp hook.sh hook.orig
	refused "--prepare script" -r 2 -N --prepare ./hook.sh --export-csv hook.sh 'touch ran.txt'
	refused "command script" -r 2 -N ./hook.sh --export-json ./hook.sh
	cmp -s hook.sh hook.orig || fail "hook.sh was changed"
	cb -r 2 -N --prepare ./hook.sh --export-csv out.csv ./hook.sh >out 2>err ||
		fail "positive: exit $?: $(cat err)"
	[ -s out.csv ] || fail "out.csv not written"
}

# The history is read and written, never a destination (issue 46): every
# export, --save-baseline, --output, through another spelling or a link,
# with --history or CBENCH_HISTORY, and the --output of `history export`
# and `history report`, over the database or SQLite's files beside it, is
# refused before anything runs, the database left byte for byte.
test_history_is_never_a_destination() {
	cb -r 2 -n a true --history h.db >/dev/null 2>err || fail "record: $(cat err)"
	cp h.db h0.db
	ln -s h.db link.db
	local args
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		cb -r 2 -n a true --history h.db $args >out 2>err
		expect_eq "$args: exit" "$?" 2
		expect_grep "$args: the error" "^cbench: error: --history.* cbench would write over a file it reads$" err
		cmp -s h.db h0.db || fail "$args: the history changed"
	done <<'ARGS'
--export-json h.db
--export-csv ./h.db
--export-html h.db
--export-markdown link.db
--export-bmf h.db
--save-baseline h.db
--output h.db
--export-json h.db-wal
ARGS
	expect_grep "the journal named" "^cbench: error: --history's -wal file and --export-json both name 'h.db-wal'" err
	CBENCH_HISTORY=h.db cb -r 2 -n a true --export-json ./h.db >out 2>err
	expect_eq "from the environment: exit" "$?" 2
	expect_grep "the variable named" "^cbench: error: CBENCH_HISTORY 'h.db' and --export-json './h.db' are the same file" err
	cb history export --history h.db --output h.db >out 2>err
	expect_eq "history export: exit" "$?" 2
	expect_grep "history export: message" "^cbench: error: --output 'h.db' is the history 'h.db': cbench would write over a file it reads$" err
	cb history report a --history h.db --output ./link.db >out 2>err
	expect_eq "history report: exit" "$?" 2
	cmp -s h.db h0.db || fail "a history subcommand changed the history"
	# Beside the history, an export elsewhere is written, and recorded.
	cb -r 2 -n a true --history h.db --export-json r.json >out 2>err ||
		fail "a real export: exit $?: $(cat err)"
	jq -e '.results[0].name == "a"' r.json >/dev/null || fail "r.json: $(head -c 200 r.json)"
	cb history export --history h.db --output e.json >/dev/null 2>&1 || fail "history export elsewhere"
	jq -e '.invocations | length == 2' e.json >/dev/null || fail "e.json: $(head -c 300 e.json)"
}
