# End-to-end tests of what the performance work must not break: the peak
# RSS a command reports is its own, not cbench's (see README, Performance).

# Is cbench built with AddressSanitizer?
sanitized() { ldd "$CBENCH" 2>/dev/null | grep -q libasan; }

# mean_kib FILE: mean of the KiB values hwm appended to FILE.
mean_kib() { awk '{ s += $1 } END { printf "%.0f", s / NR }' "$1"; }

# reported_kib JSON: cbench's mean peak RSS in KiB from its export.
reported_kib() { jq '.results[0].metrics.peak_rss.mean / 1024 | floor' "$1"; }

test_peak_rss_of_a_small_command_is_its_own() {
	ptrace_works || skip "ptrace refused by this kernel"
	sanitized && skip "sanitized build: the launcher carries the sanitizer's megabytes"
	[ "${VALGRIND:-}" = 1 ] && skip "under valgrind the launcher carries valgrind's megabytes"
	cb -N -r 10 --export-json out.json "$HELPERS/hwm $T/hwm" >out 2>err ||
		fail "exit $?: $(cat err)"
	truth=$(mean_kib hwm)
	got=$(reported_kib out.json)
	# The kernel folds the memory a process had before exec into its peak:
	# cloned from cbench itself (2.5 MB and more) this reads 2-3x the truth;
	# from the launcher it is within a few hundred KiB.  (Since Linux 6.2
	# RSS counters are per-CPU and read approximately: a few pages either
	# way are noise.)
	awk -v t="$truth" -v g="$got" 'BEGIN { exit !(g >= t * 0.97 && g < t * 1.5) }' ||
		fail "peak RSS reported ${got} KiB, the command's own ${truth} KiB"
}

test_peak_rss_of_a_20mb_command_is_exact() {
	ptrace_works || skip "ptrace refused by this kernel"
	[ "${VALGRIND:-}" = 1 ] && skip "under valgrind the launcher carries valgrind's megabytes"
	cb -N -r 5 --export-json out.json "$HELPERS/hwm $T/hwm 20480" >out 2>err ||
		fail "exit $?: $(cat err)"
	truth=$(mean_kib hwm)
	got=$(reported_kib out.json)
	awk -v t="$truth" -v g="$got" 'BEGIN { d = g - t; exit !(d > -t * 0.02 && d < t * 0.02) }' ||
		fail "peak RSS reported ${got} KiB, the command's own ${truth} KiB"
}

test_peak_rss_does_not_grow_with_runs_kept() {
	ptrace_works || skip "ptrace refused by this kernel"
	sanitized && skip "sanitized build: the sanitizer's own memory grows in the launcher"
	cb -N -r 3000 --export-json out.json "$HELPERS/hwm $T/hwm" >out 2>err ||
		fail "exit $?: $(cat err)"
	# Medians of the first and last 200 runs: one run's figure can differ
	# by a few pages from the next; growth would move the whole tail.
	first=$(jq '.results[0].runs.peak_rss[:200] | sort | .[100]' out.json)
	last=$(jq '.results[0].runs.peak_rss[-200:] | sort | .[100]' out.json)
	# The ~250-300 KiB of columns that 3000 runs add to cbench must not
	# leak into the command's figure (it is cloned from the launcher).
	# The figure also steps by up to ~130 KiB when other programs change
	# how much of libc the page cache holds (fault-around maps cached
	# neighbours of a faulting page): seen on a machine busy with
	# compilers, at any point of the series.  Between the two: 192 KiB.
	awk -v a="$first" -v b="$last" 'BEGIN { exit !(b - a < 192 * 1024) }' ||
		fail "peak RSS went from $first to $last bytes over 3000 runs"
}
