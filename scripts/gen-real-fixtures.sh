#!/usr/bin/env bash
# gen-real-fixtures.sh: regenerate fixtures/roots/real-agents from REAL coding
# agents (Claude Code, Codex CLI, Gemini CLI) talking to the scripted fake model
# server fixtures/cmd/mockmodel. Not run by CI. Needs root (it creates the
# throwaway user home /home/examiner), node+npm, go, git, jq and python3.
#
#   sudo scripts/gen-real-fixtures.sh            # latest agent versions
#   CLAUDE_VERSION=2.1.332 CODEX_VERSION=0.171.0 GEMINI_VERSION=0.61.0 scripts/gen-real-fixtures.sh
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents/            home/examiner/{.claude,.claude.json,.codex,.gemini}, etc/hostname
#   fixtures/roots/real-agents.expect.json what was sent and what the mock logged
# The mock server's full request/response log is left in $WORK/mock.jsonl
# (printed at the end); it is not part of the fixture.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT_OUT=$REPO/fixtures/roots/real-agents
EXPECT_OUT=$REPO/fixtures/roots/real-agents.expect.json
EH=/home/examiner
DEMO=$EH/demo
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures.XXXXXX)}
AGENTS="${AGENTS:-claude-code codex-cli gemini-cli}"

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi

