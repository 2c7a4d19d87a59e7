# End-to-end tests of parameter sweeps: -P/--parameter-scan with
# -D/--parameter-step-size, -L/--parameter-list, their values in names,
# commands and exports, and their errors (empty, repeated or missing words).

test_sweep_two_parameters() {
	cb -r 1 --output out.txt -P a 1 2 -P b 0.1 0.3 -D 0.1 'echo {a}-{b}' \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "benchmarks" "$(bench_lines out | tr '\n' ' ')" \
		"echo 1-0.1 echo 2-0.1 echo 1-0.2 echo 2-0.2 echo 1-0.3 echo 2-0.3 "
	# One --output file for all commands: their outputs follow each other.
	expect_eq "outputs" "$(tr '\n' ' ' <out.txt)" \
		"1-0.1 2-0.1 1-0.2 2-0.2 1-0.3 2-0.3 "
}

test_decimal_scan_exactly_ten_values() {
	cb -r 1 -P x 0.1 1.0 -D 0.1 'echo {x}' >out 2>err || fail "exit $?"
	expect_eq "values" "$(bench_lines out | tr '\n' ' ')" \
		"echo 0.1 echo 0.2 echo 0.3 echo 0.4 echo 0.5 echo 0.6 echo 0.7 echo 0.8 echo 0.9 echo 1.0 "
}

test_list_escape_names_and_unknown_braces() {
	cb -r 1 -L s 'a\,b,c' -n 'run {s} {zz}' 'echo {s}' --output out.txt \
		>out 2>err || fail "exit $?"
	expect_eq "names" "$(bench_lines out | tr '\n' '|')" "run a,b {zz}|run c {zz}|"
	expect_eq "commands ran with the values" "$(tr '\n' '|' <out.txt)" "a,b|c|"
}

test_unused_parameter_shown_next_to_name() {
	cb -r 1 -L rep 1,2 true >out 2>err || fail "exit $?"
	expect_eq "names" "$(bench_lines out | tr '\n' '|')" "true (rep = 1)|true (rep = 2)|"
}

# Repeated list values would give benchmarks that look alike (two empty
# ones too).
test_list_values_distinct() {
	cb -r 1 -L n , 'echo [{n}]' >out 2>err
	expect_eq "exit code (two empty values)" "$?" 2
	expect_grep "empty" "^cbench: error: -L/--parameter-list n: value '' is given twice$" err
	expect_no_grep "nothing ran" '^Benchmark' out
	cb -r 1 -L n a,a 'echo [{n}]' >out 2>err
	expect_eq "exit code (repeated value)" "$?" 2
	expect_grep "twice" "^cbench: error: -L/--parameter-list n: value 'a' is given twice$" err
	cb -r 1 -L n 'a\,b,a,b' 'echo [{n}]' >out 2>err || fail "distinct values: exit $?"
	expect_eq "names" "$(bench_lines out | tr '\n' '|')" "echo [a,b]|echo [a]|echo [b]|"
}

# hyperfine's tokenize (src/parameter/tokenize.rs): "\\" is a backslash,
# "\," a comma, any other backslash stays, and an empty value is a value
# ('a,,b' three, '' one).
test_list_values_as_hyperfine() {
	cb -r 1 --output out.txt -L v 'x\\y,p\,q,\n,,e' 'echo "[{v}]"' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "names" "$(bench_lines out | tr '\n' '|')" \
		'echo "[x\y]"|echo "[p,q]"|echo "[\n]"|echo "[]"|echo "[e]"|'
	expect_eq "what ran" "$(tr '\n' '|' <out.txt)" '[x\y]|[p,q]|[\n]|[]|[e]|'
	cb -r 1 --output out2.txt -L v '' 'echo "[{v}]"' >out 2>err ||
		fail "'': exit $?: $(cat err)"
	expect_eq "'' is one empty value" "$(cat out2.txt)" "[]"
}

# -P takes exactly three words and -L two: a missing one takes the command.
test_missing_parameter_word_named() {
	cb -P n 1 echo >out 2>err
	expect_eq "exit code (-P)" "$?" 2
	expect_grep "MAX named" "^cbench: error: -P/--parameter-scan n: MAX 'echo' is not a number" err
	cb -P n 1 5 >out 2>err
	expect_eq "exit code (-P, numbers)" "$?" 2
	expect_grep "word named" "^cbench: error: no command to benchmark: '5' was taken as the MAX of -P/--parameter-scan NAME MIN MAX$" err
	cb -L n echo >out 2>err
	expect_eq "exit code (-L)" "$?" 2
	expect_grep "VALUES named" "^cbench: error: no command to benchmark: 'echo' was taken as the VALUES of -L/--parameter-list NAME VALUES$" err
	cb -r 2 >out 2>err
	expect_eq "exit code (no command)" "$?" 2
	expect_grep "plain" "^cbench: error: no command to benchmark$" err
}

test_parameters_in_exports() {
	cb -r 2 -L n 1,2 'sleep 0.00{n}' --export-json out.json --export-csv s.csv \
		--export-csv-runs r.csv >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "parameters" "$(jq -c '[.results[].parameters]' out.json)" '[{"n":"1"},{"n":"2"}]'
	expect_grep "summary column" '^command,mean,stddev,median,user,system,min,max,parameter_n,' s.csv
	expect_grep "runs column" '^benchmark,command,command_line,parameter_n,run,' r.csv
}
