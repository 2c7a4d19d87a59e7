#!/usr/bin/env python3
"""tests/tools/architecture.py: checks of the source tree's shape, run by
tests/e2e/architecture.sh.

  architecture.py prints SRC     calls that print or exit, outside the files
                                 allowed to (one line each)
  architecture.py long SRC MAX   functions longer than MAX lines
  architecture.py cycles SRC INC module include cycles (a.h -> b.h -> a.h,
                                 or a.c including b.h whose b.c includes a.h)
  architecture.py functions SRC  every function definition with its length

Comments and string literals are blanked before anything is looked at, so a
word in a message or a comment never counts.
"""
import os
import re
import sys

# Only these talk to the user: the command line's wiring, the terminal
# report, the gate's terminal table and the diagnostics module.
# system_text.c: the output of `cbench system check|tune|reset`.
PRINT_OK = {"main.c", "diag.c", "report.c", "export_text.c", "export_compare.c",
            "system_text.c"}
# Printing to the terminal: to stdout/stderr by name, or stdio calls that
# imply them.  Writing to a FILE the caller passed in is an exporter's job.
PRINT_RE = re.compile(
    r"\b(printf|puts|putchar|perror|vprintf)\s*\(|"
    r"\b(fprintf|fputs|fputc|vfprintf|fwrite|fflush)\s*\([^;]*\b(stdout|stderr)\b|"
    r"\b(exit|abort)\s*\(")
# A child process between fork and exec ends with _exit(): that is the
# child's exit, not cbench's (tmux job.c does the same).  Allowed in the
# engine's files and in any file that forks (sysinfo.c runs git).
CHILD_EXIT_RE = re.compile(r"\b_exit\s*\(")


def strip(text):
    """Blank comments and string/char literals, keeping line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(src):
    """The .c files below src, as paths relative to it (src/run/spawn.c is
    run/spawn.c)."""
    out = []
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".c"):
                out.append(os.path.relpath(os.path.join(root, f), src))
    return sorted(out)


def prints(src):
    bad = []
    for f in sources(src):
        if os.path.basename(f) in PRINT_OK:
            continue
        text = strip(open(os.path.join(src, f)).read())
        forks = os.path.basename(f).startswith("spawn") or re.search(r"\bfork\s*\(", text)
        for no, line in enumerate(text.split("\n"), 1):
            if PRINT_RE.search(line):
                bad.append("%s:%d: %s" % (f, no, line.strip()))
            elif CHILD_EXIT_RE.search(line) and not forks:
                bad.append("%s:%d: %s" % (f, no, line.strip()))
    return bad


DEF_RE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*$")


def functions(path):
    """(name, first line, length in lines) of each function definition:
    from the line at brace depth 0 that names it to its closing brace."""
    lines = strip(open(path).read()).split("\n")
    found, depth, pending, current = [], 0, None, None
    for no, line in enumerate(lines, 1):
        if depth == 0:
            m = DEF_RE.match(line)
            if m:
                pending = (m.group(1), no)
            elif line.strip().endswith(";") and "{" not in line:
                pending = None
        for ch in line:
            if ch == "{":
                if depth == 0:
                    current, pending = pending, None
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and current:
                    found.append((current[0], current[1], no - current[1] + 1))
                    current = None
    return found


def long_functions(src, most):
    out = []
    for f in sources(src):
        for name, start, length in functions(os.path.join(src, f)):
            if length > most:
                out.append("%s:%d: %s is %d lines" % (f, start, name, length))
    return out


INC_RE = re.compile(r'^\s*#\s*include\s+"([\w/]+)\.h"', re.M)


def cycles(src, inc):
    """Module graph: module m depends on n when m.h or m.c includes n.h.
    Returns each cycle found (as 'a -> b -> a')."""
    deps = {}
    files = [(os.path.join(src, f), f[:-2]) for f in sources(src)]
    files += [(os.path.join(inc, f), f[:-2]) for f in os.listdir(inc) if f.endswith(".h")]
    for path, name in files:
        m = os.path.basename(name)
        deps.setdefault(m, set()).update(
            x for x in INC_RE.findall(open(path).read()) if x != m)
    found, state, stack = [], {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(deps.get(m, ())):
            if state.get(n) == 1:
                found.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(deps):
        if m not in state:
            visit(m)
    return found


def main(argv):
    if len(argv) >= 3 and argv[1] == "prints":
        out = prints(argv[2])
    elif len(argv) >= 4 and argv[1] == "long":
        out = long_functions(argv[2], int(argv[3]))
    elif len(argv) >= 4 and argv[1] == "cycles":
        out = cycles(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "functions":
        out = ["%s:%d: %s %d" % (f, s, n, l) for f in sources(argv[2])
               for n, s, l in functions(os.path.join(argv[2], f))]
    else:
        sys.stderr.write(__doc__)
        return 2
    for line in out:
        print(line)
    return 1 if out and argv[1] != "functions" else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
