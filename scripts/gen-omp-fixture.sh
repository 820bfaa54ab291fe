#!/usr/bin/env bash
# gen-omp-fixture.sh: regenerate analyzer/parsers/pi/testdata/omp-real from a
# REAL OhMyPi (omp) release talking to the scripted fake model server
# fixtures/cmd/mockmodel on 127.0.0.1. Not run by CI. Needs node + npm, go
# and git; nothing is written outside $WORK and the output folder.
#
#   scripts/gen-omp-fixture.sh
#
# - omp needs Bun (>= 1.3.14): npm @oven/bun-linux-x64 serves the binary.
# - @oh-my-pi/pi-coding-agent 18.3.4 does not install here (its dependency
#   @oh-my-pi/omp-stats@18.3.4 is not served); 18.2.3 is the newest version
#   whose dependencies all are. Its native addon is the optional
#   @oh-my-pi/pi-natives-linux-x64.
# - ~/.omp/agent/models.yml names the mock as an openai-completions provider.
# - Three print-mode runs in $HOME/demo: a bash call (--auto-approve), a
#   write (--auto-approve), and a bash call with only read and grep offered
#   (--tools read,grep: the mock calls bash anyway, "Tool bash not found").
#
# The committed files came from these steps run by hand on 2026-12-03 with
# HOME=/tmp/breadth-omp/fx/home/examiner (the cwd their session headers name).
# Output (replaced wholesale): analyzer/parsers/pi/testdata/omp-real/.omp/agent/sessions/
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/analyzer/parsers/pi/testdata/omp-real}
WORK=${WORK:-$(mktemp -d /var/tmp/gen-omp-fixture.XXXXXX)}
OMP_VERSION=${OMP_VERSION:-18.2.3}
BUN_VERSION=${BUN_VERSION:-1.4.5}
mkdir -p "$WORK"
log() { printf '%s gen-omp-fixture: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

log "installing omp $OMP_VERSION and bun $BUN_VERSION into $WORK/prefix"
npm install --no-audit --no-fund --ignore-scripts --omit=optional --prefix "$WORK/prefix" \
  "@oven/bun-linux-x64@$BUN_VERSION" "@oh-my-pi/pi-coding-agent@$OMP_VERSION" >"$WORK/npm.log" 2>&1
npm install --no-audit --no-fund --ignore-scripts --no-save --prefix "$WORK/prefix" \
  "@oh-my-pi/pi-natives-linux-x64@$OMP_VERSION" >>"$WORK/npm.log" 2>&1
BUN=$WORK/prefix/node_modules/@oven/bun-linux-x64/bin/bun
CLI=$WORK/prefix/node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js

start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

H=$WORK/home/examiner
mkdir -p "$H/.omp/agent" "$H/demo"
cat >"$H/.omp/agent/models.yml" <<YML
providers:
  mock:
    baseUrl: http://$ADDR/v1
    api: openai-completions
    apiKey: MOCK_API_KEY
    models:
      - id: mock-coder
        name: Mock Coder
        reasoning: false
        input: [text]
        contextWindow: 128000
        maxTokens: 8192
        cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}
YML
cd "$H/demo"
git init -q -b main .
git -c user.name=examiner -c user.email=examiner@fixture.invalid commit -q --allow-empty -m init
omp() {
  timeout 120 env -i HOME="$H" USER=examiner LANG=C.UTF-8 TERM=xterm PATH=/usr/local/bin:/usr/bin:/bin \
    NO_COLOR=1 MOCK_API_KEY=dummy PI_OFFLINE=1 \
    "$BUN" "$CLI" -p --mode json --model mock/mock-coder --no-lsp --no-title "$@"
}
omp --auto-approve "$(PROMPT_CMD 'echo doubleagent-omp-marker')" >"$WORK/basic.out"
omp --auto-approve "$(PROMPT_WRITE omp-notes.txt doubleagent-omp-edit)" >"$WORK/edit.out"
omp --tools read,grep "$(PROMPT_CMD 'echo doubleagent-omp-denied > denied.txt')" >"$WORK/denied.out"

rm -rf "$OUT/.omp"
mkdir -p "$OUT/.omp/agent"
cp -r "$H/.omp/agent/sessions" "$OUT/.omp/agent/"
log "wrote $(find "$OUT/.omp" -name '*.jsonl' | wc -l) sessions under $OUT (run: $WORK)"
