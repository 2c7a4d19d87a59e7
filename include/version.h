/*
 * version.h: cbench's version, as --version, the exports and the history
 * record it.
 */
#ifndef CBENCH_VERSION_H
#define CBENCH_VERSION_H

#define CBENCH_VERSION "0.1.0"

#endif
