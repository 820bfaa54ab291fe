#!/usr/bin/env bash
# Make the frozen format fixtures bundle/testdata/vN/*.tar.zst with the
# collector of this checkout, from a small fake home built here. Not run by
# CI: the bundles are committed and tests read them as they were written
# (see bundle/testdata/v1/README.md). Run it only to add a bundle of a new
# format version (into a new folder), never to rewrite an existing one.
#
#   scripts/gen-bundle-fixtures.sh [OUTDIR [RECIPIENTS]]   (default bundle/testdata/v1)
#
# With RECIPIENTS (an age recipients file), the bundle is written encrypted
# (--encrypt-to RECIPIENTS) as OUTDIR/fake-home.tar.zst.age: the frozen
# encrypted sample is bundle/testdata/age, made with
#   scripts/gen-bundle-fixtures.sh bundle/testdata/age bundle/testdata/age/recipients.txt
#
# The folder's name (v1, v2, ...) names the fixture's host (fixture-v2) and
# case (CASE-V2); the fake home is the same for every version.
#
# Needs python3 (its sqlite3 module writes the WAL-mode store) and root
# (chown of the fake home to uid 1000).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bundle/testdata/v1}"
recipients="${2:-}"
ver=$(basename "$out")
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/doubleagent-collector" ./collector

root="$work/root"
home="$root/home/alice"
proj="$home/.claude/projects/-home-alice-demo"
mkdir -p "$root/etc" "$proj" "$home/.codex"
echo "fixture-$ver" >"$root/etc/hostname"
echo 'alice:x:1000:1000:Alice:/home/alice:/bin/sh' >"$root/etc/passwd"

sid=0b1c2d3e-0000-4000-8000-000000000001
cat >"$proj/$sid.jsonl" <<EOF
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"$sid","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/home/alice/demo","version":"2.1.332","message":{"role":"user","content":"list the files"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"$sid","timestamp":"2026-11-29T10:00:01.000Z","cwd":"/home/alice/demo","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"$sid","timestamp":"2026-11-29T10:00:02.000Z","cwd":"/home/alice/demo","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt\nb.txt","is_error":false}]}}
EOF
echo '{"display":"list the files","timestamp":1764410400000,"project":"/home/alice/demo"}' >"$home/.claude/history.jsonl"
echo '{"permissions":{"allow":["Bash(ls:*)"]},"model":"sonnet"}' >"$home/.claude/settings.json"
echo '{"claudeAiOauth":{"accessToken":"fake-token-not-a-secret"}}' >"$home/.claude/.credentials.json"
echo '{"session_id":"s-codex-1","ts":1764410500,"text":"hello codex"}' >"$home/.codex/history.jsonl"
# Over the size limit given below: a skipped_size row, no member.
head -c 50000 /dev/zero | tr '\0' 'x' >"$proj/too-big.jsonl"
# A link (recorded, never followed), a FIFO (never opened), a name with
# '%' and a byte that is not UTF-8 (escaped member name, path_b64).
ln -s ../../settings.json "$proj/link.jsonl"
mkfifo "$proj/pipe.jsonl"
printf '{"type":"summary","summary":"odd name"}\n' >"$proj/odd%name-$(printf '\377').jsonl"
# A SQLite store kept in WAL mode: the collector copies it with its -wal
# and -shm sidecars (the process exits without a checkpoint).
python3 - "$home/.codex/state_5.sqlite" <<'EOF'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA journal_mode=WAL")
c.execute("CREATE TABLE threads (id TEXT PRIMARY KEY, cwd TEXT, created_at INTEGER, title TEXT)")
c.execute("INSERT INTO threads VALUES ('t1', '/home/alice/demo', 1764410600, 'hello codex')")
c.commit()
os._exit(0)
EOF
find "$home" -exec touch -h -d '2026-11-29T12:00:00Z' {} +
chown -hR 1000:1000 "$home"

name=fake-home.tar.zst
enc=()
if [ -n "$recipients" ]; then
  name=fake-home.tar.zst.age
  enc=(--encrypt-to "$recipients")
fi
"$work/doubleagent-collector" --root "$root" --host "fixture-$ver" --case "CASE-${ver^^}" \
  --examiner "frozen format fixture" --max-file-size 40000 --log-format json "${enc[@]}" \
  -o "$out/$name"
echo "wrote $out/$name"
