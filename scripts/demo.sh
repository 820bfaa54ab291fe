#!/usr/bin/env bash
# The main job on the embedded default: build, collect each real-agent
# fixture root shipped in fixtures/roots/ (each taken as "/" of its own host)
# into a folder of bundles, verify them, and write one merged timeline and
# the case report.
# Prints what it is doing as it goes, and where everything went.
#   scripts/demo.sh [OUTDIR]
# OUTDIR (default out/demo) must be missing, empty, or hold only an earlier
# demo's output (its .doubleagent-demo marker, bundles/ and timeline/);
# anything else is refused, and nothing outside OUTDIR is written.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/demo}"
marker=".doubleagent-demo"
if [ -e "$out" ] && [ ! -d "$out" ]; then
  echo "demo.sh: $out is not a folder; refusing to write there" >&2; exit 2
fi
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then
  if [ ! -f "$out/$marker" ]; then
    echo "demo.sh: $out holds files this script did not write; refusing (give a new or empty folder)" >&2; exit 2
  fi
  for e in "$out"/* "$out"/.[!.]* "$out"/..?*; do
    [ -e "$e" ] || [ -L "$e" ] || continue
    case "$(basename "$e")" in
      "$marker"|bundles|timeline) ;;
      *) echo "demo.sh: $out holds $(basename "$e"), which an earlier demo did not write; refusing" >&2; exit 2 ;;
    esac
  done
  echo "== $out holds an earlier demo's output: replacing its bundles/ and timeline/"
  rm -rf "$out/bundles" "$out/timeline"
fi
mkdir -p "$out/bundles"
echo "DoubleAgent demo output; scripts/demo.sh replaces bundles/ and timeline/ here." >"$out/$marker"
echo "== building bin/doubleagent-collector and bin/doubleagent (scripts/build.sh; the first build downloads Go modules and takes a few minutes)"
scripts/build.sh >/dev/null
for root in fixtures/roots/real-agents*/; do
  root=${root%/}
  bundle="$out/bundles/$(basename "$root").tar.zst"
  echo "== collecting $root (as the / of its own host) into $bundle"
  bin/doubleagent-collector --root "$root" -o "$bundle" --log-level warn
done
echo "== verifying the bundles"
bin/doubleagent verify "$out"/bundles/*.tar.zst
echo "== writing the timeline and the case report"
bin/doubleagent report "$out/bundles" -o "$out/timeline" --format jsonl,parquet,bodyfile
echo
echo "bundles:   $out/bundles/ (each with its .sha256)"
echo "timeline:  $out/timeline/timeline.jsonl"
echo "sessions:  $out/timeline/sessions.jsonl"
echo "inventory: $out/timeline/inventory.json   problems: $out/timeline/problems.jsonl"
echo "report:    $out/timeline/report.html (self-contained; also report.md)"
echo "surface:   $out/timeline/surface.jsonl and surface.md (hooks, MCP servers, skills, rules each agent would load)"
echo "parquet:   $out/timeline/timeline.parquet   bodyfile: $out/timeline/collection.bodyfile   run record: $out/timeline/run.json"
