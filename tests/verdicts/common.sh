# tests/verdicts/common.sh: sourced by the scripts of `make verdicts`.

# whole_numbers WHAT N...: exit 2 with a message naming WHAT unless every
# N is a whole number.
whole_numbers() {
	local what=$1 n
	shift
	for n in "$@"; do
		case $n in
		'' | *[!0-9]*) echo "$what: not a whole number: '$n'" >&2; exit 2 ;;
		esac
	done
}

# The python3 with numpy and scipy where a pyenv shim may come first.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
