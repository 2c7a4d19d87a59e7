# bash completion for cbench                                -*- shell-script -*-
#
# Needs bash-completion (>= 2.0), which loads this file on demand from
# share/bash-completion/completions/cbench.  Hand-written from the option
# table in src/cli.c; tests/e2e/sync.sh fails when an option of the table is
# missing here and tests/e2e/completions.sh asks bash for real completions.
#
# bash cannot show descriptions next to candidates: `cbench --help` has them.

# Options of `cbench` (benchmarking) and of `cbench compare`.
_cbench_run_opts='-w --warmup -r --runs -m --min-runs -M --max-runs
	--min-time --max-time -P --parameter-scan -D --parameter-step-size
	-L --parameter-list -s --setup -p --prepare -C --conclude -c --cleanup
	-S --shell -N --no-shell -i --ignore-failure --timeout
	-n --command-name --reference --order --seed --sort --input --output
	--show-output --style -u --time-unit --counters --confidence --precision
	--export-json --export-markdown --export-asciidoc --export-orgmode
	--export-csv --export-csv-runs --export-html --baseline --save-baseline
	--fail-if-slower --gate-metric --require-all --require-resolution --match-by
	--pin --pin-hooks --pin-self --aslr --randomize-layout
	--history --history-label --baseline-history --history-window
	--history-branch --export-bmf --export-github-benchmark --export-junit
	--fail-if-slower-for -h --help -V --version --reference-name
	--min-benchmarking-time --quiet -v --verbose --keep-background --metric
	--export-github-benchmark-bigger --profile --export-metrics'
_cbench_compare_opts='--seed --style -u --time-unit --confidence
	--export-markdown --fail-if-slower --gate-metric --require-all --require-resolution
	--match-by --export-junit --fail-if-slower-for -h --help -V --version --quiet
	-v --verbose'

# `cbench history SUBCOMMAND`: its subcommands and options (cli_history.c).
_cbench_history_subs='list show trend detect export import prune report'
_cbench_history_opts='--history --benchmark --branch --machine --commit
	--limit --metric --all-machines --alpha --test --format --output
	--history-label --older-than --keep --window --min-magnitude --help'

_cbench_counters='task-clock page-faults instructions cycles cache-references
	cache-misses branches branch-misses none sim sim-cache'

# _cbench_nargs OPTION: how many following words OPTION takes.
_cbench_nargs()
{
	case $1 in
	-P | --parameter-scan) echo 3 ;;
	-L | --parameter-list | --fail-if-slower-for) echo 2 ;;
	-w | --warmup | -r | --runs | -m | --min-runs | -M | --max-runs | \
	--min-time | --max-time | -D | --parameter-step-size | -s | --setup | \
	-p | --prepare | -C | --conclude | -c | --cleanup | -S | --shell | \
	--timeout | -n | --command-name | --reference | --order | --seed | \
	--sort | --input | --output | --style | -u | --time-unit | --counters | \
	--confidence | --precision | --export-json | --export-markdown | \
	--export-asciidoc | --export-orgmode | --export-csv | --export-csv-runs | \
	--export-html | --baseline | --save-baseline | --fail-if-slower | \
	--gate-metric | --match-by | --pin | --pin-hooks | --pin-self | --aslr | \
	--reference-name | --min-benchmarking-time | --history | \
	--history-label | --history-window | --history-branch | --export-bmf | \
	--export-github-benchmark | --export-junit | --metric | \
	--export-github-benchmark-bigger | --profile | --export-metrics)
		echo 1 ;;
	*) echo 0 ;;
	esac
}

# _cbench_value OPTION: fill COMPREPLY with the values of OPTION for $cur.
_cbench_value()
{
	case $1 in
	--order) COMPREPLY=($(compgen -W 'sequential interleaved shuffled' -- "$cur")) ;;
	--sort) COMPREPLY=($(compgen -W 'auto command mean-time' -- "$cur")) ;;
	--style) COMPREPLY=($(compgen -W 'auto basic full nocolor color none' -- "$cur")) ;;
	-u | --time-unit)
		COMPREPLY=($(compgen -W 'microsecond millisecond second' -- "$cur")) ;;
	--match-by) COMPREPLY=($(compgen -W 'command name' -- "$cur")) ;;
	--aslr) COMPREPLY=($(compgen -W 'on off' -- "$cur")) ;;
	--pin-hooks) COMPREPLY=($(compgen -W 'none' -- "$cur")) ;;
	--gate-metric)
		COMPREPLY=($(compgen -W 'wall_time cpu_time user_time system_time
			peak_rss task_clock page_faults instructions cycles
			cache_misses branch_misses sim_instructions sim_cycles
			sim_i1_misses sim_d1_read_misses sim_d1_write_misses
			sim_ll_instr_misses sim_ll_read_misses sim_ll_write_misses' -- "$cur")) ;;
	--export-metrics)
		COMPREPLY=($(compgen -W 'wall_time user_time system_time peak_rss
			minor_faults major_faults voluntary_context_switches
			involuntary_context_switches task_clock page_faults
			instructions cycles cache_references cache_misses branches
			branch_misses sim_instructions sim_cycles sim_i1_misses
			sim_d1_read_misses sim_d1_write_misses sim_ll_instr_misses
			sim_ll_read_misses sim_ll_write_misses' -- "$cur")) ;;
	--counters)
		# A comma list: complete the last item, keep what is before it and
		# leave out events already listed.
		local last=${cur##*,} head ev
		head=${cur%"$last"}
		local -a evs=()
		for ev in $_cbench_counters; do
			[[ ,$head == *,$ev,* ]] && continue
			[[ -n $head && $ev == @(none|sim|sim-cache) ]] && continue
			evs+=("$ev")
		done
		COMPREPLY=($(compgen -P "$head" -W "${evs[*]}" -- "$last"))
		compopt -o nospace 2>/dev/null ;;
	--output)
		COMPREPLY=($(compgen -W 'null pipe inherit' -- "$cur"))
		_filedir ;;
	--input | --export-json | --export-markdown | --export-asciidoc | \
	--export-orgmode | --export-csv | --export-csv-runs | --export-html | \
	--save-baseline | --export-bmf | --export-github-benchmark | --export-junit | \
	--export-github-benchmark-bigger)
		_filedir ;;
	--baseline) _filedir json ;;
	--history) _filedir ;;
	-S | --shell)
		COMPREPLY=($(compgen -W 'none' -- "$cur") $(compgen -c -- "$cur")) ;;
	-s | --setup | -p | --prepare | -C | --conclude | -c | --cleanup | --reference)
		COMPREPLY=($(compgen -c -- "$cur")) ;;
	*) ;; # numbers, names and the like: nothing to offer
	esac
}

