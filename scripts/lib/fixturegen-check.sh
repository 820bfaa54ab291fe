#!/usr/bin/env bash
# A dry run of the functions scripts/lib/fixturegen.sh gives the real-agent
# fixture generators, without agents, npm or a mock model: each is run on
# stand-in commands in a temporary folder and its effect checked exactly.
# scripts/test.sh runs it.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
log() { printf '[check] %s\n' "$*" >>"$WORK/log"; }
# shellcheck source=fixturegen.sh
. "$REPO/scripts/lib/fixturegen.sh"
fail() { echo "fixturegen-check: $*" >&2; exit 1; }
mkdir -p "$WORK/runs" "$WORK/demo"
AGENT_ENV=(env -i PATH="$PATH" HOME="$WORK")
SCEN=$WORK/scen.jsonl

[[ $(now) =~ ^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}Z$ ]] || fail "now: $(now)"
[[ $(uuid) =~ ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$ ]] || fail "uuid: $(uuid)"
[ "$(PROMPT_CMD 'echo hi')" = 'Run the shell command `echo hi` and tell me what it printed.' ] || fail PROMPT_CMD
[ "$(PROMPT_WRITE a.txt x)" = 'Create the file `a.txt` containing `x` and tell me when it is done.' ] || fail PROMPT_WRITE

# run: the VAR=VALUEs reach the command, in RUN_DIR, stdin closed; RC, T0, T1.
RUN_DIR=$WORK/demo run r1 GREETING=hi -- sh -c 'printf "%s %s " "$GREETING" "$(pwd)"; cat; echo; exit 3'
[ "$RC" = 3 ] || fail "run: RC $RC"
[ "$(cat "$WORK/runs/r1.out")" = "hi $WORK/demo " ] || fail "run: out $(cat "$WORK/runs/r1.out")"
[[ "$T0" < "$T1" || "$T0" = "$T1" ]] || fail "run: T0 $T0 T1 $T1"
run r2 -- sh -c 'pwd; echo err >&2'
[ "$RC" = 0 ] && [ "$(cat "$WORK/runs/r2.out")" = "$(pwd)" ] && [ "$(cat "$WORK/runs/r2.err")" = err ] || fail "run without RUN_DIR: $RC"
RUN_TIMEOUT=(-k 1 1)
run r3 -- sleep 20
unset RUN_TIMEOUT
[ "$RC" = 124 ] || fail "run under RUN_TIMEOUT: RC $RC, want 124"
if (run r4 sh -c true) 2>/dev/null; then fail "run without -- succeeded"; fi
grep -q 'run r4: no -- before the command' "$WORK/log" || fail "run without --: not logged"

# run_killed: killed with its process group once the mock log says stall.
MOCKLOG=$WORK/mock.jsonl
: >"$MOCKLOG"
(sleep 1; echo '{"action":"stall"}' >>"$MOCKLOG") &
run_killed k1 -- sh -c 'sleep 30 & sleep 30' 2>/dev/null
[ "$RC" = 137 ] && [ "$KILLED_UTC" = "$T1" ] || fail "run_killed: RC $RC killed $KILLED_UTC T1 $T1"

# record and the extras: one scenario line each, exactly.
record claude-code basic S 'p "q"' 'echo hi' hi 2026-01-01T00:00:00.000Z 2026-01-01T00:00:01.000Z 0
record codex edit S2 p c o s e 1 "$(file_extra /d/a.txt x)"
record gemini resume S3 p c o s e 0 "$(resume_extra S m2)"
KILLED_UTC=K
record pi killed S4 p c o s e 137 "$(killed_extra)"
want='{"agent":"claude-code","scenario":"basic","session_id":"S","prompt":"p \"q\"","command":"echo hi","output_contains":"hi","started_utc":"2026-01-01T00:00:00.000Z","ended_utc":"2026-01-01T00:00:01.000Z","exit_code":0}
{"agent":"codex","scenario":"edit","session_id":"S2","prompt":"p","command":"c","output_contains":"o","started_utc":"s","ended_utc":"e","exit_code":1,"file_path":"/d/a.txt","file_content":"x\n"}
{"agent":"gemini","scenario":"resume","session_id":"S3","prompt":"p","command":"c","output_contains":"o","started_utc":"s","ended_utc":"e","exit_code":0,"resumed_session_id":"S","model":"m2"}
{"agent":"pi","scenario":"killed","session_id":"S4","prompt":"p","command":"c","output_contains":"o","started_utc":"s","ended_utc":"e","exit_code":137,"killed_with":"SIGKILL","killed_utc":"K"}'
[ "$(cat "$SCEN")" = "$want" ] || { diff <(echo "$want") "$SCEN" >&2; fail record; }

