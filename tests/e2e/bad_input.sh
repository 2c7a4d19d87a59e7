# End-to-end: bad invocations.  Each row of the table below is one
# invocation; every one must print exactly one line "cbench: error: ..."
# (optionally followed by the hint "try 'cbench --help' for more
# information"), exit 2, print nothing on stdout and create no file.  The
# command benchmarked is `touch ran` wherever one is needed, so a row that
# wrongly runs anything leaves a file behind and fails.  The tests after
# the table check what a row cannot: more bad values of the planner's
# options, repeated options and names, and messages that say the real
# cause (a limit, a name too long, a directory that takes no file).
#
# Format: EXPECTED-MESSAGE-REGEX | ARGUMENTS (shell words, evaluated in $T)

source "$(dirname "${BASH_SOURCE[0]}")/../option_table.sh"

bad_input_table() {
	cat <<'TABLE'
unknown option '--bogus'                 | --bogus 'touch ran'
unknown option '--warmups' \(did you mean --warmup\?\) | --warmups 3 'touch ran'
--timeout given twice \('1' and '2'\)     | --timeout 1 --timeout 2 'touch ran'
--show-output given twice                | --show-output --show-output 'touch ran'
invalid value '   ' for --command-name   | -n '   ' 'touch ran'
invalid value '  ' for --cleanup: expected a command | --cleanup '  ' 'touch ran'
invalid value ' ' for --history-label    | --history-label ' ' 'touch ran'
--require-all matches this run's benchmarks with a baseline's | --require-all 'touch ran'
--match-by matches this run's benchmarks with a baseline's | --match-by name 'touch ran'
--require-resolution is for a gate       | --require-resolution 'touch ran'
unknown option '-Z'                      | -Z 'touch ran'
--runs needs NUM                         | 'touch ran' --runs
-r needs NUM                             | 'touch ran' -r
invalid value 'abc' for --runs           | -r abc 'touch ran'
invalid value '0' for --runs             | -r 0 'touch ran'
invalid value '-5' for --runs            | -r -5 'touch ran'
invalid value '1.5' for --runs           | -r 1.5 'touch ran'
invalid value '99999999999999999999'     | -r 99999999999999999999 'touch ran'
invalid value '5x' for --runs            | -r5x 'touch ran'
invalid value '' for --runs              | --runs= 'touch ran'
invalid value '-1' for --warmup          | -w -1 'touch ran'
invalid value 'x' for --warmup           | --warmup=x 'touch ran'
invalid value '0' for --min-runs         | -m 0 'touch ran'
invalid value '0' for --max-runs         | -M 0 'touch ran'
--min-runs \(5\) is larger than --max-runs \(3\) | -m 5 -M 3 'touch ran'
--runs cannot be combined with --min-runs | -r 5 -m 3 'touch ran'
--runs cannot be combined with --min-runs or --max-runs | -M 3 -r 5 'touch ran'
--runs cannot be combined with --precision | -r 5 --precision 5 'touch ran'
--runs cannot be combined with --max-time | -r 5 --max-time 1 'touch ran'
invalid value '9999' for --fail-if-slower: expected a percentage from 0 to 1000 | --fail-if-slower 9999 'touch ran'
unknown counter 'bogus'                  | --counters bogus 'touch ran'
'none' cannot be combined with counter names | --counters none,task-clock 'touch ran'
--counters 'page-faults,': empty counter name | --counters page-faults, 'touch ran'
cannot open --output file 'nodir/o.txt': No such file | --output nodir/o.txt 'touch ran'
--runs cannot be combined with --max-time | --max-time=1 --runs=5 'touch ran'
invalid value '1,,2' for --ignore-failure | -i=1,,2 'touch ran'
invalid value ',1' for --ignore-failure  | -i=,1 'touch ran'
invalid value '1,' for --ignore-failure  | --ignore-failure=1, 'touch ran'
invalid value '-1' for --min-time        | --min-time -1 'touch ran'
invalid value 'abc' for --min-time       | --min-time abc 'touch ran'
invalid value '0' for --max-time         | --max-time 0 'touch ran'
invalid value 'nan' for --max-time       | --max-time nan 'touch ran'
invalid value '0' for --timeout          | --timeout 0 'touch ran'
invalid value '-3' for --timeout         | --timeout=-3 'touch ran'
invalid value 'inf' for --timeout        | --timeout inf 'touch ran'
--shell=SHELL cannot be combined with -N | -N --shell=bash 'touch ran'
--shell given twice \('bash' and 'none'\) | --shell=bash --shell=none 'touch ran'
invalid value '' for --shell             | --shell= 'touch ran'
shell 'no-such-shell-cbench' not found   | --shell=no-such-shell-cbench 'touch ran'
invalid value 'bogus' for --order        | --order bogus 'touch ran'
invalid value 'bogus' for --sort         | --sort=bogus 'touch ran'
invalid value 'bogus' for --style        | --style bogus 'touch ran'
invalid value 'parsec' for --time-unit   | --time-unit parsec 'touch ran'
invalid value '50' for --confidence      | --confidence 50 'touch ran'
invalid value '100%' for --confidence    | --confidence 100% 'touch ran'
invalid value 'abc' for --confidence     | --confidence abc 'touch ran'
invalid value '0' for --precision        | --precision 0 'touch ran'
invalid value '0' for --ignore-failure   | -i=0 'touch ran'
invalid value '256' for --ignore-failure | --ignore-failure=256 'touch ran'
invalid value '1,x' for --ignore-failure | -i=1,x 'touch ran'
-i takes its value as -i=VALUE           | -i5 'touch ran'
invalid value '-1' for --seed            | --seed -1 'touch ran'
invalid value '12abc' for --seed         | --seed 12abc 'touch ran'
--help takes no value                    | --help=yes 'touch ran'
unknown counter 'bogus'                  | --counters=bogus 'touch ran'
--counters ',': empty counter name       | --counters=, 'touch ran'
command 1 is empty                       | ''
command 2 is empty                       | 'touch ran' '   '
no command to benchmark                  |
no command to benchmark                  | -r 3
too many --command-name options: expected 1 at most | -n a -n b 'touch ran'
--setup given 2 times for 3 commands     | --setup true --setup true 'touch ran' 'touch ran' 'touch ran'
--output given 2 times for 1 command     | --output=null --output=pipe 'touch ran'
--show-output cannot be combined with --output | --show-output --output=out.txt 'touch ran'
only one export can go to stdout         | --export-json - --export-csv - 'touch ran'
invalid value '' for --export-json       | --export-json= 'touch ran'
invalid value '' for --output            | --output= 'touch ran'
invalid value '' for --input             | --input= 'touch ran'
cannot read --input file 'missing.txt'   | --input missing.txt 'touch ran'
--input file '.' is a directory          | --input . 'touch ran'
-D/--parameter-step-size needs a -P      | -D 2 'touch ran'
-P needs NAME MIN MAX                    | 'touch ran' -P n 1
--parameter-list needs NAME VALUES       | 'touch ran' --parameter-list n
invalid value 'abc' for --fail-if-slower | --fail-if-slower abc 'touch ran'
invalid value 'bogus' for --gate-metric  | --gate-metric bogus 'touch ran'
--fail-if-slower needs something to compare with | --fail-if-slower 5 'touch ran' 'touch ran2'
--gate-metric is for a gate                | --gate-metric wall_time 'touch ran'
unknown metric 'cpu_time' \(expected one of wall_time, | --export-metrics wall_time,cpu_time --export-bmf b.json 'touch ran'
--export-metrics chooses what --export-bmf and --export-github-benchmark carry | --export-metrics wall_time --export-json r.json 'touch ran'
--export-metrics task_clock: not counted in this run \(--counters page-faults\) | --counters page-faults --export-metrics task_clock --export-bmf b.json 'touch ran'
--reference with --fail-if-slower gates the other commands | --reference 'touch ran' --fail-if-slower 5
--require-all takes no value             | --require-all=yes 'touch ran'
'cbench compare' takes two files         | compare only-one.json
--warmup cannot be used with 'cbench compare' | compare -w 2 a.json b.json
invalid value '' for --reference         | --reference= 'touch ran'
invalid value '0' for --runs             | --output=out.txt --export-json=out.json -r 0 'touch ran'
the range is reversed \(MIN 5 is greater than MAX 1\) | -P n 5 1 'touch ran{n}'
MAX 'x' is not a number                  | -P n 1 x 'touch ran{n}'
MIN '' is not a number                   | --parameter-scan n '' 3 'touch ran{n}'
step-size of n must be greater than 0, not '0' | -P n 1 5 -D 0 'touch ran{n}'
step-size of n must be greater than 0, not '-1' | -P n 1 5 -D -1 'touch ran{n}'
parameter 'n' is defined twice           | -P n 1 2 -P n 3 4 'touch ran{n}'
parameter 'n' is defined twice           | -L n 1,2 -P n 3 4 'touch ran{n}'
value '' is given twice                  | -L n , 'touch ran{n}'
1000000000 values from 1 to 1000000000; the limit is | -P n 1 1000000000 'touch ran{n}'
invalid parameter name ''                | -L '' 1 'touch ran'
cannot write --export-json file 'nodir/out.json' | --export-json nodir/out.json 'touch ran'
cannot write --export-markdown file '.': it is a directory | --export-markdown . 'touch ran'
both write to 'x'                        | --export-json x --export-csv x 'touch ran'
cannot write --save-baseline file '\.': it is a directory | --save-baseline . 'touch ran'
--export-json 'z' and --save-baseline './z' are the same file | --export-json z --save-baseline ./z 'touch ran'
--export-json './x' and --export-csv 'x' are the same file | --export-json ./x --export-csv x 'touch ran'
--export-json '../fx/lnk.json' and --export-csv '../fx/good.json' are the same file | --export-json ../fx/lnk.json --export-csv ../fx/good.json 'touch ran'
--export-json '../fx/dangling.json' and --export-csv '../fx/./new.json' are the same file | --export-json ../fx/dangling.json --export-csv ../fx/./new.json 'touch ran'
--output 'o.txt' and --export-json './o.txt' are the same file | --output o.txt --export-json ./o.txt 'touch ran'
--output and --export-csv both write to 'o.txt' | --output o.txt --export-csv o.txt 'touch ran'
--input '../fx/good.json' and --output '../fx/../fx/good.json' are the same file | --input ../fx/good.json --output ../fx/../fx/good.json 'touch ran'
--input and --output both name '../fx/good.json' | --input ../fx/good.json --output ../fx/good.json 'touch ran'
malformed JSON at line 1, column 48      | --baseline ../fx/truncated.json 'touch ran'
malformed JSON at line 1, column 1       | --baseline ../fx/garbage.json 'touch ran'
empty file, expected cbench or hyperfine JSON | --baseline ../fx/empty.json 'touch ran'
expected a JSON object with a "results" array | --baseline ../fx/wrong-shape.json 'touch ran'
no "results" array                       | --baseline ../fx/results-string.json 'touch ran'
results\[0\].times: expected an array of numbers | --baseline ../fx/times-string.json 'touch ran'
results\[0\]: no "command" string        | --baseline ../fx/command-number.json 'touch ran'
schema_version 99 was written by a newer cbench | --baseline ../fx/future-schema.json 'touch ran'
cannot read 'missing.json': No such file | --baseline missing.json 'touch ran'
cannot read '..'                         | --baseline .. 'touch ran'
is a hyperfine file and this run is cbench | --baseline ../fx/good.json 'touch ran'
malformed JSON at line 1, column 48      | compare ../fx/truncated.json ../fx/good.json
expected a JSON object with a "results" array | compare ../fx/good.json ../fx/wrong-shape.json
cannot read 'missing.json'               | compare ../fx/good.json missing.json
TABLE
}

# Baseline files for the table, outside the directories checked for
# leftovers.
make_fixtures() {
	mkdir fx
	printf '{"results": [{"command": "a", "times": [0.1, 0.2' >fx/truncated.json
	printf 'not json' >fx/garbage.json
	: >fx/empty.json
	printf '[{"command": "a", "times": [1]}]' >fx/wrong-shape.json
	printf '{"results": "x"}' >fx/results-string.json
	printf '{"results": [{"command": "a", "times": "fast"}]}' >fx/times-string.json
	printf '{"results": [{"command": 5, "times": [1]}]}' >fx/command-number.json
	printf '{"schema": "cbench-results", "schema_version": 99, "results": []}' \
		>fx/future-schema.json
	printf '{"results": [{"command": "other", "times": [0.1, 0.2, 0.3]}]}' >fx/good.json
	ln -s good.json fx/lnk.json
	ln -s new.json fx/dangling.json
}

test_bad_invocations() {
	local n=0 bad=0 line want args rc
	make_fixtures
	while IFS= read -r line; do
		want=${line%%|*}
		want=${want%"${want##*[![:space:]]}"}
		args=${line#*|}
		n=$((n + 1))
		mkdir -p "case$n" && cd "case$n" || fail "mkdir"
		eval "set -- $args"
		cb "$@" >../out 2>../err
		rc=$?
		cd .. || fail "cd"
		local why=""
		[ "$rc" = 2 ] || why="exit $rc, expected 2"
		[ -z "$why" ] && [ -s out ] && why="wrote to stdout: $(head -c 200 out)"
		[ -z "$why" ] && [ -n "$(ls -A "case$n")" ] && why="left files: $(ls -A "case$n")"
		if [ -z "$why" ]; then
			local lines first second
			lines=$(wc -l <err)
			first=$(sed -n 1p err)
			second=$(sed -n 2p err)
			case $first in
			"cbench: error: "*) ;;
			*) why="first line is not an error: $first" ;;
			esac
			[ -z "$why" ] && ! grep -qE -- "$want" <<<"$first" &&
				why="message '$first' does not match /$want/"
			[ -z "$why" ] && [ "$lines" -gt 2 ] && why="$lines lines on stderr"
			[ -z "$why" ] && [ "$lines" = 2 ] &&
				[ "$second" != "try 'cbench --help' for more information" ] &&
				why="second line is not the hint: $second"
		fi
		if [ -n "$why" ]; then
			echo "row $n ($args): $why"
			sed 's/^/      /' err | head -5
			bad=$((bad + 1))
		fi
	done < <(bad_input_table)
	[ "$n" -ge 40 ] || fail "only $n rows in the table"
	[ "$bad" = 0 ] || fail "$bad of $n bad invocations misbehaved (see log)"
}

