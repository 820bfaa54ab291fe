#!/usr/bin/env bash
# gen-secret-blast-fixture.sh: regenerate fixtures/roots/secret-blast with a
# REAL Claude Code release against the scripted mock model
# (fixtures/cmd/mockmodel). Not run by CI. Needs root (it creates the
# throwaway home /home/findings-examiner7 and runs the agent as uid 65534 in
# it), node+npm, go, jq, python3, setpriv (util-linux).
#
#   sudo scripts/gen-secret-blast-fixture.sh
#
# What it replays (nothing leaves the machine; the token is made up and of
# no provider's shape): one secret's blast radius across sessions.
#   1. ~/work/.env holds DEPLOY_TOKEN=<fake>.
#   2. Session 1 (--allowedTools=Read,Bash): Reads ~/work/.env (the value is
#      in the tool result), then runs curl with the value in an
#      Authorization header to https://deploy.example.invalid/v1/whoami
#      (public to the classifier; .invalid never resolves).
#   3. Session 2 (--allowedTools=Bash): curl with the same header to
#      http://127.0.0.1:9/whoami (loopback, nothing listening).
#
# Output (replaced wholesale):
#   fixtures/roots/secret-blast/            home/findings-examiner7/{.claude,.claude.json,work}, etc/hostname
#   fixtures/roots/secret-blast.expect.json what was sent and what the mock logged
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
NAME=secret-blast
ROOT_OUT=$REPO/fixtures/roots/$NAME
EXPECT_OUT=$REPO/fixtures/roots/$NAME.expect.json
U=findings-examiner7
EH=/home/$U
PROJ=$EH/work
RUN_UID=65534
WORK=${WORK:-$(mktemp -d /var/tmp/gen-secret.XXXXXX)}
chmod 755 "$WORK"

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
log() { printf '[gen-sb] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

log "work dir $WORK"
install_claude

start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ the home
rm -rf "$EH"
mkdir -p "$PROJ"
touch "$EH/.doubleagent-fixture-home"
printf 'notes\n' >"$PROJ/README.md"
chown -R "$RUN_UID:$RUN_UID" "$EH"

# run_claude SID PROMPT FLAG...: one headless Claude Code run in ~/work.
run_claude() { claude_run "$PROJ" "$@"; }

TOKEN=dafx_7Qm2Lr9Vt4Np8Kc3Hs6Wy1Zb5doubleagent
printf 'DEPLOY_TOKEN=%s\nDEPLOY_URL=https://deploy.example.invalid\n' "$TOKEN" >"$PROJ/.env"
chown "$RUN_UID:$RUN_UID" "$PROJ/.env"
SID=$(uuid)
P="[mock:steps] Check that the deploy token works. Work step by step and do not ask questions.
Read the file \`$PROJ/.env\`.
Run the shell command \`curl -sS -m 3 -H 'Authorization: Bearer $TOKEN' https://deploy.example.invalid/v1/whoami\`."
T0=$(now)
run_claude "$SID" "$P" --allowedTools=Read,Bash
T1=$(now)
RC1=$RC
log "claude (session 1) exit $RC"
SID2=$(uuid)
P2="[mock:steps] Check the token against the local deploy agent. Do not ask questions.
Run the shell command \`curl -sS -m 3 -H 'Authorization: Bearer $TOKEN' http://127.0.0.1:9/whoami\`."
T20=$(now)
run_claude "$SID2" "$P2" --allowedTools=Bash
T21=$(now)
RC2=$RC
log "claude (session 2) exit $RC"
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
rm -rf "$ROOT_OUT"
mkdir -p "$ROOT_OUT/home/$U" "$ROOT_OUT/etc"
printf 'fixture-host-sb\n' >"$ROOT_OUT/etc/hostname"
for p in .claude .claude.json work; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$ROOT_OUT/home/$U/"
done
chown -R 0:0 "$ROOT_OUT"
python3 "$REPO/scripts/lib/sanitize-claude-home.py" "$ROOT_OUT/home/$U" 'doubleagent' '[mock:steps]' 'DEPLOY_TOKEN'

# ------------------------------------------------------------------ expect.json
python3 - "$MOCKLOG" "$EXPECT_OUT" "$P" "$P2" <<PY
import json, sys
mock, out, p1, p2 = sys.argv[1:]
ev = [e for e in (json.loads(l) for l in open(mock)) if e.get("kind") == "event"]
calls = [{k: e[k] for k in ("tool", "id", "command", "path") if k in e} for e in ev if e["api"] == "anthropic" and e["action"] == "tool_call"]
json.dump({
  "generated_by": "scripts/gen-secret-blast-fixture.sh",
  "root": "$NAME", "hostname": "fixture-host-sb", "user": "$U", "home": "$EH", "project_dir": "$PROJ",
  "synthetic": ["$PROJ/.env"],
  "claude-code": {
    "package": "@anthropic-ai/claude-code", "version": "$V_CLAUDE",
    "scenarios": [{
      "scenario": "read-and-send-public", "session_id": "$SID", "prompt": p1,
      "command_line": "claude -p PROMPT --session-id $SID --allowedTools=Read,Bash",
      "started_utc": "$T0", "ended_utc": "$T1", "exit_code": $RC1,
    }, {
      "scenario": "send-loopback", "session_id": "$SID2", "prompt": p2,
      "command_line": "claude -p PROMPT --session-id $SID2 --allowedTools=Bash",
      "started_utc": "$T20", "ended_utc": "$T21", "exit_code": $RC2,
    }],
    "mock": {"tool_calls": calls},
  },
}, open(out, "w"), indent=2, ensure_ascii=False)
open(out, "a").write("\n")
PY
du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent output: $WORK/runs"
