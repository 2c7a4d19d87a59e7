# End-to-end: one file under two names (another spelling, a symbolic link).
# --output may be shared by commands (opened once, written in turn); an
# export or --input that is an --output file is a usage error, checked
# before anything runs.

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
