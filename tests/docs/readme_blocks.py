#!/usr/bin/python3
"""The README's runnable parts, for tests/docs/check_docs.sh (make check-docs).

  readme_blocks.py examples README.md   one JSON object per line:
      {"line": N, "kind": "sh"|"transcript", "skip": REASON|null,
       "error": true when the transcript shows "cbench: error:",
       "commands": [...]}
    - a ```sh block is a script: its commands are its lines, with "\\"
      continuations joined (comments kept: the shell ignores them);
    - any other fenced block whose lines start with "$ " is a terminal
      transcript: its commands are those lines without "$ ", the rest is
      output (not compared: timings differ from machine to machine);
    - a block right after "<!-- check-docs: skip REASON -->" is skipped,
      and the runner prints the reason;
    - a block right after "<!-- check-docs: session -->" is one terminal
      session: the runner runs its commands as one script (so `cd`,
      `export` and commits carry from one line to the next) in an empty
      directory of its own.
  readme_blocks.py recipes README.md    one JSON object per line:
      {"line": N, "name": "github"|"gitlab", "commands": [...]}
    the install steps of the CI recipes: the GitHub Actions step named
    "Install cbench", and GitLab's .cbench before_script.
  readme_blocks.py closure PKG...       the executables (one path a line)
    that the installed packages PKG and everything they depend on provide,
    Essential packages included: what a fresh machine with only those
    packages would have on its PATH.
  readme_blocks.py pcfiles PKG...       likewise the pkg-config files (.pc):
    the libraries a build on such a machine would find.
"""
import json
import os
import re
import subprocess
import sys

import yaml


def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    skip, inside, out = None, False, []
    for i, line in enumerate(lines, 1):
        if not inside:
            m = re.match(r"<!-- check-docs: (skip (.*)|in-clone|session) -->", line)
            if m:
                skip = m.group(2) or m.group(1)
            elif line.startswith("```"):
                inside, start, lang, body = True, i, line[3:].strip(), []
            elif line.strip():
                skip = None
        elif line.startswith("```"):
            inside = False
            out.append((start, lang, body, skip))
            skip = None
        else:
            body.append(line)
    return out


def joined(body):
    cmds, cur = [], ""
    for line in body:
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        cur += line
        if cur.strip():
            cmds.append(cur)
        cur = ""
    return cmds


def examples(path):
    for start, lang, body, skip in blocks(path):
        if lang == "sh":
            kind, cmds = "sh", joined(body)
        elif lang != "yaml" and any(l.startswith("$ ") for l in body):
            kind = "transcript"
            cmds = joined([l[2:] for l in body if l.startswith("$ ")])
        else:
            continue
        error = any(l.startswith("cbench: error:") for l in body)
        print(json.dumps({"line": start, "kind": kind, "skip": skip,
                          "error": error, "commands": cmds}))


def script_lines(run):
    if isinstance(run, list):
        return [str(x) for x in run]
    return joined(run.split("\n"))


def recipes(path):
    for start, lang, body, _ in blocks(path):
        if lang != "yaml":
            continue
        doc = yaml.safe_load("\n".join(body))
        if not isinstance(doc, dict):
            continue
        for job in (doc.get("jobs") or {}).values():
            for step in job.get("steps", []):
                if step.get("name") == "Install cbench":
                    print(json.dumps({"line": start, "name": "github",
                                      "commands": script_lines(step["run"])}))
        if ".cbench" in doc:
            print(json.dumps({"line": start, "name": "gitlab",
                              "commands": script_lines(doc[".cbench"]["before_script"])}))


def closure_packages(pkgs):
    """The installed packages pkgs, their dependencies and Essential."""
    q = subprocess.run(["dpkg-query", "-W", "-f",
                        "${Package}\t${Essential}\t${Status}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                       capture_output=True, text=True, check=True).stdout
    info, provides = {}, {}
    for row in q.splitlines():
        name, essential, status, deps, prov = (row.split("\t") + [""] * 5)[:5]
        if "installed" not in status.split():
            continue
        info[name] = (essential == "yes", deps)
        for p in prov.split(","):
            p = p.split("(")[0].strip()
            if p:
                provides.setdefault(p, []).append(name)
    want = [p for p, (ess, _) in info.items() if ess] + list(pkgs)
    seen = set()
    while want:
        p = want.pop().split(":")[0]
        if p in seen:
            continue
        if p not in info:
            want.extend(provides.get(p, []))
            seen.add(p)
            continue
        seen.add(p)
        for alt in info[p][1].split(","):
            for a in alt.split("|"):
                a = a.split("(")[0].strip().split(":")[0]
                if a and (a in info or a in provides):
                    want.append(a)
                    break
    return seen


def package_files(pkgs):
    """Every file the packages' dpkg lists name."""
    for p in pkgs:
        for lst in (f"/var/lib/dpkg/info/{p}.list",
                    f"/var/lib/dpkg/info/{p}:amd64.list",
                    f"/var/lib/dpkg/info/{p}:arm64.list"):
            if os.path.exists(lst):
                for f in open(lst, encoding="utf-8", errors="replace"):
                    yield f.strip()


def pcfiles(pkgs):
    for f in sorted(set(package_files(closure_packages(pkgs)))):
        if f.endswith(".pc") and "/pkgconfig/" in f and os.path.exists(f):
            print(f)


def closure(pkgs):
    files = set()
    for f in package_files(closure_packages(pkgs)):
        for d in ("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"):
            if f.startswith(d):
                files.add(f.replace("/bin/", "/usr/bin/", 1)
                          if f.startswith("/bin/") else
                          f.replace("/sbin/", "/usr/sbin/", 1)
                          if f.startswith("/sbin/") else f)
    # Names managed by update-alternatives (cc, c++, ...): allowed when
    # their target is.
    for d in ("/usr/bin", "/usr/sbin"):
        for n in os.listdir(d):
            p = os.path.join(d, n)
            if os.path.islink(p) and os.readlink(p).startswith("/etc/alternatives/"):
                if os.path.realpath(p) in files:
                    files.add(p)
    for f in sorted(files):
        print(f)


def main():
    what = sys.argv[1]
    if what == "examples":
        examples(sys.argv[2])
    elif what == "recipes":
        recipes(sys.argv[2])
    elif what == "closure":
        closure(sys.argv[2:])
    elif what == "pcfiles":
        pcfiles(sys.argv[2:])
    else:
        sys.exit("usage: readme_blocks.py examples|recipes README.md | closure PKG...")


if __name__ == "__main__":
    main()
