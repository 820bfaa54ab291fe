#!/usr/bin/env bash
# gen-real-fixtures-5.sh: regenerate fixtures/roots/real-agents-5 from REAL
# Factory droid and Auggie (Augment CLI) releases talking to the scripted fake
# model server fixtures/cmd/mockmodel on 127.0.0.1, and install (never run)
# Amp to record its version. Round 5 of scripts/gen-real-fixtures.sh (same
# approach, separate root). Not run by CI. Needs root (it creates the
# throwaway home /home/examiner5), node >= 20 + npm, go, git, jq and python3.
#
#   sudo scripts/gen-real-fixtures-5.sh          # the versions below
#   AGENTS="droid" scripts/gen-real-fixtures-5.sh
#
# - droid: the npm wrapper @factory/cli is only a shim that runs the platform
#   package's binary; the registry here serves the wrapper only at 0.225.1 but
#   the linux-x64 binary at 0.225.2, so the binary package is installed and
#   run directly. Bring-your-own-key: ~/.factory/settings.json customModels
#   with provider generic-chat-completion-api pointing at the mock.
#   FACTORY_API_BASE_URL also points at the mock (which answers 404), so
#   `droid exec -s <id>` (resume) reads the session from disk instead of
#   failing on api.factory.ai ("Failed to fetch session").
# - auggie: no bring-your-own-key mode; the mock's Augment stand-in
#   (fixtures/cmd/mockmodel/augment.go) is the tenant URL, with a dummy token
#   in AUGMENT_SESSION_AUTH.
# - amp: its CLI needs ampcode.com for every thread; it is installed with
#   --ignore-scripts only to record the version (its parser is built from the
#   binary's embedded JS, see analyzer/parsers/amp/doc.go).
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents-5/             home/examiner5/..., etc/hostname
#   fixtures/roots/real-agents-5.expect.json  what was sent and what the mock logged
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT_OUT=$REPO/fixtures/roots/real-agents-5
EXPECT_OUT=$REPO/fixtures/roots/real-agents-5.expect.json
EH=/home/examiner5
DEMO=$EH/demo
# run (lib/fixturegen.sh) runs the agents in the demo repository.
RUN_DIR=$DEMO
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures-5.XXXXXX)}
AGENTS="${AGENTS:-droid auggie}"
DROID_VERSION=${DROID_VERSION:-0.225.2}
AUGGIE_VERSION=${AUGGIE_VERSION:-0.36.0}
AMP_PACKAGE=${AMP_PACKAGE:-@sourcegraph/amp}

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
log() { printf '[gen5] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agents
log "work dir $WORK"
mkdir -p "$WORK/runs"
npm install --silent --no-fund --no-audit --prefix "$WORK/droid" "@factory/cli-linux-x64@$DROID_VERSION" >"$WORK/npm-droid.log" 2>&1
npm install --silent --no-fund --no-audit --prefix "$WORK/auggie" "@augmentcode/auggie@$AUGGIE_VERSION" >"$WORK/npm-auggie.log" 2>&1
npm install --silent --no-fund --no-audit --ignore-scripts --prefix "$WORK/amp" "$AMP_PACKAGE" >"$WORK/npm-amp.log" 2>&1 || true
DROID=$WORK/droid/node_modules/@factory/cli-linux-x64/bin/droid
AUGGIE=$WORK/auggie/node_modules/@augmentcode/auggie/augment.mjs
V_DROID=$("$DROID" --version)
V_AUGGIE=$(node -e "console.log(require('$WORK/auggie/node_modules/@augmentcode/auggie/package.json').version)")
V_AMP=$(node -e "try{console.log(require('$WORK/amp/node_modules/@ampcode/cli/package.json').version)}catch(e){console.log('')}")
log "droid $V_DROID, auggie $V_AUGGIE, amp ${V_AMP:-not installed}"

# ------------------------------------------------------------------ mock model
start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO" "$EH/.factory"
touch "$EH/.doubleagent-fixture-home"
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner5@fixture-host-5.invalid" '# demo

A tiny project used to record real agent sessions.
'

AGENT_ENV=(env -i HOME="$EH" USER=examiner5 LOGNAME=examiner5 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="/usr/local/bin:/usr/bin:/bin" NO_COLOR=1 DO_NOT_TRACK=1
  FACTORY_API_BASE_URL="http://$ADDR" FACTORY_DROID_AUTO_UPDATE_ENABLED=false
  AUGMENT_SESSION_AUTH="{\"accessToken\":\"dummy-token\",\"tenantURL\":\"http://$ADDR/\",\"scopes\":[\"email\"]}")

cat >"$EH/.factory/settings.json" <<EOF
{
  "customModels": [
    {"model": "mock-coder", "displayName": "Mock Coder", "baseUrl": "http://$ADDR/v1", "apiKey": "dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 8192},
    {"model": "mock-coder-2", "displayName": "Mock Coder 2", "baseUrl": "http://$ADDR/v1", "apiKey": "dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 8192}
  ],
  "commandDenylist": ["echo doubleagent-droid-denied"]
}
EOF

SCEN=$WORK/scenarios.jsonl
: >"$SCEN"
sid_of() { jq -r 'select(.session_id) | .session_id' "$WORK/runs/$1.out" 2>/dev/null | tail -n1; }

droid_scenarios() {
  local sid p c f basic
  c='echo doubleagent-droid-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run droid-basic -- "$DROID" exec --auto low --model custom:mock-coder -o json "$p"
  sid=$(sid_of droid-basic); basic=$sid
  record factory-droid basic "$sid" "$p" "$c" doubleagent-droid-marker "$T0" "$T1" "$RC" '{"model":"custom:Mock-Coder-0","model_flag":"custom:mock-coder"}'

  c='echo doubleagent-droid-resumed'; p=$(PROMPT_CMD "$c")
  run droid-resume -- "$DROID" exec --auto low -s "$basic" --model custom:mock-coder-2 -o json "$p"
  record factory-droid resume "$basic" "$p" "$c" doubleagent-droid-resumed "$T0" "$T1" "$RC" \
    '{"resumed_session_id":"'"$basic"'","model":"custom:Mock-Coder-2-0","model_flag":"custom:mock-coder-2","note":"droid writes the custom model as custom:<displayName>-<index>"}'

  f=$DEMO/droid-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-droid-edit)
  run droid-edit -- "$DROID" exec --auto low --model custom:mock-coder -o json "$p"
  record factory-droid edit "$(sid_of droid-edit)" "$p" "" doubleagent-droid-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-droid-edit)"

  # denied: the command is on settings.json's commandDenylist; even --auto high
  # cannot run it ("Exec ended early: insufficient permission ...", exit 1).
  c='echo doubleagent-droid-denied'; p=$(PROMPT_CMD "$c")
  run droid-denied -- "$DROID" exec --auto high --model custom:mock-coder -o json "$p"
  record factory-droid denied "$(sid_of droid-denied)" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"commandDenylist":["echo doubleagent-droid-denied"]}'
}