log() { printf '[gen] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agents
log "work dir $WORK"
mkdir -p "$WORK/prefix" "$WORK/runs"
log "installing agents from npm"
npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" \
  "@anthropic-ai/claude-code@${CLAUDE_VERSION:-latest}" \
  "@openai/codex@${CODEX_VERSION:-latest}" \
  "@google/gemini-cli@${GEMINI_VERSION:-latest}" >"$WORK/npm.log" 2>&1
V_CLAUDE=$(pkgver @anthropic-ai/claude-code)
V_CODEX=$(pkgver @openai/codex)
V_GEMINI=$(pkgver @google/gemini-cli)
log "claude-code $V_CLAUDE, codex $V_CODEX, gemini-cli $V_GEMINI"
BIN=$WORK/prefix/node_modules/.bin

# ------------------------------------------------------------------ mock model
start_mock -stall 10m
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO"
touch "$EH/.doubleagent-fixture-home"
export HOME=$EH
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner@fixture-host.invalid" '# demo

A tiny project used to record real agent sessions.
'

# The agents run with a clean, minimal environment (agents snapshot their
# environment into their state, e.g. Codex's shell_snapshots): no telemetry,
# no auto-update, dummy keys, nothing from the generator's own environment.
AGENT_ENV=(env -i HOME="$EH" USER=examiner LOGNAME=examiner SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="$BIN:$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin"
  DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
  ANTHROPIC_BASE_URL="http://$ADDR" ANTHROPIC_API_KEY=dummy
  GOOGLE_GEMINI_BASE_URL="http://$ADDR" GEMINI_API_KEY=dummy
  MOCK_API_KEY=dummy GEMINI_CLI_NO_RELAUNCH=true NO_COLOR=1)

mkdir -p "$EH/.codex" "$EH/.gemini"
cat >"$EH/.codex/config.toml" <<EOF
model_provider = "mock"
model = "gpt-5.5"

[model_providers.mock]
name = "DoubleAgent mock"
base_url = "http://$ADDR/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"
EOF
cat >"$EH/.gemini/settings.json" <<'EOF'
{"security":{"auth":{"selectedType":"gemini-api-key"}}}
EOF

# ------------------------------------------------------------------ scenarios
# Each scenario appends one JSON object to $WORK/scenarios.jsonl.
SCEN=$WORK/scenarios.jsonl
: >"$SCEN"




# Prompts carrying [mock:error] make the mock answer HTTP 500 once; [mock:stall]
# makes it stall mid-stream (the generator then SIGKILLs the agent).

# --- Claude Code -----------------------------------------------------------
claude_scenarios() {
  local sid p c f
  # basic: one Bash call, allowed by --allowedTools.
  sid=$(uuid); c='echo doubleagent-claude-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run claude-basic -- claude -p "$p" --session-id "$sid" --allowedTools=Bash
  record claude-code basic "$sid" "$p" "$c" doubleagent-claude-marker "$T0" "$T1" "$RC"
  local basic_sid=$sid

  # resume: the basic session again, with a different --model.
  c='echo doubleagent-claude-resumed'; p=$(PROMPT_CMD "$c")
  run claude-resume -- claude -p "$p" --resume "$basic_sid" --model claude-sonnet-4-5-20250929 --allowedTools=Bash
  record claude-code resume "$basic_sid" "$p" "$c" doubleagent-claude-resumed "$T0" "$T1" "$RC" \
    '{"resumed_session_id":"'"$basic_sid"'","model":"claude-sonnet-4-5-20250929"}'

  # edit: a Write tool call creating a file, allowed by acceptEdits.
  sid=$(uuid); f=$DEMO/claude-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-claude-edit)
  run claude-edit -- claude -p "$p" --session-id "$sid" --permission-mode acceptEdits
  record claude-code edit "$sid" "$p" "" doubleagent-claude-edit "$T0" "$T1" "$RC" \
    "$(jq -nc --arg f "$f" '{file_path:$f, file_content:"doubleagent-claude-edit\n"}')"

  # denied: Bash is not allowed and the output redirection writes a file:
  # Claude's path check answers first (2.1.197 "... was blocked", 2.1.332
  # "... needs approval", refused as print mode cannot ask). For a plain
  # permission refusal see permission-denied.
  sid=$(uuid); c='echo doubleagent-claude-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run claude-denied -- claude -p "$p" --session-id "$sid" --permission-mode default
  record claude-code denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true}'

  # permission-denied: --permission-mode default and no --allowedTools, with a
  # command that is neither read-only nor a file write (so no path check
  # answers first): the Bash call needs a permission no one can grant in
  # print mode, so Claude refuses it and records the decision on the
  # tool-result line (permissionDecision, toolDenialKind; recorded since a
  # version after 2.1.197, which wrote neither).
  sid=$(uuid); c="node -e \"console.log('doubleagent-claude-permission-denied')\""; p=$(PROMPT_CMD "$c")
  run claude-permission-denied -- claude -p "$p" --session-id "$sid" --permission-mode default
  record claude-code permission-denied "$sid" "$p" "$c" "This command requires approval" "$T0" "$T1" "$RC" \
    '{"tool_denied":true,"permission_mode":"default"}'

  # permission-rule-denied: a deny rule from the command line
  # (--disallowedTools 'Bash(echo:*)') matches the call; Bash is still offered.
  sid=$(uuid); c='echo doubleagent-claude-permission-rule'; p=$(PROMPT_CMD "$c")
  run claude-permission-rule-denied -- claude -p "$p" --session-id "$sid" --permission-mode default --disallowedTools 'Bash(echo:*)'
  record claude-code permission-rule-denied "$sid" "$p" "$c" "has been denied" "$T0" "$T1" "$RC" \
    '{"tool_denied":true,"permission_mode":"default","disallowed_tools":"Bash(echo:*)"}'

  # subagent: the mock calls the Agent tool; inside the subagent it calls Bash.
  # CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1 keeps the subagent in the
  # foreground, so the Agent tool_result carries its report.
  sid=$(uuid); c='echo doubleagent-claude-subagent'
  p="Use a subagent to run the shell command \`$c\` and tell me what it printed."
  run claude-subagent -- env CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1 claude -p "$p" --session-id "$sid" --allowedTools=Bash,Agent,Task
  record claude-code subagent "$sid" "$p" "$c" doubleagent-claude-subagent "$T0" "$T1" "$RC" \
    '{"env":"CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1"}'

  # subagent-background: the same without that variable; Claude Code starts
  # the subagent in the background (the Agent tool_result says "Async agent
  # launched successfully") and its report comes back later as a
  # <task-notification> user record.
  sid=$(uuid); c='echo doubleagent-claude-subagent-background'
  p="Use a subagent to run the shell command \`$c\` and tell me what it printed."
  run claude-subagent-background -- claude -p "$p" --session-id "$sid" --allowedTools=Bash,Agent,Task
  record claude-code subagent-background "$sid" "$p" "$c" "Async agent launched successfully" "$T0" "$T1" "$RC"

  # api-error: the first model request of the turn gets HTTP 500; the agent retries.
  sid=$(uuid); c='echo doubleagent-claude-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run claude-api-error -- claude -p "$p" --session-id "$sid" --allowedTools=Bash
  record claude-code api-error "$sid" "$p" "$c" doubleagent-claude-retry "$T0" "$T1" "$RC"

  # killed: the answer stalls mid-stream and the agent is SIGKILLed.
  sid=$(uuid); c='echo doubleagent-claude-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed claude-killed -- claude -p "$p" --session-id "$sid" --allowedTools=Bash
  record claude-code killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" '{"killed_with":"SIGKILL","killed_utc":"'"$KILLED_UTC"'"}'
}

