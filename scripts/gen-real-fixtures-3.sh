#!/usr/bin/env bash
# gen-real-fixtures-3.sh: regenerate fixtures/roots/real-agents-3 from REAL
# coding agents talking to the scripted fake model server
# fixtures/cmd/mockmodel: the Cline CLI (the Cline SDK layout under
# ~/.cline/data) and Continue's cn. Round 3 of scripts/gen-real-fixtures.sh
# (same approach, separate root). Not run by CI.
# Needs root (it creates the throwaway user home /home/examiner3), node 20+
# and npm, go, git, jq and python3.
#
#   sudo scripts/gen-real-fixtures-3.sh              # the versions below
#   CLINE_VERSION=latest CN_VERSION=latest scripts/gen-real-fixtures-3.sh
#   AGENTS="cline" scripts/gen-real-fixtures-3.sh
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents-3/             home/examiner3/..., etc/hostname
#   fixtures/roots/real-agents-3.expect.json  what was sent and what the mock logged
# The mock server's full request/response log is left in $WORK/mock.jsonl,
# each agent's stdout/stderr (and the TUI's screen) in $WORK/runs.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT_OUT=$REPO/fixtures/roots/real-agents-3
EXPECT_OUT=$REPO/fixtures/roots/real-agents-3.expect.json
EH=/home/examiner3
DEMO=$EH/demo
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures-3.XXXXXX)}
AGENTS="${AGENTS:-cline continue}"

# Versions the committed fixture was made with (override with "latest").
CLINE_VERSION=${CLINE_VERSION:-3.0.65}
CN_VERSION=${CN_VERSION:-1.5.47}

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi

