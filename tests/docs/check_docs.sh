#!/usr/bin/env bash
# tests/docs/check_docs.sh (make check-docs): run the README as a new user
# would, in a temporary fresh clone, without the network.
#
#  1. The CI recipes' install steps (the GitHub Actions step "Install
#     cbench", GitLab's .cbench before_script), each with only what its own
#     package list brings: every package it names must be installed here
#     (nothing is downloaded), and the steps run with a PATH that holds only
#     the executables of those packages, their dependencies and Debian's
#     Essential set (plus git, sudo and curl on GitHub's runners, which have
#     them), so a tool the recipe forgets (help2man for `make install`)
#     fails as it would on a fresh runner; and pkg-config finds only the
#     libraries (.pc files) of those packages, so a -dev package the
#     recipe forgets (libsqlite3-dev on debian:bookworm) fails the build.  `git clone .../OWNER/cbench`
#     clones the fresh clone instead, `apt-get` lines are checked, not run,
#     `sysctl` is not run, `sudo` is dropped, /tmp/ paths move into the
#     temporary directory and `make install` goes to a DESTDIR.
#  2. Every README example: ```sh blocks line by line and the `$ ` lines
#     of terminal transcripts, in README order, in one directory holding
#     stand-ins for the programs they name (./build/tool, ./old, big.c, a
#     Makefile, a git repository with tags v1 and v2, ...), with the cbench
#     the GitLab recipe installed.  A cbench command must exit 0, or 3 (a
#     gate's regression), or 2 where the transcript shows the error; any
#     other command 0.  Blocks marked `<!-- check-docs: in-clone -->` run in
#     a fresh clone instead (the Quick start, Install), with the same
#     apt-get/sudo handling; `make test` there is left out (it is the suite
#     CI runs anyway).  Blocks marked `<!-- check-docs: skip REASON -->` are
#     skipped, and the reason printed.  To keep this to a few minutes,
#     cbench runs with --min-time 0 where an example sets no run count.
#
# Prints one line per block and a summary; exits 1 if anything failed.
set -uo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PY=/usr/bin/python3
W=$(mktemp -d "${TMPDIR:-/tmp}/cbench-docs.XXXXXX")
trap 'rm -rf "$W"' EXIT
export LC_ALL=C NO_COLOR=1 MAKEFLAGS=-j2
failures=0 blocks=0 commands=0 skipped=0

bad() { echo "FAIL $*"; failures=$((failures + 1)); }

git clone -q "$SRC" "$W/src" || { echo "cannot clone $SRC"; exit 1; }
README=$W/src/README.md
BLOCKS=("$PY" "$W/src/tests/docs/readme_blocks.py")

# The packages of an `apt-get install` line (options left out).
apt_packages() {
	local w on=0
	for w in $1; do
		[ "$w" = install ] && { on=1; continue; }
		[ $on = 1 ] && case $w in -*|'&&'*) ;; *) echo "$w" ;; esac
	done
}

