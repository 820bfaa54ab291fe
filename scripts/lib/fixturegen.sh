# Shared by the real-agent fixture generators (scripts/gen-*.sh), sourced
# after REPO, WORK and log() are set. Not run by CI.

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
