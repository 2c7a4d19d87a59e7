# fish completion for cbench.  Install as
# share/fish/vendor_completions.d/cbench.fish.  Hand-written from the option
# table in src/cli.c; tests/e2e/sync.sh fails when an option of the table is
# missing here and tests/e2e/completions.sh asks fish for real completions.

# Is this `cbench compare ...`?  (compare is only a subcommand as the first
# argument.)
function __cbench_is_compare
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = compare
end

# Is this `cbench system ...`?
function __cbench_is_system
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = system
end

# Is this `cbench history ...`?
function __cbench_is_history
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = history
end

# Is this `cbench report ...`?
function __cbench_is_report
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = report
end

# Is the current word a positional argument (not an option's value)?
# -P takes three words and -L two, which fish's -r/-x cannot say.
function __cbench_positional
    # An option being typed (e.g. --ignore-failure=CODES) is no command.
    string match -q -- '-*' (commandline -ct); and return 1
    set -l words (commandline -opc)
    set -e words[1]
    set -l need 0
    for w in $words
        if test $need -gt 0
            set need (math $need - 1)
            continue
        end
        switch $w
            case -- --
                return 0
            case -P --parameter-scan
                set need 3
            case -L --parameter-list --fail-if-slower-for
                set need 2
            case --warmup --runs --min-runs --max-runs --min-time --max-time \
                --parameter-step-size --setup --prepare --conclude --cleanup \
                --shell --timeout --command-name --reference --order --seed \
                --sort --input --output --style --time-unit --counters \
                --confidence --precision --export-json --export-markdown \
                --export-asciidoc --export-orgmode --export-csv \
                --export-csv-runs --export-html --baseline --save-baseline \
                --fail-if-slower --gate-metric --match-by \
                --pin --pin-hooks --pin-self --aslr --reference-name \
                --min-benchmarking-time --history \
                --history-label --history-window --history-branch \
                --export-bmf --export-github-benchmark --export-junit \
                --metric --export-github-benchmark-bigger --export-metrics
                set need 1
            case '-[wrmMDspCcSnu]'
                set need 1
            case '-*P'
                set need 3
            case '-*L'
                set need 2
        end
    end
    test $need -eq 0
end

# Values of --counters: a comma list, so complete its last item.
function __cbench_counters
    set -l tok (commandline -ct | string replace -r -- '^--counters=' '')
    set -l head (string match -r -- '^.*,' $tok)
    set -l events \
        task-clock\t'CPU time of the command and its children' \
        page-faults\t'page faults of the command and its children' \
        instructions\t'instructions retired (needs a PMU)' \
        cycles\t'CPU cycles (needs a PMU)' \
        cache-references\t'last-level cache references (needs a PMU)' \
        cache-misses\t'last-level cache misses (needs a PMU)' \
        branches\t'branch instructions (needs a PMU)' \
        branch-misses\t'mispredicted branches (needs a PMU)'
    if test -z "$head"
        set -a events none\t'measure no counters' sim\t"instructions on Valgrind's simulated CPU, exact" sim-cache\t'sim with the cache simulation'
    end
    for e in $events
        set -l name (string split -f1 \t -- $e)
        string match -q -- "*,$name,*" ",$head"; and continue
        printf '%s%s\n' $head $e
    end
end

# Result files: *.json and directories to descend into, nothing else
# (__fish_complete_suffix also lists the other files, after these).
function __cbench_json_files
    set -l tok (commandline -ct)
    for f in $tok*
        if test -d $f
            printf '%s/\n' $f
        else if string match -q -- '*.json' $f
            printf '%s\n' $f
        end
    end
end

complete -c cbench -e
complete -c cbench -f

set -l run 'not __cbench_is_compare; and not __cbench_is_system; and not __cbench_is_history; and not __cbench_is_report'

