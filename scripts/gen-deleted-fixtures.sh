#!/usr/bin/env bash
# gen-deleted-fixtures.sh: regenerate fixtures/roots/deleted-by-agents, a
# home where real agents ran two sessions each against the loopback mock
# model (fixtures/cmd/mockmodel) and then deleted the first, each with its
# own mechanism where it has one, for the "existed, gone" traces of issue 30
# (sessions.jsonl recovered=trace). Not run by CI. Needs root (it creates
# the throwaway home /home/examiner6, so the files record the paths the
# fixture root holds), node+npm, go, git, jq and python3.
#
#   Claude Code: two interactive sessions, in ~/demo and ~/other (under a pseudo-terminal,
#     scripts/lib/ptydrive.py: only an interactive session writes
#     ~/.claude.json projects[<path>].lastSessionId). Claude Code has no
#     delete command, and its cleanupPeriodDays sweep could not be made to
#     run here (2.1.332 in print mode and in an interactive session, with
#     the transcript's mtime 40 days back, left it), so the first session's
#     transcript is removed with rm, as the sweep removes it.
#   Codex CLI: two `codex exec` sessions, the first removed with
#     `codex delete --force <id>`.
#   Gemini CLI: two interactive sessions (under a pseudo-terminal: only
#     they write logs.json), the first removed with
#     `gemini --delete-session <index>` (its index in --list-sessions).
#     Checkpointing is on (general.checkpointing.enabled): a third
#     session (gemini-checkpoint) creates a file without --yolo, its
#     approval accepted (ptydrive --confirm), so Gemini CLI writes a
#     restore checkpoint (tmp/demo/checkpoints/) before the write_file
#     call; every gemini start removes the checkpoints, so it runs last
#     and its chat file is removed with rm.
#   Claude Code todo (claude-todo): Claude Code 2.1.332 no longer writes
#     ~/.claude/todos/ (TodoWrite keeps the list in memory; "todos" is only
#     in its cleanup list), so the last release that does, 2.0.77, runs one
#     print-mode session in ~/todo whose prompt makes the mock model call
#     TodoWrite (fixtures/cmd/mockmodel/todo.go); its project folder
#     (the transcript and its warmup sidechains) is then removed with rm,
#     as the 30-day sweep removes old transcripts, and its todo file stays.
#
# Output replaced wholesale:
#   fixtures/roots/deleted-by-agents/home/examiner6/...
#   fixtures/roots/deleted-by-agents.expect.json
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
NAME=deleted-by-agents
OUT=$REPO/fixtures/roots/$NAME
WORK=${WORK:-$(mktemp -d /var/tmp/gen-deleted.XXXXXX)}
CLAUDE_VERSION=${CLAUDE_VERSION:-2.1.332}
CODEX_VERSION=${CODEX_VERSION:-0.171.0}
GEMINI_VERSION=${GEMINI_VERSION:-0.61.0}
CLAUDE_TODO_VERSION=${CLAUDE_TODO_VERSION:-2.0.77}
AGENTS=${AGENTS:-claude-code codex-cli gemini-cli claude-todo}
EH=/home/examiner6
DEMO=$EH/demo
log() { printf '[deleted] %s\n' "$*" >&2; }
[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"
mkdir -p "$WORK/prefix" "$WORK/runs"
if [ ! -x "$WORK/prefix/node_modules/.bin/claude" ] || [ ! -x "$WORK/prefix/node_modules/.bin/codex" ] || [ ! -x "$WORK/prefix/node_modules/.bin/gemini" ]; then
  log "installing agents from npm"
  npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" \
    "@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" \
    "@google/gemini-cli@$GEMINI_VERSION" >"$WORK/npm.log" 2>&1
fi
if [ ! -x "$WORK/prefix-todo/node_modules/.bin/claude" ]; then
  log "installing Claude Code $CLAUDE_TODO_VERSION (the todo session) from npm"
  npm install --silent --no-fund --no-audit --prefix "$WORK/prefix-todo" \
    "@anthropic-ai/claude-code@$CLAUDE_TODO_VERSION" >"$WORK/npm-todo.log" 2>&1
fi
V_CLAUDE_TODO=$(node -e "console.log(require('$WORK/prefix-todo/node_modules/@anthropic-ai/claude-code/package.json').version)")
V_CLAUDE=$(pkgver @anthropic-ai/claude-code)
V_CODEX=$(pkgver @openai/codex)
V_GEMINI=$(pkgver @google/gemini-cli)
BIN=$WORK/prefix/node_modules/.bin
start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

rm -rf "$EH"; mkdir -p "$DEMO"; touch "$EH/.doubleagent-fixture-home"
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner6@fixture-host-6.invalid" '# demo
'
# Claude Code's kept session runs in a second project: ~/.claude.json keeps
# one lastSessionId per project, so the deleted session's stays named.
OTHER=$EH/other
mkdir -p "$OTHER"; (cd "$OTHER" && init_demo_repo "Fixture Examiner" "examiner6@fixture-host-6.invalid" '# other
')
AGENT_ENV=(env -i HOME="$EH" USER=examiner6 LOGNAME=examiner6 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
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
{"security":{"auth":{"selectedType":"gemini-api-key"}},"general":{"checkpointing":{"enabled":true}}}
EOF
# Interactive Claude Code first asks for a theme, checks api.anthropic.com
# (onboarding), asks whether to use the API key and whether to trust the
# folder: the answers are written as Claude Code writes them.
cat >"$EH/.claude.json" <<EOF
{"hasCompletedOnboarding": true, "theme": "dark",
 "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
 "projects": {"$DEMO": {"hasTrustDialogAccepted": true, "allowedTools": []},
   "$OTHER": {"hasTrustDialogAccepted": true, "allowedTools": []}}}
EOF

SCEN=$WORK/scenarios.jsonl
: >"$SCEN"
# deleted AGENT SESSION HOW STARTED ENDED: one line of $WORK/deleted.jsonl.
DEL=$WORK/deleted.jsonl
: >"$DEL"
deleted() { jq -nc --arg a "$1" --arg s "$2" --arg h "$3" --arg t0 "$4" --arg t1 "$5" \
  '{agent:$a, session_id:$s, deleted_with:$h, started_utc:$t0, ended_utc:$t1}' >>"$DEL"; }

claude_tty() { # NAME SESSION PROMPT DIR
  T0=$(now)
  RC=$(cd "$4" && timeout 300 "${AGENT_ENV[@]}" python3 "$REPO/scripts/lib/ptydrive.py" \
    --log "$WORK/runs/$1.tty" --mocklog "$MOCKLOG" --prompt "$3" --timeout 120 --settle 5 \
    --quit '/exit' --quit '\r' -- claude --allowedTools=Bash --session-id "$2")
  T1=$(now)
  log "$1: exit $RC"
}
claude_scenarios() {
  local a b c p
  a=$(uuid); c='echo doubleagent-claude-deleted-marker'; p=$(PROMPT_CMD "$c")
  claude_tty claude-deleted "$a" "$p" "$DEMO"
  record claude-code deleted "$a" "$p" "$c" doubleagent-claude-deleted-marker "$T0" "$T1" "$RC"
  b=$(uuid); c='echo doubleagent-claude-kept-marker'; p=$(PROMPT_CMD "$c")
  claude_tty claude-kept "$b" "$p" "$OTHER"
  record claude-code kept "$b" "$p" "$c" doubleagent-claude-kept-marker "$T0" "$T1" "$RC"
  T0=$(now)
  rm -f "$EH/.claude/projects/-home-examiner6-demo/$a.jsonl"
  rm -rf "$EH/.claude/projects/-home-examiner6-demo/$a"
  deleted claude-code "$a" "rm ~/.claude/projects/-home-examiner6-demo/$a.jsonl (no delete command; the cleanupPeriodDays sweep did not run here)" "$T0" "$(now)"
}

codex_sid() { sed -n 's/^session id: //p' "$WORK/runs/$1.err" | head -n1; }
CODEX=(codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox)
codex_scenarios() {
  local a b c p
  c='echo doubleagent-codex-deleted-marker'; p=$(PROMPT_CMD "$c")
  RUN_DIR=$DEMO run codex-deleted -- "${CODEX[@]}" "$p"
  a=$(codex_sid codex-deleted)
  record codex-cli deleted "$a" "$p" "$c" doubleagent-codex-deleted-marker "$T0" "$T1" "$RC"
  c='echo doubleagent-codex-kept-marker'; p=$(PROMPT_CMD "$c")
  RUN_DIR=$DEMO run codex-kept -- "${CODEX[@]}" "$p"
  b=$(codex_sid codex-kept)
  record codex-cli kept "$b" "$p" "$c" doubleagent-codex-kept-marker "$T0" "$T1" "$RC"
  RUN_DIR=$DEMO run codex-delete -- codex delete --force "$a"
  deleted codex-cli "$a" "codex delete --force $a (exit $RC)" "$T0" "$T1"
}

GEMINI=(gemini --skip-trust)
# Gemini CLI writes ~/.gemini/tmp/<project>/logs.json (the prompts typed)
# only in an interactive session: both run under a pseudo-terminal.
gemini_tty() { # NAME SESSION PROMPT [--yolo | --confirm TEXT]
  local mode=(--yolo) drive=()
  if [ "${4:-}" = --confirm ]; then mode=(); drive=(--confirm "$5"); fi
  T0=$(now)
  RC=$(cd "$DEMO" && timeout 300 "${AGENT_ENV[@]}" python3 "$REPO/scripts/lib/ptydrive.py" \
    --log "$WORK/runs/$1.tty" --mocklog "$MOCKLOG" --prompt "$3" --timeout 120 --settle 5 "${drive[@]}" \
    --quit '/quit' --quit '\r' -- "${GEMINI[@]}" "${mode[@]}" --session-id "$2")
  T1=$(now)
  log "$1: exit $RC"
}
gemini_scenarios() {
  local a b c p idx
  a=$(uuid); c='echo doubleagent-gemini-deleted-marker'; p=$(PROMPT_CMD "$c")
  gemini_tty gemini-deleted "$a" "$p"
  record gemini-cli deleted "$a" "$p" "$c" doubleagent-gemini-deleted-marker "$T0" "$T1" "$RC"
  b=$(uuid); c='echo doubleagent-gemini-kept-marker'; p=$(PROMPT_CMD "$c")
  gemini_tty gemini-kept "$b" "$p"
  record gemini-cli kept "$b" "$p" "$c" doubleagent-gemini-kept-marker "$T0" "$T1" "$RC"
  RUN_DIR=$DEMO run gemini-list -- "${GEMINI[@]}" --list-sessions
  # "  1. <summary> (<when>) [<session id>]": the index of the first session
  idx=$(grep -hF "$a" "$WORK/runs/gemini-list.out" "$WORK/runs/gemini-list.err" | grep -oE '^[^0-9]*[0-9]+\.' | grep -oE '[0-9]+' | head -n1 || true)
  if [ -z "$idx" ]; then
    log "gemini: session $a not in --list-sessions; not deleted"
    return
  fi
  RUN_DIR=$DEMO run gemini-delete -- "${GEMINI[@]}" --delete-session "$idx"
  deleted gemini-cli "$a" "gemini --delete-session $idx (exit $RC)" "$T0" "$T1"
  # A third session writes a file, its approval accepted (no --yolo): with
  # checkpointing on, Gemini CLI writes a restore checkpoint before the
  # write_file call. Every gemini start removes the project's checkpoints
  # (0.61.0 cleanupCheckpoints), --delete-session and --list-sessions
  # too, so this session runs last and its chat file is removed with rm
  # (as a person covering tracks removes it), leaving the checkpoint.
  local r f
  r=$(uuid); f=$DEMO/gemini-notes.txt; c=doubleagent-gemini-checkpoint-marker; p=$(PROMPT_WRITE "$f" "$c")
  gemini_tty gemini-checkpoint "$r" "$p" --confirm 'Allow once'
  record gemini-checkpoint deleted "$r" "$p" "" "$c" "$T0" "$T1" "$RC" "$(file_extra "$f" "$c")"
  T0=$(now)
  rm -f "$EH"/.gemini/tmp/demo/chats/session-*-"${r:0:8}".jsonl
  deleted gemini-checkpoint "$r" "rm ~/.gemini/tmp/demo/chats/session-*-${r:0:8}.jsonl (the restore checkpoint stays)" "$T0" "$(now)"
}

claude_todo_scenarios() {
  local a p todo=doubleagent-claude-todo-marker dir=$EH/todo
  mkdir -p "$dir"
  a=$(uuid); p="Add the todo \`$todo\` to your checklist."
  RUN_DIR=$dir run claude-todo -- "$WORK/prefix-todo/node_modules/.bin/claude" -p "$p" --session-id "$a"
  record claude-todo deleted "$a" "$p" "" "$todo" "$T0" "$T1" "$RC"
  T0=$(now)
  rm -rf "$EH/.claude/projects/-home-examiner6-todo"
  deleted claude-todo "$a" "rm -r ~/.claude/projects/-home-examiner6-todo (its transcript and warmup sidechains; the todo file stays)" "$T0" "$(now)"
}

for ag in $AGENTS; do
  case $ag in
    claude-code) claude_scenarios ;;
    claude-todo) claude_todo_scenarios ;;
    codex-cli) codex_scenarios ;;
    gemini-cli) gemini_scenarios ;;
  esac