# Usage errors found before anything starts get the --help hint, like every
# other usage error.
test_usage_hint_on_counters_and_output() {
	local args
	for args in "--counters bogus" "--counters none,task-clock" \
		"--output nodir/x" "--output /dev/null/x"; do
		# shellcheck disable=SC2086
		cb $args -r 1 'touch ran' >out 2>err
		expect_eq "exit code ($args)" "$?" 2
		expect_eq "lines on stderr ($args)" "$(wc -l <err)" 2
		expect_grep "hint ($args)" "^try 'cbench --help' for more information$" err
		[ ! -e ran ] || fail "$args: the command ran"
	done
}

# A --gate-metric this run will not count is found before the first run.
test_uncounted_gate_metric_before_running() {
	cb -r 3 --style none --save-baseline base.json true >out 2>err ||
		fail "baseline: exit $?: $(cat err)"
	jq -e '.results[0].runs.task_clock[0] != null' base.json >/dev/null ||
		skip "task-clock is not counted here"
	cb -r 3 --counters page-faults --baseline base.json --gate-metric task_clock \
		--prepare 'touch ran' true >out 2>err
	expect_eq "exit code" "$?" 2
	[ ! -e ran ] || fail "benchmarks ran before the error"
	expect_grep "message" "^cbench: error: --gate-metric task_clock: not counted in this run \(--counters page-faults\)$" err
	cb -r 3 --counters none --baseline base.json --gate-metric page_faults \
		--prepare 'touch ran' true >out 2>err
	expect_eq "exit code (none)" "$?" 2
	[ ! -e ran ] || fail "benchmarks ran before the error (none)"
}

