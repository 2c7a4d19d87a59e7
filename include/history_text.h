/*
 * history_text.h: `cbench history SUBCOMMAND ...` on the terminal: parses
 * its command line (cli_history.h), opens the history and prints the
 * listing, invocation, trend, change points, export, import or pruning
 * asked for.  Returns cbench's exit code.
 */
#ifndef CBENCH_HISTORY_TEXT_H
#define CBENCH_HISTORY_TEXT_H

int history_text_main(int argc, char **argv);

#endif
