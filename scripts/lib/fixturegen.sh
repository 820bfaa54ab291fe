# Shared by the real-agent fixture generators (scripts/gen-*.sh), sourced
# after REPO, WORK and log() are set; the generators set AGENT_ENV and SCEN
# (and RUN_DIR, RUN_TIMEOUT where run needs them). Not run by CI, but
# lib/fixturegen-check.sh runs its functions dry in scripts/test.sh.

# The generators' Python steps import lib/fixturegen_expect.py (the mock's
# view of each scenario run, for expect.json).
export PYTHONPATH="$REPO/scripts/lib${PYTHONPATH:+:$PYTHONPATH}"

# start_mock [MOCKMODEL FLAG...]: build fixtures/cmd/mockmodel into $WORK,
# start it on a loopback port with the flags given, and set MOCKLOG (its
# request log), MOCK_PID and ADDR (host:port). The caller sets its own
# EXIT trap to stop it.
start_mock() {
  log "building mockmodel"
  (cd "$REPO/fixtures" && go build -o "$WORK/mockmodel" ./cmd/mockmodel)
  MOCKLOG=$WORK/mock.jsonl
  : >"$MOCKLOG"; rm -f "$WORK/addr"
  "$WORK/mockmodel" -addr 127.0.0.1:0 -log "$MOCKLOG" -addrfile "$WORK/addr" "$@" >"$WORK/mock.stderr" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 50); do [ -s "$WORK/addr" ] && break; sleep 0.1; done
  ADDR=$(cat "$WORK/addr")
  log "mockmodel on $ADDR (pid $MOCK_PID)"
}

# init_demo_repo NAME EMAIL README: make the current folder a git
# repository with one commit of README.md, at a fixed date.
init_demo_repo() {
  git init -q -b main .
  git config user.name "$1"
  git config user.email "$2"
  printf '%s' "$3" >README.md
  git add README.md
  GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z git commit -q -m "Initial commit"
}

# now: the UTC time to the millisecond; uuid: a random UUID.
now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
uuid() { cat /proc/sys/kernel/random/uuid; }

# pkgver PKG: the version of the npm package PKG installed under $WORK/prefix.
pkgver() { node -e "console.log(require('$WORK/prefix/node_modules/$1/package.json').version)"; }

# install_claude: npm-install Claude Code (CLAUDE_VERSION, default 2.1.332)
# under $WORK/prefix, readable by the run user; sets V_CLAUDE and BIN.
install_claude() {
  mkdir -p "$WORK/prefix" "$WORK/runs"
  npm install --silent --no-fund --no-audit --prefix "$WORK/prefix" \
    "@anthropic-ai/claude-code@${CLAUDE_VERSION:-2.1.332}" >"$WORK/npm.log" 2>&1
  V_CLAUDE=$(pkgver @anthropic-ai/claude-code)
  BIN=$WORK/prefix/node_modules/.bin
  log "claude-code $V_CLAUDE"
  chmod -R a+rX "$WORK/prefix"
}

# claude_user DIR CMD...: run CMD in DIR as uid $RUN_UID with home $EH and
# user $U, nothing of the caller's environment but $BIN and node on PATH
# and Claude Code pointed at the mock ($ADDR), for 600 s at most.
claude_user() {
  local dir=$1; shift
  (cd "$dir" && timeout 600 setpriv --reuid="$RUN_UID" --regid="$RUN_UID" --clear-groups \
    env -i HOME="$EH" USER="$U" LOGNAME="$U" SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm \
    PATH="$BIN:$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin" \
    DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    ANTHROPIC_BASE_URL="http://$ADDR" ANTHROPIC_API_KEY=dummy NO_COLOR=1 npm_config_offline=true "$@")
}

# claude_run DIR SID PROMPT FLAG...: one headless `claude -p` run in DIR as
# claude_user, with the variables of the CLAUDE_ENV array added; its output
# in $WORK/runs/SID.out and .err, its exit code in RC.
claude_run() {
  local dir=$1 sid=$2 prompt=$3; shift 3
  set +e
  claude_user "$dir" env ${CLAUDE_ENV[@]+"${CLAUDE_ENV[@]}"} claude -p "$prompt" --session-id "$sid" "$@" \
    </dev/null >"$WORK/runs/$sid.out" 2>"$WORK/runs/$sid.err"
  RC=$?
  set -e
}

