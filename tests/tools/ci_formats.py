#!/usr/bin/python3
"""Check cbench's continuous-benchmarking exports against their formats'
published descriptions (no network, no third-party package):

  bmf FILE      Bencher Metric Format, as the JSON schema Bencher publishes
                at https://bencher.dev/bmf.json (draft-07) says: an object
                whose every property is an object whose every property is
                an object with a required number "value" and optional
                numbers "lower_value" and "upper_value".  Bencher also
                limits benchmark names to 1024 characters and measure names
                to 64 (bencher.dev/docs/reference/bencher-metric-format).
                Beyond the schema: lower_value <= value <= upper_value.
  github FILE   github-action-benchmark's customSmallerIsBetter input, as
                its README ("Examples", custom benchmarks) documents it: a
                JSON array of objects with string "name", string "unit",
                number "value", optional string "range" and string "extra".
                Beyond that: names unique (the action keys charts on them).

Prints nothing and exits 0 when the file conforms; else one line per
problem on stderr and exit 1.
"""
import json
import math
import sys

NUMBER = (int, float)


def is_number(v):
    return isinstance(v, NUMBER) and not isinstance(v, bool) and math.isfinite(v)


def check_bmf(doc):
    errs = []
    if not isinstance(doc, dict):
        return ["top level is not an object"]
    for bench, measures in doc.items():
        if not bench or len(bench) > 1024:
            errs.append(f"benchmark name length {len(bench)}: {bench!r}")
        if not isinstance(measures, dict):
            errs.append(f"{bench!r}: not an object")
            continue
        for measure, metric in measures.items():
            where = f"{bench!r}/{measure!r}"
            if not measure or len(measure) > 64:
                errs.append(f"{where}: measure name length {len(measure)}")
            if not isinstance(metric, dict):
                errs.append(f"{where}: not an object")
                continue
            if "value" not in metric:
                errs.append(f"{where}: no value")
            for key, v in metric.items():
                if key not in ("value", "lower_value", "upper_value"):
                    errs.append(f"{where}: unknown key {key!r}")
                elif not is_number(v):
                    errs.append(f"{where}: {key} is not a number: {v!r}")
            if all(is_number(metric.get(k)) for k in ("lower_value", "value", "upper_value")):
                if not metric["lower_value"] <= metric["value"] <= metric["upper_value"]:
                    errs.append(f"{where}: value outside its bounds")
    return errs


def check_github(doc):
    errs = []
    if not isinstance(doc, list):
        return ["top level is not an array"]
    seen = set()
    for i, e in enumerate(doc):
        if not isinstance(e, dict):
            errs.append(f"item {i}: not an object")
            continue
        for key in ("name", "unit"):
            if not isinstance(e.get(key), str):
                errs.append(f"item {i}: {key} is not a string")
        if not is_number(e.get("value")):
            errs.append(f"item {i}: value is not a number")
        for key in ("range", "extra"):
            if key in e and not isinstance(e[key], str):
                errs.append(f"item {i}: {key} is not a string")
        for key in e:
            if key not in ("name", "unit", "value", "range", "extra"):
                errs.append(f"item {i}: unknown key {key!r}")
        if e.get("name") in seen:
            errs.append(f"item {i}: name {e.get('name')!r} repeated")
        seen.add(e.get("name"))
    return errs


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("bmf", "github"):
        print("usage: ci_formats.py bmf|github FILE", file=sys.stderr)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = json.load(f)
    errs = (check_bmf if sys.argv[1] == "bmf" else check_github)(doc)
    for e in errs:
        print(f"{sys.argv[2]}: {e}", file=sys.stderr)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
