#!/usr/bin/env bash
# Run every test: gofmt; in each module of the workspace go mod tidy -diff,
# a build and go vet outside the workspace, staticcheck (pinned) and go
# test; go test -race over the engine, timeline, bundle and collector; one
# version of each dependency across modules; brief fuzzing of the bundle
# reader and parser entry points, and the unprivileged collector test when
# run as root.
# It installs, saying so first: as root with apt-get, Debian's chromium,
# libarchive-tools, zstd and sleuthkit when missing (below); staticcheck
# into ${XDG_CACHE_HOME:-~/.cache}/doubleagent/. Go's own caches
# (GOCACHE, GOMODCACHE) are used as go test uses them.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; fail=1; fi
# Tools some tests run, from Debian when run as root with apt-get (and
# said before anything is installed; as another user nothing is installed
# and those tests skip, or fail when the DOUBLEAGENT_*_TEST variable below
# says the tool must be there):
#   chromium          the case report's headless-browser test
#   libarchive-tools  bsdtar, and zstd: the bundle's tar test (GNU tar --zstd needs zstd)
#   sleuthkit         mactime: the bodyfile test reads the bodyfile back
want_pkgs=""
command -v chromium >/dev/null || want_pkgs="$want_pkgs chromium"
command -v bsdtar >/dev/null || want_pkgs="$want_pkgs libarchive-tools"
command -v zstd >/dev/null || want_pkgs="$want_pkgs zstd"
command -v mactime >/dev/null || want_pkgs="$want_pkgs sleuthkit"
if [ -n "$want_pkgs" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing Debian packages for the browser, tar and bodyfile tests:$want_pkgs (apt-get update, apt-get install)"
  (DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $want_pkgs) >/dev/null 2>&1 || echo "install of$want_pkgs failed"
elif [ -n "$want_pkgs" ]; then
  echo "== not installing$want_pkgs (not root with apt-get): the tests that need them skip"
fi
if command -v chromium >/dev/null || [ "$(id -u)" = 0 ]; then export DOUBLEAGENT_BROWSER_TEST=1; fi
if { command -v bsdtar && command -v zstd; } >/dev/null || [ "$(id -u)" = 0 ]; then export DOUBLEAGENT_TAR_TEST=1; fi
if command -v mactime >/dev/null || [ "$(id -u)" = 0 ]; then export DOUBLEAGENT_MACTIME_TEST=1; fi
# The generators and other scripts are not run here (they need npm and
# real agents), but they must at least parse.
for f in scripts/*.sh scripts/lib/*.sh scripts/k8s/*.sh scripts/bench; do
  bash -n "$f" || { echo "$f does not parse"; fail=1; }
done
# Their shared functions, run dry on stand-in commands.
bash scripts/lib/fixturegen-check.sh || fail=1
mods="catalog bundle collector analyzer fixtures"
# Each module stands alone: tidy, and builds and vets outside the
# workspace (a user may `go install` one module by itself). Vet also
# runs for windows and darwin (the release builds): a test that uses a
# unix-only API without a build tag fails here, not on a user's machine.
for m in $mods; do
  echo "== tidy, build, vet $m (GOWORK=off; vet also GOOS=windows, darwin)"
  (cd "$m" && go mod tidy -diff) || { echo "$m: go mod tidy would change go.mod/go.sum"; fail=1; }
  (cd "$m" && GOWORK=off go build ./... && GOWORK=off go vet ./...) || fail=1
  for goos in windows darwin; do
    (cd "$m" && GOWORK=off GOOS=$goos go vet ./...) || { echo "$m: go vet fails for GOOS=$goos"; fail=1; }
  done
done
# One version of each dependency across the modules.
skew=$(awk '/^require \(/{r=1;next} r&&/^\)/{r=0;next} r&&NF>=2{print $1, $2} /^require [^(]/{print $2, $3}' */go.mod |
  sort -u | awk '{n[$1]++; v[$1]=v[$1]" "$2} END{for (m in n) if (n[m]>1) print m v[m]}')
if [ -n "$skew" ]; then echo "modules require different versions of:"; echo "$skew"; fail=1; fi
# staticcheck at a pinned version, built once through the Go module proxy.
staticcheck_version=v0.8.2 # honnef.co/go/tools, staticcheck 2026.2.2
toolbin="${XDG_CACHE_HOME:-$HOME/.cache}/doubleagent/staticcheck-$staticcheck_version"
if [ ! -x "$toolbin/staticcheck" ]; then
  echo "== installing staticcheck $staticcheck_version into $toolbin (built through the Go module proxy)"
  GOWORK=off GOBIN="$toolbin" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version" || fail=1
fi
for m in $mods; do
  echo "== staticcheck $m"
  (cd "$m" && "$toolbin/staticcheck" ./...) || fail=1
done
for m in $mods; do
  echo "== go test $m"
  (cd "$m" && go test -count=1 ./...) || fail=1
done
# The race detector over the concurrent code: the engine (analyze and its
# stage packages under engine/: its parse workers, spools, correlation and
# output writers), the timeline, the bundle reader and writer, and the
# collector. It needs cgo (a C compiler). On the idle CI
# machine it adds a few minutes: the race build of these packages and
# their tests, analyze about 100 s and bundle about 140 s of test time.
race_pkgs=("analyzer:./analyze/... ./engine/... ./timeline/..." "bundle:./..." "collector:./...")
for entry in "${race_pkgs[@]}"; do
  m="${entry%%:*}"; pkgs="${entry#*:}"
  echo "== go test -race $m $pkgs"
  # shellcheck disable=SC2086
  (cd "$m" && CGO_ENABLED=1 go test -race -count=1 $pkgs) || fail=1
done
# Brief fuzzing: every Fuzz target, a few seconds each.
fuzztime="${FUZZTIME:-5s}"
for m in $mods; do
  while IFS= read -r line; do
    pkg="${line%%:*}"; fn="${line##*:}"
    echo "== fuzz $m/$pkg $fn ($fuzztime)"
    # Go's fuzzer can end a run with "context deadline exceeded" and no
    # failing input when -fuzztime runs out while it is still handling a
    # new interesting input (seen on a loaded machine): that run is tried
    # once more; a run that wrote a failing input fails at once.
    log=$(mktemp)
    if ! (cd "$m" && go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -fuzzminimizetime 10x "./$pkg") >"$log" 2>&1; then
      cat "$log"
      if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
        echo "== fuzz $m/$pkg $fn: deadline with no failing input; once more"
        (cd "$m" && go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -fuzzminimizetime 10x "./$pkg") || fail=1
      else
        fail=1
      fi
    else
      cat "$log"
    fi
    rm -f "$log"
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