# The command to benchmark, or the compare subcommand.
complete -c cbench -n "$run; and __cbench_positional" -a '(__fish_complete_command)'
complete -c cbench -n "$run; and __fish_is_first_arg" -a compare -d 'Compare two saved result files'
complete -c cbench -n "$run; and __fish_is_first_arg" -a system -d 'Check, tune or reset this machine for benchmarking'
# system check [--json] [--runs N] | tune | reset
complete -c cbench -n '__cbench_is_system; and __fish_is_nth_token 2' -f -a 'check\t"What will spoil measurements here" tune\t"Apply the undoable recommendations (root)" reset\t"Restore what tune changed (root)"'
complete -c cbench -n '__cbench_is_system; and __fish_seen_subcommand_from check' -f -l json -d 'Print the check as JSON'
complete -c cbench -n '__cbench_is_system; and __fish_seen_subcommand_from check' -x -l runs -d 'Noise-loop runs (0: none)'
complete -c cbench -n "$run; and __fish_is_first_arg" -a history -d 'The results history'
complete -c cbench -n "$run; and __fish_is_first_arg" -a report -d 'An HTML report of saved results'
# report [OPTIONS] IN.json... -o OUT.html
set -l rep '__cbench_is_report'
complete -c cbench -n "$rep; and not string match -q -- '-*' (commandline -ct)" -k -a '(__fish_complete_suffix .json)'
complete -c cbench -n $rep -s o -l output -r -k -a '(__fish_complete_suffix .html)' -d 'Write the page to FILE'
complete -c cbench -n $rep -l compare -d 'Compare two files: BASE.json NEW.json'
complete -c cbench -n $rep -l title -x -d 'The page title'
complete -c cbench -n $rep -l fail-if-slower -x -d 'The threshold drawn on a compare report'
complete -c cbench -n $rep -l confidence -x -d 'Confidence level'
complete -c cbench -n $rep -l match-by -x -a 'command name' -d 'Match benchmarks by'
complete -c cbench -n $rep -s h -l help -d 'Print the report help'
# compare BASE.json NEW.json
complete -c cbench -n '__cbench_is_compare; and __cbench_positional' -a '(__cbench_json_files)'

