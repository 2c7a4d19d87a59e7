# tests/e2e/architecture.sh: the shape of the source tree (the README's
# Architecture section): only the command line, the terminal report and the
# diagnostics module print or exit; no function is over 100 lines; no two
# modules include each other.  Each check is first shown to catch a planted
# violation, so a broken checker cannot pass.

SRC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARCH=(python3 "$SRC_ROOT/tests/tools/architecture.py")

# plant DIR: a copy of src/ and include/ to plant violations in.
plant() {
	mkdir -p "$1"
	cp -r "$SRC_ROOT/src" "$SRC_ROOT/include" "$1/"
}

test_only_the_front_end_prints_or_exits() {
	plant "$T/tree"
	printf 'static void oops(void) { printf("x"); exit(1); }\n' >>"$T/tree/src/analysis/stats.c"
	"${ARCH[@]}" prints "$T/tree/src" >"$T/planted" && fail "a planted printf was not found"
	expect_grep "planted printf" '^analysis/stats\.c:[0-9]+: .*printf' "$T/planted"
	expect_grep "planted exit" 'exit\(1\)' "$T/planted"
	"${ARCH[@]}" prints "$SRC_ROOT/src" >"$T/real" ||
		fail "modules below the command line print or exit: $(cat "$T/real")"
}

test_no_function_over_100_lines() {
	plant "$T/tree"
	{
		echo 'int planted_long(int x)'
		echo '{'
		for i in $(seq 1 120); do echo "	x += $i;"; done
		echo '	return x;'
		echo '}'
	} >>"$T/tree/src/analysis/stats.c"
	"${ARCH[@]}" long "$T/tree/src" 100 >"$T/planted" && fail "a 124-line function was not found"
	expect_grep "planted function" '^analysis/stats\.c:[0-9]+: planted_long is 124 lines' "$T/planted"
	"${ARCH[@]}" long "$SRC_ROOT/src" 100 >"$T/real" ||
		fail "functions over 100 lines: $(cat "$T/real")"
}

test_no_module_cycles() {
	plant "$T/tree"
	echo '#include "export.h"' >>"$T/tree/include/stats.h"
	"${ARCH[@]}" cycles "$T/tree/src" "$T/tree/include" >"$T/planted" &&
		fail "a planted include cycle was not found"
	expect_grep "planted cycle" 'stats -> .*stats' "$T/planted"
	"${ARCH[@]}" cycles "$SRC_ROOT/src" "$SRC_ROOT/include" >"$T/real" ||
		fail "module cycles: $(cat "$T/real")"
}