log() { printf '[gen3] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agents
log "work dir $WORK"
mkdir -p "$WORK/prefix" "$WORK/runs"
log "installing the agents from npm"
# npm 11 does not run the cline package's postinstall (it only hard-links the
# platform binary for a faster start; bin/cline finds it without that).
npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" \
  "cline@$CLINE_VERSION" "@continuedev/cli@$CN_VERSION" >"$WORK/npm.log" 2>&1
V_CLINE=$(pkgver cline)
V_CLINE_SDK=$(pkgver @cline/core)
V_CN=$(pkgver @continuedev/cli)
V_NODE=$(node --version)
BIN=$WORK/prefix/node_modules/.bin
log "cline $V_CLINE (@cline/core $V_CLINE_SDK), cn $V_CN, node $V_NODE"

# Clean, minimal environment for the agents: dummy keys, no telemetry,
# nothing from the generator's own environment.
AGENT_ENV=(env -i HOME="$EH" USER=examiner3 LOGNAME=examiner3 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm-256color
  PATH="$BIN:/usr/local/bin:/usr/bin:/bin"
  NO_COLOR=1 DO_NOT_TRACK=1 DISABLE_TELEMETRY=1
  CLINE_TELEMETRY_DISABLED=1 CONTINUE_TELEMETRY_ENABLED=0 CONTINUE_ALLOW_ANONYMOUS_TELEMETRY=0)


# ------------------------------------------------------------------ mock model
start_mock -stall 10m
cleanup() {
  # The Cline CLI starts a hub daemon (cline --cline-hub-daemon, loopback)
  # that outlives the runs; stop it by its own command, then the mock.
  if [ -x "$BIN/cline" ] && [ -d "$EH/.cline" ]; then
    (cd "$DEMO" 2>/dev/null && "${AGENT_ENV[@]}" cline hub stop </dev/null >"$WORK/runs/hub-stop.out" 2>&1) || true
  fi
  kill $MOCK_PID 2>/dev/null || true
}
trap cleanup EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO"
touch "$EH/.doubleagent-fixture-home"
export HOME=$EH
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner3@fixture-host-3.invalid" '# demo

A tiny project used to record real agent sessions.
'

# Continue cn: two local config files, one model each (the model switch is
# a resume with the other file).
mkdir -p "$EH/.continue/assistants"
cn_config() {
  cat <<EOF
name: DoubleAgent mock ($1)
version: 1.0.0
schema: v1
models:
  - name: $1
    provider: openai
    model: $1
    apiBase: http://$ADDR/v1
    apiKey: dummy
    roles: [chat, edit, apply]
    capabilities: [tool_use]
EOF
}
cn_config mock-coder >"$EH/.continue/config.yaml"
cn_config mock-coder-2 >"$EH/.continue/assistants/mock-coder-2.yaml"

# ------------------------------------------------------------------ scenarios
SCEN=$WORK/scenarios.jsonl
: >"$SCEN"



# run_tty NAME PROMPT [VAR=VALUE...] -- cmd...: runs an interactive TUI
# under a pseudo-terminal (scripts/lib/ptydrive.py): waits for its prompt
# box, types PROMPT and Enter, waits for the model's answer to the tool
# result, then presses Ctrl+C twice. The screen goes to $WORK/runs/NAME.tty.
run_tty() {
  local name=$1 prompt=$2; shift 2
  local extra=(); while [ "$1" != -- ]; do extra+=("$1"); shift; done; shift
  T0=$(now)
  set +e
  RC=$(timeout 300 "${AGENT_ENV[@]}" "${extra[@]}" python3 "$REPO/scripts/lib/ptydrive.py" \
    --log "$WORK/runs/$name.tty" --mocklog "$MOCKLOG" --ready "$TTY_READY" --prompt "$prompt" -- "$@" \
    2>"$WORK/runs/$name.err")
  [ -n "$RC" ] || RC=125
  set -e
  T1=$(now)
  log "$name: exit $RC"
}


PROMPT_SUB() { printf 'Use a subagent to run the shell command `%s` and tell me what it printed.' "$1"; }

# --- Cline CLI ---------------------------------------------------------------
# Session ids: the session folder the run added under ~/.cline/data/sessions.
CL_SESS=$EH/.cline/data/sessions
cl_before() { CL_LIST=$(ls "$CL_SESS" 2>/dev/null | sort || true); }
cl_new() { comm -13 <(printf '%s\n' "$CL_LIST") <(ls "$CL_SESS" 2>/dev/null | sort) | grep -v '^$' | paste -sd '\n' - || true; }
cline_scenarios() {
  local sid p c f basic
  # Provider: the SDK's openai-compatible client pointed at the mock.
  run cline-auth -- cline auth -p openai-compatible -k dummy -m mock-coder -b "http://$ADDR/v1"

  # basic: the first run finds no hub, runs in-process and starts the hub
  # daemon in the background; the later runs go through the hub.
  cl_before; c='echo doubleagent-cline-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run cline-basic -- cline --json "$p"
  sid=$(cl_new); basic=$sid
  record cline basic "$sid" "$p" "$c" doubleagent-cline-marker "$T0" "$T1" "$RC" '{"runtime":"local (no hub yet)"}'
  sleep 5

  # denied (hub): --auto-approve false with no TTY to ask on.
  cl_before; c='echo doubleagent-cline-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run cline-denied -- cline --json --auto-approve false "$p"
  sid=$(cl_new)
  record cline denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"runtime":"hub","auto_approve":false}'

  # denied-local: the same in-process (the CLI's own terminal approval:
  # 'Tool "run_commands" requires approval in a TTY session').
  cl_before; c='echo doubleagent-cline-denied-local > denied.txt'; p=$(PROMPT_CMD "$c")
  run cline-denied-local CLINE_SESSION_BACKEND_MODE=local -- cline --json --auto-approve false "$p"
  sid=$(cl_new)
  record cline denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"runtime":"local (CLINE_SESSION_BACKEND_MODE=local)","auto_approve":false,"variant":"denied-local"}'

  # edit: the editor tool creates the file.
  cl_before; f=$DEMO/cline-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-cline-edit)
  run cline-edit -- cline --json "$p"
  sid=$(cl_new)
  record cline edit "$sid" "$p" "" doubleagent-cline-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-cline-edit)"

  # subagent: spawn_agent; the subagent's messages are a second
  # *.messages.json in the parent's session folder.
  cl_before; c='echo doubleagent-cline-subagent'; p=$(PROMPT_SUB "$c")
  run cline-subagent -- cline --json "$p"
  sid=$(cl_new)
  record cline subagent "$sid" "$p" "$c" doubleagent-cline-subagent "$T0" "$T1" "$RC"

  # deleted: a session the user then deletes with `cline history delete`.
  cl_before; c='echo doubleagent-cline-deleted'; p=$(PROMPT_CMD "$c")
  run cline-deleted-run -- cline --json "$p"
  sid=$(cl_new)
  local d0=$T0
  sleep 3
  run cline-deleted -- cline history delete --session-id "$sid"
  record cline deleted "$sid" "$p" "$c" doubleagent-cline-deleted "$d0" "$T1" "$RC" '{"deleted_with":"cline history delete --session-id"}'

  # killed: in-process run stalled mid-answer and SIGKILLed; the session
  # stays "running" until the stale-session reconciler (run by the next
  # history listing) marks it failed and writes logs/hooks.jsonl.
  cl_before; c='echo doubleagent-cline-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed cline-killed CLINE_SESSION_BACKEND_MODE=local -- cline --json "$p"
  sid=$(cl_new)
  record cline killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" "$(killed_extra)"
  run cline-history -- cline history --json

  # resume: --id is interactive only (the TUI), so it runs under a pty:
  # the basic session with the other model; the TUI also writes
  # cache/user_input_history.jsonl.
  c='echo doubleagent-cline-resumed'; p=$(PROMPT_CMD "$c")
  TTY_READY="Ask anything"
  run_tty cline-resume "$p" -- cline --id "$basic" -m mock-coder-2
  record cline resume "$basic" "$p" "$c" doubleagent-cline-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock-coder-2 | jq -c '. + {tui:true}')"

  run cline-hub-stop -- cline hub stop
}

