# End-to-end tests of --input: the command reads a file (or a pipe, read
# once and given whole to every run); without it, /dev/null.

test_input_file() {
	echo hello >in.txt
	cb -r 2 --input in.txt 'grep -q hello' >out 2>err || fail "exit $?: $(cat err)"
	cb -r 1 'grep -q hello' >out 2>err
	expect_eq "stdin is /dev/null by default" "$?" 1
}

test_input_from_pipe_feeds_every_run() {
	# A pipe cannot be rewound: it is read once and every run (warmup
	# included) gets all of it.
	seq 3 | cb -w 1 -r 3 --input /dev/stdin --output o.txt cat >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "lines (4 runs x 3)" "$(wc -l <o.txt)" 12
	mkfifo ff
	seq 10 >ff &
	cb -r 2 --input ff --output o2.txt 'wc -l' >out 2>err || fail "exit $?: $(cat err)"
	wait
	expect_eq "each run counted 10 lines" "$(tr -d ' ' <o2.txt | tr '\n' ,)" "10,10,"
}

# hyperfine's keyword (src/options.rs, CommandInputPolicy::Null): --input
# null is the default empty stdin, even beside a file named null; ./null
# reads that file.
test_input_null_keyword() {
	echo 'in the file' >null
	cb -r 2 --input null --output o.txt cat >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "empty stdin" "$(wc -c <o.txt)" 0
	rm null
	cb -r 1 --input null --output o.txt cat >out 2>err || fail "no file: exit $?: $(cat err)"
	echo 'in the file' >null
	cb -r 2 --input ./null --output o2.txt cat >out 2>err || fail "./null: exit $?: $(cat err)"
	expect_eq "./null is the file" "$(tr '\n' '|' <o2.txt)" "in the file|in the file|"
}
