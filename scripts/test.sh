#!/usr/bin/env bash
# Run every test: gofmt, go vet and go test in each module of the
# workspace, brief fuzzing of the bundle reader and parser entry points,
# and the unprivileged collector test when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; fail=1; fi
# The case report's browser test renders the report in Debian's headless
# Chromium; install it when we can (root with apt), and make the test fail
# rather than skip when it is still missing.
if ! command -v chromium >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing chromium for the report's browser test"
  (DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 || echo "chromium install failed"
fi
if command -v chromium >/dev/null || [ "$(id -u)" = 0 ]; then export DOUBLEAGENT_BROWSER_TEST=1; fi
mods="catalog bundle collector analyzer fixtures"
for m in $mods; do
  (cd "$m" && go vet ./...) || fail=1
done
for m in $mods; do
  echo "== go test $m"
  (cd "$m" && go test -count=1 ./...) || fail=1
done
# Brief fuzzing: every Fuzz target, a few seconds each.
fuzztime="${FUZZTIME:-5s}"
for m in $mods; do
  while IFS= read -r line; do
    pkg="${line%%:*}"; fn="${line##*:}"
    echo "== fuzz $m/$pkg $fn ($fuzztime)"
    (cd "$m" && go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" "./$pkg") || fail=1
  done < <(cd "$m" && grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do
      d=$(dirname "$f"); d=${d#./}; [ "$d" = "." ] && d=""
      grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //' | sed "s|^|${d}:|"
    done)
done
if [ "$(id -u)" = 0 ] && [ -x scripts/test-unprivileged.sh ]; then
  scripts/test-unprivileged.sh || fail=1
fi
if [ "$fail" != 0 ]; then echo "FAILED"; exit 1; fi
echo "all tests passed"
