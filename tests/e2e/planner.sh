# End-to-end tests of the planner: parameter sweeps, hooks, run order,
# timeouts, input and output of the command, and bad values.

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
-L n ''
-L n ,
-L n a,,b
-L n a,b,
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
