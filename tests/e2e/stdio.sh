# End-to-end: cbench's own standard streams.  An export to stdout is the
# only thing there (the report and GitHub annotations go to stderr); closed
# descriptors 0-2 at start-up are not reused for files; a report that
# cannot be written is an I/O error.

# Two hyperfine result files, NEW clearly slower than BASE.
hyperfine_pair() {
	printf '{"results":[{"command":"a","times":[0.100,0.101,0.102,0.103,0.104,0.105,0.106,0.107,0.108,0.109]}]}' >base.json
	printf '{"results":[{"command":"a","times":[0.200,0.201,0.202,0.203,0.204,0.205,0.206,0.207,0.208,0.209]}]}' >new.json
}

test_github_annotations_not_in_stdout_export() {
	hyperfine_pair
	GITHUB_ACTIONS=true cb compare base.json new.json --export-markdown - >out 2>err
	expect_eq "exit code" "$?" 3
	expect_no_grep "no annotation in the Markdown" '^::error' out
	expect_grep "annotation on stderr" '^::error title=cbench regression::' err
	expect_grep "Markdown on stdout" 'cbench: 1 regression' out
	# Without an export on stdout the annotations stay on stdout.
	GITHUB_ACTIONS=true cb compare base.json new.json >out 2>err
	expect_grep "annotation on stdout" '^::error title=cbench regression::' out
}

# These two run cbench itself, not through cb: under VALGRIND=1 cb's
# wrapper pipes the descriptors these tests close.
test_closed_stdout_not_reused_by_output_file() {
	"$CBENCH" -r 2 'echo CMD' --output o.txt >&- 2>err
	expect_eq "exit code" "$?" 1
	expect_eq "output file holds only the command's output" "$(cat o.txt)" "CMD
CMD"
	expect_grep "I/O error reported" '^cbench: error: cannot write to standard output: Bad file descriptor$' err
}

test_closed_stdin_stderr() {
	"$CBENCH" -r 2 'echo CMD' --output o.txt <&- 2>&- >out
	expect_eq "exit code" "$?" 0
	expect_eq "output file" "$(cat o.txt)" "CMD
CMD"
	expect_grep "report" '^Benchmark 1: echo CMD' out
}

test_full_stdout_is_an_error() {
	[ -w /dev/full ] || skip "no /dev/full"
	cb -r 2 true >/dev/full 2>err
	expect_eq "exit code (run)" "$?" 1
	expect_grep "message (run)" '^cbench: error: cannot write to standard output: No space left on device$' err
	expect_eq "one error line" "$(grep -c 'error' err)" 1
	cb --help >/dev/full 2>err
	expect_eq "exit code (--help)" "$?" 1
	expect_grep "message (--help)" '^cbench: error: cannot write to standard output: No space left on device$' err
	hyperfine_pair
	cb compare base.json base.json >/dev/full 2>err
	expect_eq "exit code (compare)" "$?" 1
	expect_grep "message (compare)" 'cannot write to standard output: No space left' err
	cb compare base.json base.json --export-markdown - >/dev/full 2>err
	expect_eq "exit code (compare, Markdown on stdout)" "$?" 1
	expect_eq "one error line (compare, Markdown on stdout)" "$(grep -c 'error' err)" 1
}

test_closed_pipe_stays_quiet() {
	cb -r 3000 true 2>err | head -c 1 >/dev/null
	expect_eq "exit code" "${PIPESTATUS[0]}" 141
	expect_no_grep "no write error" 'cannot write' err
}

test_github_annotations_after_run_with_stdout_export() {
	cb -r 5 --style none -n tool --save-baseline base.json "$HELPERS/touch_pages 10" \
		>out 2>err || fail "baseline: exit $?: $(cat err)"
	jq -e '.results[0].runs.page_faults[0] != null' base.json >/dev/null ||
		skip "page faults are not counted here"
	GITHUB_ACTIONS=true cb -r 5 -n tool --match-by name --gate-metric page_faults \
		--baseline base.json "$HELPERS/touch_pages 3000" --export-json - >out 2>err
	expect_eq "exit code" "$?" 3
	jq -e '.results[0].name == "tool"' out >/dev/null ||
		fail "stdout is not the JSON alone: $(tail -c 300 out)"
	expect_grep "annotation on stderr" '^::error title=cbench regression::' err
}

test_stdout_closed_early() {
	cb -r 3 true "$HELPERS/spin 1" 2>err | head -1 >first
	rc=${PIPESTATUS[0]}
	expect_eq "first line" "$(cat first)" "Benchmark 1: true"
	case $rc in
	0 | 141) ;;
	*) fail "exit $rc" ;;
	esac
	expect_no_grep "no error spew" 'error|Broken pipe|Aborted|Segmentation' err
}