done
kill $MOCK_PID 2>/dev/null || true
cd /

log "copying state into $OUT"
rm -rf "$OUT"; mkdir -p "$OUT/home/examiner6" "$OUT/etc"
printf 'fixture-host-6\n' >"$OUT/etc/hostname"
for p in .claude .claude.json .codex .gemini; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$OUT/home/examiner6/"
done
# Sanitized as scripts/gen-real-fixtures.sh sanitizes: caches, binaries,
# links and files over 1 MB (SQLite kept as written) dropped, auth files and
# Claude Code's session keys redacted, vendor strings over 2 KB elided.
python3 - "$OUT/home/examiner6" <<'PY'
import json, os, shutil, sys
root = sys.argv[1]
DROP = {"node_modules", "cache", "caches", ".cache", "statsig", "bin", "tmp-bin", "vendor_imports", ".tmp"}
AUTH = {".credentials.json", "auth.json", "oauth_creds.json", "google_accounts.json",
        "mcp-oauth-tokens.json", "mcp-oauth-tokens-v2.json", "installation_id_token"}
SQL = (".db", ".db-wal", ".db-shm", ".db-journal", ".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")
def walk(v):
    if isinstance(v, dict): return {k: walk(x) for k, x in v.items()}
    if isinstance(v, list): return [walk(x) for x in v]
    if isinstance(v, str) and len(v.encode()) > 2048 and "doubleagent-" not in v:
        return "[doubleagent fixture: vendor text elided, %d bytes]" % len(v.encode())
    return v