test_bad_values_exit_2_before_running() {
	while IFS= read -r args; do
		rm -f ran
		eval "cb -r 1 $args 'touch ran'" >out 2>err
		rc=$?
		[ "$rc" = 2 ] || fail "$args: exit $rc, expected 2: $(cat err)"
		[ ! -e ran ] || fail "$args: the command ran"
		[ "$(grep -c '^cbench: error: ' err)" = 1 ] || fail "$args: $(cat err)"
	done <<'EOF'
-P n 5 1
-P n 1 5 -D 0
-P n 1 5 -D -0.5
-P n one 5
-P n 1 5x
-P n 1.5 3
-P n 1 200000
-P a 1 1000 -P b 1 1000
-L n 1 -L n 2
-P n 1 2 -L n 3
-L n ,
-L n a,,b,
-L n a,b,a
-D 1
--reference '{n}' -L n 1,2
--order sideways
--seed -1
--sort fastest
--timeout 0
--timeout x
-i=0
--input /nonexistent/file
--output /nonexistent/dir/file
--output a --output b
-p a -p b
--style loud
-u hours
EOF
}

# One rule from the option table (issue 46): an option it marks "once"
# given twice is refused, naming both values, whatever its kind; one
# marked "many" is taken each time.
test_options_given_twice_from_the_table() {
	local long letter kind values comp scope def range many v n=0 rc
	while IFS=$'\t' read -r long letter kind values comp scope def range many; do
		[ "$scope" != compare ] && [ "$many" = once ] || continue
		case $long in help | version) continue ;; esac
		case $kind in
		flag) v= ;;
		count | uint | seconds | percent)
			# the lowest value of the range, or its middle if open
			v=$(awk -v r="$range" 'BEGIN {
				if (r == "-") { print 3; exit }
				lo = substr(r, 2) + 0; hi = r; sub(/.*,/, "", hi); hi += 0
				print (substr(r, 1, 1) == "[") ? lo : (lo + hi) / 2 }') ;;
		enum | choice) v=${values%%|*} ;;
		*) continue ;;
		esac
		n=$((n + 1))
		if [ -z "$v" ]; then
			cb "--$long" "--$long" 'touch ran' >out 2>err
			rc=$?
			expect_grep "--$long twice" "^cbench: error: --$long given twice$" err
		else
			cb "--$long" "$v" "--$long" "$v" 'touch ran' >out 2>err
			rc=$?
			expect_grep "--$long twice" "^cbench: error: --$long given twice \('$v' and '$v'\)$" err
		fi
		expect_eq "--$long twice: exit" "$rc" 2
		[ ! -e ran ] || fail "--$long twice: the benchmark ran"
	done < <(opt_table | awk -F'\t' -v OFS='\t' '{	# no empty field: read would merge tabs
		for (i = 1; i <= NF; i++) if ($i == "") $i = "-"; print }')
	[ "$n" -ge 20 ] || fail "only $n options checked"
	# options of other kinds, marked once
	cb -N -N 'touch ran' >out 2>err
	expect_grep "-N twice" "^cbench: error: --no-shell given twice$" err
	cb --pin 0 --pin 0 'touch ran' >out 2>err
	expect_grep "--pin twice" "^cbench: error: --pin given twice \('0' and '0'\)$" err
	cb --counters none --counters none 'touch ran' >out 2>err
	expect_grep "--counters twice" "^cbench: error: --counters given twice" err
	cb -i --ignore-failure=2 'touch ran' >out 2>err
	expect_grep "-i, then with codes" "^cbench: error: --ignore-failure given twice$" err
	# two names of one setting
	cb --min-time 1 --min-benchmarking-time 5 'touch ran' >out 2>err
	expect_grep "an alias" "^cbench: error: --min-time and --min-benchmarking-time set the same thing: give one$" err
	[ ! -e ran ] || fail "the benchmark ran"
	# marked many: each taken
	cb -r 1 -N --prepare 'touch p1' --prepare 'touch p2' --export-json a.json \
		--export-csv b.csv 'touch r1' 'touch r2' >out 2>err || fail "many: exit $?: $(cat err)"
	[ -e p1 ] && [ -e p2 ] && [ -s a.json ] && [ -s b.csv ] || fail "not each taken: $(ls)"
}