# --- Continue cn -------------------------------------------------------------
# Session ids: the session file the run added or changed under ~/.continue/sessions.
CN_SESS=$EH/.continue/sessions
cn_new() { ls -t "$CN_SESS"/*.json 2>/dev/null | grep -v '/sessions.json$' | head -n1 | xargs -r basename | sed 's/\.json$//'; }
CN=(cn -p --config "$EH/.continue/config.yaml")
continue_scenarios() {
  local sid p c f basic
  c='echo doubleagent-continue-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run continue-basic -- "${CN[@]}" --auto "$p"
  sid=$(cn_new); basic=$sid
  record continue basic "$sid" "$p" "$c" doubleagent-continue-marker "$T0" "$T1" "$RC"
  sleep 2

  # resume: --resume takes the most recently written session (the basic
  # one), the other config file switches the model.
  c='echo doubleagent-continue-resumed'; p=$(PROMPT_CMD "$c")
  run continue-resume -- cn -p --config "$EH/.continue/assistants/mock-coder-2.yaml" --auto --resume "$p"
  record continue resume "$basic" "$p" "$c" doubleagent-continue-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock-coder-2)"
  sleep 2

  f=$DEMO/continue-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-continue-edit)
  run continue-edit -- "${CN[@]}" --auto "$p"
  sid=$(cn_new)
  record continue edit "$sid" "$p" "" doubleagent-continue-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-continue-edit)"
  sleep 2

  # denied: --ask Bash in headless mode hides Bash; the mock calls it
  # anyway and cn refuses it ("Command blocked by security policy").
  c='echo doubleagent-continue-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run continue-denied -- "${CN[@]}" --ask Bash "$p"
  sid=$(cn_new)
  record continue denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true,"ask":"Bash"}'
}

for a in $AGENTS; do
  case $a in
    cline) cline_scenarios ;;
    continue) continue_scenarios ;;
  esac
done
cleanup
trap - EXIT
cd /

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
OUTH=$ROOT_OUT/home/examiner3
mkdir -p "$OUTH" "$ROOT_OUT/etc"
printf 'fixture-host-3\n' >"$ROOT_OUT/etc/hostname"
for p in .cline .continue; do
  if [ -e "$EH/$p" ]; then
    cp -a "$EH/$p" "$OUTH/$p"
  fi
done
python3 - "$OUTH" <<'PY'
import json, os, shutil, sys

root = sys.argv[1]
LIMIT = 1 << 20           # drop any non-SQLite file over 1 MB
LONG = 2048               # vendor strings longer than this are elided
DROP_DIRS = {"node_modules", ".cache", "bin"}
SQLITE_SUFFIXES = (".db", ".db-wal", ".db-shm", ".db-journal", ".sqlite", ".sqlite-wal", ".sqlite-shm")
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
        if f.endswith(SQLITE_SUFFIXES) or ".lock" in f:
            continue  # SQLite files (and lock files) are kept exactly as the agent left them
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
                    out.append(line.rstrip("\n"))  # a torn line stays as written
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
VERSIONS=$(jq -nc --arg c "$V_CLINE" --arg s "$V_CLINE_SDK" --arg n "$V_CN" --arg node "$V_NODE" \
  '{cline:$c, "cline-sdk":$s, continue:$n, node:$node}')
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$VERSIONS" "$AGENTS" "$ROOT_OUT" <<'PY'
import json, os, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, versions, agents, root_out = sys.argv[1:]
versions = json.loads(versions)
packages = {"cline": "cline", "continue": "@continuedev/cli"}
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures-3.sh", "root": "real-agents-3", "hostname": "fixture-host-3",
       "user": "examiner3", "home": "/home/examiner3", "project_dir": "/home/examiner3/demo",
       "mock_api": "openai-chat", "node": versions["node"]}
for a in agents.split():
    out[a] = {"package": packages[a], "version": versions[a], "scenarios": []}
if "cline" in out:
    out["cline"]["sdk_version"] = versions["cline-sdk"]
    out["cline"]["not_run"] = [
        {"what": "logs/hooks.jsonl audit rows for the lead agent",
         "why": "the CLI gives the lead agent its own runtime hooks, so the SDK's audit hooks (agent_start, tool_call, tool_result, agent_end) are written only for the subagent; session_shutdown rows come from the stale-session reconciler"},
        {"what": "Cline Cloud sessions, enterprise blobUpload, sync-queue.json, imported sessions",
         "why": "need a Cline account or an enterprise remote config; no offline mode"},
        {"what": "a non-interactive resume",
         "why": "--id is interactive only in 3.0.65 (with --json: 'JSON output mode requires a prompt argument or piped stdin'), so the resume ran in the TUI under a pseudo-terminal (scripts/lib/ptydrive.py)"},
    ]
if "continue" in out:
    out["continue"]["not_run"] = [
        {"what": "per-message times", "why": "cn records none: a session file has dateCreated (sessions.json) and the file's mtime, and cn.log's 'Resuming previous session...' line dates a resume"},
        {"what": "a subagent, a killed run", "why": "not scripted this round (cn's subagent tool is behind --beta-subagent-tool)"},
    ]
for line in open(scen_path):
    s = json.loads(line)
    a = s.pop("agent")
    for f in ("session_id", "resumed_session_id"):
        if isinstance(s.get(f), str):
            s[f] = "\n".join(dict.fromkeys(x for x in s[f].split("\n") if x))
    s["mock"] = mock_view(events, "openai-chat", s)
    if a == "cline":
        # What the SDK's hook audit log says about the session (the file is
        # the agent's own, read here only to record it).
        hooks = os.path.join(root_out, "home/examiner3/.cline/data/logs/hooks.jsonl")
        s["hook_audit"] = []
        if os.path.exists(hooks):
            for l in open(hooks):
                try:
                    h = json.loads(l)
                except ValueError:
                    continue
                if s["session_id"] in (h.get("sessionId"), (h.get("sessionContext") or {}).get("rootSessionId")):
                    s["hook_audit"].append({k: h[k] for k in ("ts", "hookName", "reason", "source") if k in h})
    ag = out[a]
    take_basic(ag, s)
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
