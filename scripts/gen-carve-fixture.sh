#!/usr/bin/env bash
# gen-carve-fixture.sh: regenerate fixtures/roots/opencode-deleted, a real
# opencode store with one session deleted by opencode's own
# `opencode session delete`, for the SQLite carver's tests
# (analyzer/parser/sqlitecarve, analyzer/parsers/opencode). Two sessions are
# run against the loopback mock model (fixtures/cmd/mockmodel); the first is
# deleted, the WAL checkpointed (sqlite3 is not needed: opencode's own
# shutdown checkpoints, and the script runs `PRAGMA wal_checkpoint` through
# python3), and the store, its -wal and its config are kept. Not run by CI.
# Needs root (it creates the throwaway user home /home/examiner3, so the
# store records the paths the fixture root holds), node+npm, go, git and
# python3. Output replaced wholesale:
#   fixtures/roots/opencode-deleted/home/examiner3/...
#   fixtures/roots/opencode-deleted.expect.json
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=$REPO/fixtures/roots/opencode-deleted
WORK=${WORK:-$(mktemp -d /var/tmp/gen-carve.XXXXXX)}
OPENCODE_VERSION=${OPENCODE_VERSION:-1.18.33}
EH=/home/examiner3
log() { printf '[carve] %s\n' "$*" >&2; }
[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"
if [ ! -x "$WORK/prefix/node_modules/.bin/opencode" ]; then
  npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" "opencode-ai@$OPENCODE_VERSION" >"$WORK/npm.log" 2>&1
fi
BIN=$WORK/prefix/node_modules/.bin
start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT
rm -rf "$EH"; mkdir -p "$EH/demo" "$EH/.config/opencode"; touch "$EH/.doubleagent-fixture-home"
cd "$EH/demo"
init_demo_repo "Fixture Examiner" "examiner3@fixture-host-3.invalid" '# demo
'
cat >"$EH/.config/opencode/opencode.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "DoubleAgent mock",
    "options": {"baseURL": "http://$ADDR/v1", "apiKey": "dummy"},
    "models": {"mock-coder": {"name": "Mock Coder", "tool_call": true}}}},
  "model": "mock/mock-coder", "small_model": "mock/mock-coder",
  "autoupdate": false, "share": "disabled"
}
JSON
ENVV=(env -i HOME="$EH" USER=examiner3 LOGNAME=examiner3 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="$BIN:/usr/local/bin:/usr/bin:/bin" NO_COLOR=1 DISABLE_TELEMETRY=1 DO_NOT_TRACK=1
  OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1
  OPENCODE_DISABLE_LSP_DOWNLOAD=1)
sid() { grep -oE '"sessionID":"[^"]+"' "$1" | head -n1 | cut -d'"' -f4; }
P1='Run the shell command `echo doubleagent-carve-deleted-marker` and tell me what it printed.'
P2='Run the shell command `echo doubleagent-carve-kept-marker` and tell me what it printed.'
T0=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
"${ENVV[@]}" opencode run --format json "$P1" >"$WORK/run1.out" 2>"$WORK/run1.err" </dev/null
S1=$(sid "$WORK/run1.out")
"${ENVV[@]}" opencode run --format json "$P2" >"$WORK/run2.out" 2>"$WORK/run2.err" </dev/null
S2=$(sid "$WORK/run2.out")
log "sessions $S1 (deleted) $S2 (kept)"
"${ENVV[@]}" opencode session delete "$S1" >"$WORK/delete.out" 2>&1 </dev/null
T1=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
DB=$EH/.local/share/opencode/opencode.db
python3 - "$DB" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print("secure_delete", c.execute("PRAGMA secure_delete").fetchone()[0], file=sys.stderr)
print("checkpoint", c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone(), file=sys.stderr)
c.close()
PY
rm -rf "$OUT"; mkdir -p "$OUT/home/examiner3/.local/share/opencode" "$OUT/home/examiner3/.config/opencode"
cp "$DB" "$OUT/home/examiner3/.local/share/opencode/"
[ -e "$DB-wal" ] && cp "$DB-wal" "$OUT/home/examiner3/.local/share/opencode/"
# the log names every session created (the trace of a deleted one)
cp -r "$EH/.local/share/opencode/log" "$OUT/home/examiner3/.local/share/opencode/"
cp "$EH/.config/opencode/opencode.json" "$OUT/home/examiner3/.config/opencode/"
mkdir -p "$OUT/etc"; printf 'fixture-host-3\n' >"$OUT/etc/hostname"
python3 - "$S1" "$S2" "$P1" "$P2" "$OPENCODE_VERSION" "$T0" "$T1" >"$OUT.expect.json" <<'PY'
import json, sys
s1, s2, p1, p2, v, t0, t1 = sys.argv[1:]
sc = lambda name, sid, prompt: {"scenario": name, "session_id": sid, "prompt": prompt, "started_utc": t0, "ended_utc": t1}
print(json.dumps({"generated_by": "scripts/gen-carve-fixture.sh", "hostname": "fixture-host-3", "user": "examiner3",
  "home": "/home/examiner3", "project_dir": "/home/examiner3/demo",
  "opencode": {"package": "opencode-ai", "version": v, "scenarios": [sc("deleted", s1, p1), sc("kept", s2, p2)]},
  "deleted_with": "opencode session delete " + s1}, indent=1))
PY
log "done: $OUT"
