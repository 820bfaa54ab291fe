#!/usr/bin/env bash
# The main job on the embedded default: build, collect the real-agent
# fixture root shipped in fixtures/roots/real-agents (taken as "/"), verify
# the bundle, and write its timeline. Prints where everything went.
#   scripts/demo.sh [ROOT] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root="${1:-fixtures/roots/real-agents}"
out="${2:-out/demo}"
scripts/build.sh >/dev/null
rm -rf "$out" && mkdir -p "$out"
bundle="$out/$(basename "$root").tar.zst"
bin/doubleagent-collector --root "$root" -o "$bundle" --log-level warn
bin/doubleagent verify "$bundle"
bin/doubleagent timeline "$bundle" -o "$out/timeline"
echo
echo "bundle:   $bundle (sha256 in $bundle.sha256)"
echo "timeline: $out/timeline/timeline.jsonl"
echo "sessions: $out/timeline/sessions.jsonl"
echo "inventory: $out/timeline/inventory.json   problems: $out/timeline/problems.jsonl"