# init_demo_repo: one commit at the fixed date.
(cd "$WORK/demo" && init_demo_repo Dev dev@example.com "# demo\n") >/dev/null
[ "$(git -C "$WORK/demo" log --format='%an %ae %aI %s')" = "Dev dev@example.com 2026-01-01T00:00:00+00:00 Initial commit" ] || fail init_demo_repo
# sanitize-claude-home.py: caches and links dropped, credentials replaced,
# long vendor text elided unless it holds a KEEP marker, mtimes kept.
SH=$WORK/sh/home/u
mkdir -p "$SH/.claude/projects/p" "$SH/.claude/statsig"
long=$(printf 'x%.0s' $(seq 3000))
printf '{"a":"%s","b":"short"}\n{"a":"%skeepme"}\n' "$long" "$long" >"$SH/.claude/projects/p/s.jsonl"
touch -d 2026-01-02T03:04:05Z "$SH/.claude/projects/p/s.jsonl"
echo tok >"$SH/.claude/.credentials.json"
echo c >"$SH/.claude/statsig/c"
ln -s /etc/hostname "$SH/.claude/link"
python3 "$(dirname "$0")/sanitize-claude-home.py" "$SH" keepme
[ "$(head -1 "$SH/.claude/projects/p/s.jsonl")" = '{"a":"[doubleagent fixture: vendor text elided, 3000 bytes]","b":"short"}' ] || fail "sanitize: long text"
[ "$(sed -n 2p "$SH/.claude/projects/p/s.jsonl" | wc -c)" = 3015 ] || fail "sanitize: KEEP marker"
[ "$(date -u -r "$SH/.claude/projects/p/s.jsonl" +%FT%TZ)" = 2026-01-02T03:04:05Z ] || fail "sanitize: mtime"
[ "$(cat "$SH/.claude/.credentials.json")" = REDACTED-FIXTURE ] && [ ! -e "$SH/.claude/statsig" ] && [ ! -L "$SH/.claude/link" ] || fail "sanitize: credentials, caches, links"
# fixturegen_expect.py: the mock's view of a run, from a stand-in request log.
cat >"$WORK/mock.jsonl" <<'LOG'
{"kind":"request","api":"openai-chat","time":"2026-01-02T03:04:05.500Z"}
{"kind":"event","api":"openai-chat","time":"2026-01-02T03:04:05.600123456Z","action":"tool_call","tool":"Bash","id":"c1","command":"echo hi","subagent_prompt":"p"}
{"kind":"event","api":"openai-chat","time":"2026-01-02T03:04:06Z","action":"final_text","tool_result":"hi","is_error":false}
{"kind":"event","api":"openai-chat","time":"2026-01-02T03:04:06.1Z","action":"http_error"}
{"kind":"event","api":"anthropic","time":"2026-01-02T03:04:06.2Z","action":"stall"}
{"kind":"event","api":"openai-chat","time":"2026-01-02T03:04:09Z","action":"stall"}
LOG
got=$(python3 - "$WORK/mock.jsonl" <<'PY'
import json, sys
from fixturegen_expect import mock_view, read_events, take_basic
ev = read_events(sys.argv[1])
s = {"scenario": "basic", "session_id": "S", "prompt": "P", "command": "C", "output_contains": "O",
     "started_utc": "2026-01-02T03:04:05.5Z", "ended_utc": "2026-01-02T03:04:08Z"}
ag = {"scenarios": []}
s["mock"] = mock_view(ev, "openai-chat", s)
take_basic(ag, s)
print(json.dumps([len(ev), ag["session_id"], len(ag["scenarios"]), s["mock"],
                  mock_view(ev, "openai-chat", s, subagent=False, stalled=False)], sort_keys=True))
PY
)
want='[5, "S", 1, {"http_errors": 1, "stalled": false, "tool_calls": [{"command": "echo hi", "id": "c1", "subagent_prompt": "p", "tool": "Bash"}], "tool_results": [{"is_error": false, "tool_result": "hi"}]}, {"http_errors": 1, "tool_calls": [{"command": "echo hi", "id": "c1", "tool": "Bash"}], "tool_results": [{"is_error": false, "tool_result": "hi"}]}]'
[ "$got" = "$want" ] || fail "fixturegen_expect: $got"
echo "fixturegen-check: ok"
