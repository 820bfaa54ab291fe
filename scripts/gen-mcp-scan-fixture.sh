#!/usr/bin/env bash
# gen-mcp-scan-fixture.sh: regenerate fixtures/roots/mcp-scan-rate with a
# REAL Claude Code release against the scripted mock model
# (fixtures/cmd/mockmodel). Not run by CI. Needs root (it creates the
# throwaway home /home/findings-examiner6 and runs the agent as uid 65534 in
# it), node+npm, go, jq, python3, setpriv (util-linux).
#
#   sudo scripts/gen-mcp-scan-fixture.sh
#
# What it replays (all on loopback, nothing scanned): the GTG-1002 shape
# (Anthropic, November 2025: an operator drove Claude Code through MCP
# servers wrapping network scanners at a rate no person types).
#   1. ~/tools/scanner-mcp.js: a stand-in MCP server (stdio, newline-
#      delimited JSON-RPC: initialize, tools/list, tools/call) with one
#      tool, port_scan {target}. It scans nothing: each call answers
#      "fixture: no scan run". SYNTHETIC (written by this script).
#   2. `claude mcp add --scope user scanner -- node ~/tools/scanner-mcp.js`,
#      real: Claude Code writes the server into ~/.claude.json.
#   3. Claude Code, headless, ENABLE_TOOL_SEARCH=false (2.1.332 otherwise
#      defers MCP tools behind its ToolSearch tool, which the mock does not
#      call), --allowedTools=mcp__scanner__port_scan (its
#      guard rails stay on for everything else), a [mock:steps] prompt
#      listing 32 targets (127.0.0.1 to 127.0.0.32): the mock calls
#      mcp__scanner__port_scan once per target, each call answered by the
#      stand-in server through Claude Code's MCP client.
#   4. A second session: three calls of the same tool, an ordinary rate,
#      which must not be flagged.
#
# Output (replaced wholesale):
#   fixtures/roots/mcp-scan-rate/            home/findings-examiner6/{.claude,.claude.json,tools}, etc/hostname
#   fixtures/roots/mcp-scan-rate.expect.json what was sent and what the mock logged
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
NAME=mcp-scan-rate
ROOT_OUT=$REPO/fixtures/roots/$NAME
EXPECT_OUT=$REPO/fixtures/roots/$NAME.expect.json
U=findings-examiner6
EH=/home/$U
PROJ=$EH/lab
RUN_UID=65534
WORK=${WORK:-$(mktemp -d /var/tmp/gen-mcpscan.XXXXXX)}
chmod 755 "$WORK"

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
log() { printf '[gen-ms] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

log "work dir $WORK"
install_claude

start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ the home
rm -rf "$EH"
mkdir -p "$PROJ" "$EH/tools"
touch "$EH/.doubleagent-fixture-home"
printf 'lab notes\n' >"$PROJ/README.md"
cat >"$EH/tools/scanner-mcp.js" <<'JS'
// scanner-mcp.js: a stand-in MCP server for a fixture; it scans nothing.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
rl.on("line", (line) => {
  let m;
  try { m = JSON.parse(line); } catch (e) { return; }
  if (m.id === undefined) return;
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: (m.params && m.params.protocolVersion) || "2025-06-18",
      capabilities: { tools: {} }, serverInfo: { name: "scanner", version: "0.0.1" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "port_scan", description: "Scan the TCP ports of a host",
      inputSchema: { type: "object", properties: { target: { type: "string" } }, required: ["target"] } }] } });
  } else if (m.method === "tools/call") {
    const t = (m.params && m.params.arguments && m.params.arguments.target) || "";
    send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "port_scan " + t + ": fixture: no scan run" }] } });
  } else {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
  }
});
JS
chown -R "$RUN_UID:$RUN_UID" "$EH"

# as_user CMD...: run CMD as the fixture user in ~/lab.
as_user() { claude_user "$PROJ" "$@"; }

# 2. The server, added as the user would.
as_user claude mcp add --scope user scanner -- node "$EH/tools/scanner-mcp.js" >"$WORK/runs/mcp-add.out" 2>&1
log "claude mcp add: $(tr '\n' ' ' <"$WORK/runs/mcp-add.out")"

# Claude Code 2.1.332 hides MCP tools behind ToolSearch, which the mock never calls.
CLAUDE_ENV=(ENABLE_TOOL_SEARCH=false)
run_claude() { claude_run "$PROJ" "$@"; }
steps() { # steps FROM TO: the [mock:steps] prompt over 127.0.0.FROM..TO
  printf '[mock:steps] Scan the lab hosts with the scanner.'
  for i in $(seq "$1" "$2"); do printf ' Call the tool `mcp__scanner__port_scan` on `127.0.0.%s`.' "$i"; done
}

# 3. The machine-speed run.
SID=$(uuid); P=$(steps 1 32)
T0=$(now); run_claude "$SID" "$P" --allowedTools=mcp__scanner__port_scan; T1=$(now); RC1=$RC
log "claude (32 scans) exit $RC"
# 4. An ordinary rate.
SID2=$(uuid); P2=$(steps 1 3)
T20=$(now); run_claude "$SID2" "$P2" --allowedTools=mcp__scanner__port_scan; T21=$(now); RC2=$RC
log "claude (3 scans) exit $RC"
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
rm -rf "$ROOT_OUT"
mkdir -p "$ROOT_OUT/home/$U" "$ROOT_OUT/etc"
printf 'fixture-host-ms\n' >"$ROOT_OUT/etc/hostname"
for p in .claude .claude.json tools lab; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$ROOT_OUT/home/$U/"
done
chown -R 0:0 "$ROOT_OUT"
python3 "$REPO/scripts/lib/sanitize-claude-home.py" "$ROOT_OUT/home/$U" 'doubleagent' 'mock:steps' 'port_scan'

# ------------------------------------------------------------------ expect.json
python3 - "$MOCKLOG" "$EXPECT_OUT" "$P" "$P2" <<PY
import json, sys
mock, out, p1, p2 = sys.argv[1:]
ev = [e for e in (json.loads(l) for l in open(mock)) if e.get("kind") == "event"]
calls = [{k: e[k] for k in ("tool", "id", "target") if k in e} for e in ev if e["api"] == "anthropic" and e["action"] == "tool_call"]
json.dump({
  "generated_by": "scripts/gen-mcp-scan-fixture.sh",
  "root": "$NAME", "hostname": "fixture-host-ms", "user": "$U", "home": "$EH", "project_dir": "$PROJ",
  "synthetic": ["$EH/tools/scanner-mcp.js"],
  "claude-code": {
    "package": "@anthropic-ai/claude-code", "version": "$V_CLAUDE",
    "scenarios": [{
      "scenario": "mcp-scan-32", "session_id": "$SID", "prompt": p1,
      "command_line": "ENABLE_TOOL_SEARCH=false claude -p PROMPT --session-id $SID --allowedTools=mcp__scanner__port_scan",
      "started_utc": "$T0", "ended_utc": "$T1", "exit_code": $RC1,
    }, {
      "scenario": "mcp-scan-3", "session_id": "$SID2", "prompt": p2,
      "command_line": "ENABLE_TOOL_SEARCH=false claude -p PROMPT --session-id $SID2 --allowedTools=mcp__scanner__port_scan",
      "started_utc": "$T20", "ended_utc": "$T21", "exit_code": $RC2,
    }],
    "mock": {"tool_calls": calls},
  },
}, open(out, "w"), indent=2, ensure_ascii=False)
open(out, "a").write("\n")
PY
du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent output: $WORK/runs"