# Options of `cbench` only.
complete -c cbench -n $run -s w -l warmup -x -d 'Run each benchmark NUM times before measuring'
complete -c cbench -n $run -s r -l runs -x -d 'Measure exactly NUM runs'
complete -c cbench -n $run -s m -l min-runs -x -d 'Measure at least NUM runs (default: 10)'
complete -c cbench -n $run -s M -l max-runs -x -d 'Measure at most NUM runs'
complete -c cbench -n $run -l min-time -x -d 'Without -r, run until the runs have cost SECONDS'
complete -c cbench -n $run -l max-time -x -d 'Stop a benchmark once its runs have cost SECONDS'
complete -c cbench -n $run -s P -l parameter-scan -x -d 'Benchmark for each value NAME from MIN to MAX'
complete -c cbench -n $run -s D -l parameter-step-size -x -d 'Step of the preceding -P'
complete -c cbench -n $run -s L -l parameter-list -x -d 'Benchmark for each of the comma-separated VALUES'
complete -c cbench -n $run -s s -l setup -x -a '(__fish_complete_command)' -d 'Run CMD once before each benchmark'
complete -c cbench -n $run -s p -l prepare -x -a '(__fish_complete_command)' -d 'Run CMD before every run'
complete -c cbench -n $run -s C -l conclude -x -a '(__fish_complete_command)' -d 'Run CMD after every run'
complete -c cbench -n $run -s c -l cleanup -x -a '(__fish_complete_command)' -d 'Run CMD once after each benchmark'
complete -c cbench -n $run -s S -l shell -x -a 'none\t"Run commands directly" (__fish_complete_command)' -d 'Run every command with SHELL -c'
complete -c cbench -n $run -s N -l no-shell -d 'Run commands directly, without a shell'
complete -c cbench -n $run -s i -l ignore-failure -d 'Keep going when a command fails (=CODES: only those)'
complete -c cbench -n $run -l timeout -x -d 'Kill a run after SECONDS'
complete -c cbench -n $run -s n -l command-name -x -d 'Display name of the next command'
complete -c cbench -n $run -l reference -x -a '(__fish_complete_command)' -d 'Benchmark CMD first and compare the others with it'
complete -c cbench -n $run -l order -x -a 'sequential interleaved shuffled' -d 'Run order across benchmarks'
complete -c cbench -n $run -l sort -x -a 'auto command mean-time' -d 'Order of the summary and tables'
complete -c cbench -n $run -l input -r -F -d "Feed FILE to the command's stdin"
complete -c cbench -n $run -l output -r -F -a 'null\t"Discard (default)" pipe\t"Read and discard" inherit\t"Show the output"' -d 'Command output: null, pipe, inherit or a FILE'
complete -c cbench -n $run -l show-output -d 'Same as --output=inherit'
complete -c cbench -n $run -l keep-background -d 'Leave what a run starts in the background running'
complete -c cbench -n $run -l counters -x -a '(__cbench_counters)' -d 'Counters to measure (comma list, or none)'
complete -c cbench -n $run -l precision -x -d "Run until the mean's CI is within PCT % of it"
complete -c cbench -n $run -l export-json -r -F -d 'Write all results as JSON (- for stdout)'
complete -c cbench -n $run -l export-asciidoc -r -F -d 'Write an AsciiDoc table (- for stdout)'
complete -c cbench -n $run -l export-orgmode -r -F -d 'Write an Org-mode table (- for stdout)'
complete -c cbench -n $run -l export-csv -r -F -d 'Write summary statistics as CSV'
complete -c cbench -n $run -l export-csv-runs -r -F -d 'Write every run as CSV'
complete -c cbench -n $run -l export-html -r -F -d 'Write a self-contained HTML report with plots'
complete -c cbench -n $run -l baseline -x -a '(__cbench_json_files)' -d 'Compare with the saved results in FILE and gate'
complete -c cbench -n $run -l save-baseline -r -F -d 'Save results as a baseline (JSON)'
complete -c cbench -n $run -l pin -x -d 'Run the command (and hooks) on these CPUs, e.g. 2-3,6'
complete -c cbench -n $run -l pin-hooks -x -a 'none\t"Where cbench may run"' -d 'Run the hooks on these CPUs, or none'
complete -c cbench -n $run -l pin-self -x -d 'Run cbench itself on these CPUs'
complete -c cbench -n $run -l aslr -x -a 'on off' -d 'Address-space randomisation of the command'
complete -c cbench -n $run -l randomize-layout -d 'Pad the environment by a random size per run'
complete -c cbench -n $run -l profile -x -a '(__fish_complete_directories)' -d 'Profile each benchmark under callgrind into DIR'
complete -c cbench -n $run -l reference-name -x -d 'Display name of the --reference command'
complete -c cbench -n $run -l min-benchmarking-time -x -d 'Same as --min-time'
complete -c cbench -n $run -l history -r -F -d 'Record this invocation in the results history TARGET'
complete -c cbench -n $run -l history-label -x -d 'Record KEY=VALUE with the invocation'
complete -c cbench -n $run -l baseline-history -d 'Gate against the recent history of each benchmark'
complete -c cbench -n $run -l history-window -x -d 'With --baseline-history, the newest NUM invocations'
complete -c cbench -n $run -l history-branch -x -d 'With --baseline-history, only invocations of BRANCH'