# --- Codex CLI -------------------------------------------------------------
codex_sid() { sed -n 's/^session id: //p' "$WORK/runs/$1.err" | head -n1; }
CODEX=(codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox)
codex_scenarios() {
  local sid p c f
  c='echo doubleagent-codex-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run codex-basic -- "${CODEX[@]}" "$p"
  sid=$(codex_sid codex-basic)
  record codex-cli basic "$sid" "$p" "$c" doubleagent-codex-marker "$T0" "$T1" "$RC"
  local basic_sid=$sid

  c='echo doubleagent-codex-resumed'; p=$(PROMPT_CMD "$c")
  run codex-resume -- "${CODEX[@]}" -m gpt-5.4 resume "$basic_sid" "$p"
  record codex-cli resume "$basic_sid" "$p" "$c" doubleagent-codex-resumed "$T0" "$T1" "$RC" \
    '{"resumed_session_id":"'"$basic_sid"'","model":"gpt-5.4"}'

  # edit: apply_patch (a freeform "custom" tool for gpt-5.5) adding a file.
  f=codex-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-codex-edit)
  run codex-edit -- "${CODEX[@]}" "$p"
  sid=$(codex_sid codex-edit)
  record codex-cli edit "$sid" "$p" "" doubleagent-codex-edit "$T0" "$T1" "$RC" \
    "$(jq -nc --arg f "$DEMO/$f" '{file_path:$f, file_content:"doubleagent-codex-edit\n"}')"

  # denied: read-only sandbox; the write is refused by the sandbox.
  c='echo doubleagent-codex-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run codex-denied -- codex exec --skip-git-repo-check -s read-only "$p"
  sid=$(codex_sid codex-denied)
  record codex-cli denied "$sid" "$p" "$c" "Read-only file system" "$T0" "$T1" "$RC" '{"sandbox":"read-only"}'

  c='echo doubleagent-codex-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run codex-api-error -- "${CODEX[@]}" "$p"
  sid=$(codex_sid codex-api-error)
  record codex-cli api-error "$sid" "$p" "$c" doubleagent-codex-retry "$T0" "$T1" "$RC"

  c='echo doubleagent-codex-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed codex-killed -- "${CODEX[@]}" "$p"
  sid=$(codex_sid codex-killed)
  record codex-cli killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" '{"killed_with":"SIGKILL","killed_utc":"'"$KILLED_UTC"'"}'
}

# --- Gemini CLI ------------------------------------------------------------
GEMINI=(gemini --skip-trust)
gemini_scenarios() {
  local sid p c f
  sid=$(uuid); c='echo doubleagent-gemini-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run gemini-basic -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --yolo
  record gemini-cli basic "$sid" "$p" "$c" doubleagent-gemini-marker "$T0" "$T1" "$RC"
  local basic_sid=$sid

  c='echo doubleagent-gemini-resumed'; p=$(PROMPT_CMD "$c")
  run gemini-resume -- "${GEMINI[@]}" -p "$p" --resume "$basic_sid" -m gemini-2.5-pro --yolo
  record gemini-cli resume "$basic_sid" "$p" "$c" doubleagent-gemini-resumed "$T0" "$T1" "$RC" \
    '{"resumed_session_id":"'"$basic_sid"'","model":"gemini-2.5-pro"}'

  sid=$(uuid); f=$DEMO/gemini-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-gemini-edit)
  run gemini-edit -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --yolo
  record gemini-cli edit "$sid" "$p" "" doubleagent-gemini-edit "$T0" "$T1" "$RC" \
    "$(jq -nc --arg f "$f" '{file_path:$f, file_content:"doubleagent-gemini-edit\n"}')"

  # subagent: invoke_agent(generalist); the subagent runs the shell command
  # and finishes with complete_task.
  sid=$(uuid); c='echo doubleagent-gemini-subagent'
  p="Use a subagent to run the shell command \`$c\` and tell me what it printed."
  run gemini-subagent -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --yolo
  record gemini-cli subagent "$sid" "$p" "$c" doubleagent-gemini-subagent "$T0" "$T1" "$RC"

  # denied: default approval mode; non-interactive Gemini does not offer the
  # shell tool, the mock calls it anyway and the CLI refuses it.
  sid=$(uuid); c='echo doubleagent-gemini-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run gemini-denied -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --approval-mode default
  record gemini-cli denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" '{"tool_denied":true}'

  sid=$(uuid); c='echo doubleagent-gemini-retry'; p="[mock:error] $(PROMPT_CMD "$c")"
  run gemini-api-error -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --yolo
  record gemini-cli api-error "$sid" "$p" "$c" doubleagent-gemini-retry "$T0" "$T1" "$RC"

  sid=$(uuid); c='echo doubleagent-gemini-killed'; p="[mock:stall] $(PROMPT_CMD "$c")"
  run_killed gemini-killed -- "${GEMINI[@]}" -p "$p" --session-id "$sid" --yolo
  record gemini-cli killed "$sid" "$p" "" "" "$T0" "$T1" "$RC" '{"killed_with":"SIGKILL","killed_utc":"'"$KILLED_UTC"'"}'
}

