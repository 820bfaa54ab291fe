#!/usr/bin/env bash
# Compare two doubleagent binaries' outputs on the same inputs, byte for byte:
# timeline.jsonl, sessions.jsonl, problems.jsonl, findings.jsonl, inventory.json,
# run.json without started_utc, ended_utc and command_line, and the exit code.
#   scripts/compare-outputs.sh OLD_BIN NEW_BIN INPUT...     # a bundle, a root, a folder
#   scripts/compare-outputs.sh OLD_BIN NEW_BIN              # every fixtures/roots/* root
# Prints "same INPUT (N rows)" or "DIFF INPUT: what differs"; exit 1 when any differs.
# A speed change must leave every output as it was (issue 24).
set -u
[ $# -ge 2 ] || { sed -n 2,7p "$0" >&2; exit 2; }
old=$1 new=$2; shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then set -- "$repo"/fixtures/roots/*/; fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
norm() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in ("started_utc","ended_utc","command_line"): d.pop(k,None)
print(json.dumps(d,indent=1,sort_keys=True))' "$1" 2>/dev/null; }
fail=0
for in in "$@"; do
  rm -rf "$work/a" "$work/b"
  "$old" timeline "$in" -o "$work/a" >/dev/null 2>&1; ra=$?
  "$new" timeline "$in" -o "$work/b" >/dev/null 2>&1; rb=$?
  bad=""
  [ "$ra" = "$rb" ] || bad="$bad exit($ra/$rb)"
  for f in timeline.jsonl sessions.jsonl problems.jsonl findings.jsonl inventory.json; do
    cmp -s "$work/a/$f" "$work/b/$f" || bad="$bad $f"
  done
  [ "$(norm "$work/a/run.json")" = "$(norm "$work/b/run.json")" ] || bad="$bad run.json"
  if [ -n "$bad" ]; then echo "DIFF $in:$bad"; fail=1; else echo "same $in ($(wc -l < "$work/b/timeline.jsonl" 2>/dev/null || echo 0) rows)"; fi
done
exit $fail