test_options_consistent() {
	local v
	for v in ' 3' '3 ' $'3\n'; do
		cb -r "$v" -N true >out 2>err
		expect_eq "-r '$v': exit" "$?" 2
	done
	cb -r +3 -N --export-json r.json true >out 2>err || fail "-r +3: exit $?"
	for o in --input --baseline --reference; do
		cb -r 2 -N $o b.json $o c.json true >out 2>err
		expect_eq "$o twice: exit" "$?" 2
		expect_grep "$o twice" "^cbench: error: $o given twice \('b.json' and 'c.json'\)" err
	done
	cb -r 2 -N -p '' true >out 2>err
	expect_eq "-p '': exit" "$?" 2
	expect_grep "-p ''" "^cbench: error: invalid value '' for --prepare: expected a command" err
	cb -r 2 -N -n '' true >out 2>err
	expect_eq "-n '': exit" "$?" 2
	cb -r 2 -N -n same -n same true true >out 2>err
	expect_eq "-n same -n same: exit" "$?" 2
	expect_grep "two commands" "given to two commands" err
	cb -r 2 -N -n $'x\n::error title=y::z' true >out 2>err
	expect_eq "newline in a name: exit" "$?" 2
	expect_no_grep "no workflow command at a line start" '^::error' err
	expect_grep "shown escaped" "'x\\\\n::error" err
	# Positive: distinct, ordinary names.
	cb -r 2 -N -n one -n two true true >out 2>err || fail "two names: exit $?: $(cat err)"
}

