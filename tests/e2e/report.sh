# End-to-end tests of the terminal report's fixes: failed and timed-out
# runs, one comparison base, CBENCH_ITERATION in hooks, the progress bar
# with NO_COLOR and inherited output, shell-noise and stop notes, clamped
# intervals, single runs and number formatting.  Nothing asserts a time.