# The prompts every generator gives its agents.
PROMPT_CMD() { printf 'Run the shell command `%s` and tell me what it printed.' "$1"; }
PROMPT_WRITE() { printf 'Create the file `%s` containing `%s` and tell me when it is done.' "$1" "$2"; }

# record AGENT NAME SESSION PROMPT COMMAND EXPECT_SUBSTR STARTED ENDED RC [EXTRA_JSON]:
# appends one scenario line to $SCEN (the expect.json input).
record() {
  local extra=${10:-}; [ -n "$extra" ] || extra='{}'
  jq -nc --arg agent "$1" --arg name "$2" --arg sid "$3" --arg prompt "$4" --arg cmd "$5" \
    --arg out "$6" --arg s "$7" --arg e "$8" --argjson rc "$9" --argjson extra "$extra" \
    '{agent:$agent, scenario:$name, session_id:$sid, prompt:$prompt, command:$cmd,
      output_contains:$out, started_utc:$s, ended_utc:$e, exit_code:$rc} + $extra' >>"$SCEN"
}

# Extra fields of a scenario line: the file a run wrote, the session a run
# resumed and its model, the time run_killed killed it.
file_extra() { jq -nc --arg f "$1" --arg c "$2" '{file_path:$f, file_content:($c + "\n")}'; }
resume_extra() { jq -nc --arg s "$1" --arg m "$2" '{resumed_session_id:$s, model:$m}'; }
killed_extra() { jq -nc --arg k "$KILLED_UTC" '{killed_with:"SIGKILL", killed_utc:$k}'; }

# run_args NAME [VAR=VALUE...] -- CMD...: sets RUN_NAME, RUN_ENV (the
# VAR=VALUEs) and RUN_CMD; fails without the --.
run_args() {
  RUN_NAME=$1; shift
  RUN_ENV=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do RUN_ENV+=("$1"); shift; done
  if [ $# -eq 0 ]; then log "run $RUN_NAME: no -- before the command"; return 2; fi
  shift
  RUN_CMD=("$@")
}

# run NAME [VAR=VALUE...] -- CMD...: runs an agent (AGENT_ENV, the
# VAR=VALUEs, CMD) in ${RUN_DIR:-the current folder} under timeout
# (RUN_TIMEOUT, the words before the command: default 300 seconds), stdin
# closed, output to $WORK/runs/NAME.{out,err}; sets RC, T0, T1.
run() {
  run_args "$@" || return
  local to=(300)
  [ -z "${RUN_TIMEOUT+x}" ] || to=("${RUN_TIMEOUT[@]}")
  T0=$(now)
  set +e
  (cd "${RUN_DIR:-.}" && timeout "${to[@]}" "${AGENT_ENV[@]}" "${RUN_ENV[@]}" "${RUN_CMD[@]}" </dev/null >"$WORK/runs/$RUN_NAME.out" 2>"$WORK/runs/$RUN_NAME.err")
  RC=$?
  set -e
  T1=$(now)
  log "$RUN_NAME: exit $RC"
}

# run_killed NAME [VAR=VALUE...] -- CMD...: starts the agent in its own
# process group, waits until the mock ($MOCKLOG) logs that it is stalling
# mid-answer, then SIGKILLs the group; sets RC, T0, T1 and KILLED_UTC.
run_killed() {
  run_args "$@" || return
  local before; before=$(wc -l <"$MOCKLOG")
  T0=$(now)
  setsid "${AGENT_ENV[@]}" "${RUN_ENV[@]}" "${RUN_CMD[@]}" </dev/null >"$WORK/runs/$RUN_NAME.out" 2>"$WORK/runs/$RUN_NAME.err" &
  local pid=$!
  for _ in $(seq 600); do
    tail -n +"$((before + 1))" "$MOCKLOG" | grep -q '"action":"stall"' && break
    sleep 0.2
  done
  sleep 2
  kill -KILL -- "-$pid" 2>/dev/null || true
  set +e; wait "$pid"; RC=$?; set -e
  T1=$(now)
  KILLED_UTC=$T1
  log "$RUN_NAME: killed, exit $RC"
}