for dp, dns, fns in os.walk(root, topdown=True):
    for d in list(dns):
        # the checkpoint's shadow repository (.gemini/history/<slug>/.git,
        # the project's snapshots) is not kept: git's own files, no agent's
        if d in DROP or (d == ".git" and "/.gemini/history/" in "/" + os.path.relpath(dp, root) + "/"):
            shutil.rmtree(os.path.join(dp, d)); dns.remove(d)
    for f in fns:
        p = os.path.join(dp, f); rel = os.path.relpath(p, root)
        if os.path.islink(p): os.remove(p); continue
        if f.endswith(SQL): continue
        if f in AUTH or (f.endswith(".key") and "/.claude/sessions/" in "/" + rel):
            open(p, "w").write("REDACTED-FIXTURE"); continue
        if "/skills/.system/" in "/" + rel:
            n = os.path.getsize(p); open(p, "w").write("[doubleagent fixture: vendor text elided, %d bytes]\n" % n); continue
        if os.path.getsize(p) > (1 << 20): os.remove(p); continue
        if f.endswith(".jsonl"):
            out = [json.dumps(walk(json.loads(l)), ensure_ascii=False, separators=(",", ":")) for l in open(p, encoding="utf-8") if l.strip()]
            open(p, "w", encoding="utf-8").write("".join(l + "\n" for l in out))
        elif f.endswith(".json") or ".claude.json" in f:
            try: v = json.load(open(p, encoding="utf-8"))
            except ValueError: continue
            json.dump(walk(v), open(p, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PY

log "writing $OUT.expect.json"
python3 - "$SCEN" "$DEL" "$OUT.expect.json" "$V_CLAUDE" "$V_CODEX" "$V_GEMINI" "$V_CLAUDE_TODO" <<'PY'
import json, sys
scen, dele, out, vc, vx, vg, vt = sys.argv[1:]
pk = {"claude-code": ("@anthropic-ai/claude-code", vc), "codex-cli": ("@openai/codex", vx), "gemini-cli": ("@google/gemini-cli", vg),
      "claude-todo": ("@anthropic-ai/claude-code", vt), "gemini-checkpoint": ("@google/gemini-cli", vg)}
o = {"generated_by": "scripts/gen-deleted-fixtures.sh", "root": "deleted-by-agents", "hostname": "fixture-host-6",
     "user": "examiner6", "home": "/home/examiner6", "project_dir": "/home/examiner6/demo"}
for l in open(scen):
    s = json.loads(l); a = s.pop("agent")
    o.setdefault(a, {"package": pk[a][0], "version": pk[a][1], "scenarios": []})["scenarios"].append(s)
for l in open(dele):
    d = json.loads(l); a = d.pop("agent")
    o[a]["deleted"] = d
json.dump(o, open(out, "w"), indent=2, ensure_ascii=False); open(out, "a").write("\n")
PY
log "done: $OUT"
