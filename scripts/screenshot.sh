#!/usr/bin/env bash
# Retake the README picture (analyzer/docs/report.png): the case report of
# the demo roots (collected with a fixed clock by the fixtures test
# TestReportPictureIsCurrent), its top (contents, case overview, session
# index, findings) rendered by Debian's headless Chromium at 1400x1800,
# and record the SHA-256 of the HTML it shows in
# analyzer/docs/report.png.source-sha256, which that test compares in
# every run so the picture cannot go stale.
#   scripts/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$bin" ]; then echo "screenshot.sh: needs chromium (apt-get install chromium)" >&2; exit 2; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== writing the demo report (go test ./fixtures -run TestReportPictureIsCurrent)"
(cd fixtures && DOUBLEAGENT_REPORT_PICTURE="$tmp/out" go test -count=1 -run '^TestReportPictureIsCurrent$' .)
echo "== rendering $tmp/out/report.html with $bin"
"$bin" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --window-size=1400,1800 \
  --screenshot="$tmp/report.png" "file://$tmp/out/report.html" >/dev/null 2>&1
cp "$tmp/report.png" analyzer/docs/report.png
echo "analyzer/docs/report.png and analyzer/docs/report.png.source-sha256 updated"