# `cbench history SUBCOMMAND [OPTIONS]` (cli_history.c).
set -l hist '__cbench_is_history'
complete -c cbench -n "$hist; and test (count (commandline -opc)) -eq 2" -a 'list show trend detect export import prune report'
complete -c cbench -n "$hist; and contains -- import (commandline -opc)" -k -a '(__fish_complete_suffix .json)'
complete -c cbench -n $hist -l history -r -F -d 'The history'
complete -c cbench -n $hist -l benchmark -x -d 'Only invocations with this benchmark'
complete -c cbench -n $hist -l branch -x -d 'Only invocations recorded on BRANCH'
complete -c cbench -n $hist -l machine -x -d 'Only this machine (fingerprint or hostname)'
complete -c cbench -n $hist -l commit -x -d 'Only this commit'
complete -c cbench -n $hist -l limit -x -d 'Only the newest NUM'
complete -c cbench -n $hist -l metric -x -a 'wall_time user_time system_time peak_rss minor_faults major_faults task_clock page_faults instructions cycles cache_misses branch_misses' -d 'The metric'
complete -c cbench -n $hist -l all-machines -d "Mix every machine's points"
complete -c cbench -n $hist -l alpha -x -d 'Significance level of each change'
complete -c cbench -n $hist -l test -x -a 't permutation otava' -d 'The significance test'
complete -c cbench -n $hist -l window -x -d 'With --test otava, the points a window holds'
complete -c cbench -n $hist -l min-magnitude -x -d 'With --test otava, the smallest relative change kept'
complete -c cbench -n $hist -l format -x -a 'json csv' -d 'Export format'
complete -c cbench -n $hist -l output -r -F -d 'Write the export (or the report page) to FILE'
complete -c cbench -n $hist -l history-label -x -d 'Label the imported invocations'
complete -c cbench -n $hist -l older-than -x -d 'Prune invocations older than AGE'
complete -c cbench -n $hist -l keep -x -d 'Prune all but the newest NUM'
complete -c cbench -n $run -l export-bmf -r -F -d 'Write Bencher Metric Format JSON'
complete -c cbench -n $run -l export-github-benchmark -r -F -d 'Write github-action-benchmark JSON'
complete -c cbench -n $run -l export-github-benchmark-bigger -r -F -d 'Write github-action-benchmark JSON of the higher-is-better metrics'
complete -c cbench -n $run -l export-metrics -x -a 'wall_time user_time system_time peak_rss minor_faults major_faults voluntary_context_switches involuntary_context_switches task_clock page_faults instructions cycles cache_references cache_misses branches branch_misses sim_instructions sim_cycles sim_i1_misses sim_d1_read_misses sim_d1_write_misses sim_ll_instr_misses sim_ll_read_misses sim_ll_write_misses' -d 'The metrics the CI exports carry'
complete -c cbench -n $run -l metric -x -d 'Measure NAME=REGEX, a number read from the output'

# Options of both `cbench` and `cbench compare` (report has its own).
complete -c cbench -n "not __cbench_is_report" -l seed -x -d 'Seed for --order=shuffled and bootstrap resampling'
complete -c cbench -n "not __cbench_is_report" -l style -x -a 'auto basic full nocolor color none' -d 'Terminal output style'
complete -c cbench -n "not __cbench_is_report" -s u -l time-unit -x -a 'microsecond millisecond second' -d 'Unit for times'
complete -c cbench -n "not __cbench_is_report" -l confidence -x -d 'Confidence level of intervals and tests (default: 95)'
complete -c cbench -n "not __cbench_is_report" -l export-markdown -r -F -d 'Write a Markdown table (- for stdout)'
complete -c cbench -n "not __cbench_is_report" -l fail-if-slower -x -d 'Regression threshold for gates (default: 5)'
complete -c cbench -n "not __cbench_is_report" -l gate-metric -x -a 'wall_time cpu_time user_time system_time peak_rss task_clock page_faults instructions cycles cache_misses branch_misses sim_instructions sim_cycles sim_i1_misses sim_d1_read_misses sim_d1_write_misses sim_ll_instr_misses sim_ll_read_misses sim_ll_write_misses' -d 'Metric the gate decides on'
complete -c cbench -n "not __cbench_is_report" -l export-junit -r -F -d "Write the gate's verdicts as JUnit XML"
complete -c cbench -n "not __cbench_is_report" -l fail-if-slower-for -x -d 'Threshold for one benchmark: NAME SPEC'
complete -c cbench -n "not __cbench_is_report" -l require-all -d 'Fail when a benchmark is missing from either side'
complete -c cbench -n "not __cbench_is_report" -l require-resolution -d 'Fail when the gate could not resolve its threshold'
complete -c cbench -n "not __cbench_is_report" -l match-by -x -a 'command name' -d 'Match benchmarks by command line or by display name'
complete -c cbench -n "not __cbench_is_report" -s h -l help -d 'Print the help and exit'
complete -c cbench -n "not __cbench_is_report" -s V -l version -d 'Print the version and exit'
complete -c cbench -n "not __cbench_is_report" -l quiet -d 'No notes on stderr'
complete -c cbench -n "not __cbench_is_report" -s v -l verbose -d 'Every statistic and each warning in full'
