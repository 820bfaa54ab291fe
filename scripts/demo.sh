#!/usr/bin/env bash
# The main job on the embedded default: build, collect each real-agent
# fixture root shipped in fixtures/roots/ (each taken as "/" of its own host)
# into a folder of bundles, verify them, and write one merged timeline and
# the case report.
# Prints where everything went.
#   scripts/demo.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/demo}"
scripts/build.sh >/dev/null
rm -rf "$out" && mkdir -p "$out/bundles"
for root in fixtures/roots/real-agents*/; do
  root=${root%/}
  bundle="$out/bundles/$(basename "$root").tar.zst"
  bin/doubleagent-collector --root "$root" -o "$bundle" --log-level warn
done
bin/doubleagent verify "$out"/bundles/*.tar.zst
bin/doubleagent report "$out/bundles" -o "$out/timeline" --format jsonl,parquet,bodyfile
echo
echo "bundles:   $out/bundles/ (each with its .sha256)"
echo "timeline:  $out/timeline/timeline.jsonl"
echo "sessions:  $out/timeline/sessions.jsonl"
echo "inventory: $out/timeline/inventory.json   problems: $out/timeline/problems.jsonl"
echo "report:    $out/timeline/report.html (self-contained; also report.md)"
echo "parquet:   $out/timeline/timeline.parquet   bodyfile: $out/timeline/collection.bodyfile   run record: $out/timeline/run.json"