test_messages_say_the_real_cause() {
	results b.json
	# A count above its limit names the limit.
	cb -r 2147483648 -N true >out 2>err
	expect_eq "-r too large: exit" "$?" 2
	expect_grep "names the limit" "^cbench: error: invalid value '2147483648' for --runs: expected a whole number from 1 to [0-9]+" err
	# A name too long once the temporary's prefix and suffix are added.
	local long
	long=$(printf 'a%.0s' $(seq 250)).json
	cb -r 2 -N true --export-json "$long" >out 2>err
	expect_eq "long name: exit" "$?" 2
	expect_grep "says the temporary" "its name is too long for the temporary file cbench writes beside it" err
	# A directory that takes no new file: says a temporary is needed there.
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		mkdir ro && chmod 555 ro
		setpriv --reuid=65534 --regid=65534 --clear-groups "$CBENCH" -r 2 -N true \
			--export-json ro/x.json >out 2>err
		expect_eq "read-only dir: exit" "$?" 2
		expect_grep "says the temporary" "cannot create a temporary file in 'ro' \(the export is written there, then renamed over the file\): Permission denied" err
	fi
	# JSON nested 100 000 deep: too deep, not "malformed".
	/usr/bin/python3 -c "print('[' * 100000 + ']' * 100000)" >deep.json
	cb compare deep.json b.json >out 2>err
	expect_eq "deep: exit" "$?" 2
	expect_grep "too deep" "^cbench: error: deep.json: JSON nested more than 1000 levels deep" err
	echo '{"results": [}' >bad.json
	cb compare bad.json b.json >out 2>err
	expect_grep "still malformed" "malformed JSON at line 1, column" err
}