# Rewrite one command of a recipe or in-clone block (see the top); the
# packages it installs are checked here.  Prints the command to run, or
# nothing to leave it out.
rewrite() {
	local cmd=$1 part out="" pkgs p
	# One `&&` chain at a time.
	while IFS= read -r part; do
		part=$(sed -E 's/(^| )sudo /\1/g' <<<"$part")
		case $part in
		*apt-get\ update*) continue ;;
		*apt-get\ install*)
			pkgs=$(apt_packages "$part")
			for p in $pkgs; do
				dpkg -s "$p" >/dev/null 2>&1 ||
					bad "line $LINE: installs $p, which is not installed here (install it: check-docs uses no network)"
			done
			echo "$pkgs" >>"$W/pkgs"
			continue ;;
		*sysctl\ -w*) continue ;;
		*make\ test*) echo "  (left out: make test, the suite CI runs)" >&2; continue ;;
		esac
		part=${part//https:\/\/github.com\/OWNER\/cbench/file:\/\/$W\/src}
		# Paths outside the work area (GitLab's /tmp/cbench) go inside it.
		part=${part// \/tmp\// $W\/tmp\/}
		out=${out:+$out && }$part
	done < <(sed 's/ && /\n/g' <<<"$cmd")
	printf '%s' "$out"
}

# A pkg-config directory holding only the .pc files of packages "$@"
# (and their dependencies, and the Essential set).
pc_dir() {
	local dir=$1 f
	shift
	mkdir -p "$dir"
	"${BLOCKS[@]}" pcfiles "$@" | while IFS= read -r f; do
		ln -sf "$f" "$dir/${f##*/}"
	done
	echo "$dir"
}

# A PATH holding only what packages "$@" (and their dependencies, and the
# Essential set) provide.
shim_path() {
	local dir=$1 f
	shift
	mkdir -p "$dir"
	"${BLOCKS[@]}" closure "$@" | while IFS= read -r f; do
		[ -x "$f" ] && ln -sf "$f" "$dir/${f##*/}"
	done
	echo "$dir"
}

run_recipe() {
	local name=$1 line=$2 cmds=$3 n=0 c r shim runner pcdir
	LINE=$line
	: >"$W/pkgs"
	runner=""
	[ "$name" = github ] && runner="git sudo curl ca-certificates"
	# First pass: the package list (checked), then the PATH it gives.
	while IFS= read -r c; do rewrite "$c" >/dev/null; done < <(jq -r '.[]' <<<"$cmds")
	# shellcheck disable=SC2046
	shim=$(shim_path "$W/shim-$name" $(cat "$W/pkgs") $runner)
	# shellcheck disable=SC2046
	pcdir=$(pc_dir "$W/pc-$name" $(cat "$W/pkgs") $runner)
	mkdir -p "$W/run-$name/project" "$W/run-$name/tmp" "$W/tmp"
	cp "$W/fixture/Makefile" "$W/fixture/big.c" "$W/run-$name/project/"
	while IFS= read -r c; do
		r=$(rewrite "$c" 2>/dev/null)
		[ -z "$r" ] && continue
		case $r in \#*) continue ;; esac
		n=$((n + 1)) commands=$((commands + 1))
		if ! (cd "$W/run-$name/project" && env -i PATH="$shim" HOME="$W" \
			PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_PATH= \
			RUNNER_TEMP="$W/run-$name/tmp" DESTDIR="$W/dest-$name" \
			MAKEFLAGS=-j2 LC_ALL=C bash -ec "$r") >"$W/log" 2>&1; then
			bad "$name recipe (README line $line): '$c' failed: $(tail -n 3 "$W/log" | tr '\n' ' ')"
			return
		fi
	done < <(jq -r '.[]' <<<"$cmds")
	"$W/dest-$name/usr/local/bin/cbench" --version >/dev/null 2>&1 ||
		{ bad "$name recipe (README line $line): no working cbench installed"; return; }
	echo "PASS $name recipe (README line $line): $n steps, packages: $(tr ' ' '\n' <"$W/pkgs" | sort -u | tr '\n' ' ')"
}

# The project a recipe builds after installing cbench (its `make`), and
# the examples' sources.
make_project() {
	local f=$W/fixture
	mkdir -p "$f"
	printf 'int twice(int v) { return 2 * v; }\n' >"$f/big.c"
	printf 'all: out.o\nout.o: big.c\n\t$(CC) -c big.c -o out.o\nclean distclean:\n\trm -f out.o\n' >"$f/Makefile"
}

# Stand-ins for the programs and files the examples name.
make_fixture() {
	local f=$W/fixture
	mkdir -p "$f/build" "$f/base"
	cat >"$f/stub" <<-'SH'
	#!/bin/sh
	# check-docs: a stand-in for a program of the README's examples; reads
	# the files it is given.
	for a in "$@"; do [ -f "$a" ] && cat "$a" >/dev/null; done
	exit 0
	SH
	chmod +x "$f/stub"
	for p in build/tool base/tool old new solve tool flaky-server-test gen-data process; do
		cp "$f/stub" "$f/$p"
	done
	seq 1000 >"$f/input.txt"
	echo "no match here" >"$f/file"
	echo 'SELECT count(*) FROM t;' >"$f/query.sql"
	(cd "$f" && git init -q && git add Makefile big.c &&
		git -c user.name=docs -c user.email=docs@invalid commit -qm v1 &&
		git tag v1 && git tag v2) || bad "fixture: git repository"
	command -v sqlite3 >/dev/null && sqlite3 "$f/db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
	# The JSON section's example command (prose, not a block) writes out.json.
	(cd "$f" && "$CBENCH_REAL" -r 3 -n fast 'sleep 0.01' 'sleep 0.02' --export-json out.json \
		>/dev/null 2>&1) || bad "fixture: out.json"
	# A hyperfine file and a cbench one, for the two-tools example.
	(cd "$f" && hyperfine -N -r 3 --export-json hf.json true >/dev/null 2>&1 &&
		"$CBENCH_REAL" -N -r 3 true --export-json cb.json >/dev/null 2>&1) ||
		bad "fixture: hf.json and cb.json (hyperfine installed?)"
	# The HTML report's examples: a hyperfine export, a base and a new run.
	(cd "$f" && cp hf.json hyperfine.json &&
		"$CBENCH_REAL" -N -r 3 true --export-json main.json >/dev/null 2>&1 &&
		"$CBENCH_REAL" -N -r 3 true --export-json pr.json >/dev/null 2>&1) ||
		bad "fixture: hyperfine.json, main.json and pr.json"
}

# The cbench of the examples: the installed one, with --min-time 0 when the
# command sets no run count (subcommands as they are).
make_wrapper() {
	mkdir -p "$W/bin"
	cat >"$W/bin/cbench" <<-SH
	#!/bin/sh
	case \${1-} in compare|system|report|history) exec "$CBENCH_REAL" "\$@" ;; esac
	for a in "\$@"; do
		case \$a in -r|-r*|--runs|--runs=*|--min-time|--min-time=*|--precision|--precision=*)
			exec "$CBENCH_REAL" "\$@" ;;
		esac
	done
	exec "$CBENCH_REAL" --min-time 0 "\$@"
	SH
	chmod +x "$W/bin/cbench"
}