for a in $AGENTS; do
  case $a in
    claude-code) claude_scenarios ;;
    codex-cli) codex_scenarios ;;
    gemini-cli) gemini_scenarios ;;
  esac
done
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
mkdir -p "$ROOT_OUT/home/examiner" "$ROOT_OUT/etc"
printf 'fixture-host\n' >"$ROOT_OUT/etc/hostname"
for p in .claude .claude.json .codex .gemini; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$ROOT_OUT/home/examiner/"
done
python3 - "$ROOT_OUT/home/examiner" <<'PY'
import json, os, shutil, sys

root = sys.argv[1]
LIMIT = 1 << 20           # drop any non-SQLite file over 1 MB
LONG = 2048               # vendor strings longer than this are elided
DROP_DIRS = {"node_modules", "cache", "caches", ".cache", "statsig", "bin", "tmp-bin",
             "vendor_imports", ".tmp"}
AUTH_FILES = {".credentials.json", "auth.json", "oauth_creds.json", "google_accounts.json",
              "mcp-oauth-tokens.json", "mcp-oauth-tokens-v2.json", "installation_id_token"}
# A real agent's SQLite store is kept as it wrote it: no checkpoint, no
# VACUUM, its -wal / -shm / -journal files kept beside it.
SQLITE_SUFFIXES = (".db", ".db-wal", ".db-shm", ".db-journal",
                   ".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")
KEEP_MARK = "doubleagent-"  # strings mentioning our markers are conversation, never elided

def elide_n(n):
    return "[doubleagent fixture: vendor text elided, %d bytes]" % n

def elide(s):
    return elide_n(len(s.encode()))

def walk(v, path=()):
    if isinstance(v, dict):
        return {k: walk(x, path + (k,)) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, path) for x in v]
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
        rel = os.path.relpath(p, root)
        if f.endswith(".key") and "/.claude/sessions/" in "/" + rel:
            # Claude Code's per-process peer-messaging key
            # (sessions/<pid>.<hash>.key, left by the SIGKILLed run): the
            # record is kept, its token value redacted.
            try:
                v = json.load(open(p, encoding="utf-8"))
                for k in list(v):
                    if "token" in k.lower():
                        v[k] = "REDACTED-FIXTURE"
                json.dump(v, open(p, "w", encoding="utf-8"), separators=(",", ":"))
            except (ValueError, TypeError, AttributeError):
                open(p, "w").write("REDACTED-FIXTURE")
            continue
        if "/skills/.system/" in "/" + rel:
            # Vendor-bundled skills (Codex installs them on first run): keep the
            # file list, elide the contents.
            n = os.path.getsize(p)
            open(p, "w").write(elide_n(n) + "\n"); continue
        if os.path.getsize(p) > LIMIT:
            print("dropping large file", p, os.path.getsize(p), file=sys.stderr)
            os.remove(p); continue
        if f.endswith(".jsonl"):
            out = []
            for line in open(p, encoding="utf-8"):
                if not line.strip():
                    continue
                out.append(json.dumps(walk(json.loads(line)), ensure_ascii=False, separators=(",", ":")))
            open(p, "w", encoding="utf-8").write("".join(l + "\n" for l in out))
        elif f.endswith(".json"):
            try:
                v = json.load(open(p, encoding="utf-8"))
            except ValueError:
                continue
            json.dump(walk(v), open(p, "w", encoding="utf-8"), ensure_ascii=False, indent=2)

PY

# ------------------------------------------------------------------ expect.json
log "writing $EXPECT_OUT"
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$V_CLAUDE" "$V_CODEX" "$V_GEMINI" "$ROOT_OUT" <<'PY'
import json, os, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, vc, vx, vg, root_out = sys.argv[1:]
versions = {"claude-code": vc, "codex-cli": vx, "gemini-cli": vg}
packages = {"claude-code": "@anthropic-ai/claude-code", "codex-cli": "@openai/codex", "gemini-cli": "@google/gemini-cli"}
apis = {"claude-code": "anthropic", "codex-cli": "openai", "gemini-cli": "gemini"}
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures.sh", "root": "real-agents", "hostname": "fixture-host",
       "user": "examiner", "home": "/home/examiner", "project_dir": "/home/examiner/demo"}
for line in open(scen_path):
    s = json.loads(line)
    a = s.pop("agent")
    s["mock"] = mock_view(events, apis[a], s)
    ag = out.setdefault(a, {"package": packages[a], "version": versions[a], "scenarios": []})
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