auggie_scenarios() {
  local sid p c f basic A=(node "$AUGGIE" -p --output-format json)
  c='echo doubleagent-auggie-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run auggie-basic -- "${A[@]}" -m mock-coder "$p"
  sid=$(sid_of auggie-basic); basic=$sid
  record augment basic "$sid" "$p" "$c" doubleagent-auggie-marker "$T0" "$T1" "$RC" '{"model":"mock-coder"}'

  c='echo doubleagent-auggie-resumed'; p=$(PROMPT_CMD "$c")
  run auggie-resume -- "${A[@]}" -r "$basic" -m mock-coder-2 "$p"
  record augment resume "$basic" "$p" "$c" doubleagent-auggie-resumed "$T0" "$T1" "$RC" '{"resumed_session_id":"'"$basic"'","model":"mock-coder-2"}'

  f=$DEMO/auggie-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-auggie-edit)
  run auggie-edit -- "${A[@]}" -m mock-coder "$p"
  record augment edit "$(sid_of auggie-edit)" "$p" "" doubleagent-auggie-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-auggie-edit)"

  c='echo doubleagent-auggie-denied'; p=$(PROMPT_CMD "$c")
  run auggie-denied -- "${A[@]}" -m mock-coder --permission launch-process:deny "$p"
  record augment denied "$(sid_of auggie-denied)" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"permission":"launch-process:deny"}'
}

for a in $AGENTS; do
  case $a in
    droid) droid_scenarios ;;
    auggie) auggie_scenarios ;;
  esac
done
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
OUTH=$ROOT_OUT/home/examiner5
mkdir -p "$OUTH" "$ROOT_OUT/etc"
printf 'fixture-host-5\n' >"$ROOT_OUT/etc/hostname"
for p in .factory .augment; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$OUTH/$p"
done
python3 - "$OUTH" <<'PY'
import json, os, shutil, sys
root = sys.argv[1]
LIMIT = 1 << 20
LONG = 2048
DROP_DIRS = {"node_modules", "bin", "certs"}   # droid's ripgrep binary, CA bundle caches
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
        if d in DROP_DIRS:
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
        elif f.endswith(".json") or f.endswith(".json.bak"):
            try:
                v = json.load(open(p, encoding="utf-8"))
            except ValueError:
                continue
            w = walk(v)
            if w != v:
                json.dump(w, open(p, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PY

# ------------------------------------------------------------------ expect.json
log "writing $EXPECT_OUT"
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$V_DROID" "$V_AUGGIE" "$V_AMP" "$AGENTS" <<'PY'
import json, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, v_droid, v_auggie, v_amp, agents = sys.argv[1:]
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures-5.sh", "root": "real-agents-5", "hostname": "fixture-host-5",
       "user": "examiner5", "home": "/home/examiner5", "project_dir": "/home/examiner5/demo"}
pk = {"factory-droid": ("@factory/cli-linux-x64", v_droid, "openai-chat",
                        "the @factory/cli wrapper is at 0.225.1 on this registry; its linux-x64 binary package 0.225.2 was installed and run"),
      "augment": ("@augmentcode/auggie", v_auggie, "augment", "runs against the mock's Augment API stand-in (no bring-your-own-key mode)")}
for a, (p, v, api, note) in pk.items():
    out[a] = {"package": p, "version": v, "mock_api": api, "note": note, "scenarios": []}
out["amp"] = {"package": "@sourcegraph/amp -> @ampcode/cli", "version": v_amp, "ran": False,
              "error": "the Amp CLI talks to ampcode.com for every thread (no offline or bring-your-own-key mode); installed with --ignore-scripts and read, never run; its fixture is synthetic (analyzer/parsers/amp/testdata)"}
for line in open(scen_path):
    s = json.loads(line)
    a = s.pop("agent")
    api = pk[a][2]
    s["mock"] = mock_view(events, api, s, subagent=False, stalled=False)
    ag = out[a]
    take_basic(ag, s)
out["not_run"] = {
    "subagent": "not scripted for droid (Task tool needs a custom droid) or auggie (sub-agent needs the remote agent API)",
    "prompt_history": "droid's state/history.json and auggie's prompt-history.jsonl are written only by the interactive TUI; their parsers are tested on synthetic files of the shapes in the shipped code",
}
json.dump(out, open(out_path, "w"), indent=2, ensure_ascii=False)
open(out_path, "a").write("\n")
PY
du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent output: $WORK/runs"