run_example() {
	local line=$1 kind=$2 error=$3 where=$4 cmds=$5 c r rc n=0 dir=$W/fixture
	LINE=$line
	# One fresh clone for all such blocks (the Install section builds on
	# the Quick start's build, as a reader following both would).
	if [ "$where" = clone ]; then
		dir=$W/clone
		[ -d "$dir" ] || git clone -q "$W/src" "$dir"
	fi
	while IFS= read -r c; do
		case $c in ''|\#*) continue ;; esac
		r=$c
		[ "$where" = clone ] && r=$(rewrite "$c")
		[ -z "$r" ] && continue
		n=$((n + 1)) commands=$((commands + 1))
		(cd "$dir" && PATH="$W/bin:$PATH" DESTDIR="$W/dest-clone" \
			timeout 300 bash -c "$r") >"$W/log" 2>&1
		rc=$?
		case $r in
		cbench*|./cbench*)
			if [ "$error" = true ]; then
				[ $rc = 2 ] || { bad "README line $line: '$c' exited $rc, the transcript shows an error (2)"; return; }
			elif [ $rc != 0 ] && [ $rc != 3 ]; then
				bad "README line $line: '$c' exited $rc: $(tail -n 3 "$W/log" | tr '\n' ' ')"
				return
			fi ;;
		*)
			[ $rc = 0 ] || { bad "README line $line: '$c' exited $rc: $(tail -n 3 "$W/log" | tr '\n' ' ')"; return; } ;;
		esac
	done < <(jq -r '.[]' <<<"$cmds")
	echo "PASS README line $line ($kind): $n commands"
}

# A terminal session (<!-- check-docs: session -->): its commands as one
# script, in an empty directory of its own, with a git identity for its
# commits; it must exit 0.
run_session() {
	local line=$1 cmds=$2 dir
	dir=$(mktemp -d "$W/session.XXXXXX")
	commands=$((commands + $(jq length <<<"$cmds")))
	if (cd "$dir" && PATH="$W/bin:$PATH" GIT_AUTHOR_NAME=docs \
		GIT_AUTHOR_EMAIL=docs@invalid GIT_COMMITTER_NAME=docs \
		GIT_COMMITTER_EMAIL=docs@invalid timeout 600 \
		bash -e -o pipefail -c "$(jq -r '.[]' <<<"$cmds")") >"$W/log" 2>&1; then
		echo "PASS README line $line (session): $(jq length <<<"$cmds") commands"
	else
		bad "README line $line: the session exited $?: $(tail -n 3 "$W/log" | tr '\n' ' ')"
	fi
}

make_project
# Recipes first: the GitLab one installs the cbench the examples use.
while IFS= read -r rec; do
	blocks=$((blocks + 1))
	run_recipe "$(jq -r .name <<<"$rec")" "$(jq -r .line <<<"$rec")" \
		"$(jq -c .commands <<<"$rec")"
done < <("${BLOCKS[@]}" recipes "$README")
[ "$(grep -c . < <("${BLOCKS[@]}" recipes "$README"))" = 2 ] ||
	bad "expected two CI recipes (GitHub Actions, GitLab) in the README"

CBENCH_REAL=$W/dest-gitlab/usr/local/bin/cbench
[ -x "$CBENCH_REAL" ] || { make -C "$W/src" cbench >/dev/null 2>&1; CBENCH_REAL=$W/src/cbench; }
export CBENCH_REAL
make_fixture
make_wrapper

while IFS= read -r ex; do
	blocks=$((blocks + 1))
	line=$(jq -r .line <<<"$ex")
	skip=$(jq -r '.skip // empty' <<<"$ex")
	if [ "$skip" = session ]; then
		run_session "$line" "$(jq -c .commands <<<"$ex")"
		continue
	fi
	if [ -n "$skip" ] && [ "$skip" != in-clone ]; then
		echo "SKIP README line $line: $skip"
		skipped=$((skipped + 1))
		continue
	fi
	run_example "$line" "$(jq -r .kind <<<"$ex")" "$(jq -r .error <<<"$ex")" \
		"$([ "$skip" = in-clone ] && echo clone || echo fixture)" "$(jq -c .commands <<<"$ex")"
done < <("${BLOCKS[@]}" examples "$README")

echo "check-docs: $blocks blocks, $commands commands run, $skipped skipped, $failures failed"
[ $failures = 0 ]