# `cbench history ...`: the subcommand, then its options and their values.
_cbench_history()
{
	if ((cword == 2)); then
		COMPREPLY=($(compgen -W "$_cbench_history_subs" -- "$cur"))
		return
	fi
	local opt=$prev
	[[ $split == true ]] || [[ $prev == --* ]] || opt=
	case $opt in
	--metric)
		COMPREPLY=($(compgen -W 'wall_time user_time system_time peak_rss
			minor_faults major_faults task_clock page_faults instructions
			cycles cache_misses branch_misses' -- "$cur"))
		return ;;
	--format) COMPREPLY=($(compgen -W 'json csv' -- "$cur")); return ;;
	--test) COMPREPLY=($(compgen -W 't permutation otava' -- "$cur")); return ;;
	--history | --output) _filedir; return ;;
	--benchmark | --branch | --machine | --commit | --limit | --alpha | \
	--history-label | --older-than | --keep | --window | --min-magnitude) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_cbench_history_opts" -- "$cur"))
	elif [[ ${words[2]} == import ]]; then
		_filedir json
	fi
}

# `cbench report [OPTIONS] IN.json... -o OUT.html` (cli.c, parse_report).
_cbench_report()
{
	local opt=$prev
	[[ $split == true ]] || [[ $prev == -* ]] || opt=
	case $opt in
	-o | --output) _filedir html; return ;;
	--match-by) COMPREPLY=($(compgen -W 'command name' -- "$cur")); return ;;
	--title | --fail-if-slower | --confidence) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-o --output --compare --title
			--fail-if-slower --confidence --match-by -h --help' -- "$cur"))
	else
		_filedir json # IN.json..., or BASE.json NEW.json with --compare
	fi
}

_cbench()
{
	local cur prev words cword split
	_init_completion -s || return

	if [[ ${words[1]-} == history ]] && ((cword > 1)); then
		_cbench_history
		return
	fi
	if [[ ${words[1]-} == report ]] && ((cword > 1)); then
		_cbench_report
		return
	fi

	local mode=run i=1
	if [[ ${words[1]-} == system ]] && ((cword > 1)); then
		# cbench system check [--json] [--runs N] | tune | reset
		if ((cword == 2)); then
			COMPREPLY=($(compgen -W 'check tune reset --help' -- "$cur"))
		elif [[ ${words[2]} == check && $prev != --runs ]]; then
			COMPREPLY=($(compgen -W '--json --runs' -- "$cur"))
		fi
		return
	fi
	if [[ ${words[1]-} == compare ]] && ((cword > 1)); then
		mode=compare
		i=2
	fi

	if [[ $split == true ]]; then # --option=VALUE
		_cbench_value "$prev"
		return
	fi

	# Walk the words before the cursor to know whether the current one is
	# an option's argument (-P takes three words, -L two, -r5 none).
	local w opt= need=0 only_positional=0 j n
	for ((; i < cword; i++)); do
		w=${words[i]}
		if ((need > 0)); then
			((need--))
			continue
		fi
		((only_positional)) && continue
		case $w in
		--) only_positional=1 ;;
		--*=*) ;;
		--*) opt=$w need=$(_cbench_nargs "$w") ;;
		-?*)
			for ((j = 1; j < ${#w}; j++)); do
				n=$(_cbench_nargs "-${w:j:1}")
				if ((n > 0)); then
					# -r5 carries its value; -r takes the next words.
					((j + 1 == ${#w})) && opt=-${w:j:1} need=$n
					break
				fi
			done ;;
		esac
	done

	if ((need > 0)); then
		# Only single-argument options have values worth completing.
		[[ $(_cbench_nargs "$opt") == 1 ]] && _cbench_value "$opt"
		return
	fi

	if [[ $cur == -* ]] && ((!only_positional)); then
		if [[ $mode == compare ]]; then
			COMPREPLY=($(compgen -W "$_cbench_compare_opts" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_cbench_run_opts" -- "$cur"))
		fi
		return
	fi

	if [[ $mode == compare ]]; then
		_filedir json # BASE.json NEW.json
		return
	fi
	# A command to benchmark (one word of it; quote the whole line).
	if [[ $cur == */* ]]; then
		_filedir
	else
		COMPREPLY=($(compgen -c -- "$cur"))
		((cword == 1)) && COMPREPLY+=($(compgen -W 'compare system history report' -- "$cur"))
	fi
} &&
	complete -F _cbench cbench

# ex: filetype=sh
