package hermes

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)

const home = "/home/ex/.hermes"

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, orig, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, "/home/ex/"), Agent: agentName, Target: target, MTime: mtime}, nil)
	if !byID(t, id).Match(&in.File) {
		t.Fatalf("%s does not match %s", id, orig)
	}
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		sec := ""
		if e.Secondary {
			sec = " secondary"
		}
		fmt.Fprintf(&b, "%d %s %s %s model=%s id=%s rec=%s in=%s par=%s p=%s t=%s/%s%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.Model, e.ToolUseID, e.RecordID, e.ToolInput, e.ParentSessionID, e.ProjectPath, e.TimeString(), e.ToRow().TimeBasis, sec, e.Text)
	}
	return b.String()
}

const (
	s1  = "20260810_090000_a1b2c3"
	tg  = "20260810_100000_tg0001"
	sub = "20260810_090100_sub001"
	br  = "20260810_091500_br0001"
)

// TestStateDB: every row kind of state.db: lineage (subagent, branch),
// relay, rewound and compacted rows kept and marked with a row saying so,
// hidden context as system, model usage, heartbeats, deletion fences,
// conversation generations, an orphan message kept.
func TestStateDB(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state.sql")
	s := run(t, "hermes/state-db", db, home+"/state.db", "state-db", "state")
	r := strings.NewReplacer("{s1}", s1, "{tg}", tg, "{sub}", sub, "{br}", br)
	want := r.Replace(`1 {s1} system  model= id= rec=session:{s1} in= par= p=/home/ex/site t=2026-08-10T09:00:00.500Z/: "session: title: Clean logs; source cli; model anthropic/claude-sonnet-4.5; cwd /home/ex/site"
1 {s1} user  model= id= rec=msg:1 in= par= p=/home/ex/site t=2026-08-10T09:00:01.000Z/: "delete the old logs"
2 {s1} thinking  model=anthropic/claude-sonnet-4.5 id= rec=msg:2#reasoning in= par= p=/home/ex/site t=2026-08-10T09:00:02.000Z/: "Old logs are safe to remove."
2 {s1} tool_use terminal model=anthropic/claude-sonnet-4.5 id=call_h1 rec=call_h1 in={"command":"rm -rf logs/*.old"} par= p=/home/ex/site t=2026-08-10T09:00:02.000Z/: "rm -rf logs/*.old"
3 {s1} tool_result terminal model= id=call_h1 rec=call_h1#output in= par= p=/home/ex/site t=2026-08-10T09:00:03.000Z/: "{\"output\": \"\", \"exit_code\": 0}"
4 {s1} assistant  model=anthropic/claude-sonnet-4.5 id= rec=msg:4 in= par= p=/home/ex/site t=2026-08-10T09:00:04.000Z/: "Removed the old logs."
3 {sub} system  model= id= rec=session:{sub} in= par={s1} p= t=2026-08-10T09:01:00.000Z/: "session: source cli; model anthropic/claude-haiku-4.5; subagent {sub} of {s1}"
11 {sub} user  model= id= rec=msg:11 in= par={s1} p= t=2026-08-10T09:01:01.000Z/: "check disk usage of logs/"
5 {s1} user  model= id= rec=msg:5 in= par= p=/home/ex/site t=2026-08-10T09:01:40.000Z/: "[rewound] also wipe the database"
6 {s1} assistant  model=anthropic/claude-sonnet-4.5 id= rec=msg:6 in= par= p=/home/ex/site t=2026-08-10T09:01:41.000Z/: "[compacted] I will not wipe it without a backup."
6 {s1} system  model= id= rec=session:{s1}#rewound in= par= p=/home/ex/site t=2026-08-10T09:01:41.000Z/: "rewound or compacted: 2 record(s) are no longer active (kept above with their mark); session rewind_count 1"
7 {s1} system  model= id= rec=msg:7 in= par= p=/home/ex/site t=2026-08-10T09:01:42.000Z/: "user (hidden context): [System: the user switched model]"
2 {s1} system  model=openai/gpt-5 id= rec= in= par= p= t=2026-08-10T09:03:20.000Z/: "model used: openai/gpt-5 (openrouter): 1 api call(s), 900 input / 40 output tokens, last seen 2026-08-10T09:03:20Z"
1 {s1} system  model= id= rec=session:{s1}#end in= par= p=/home/ex/site t=2026-08-10T09:10:00.000Z/: "session ended: new_session"
4 {br} system  model= id= rec=session:{br} in= par={s1} p= t=2026-08-10T09:15:00.000Z/: "session: source cli; model anthropic/claude-sonnet-4.5; branched from {s1}"
2 {tg} system  model= id= rec=session:{tg} in= par= p=/home/ex t=2026-08-10T10:00:00.000Z/: "session: source telegram; model openai/gpt-5; cwd /home/ex; relayed through telegram chat 4242 (dm Anna)"
9 {tg} user  model= id= rec=msg:9 in= par= p=/home/ex t=2026-08-10T10:00:01.000Z/: "what is on my calendar?"
10 {tg} assistant  model=openai/gpt-5 id= rec=msg:10 in= par= p=/home/ex t=2026-08-10T10:00:02.000Z/: "Two meetings."
`)
	got := rows(s)
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("missing row:\n%s", line)
		}
	}
	for _, line := range []string{
		`12 20260801_000000_gone01 user  model= id= rec=msg:12 in= par= p= t=2026-08-01T00:00:00.000Z/: "a message whose session row was deleted"`,
		`1 {s1} system  model=anthropic/claude-sonnet-4.5 id= rec= in= par= p= t=2026-08-10T09:00:01.000Z/: "model used: anthropic/claude-sonnet-4.5 (openrouter): 3 api call(s), 1500 input / 200 output tokens, last seen 2026-08-10T09:00:04Z"`,
		`1  system  model= id= rec= in= par= p= t=2026-08-10T08:20:00.000Z/: "heartbeat hb1: status active, every 3600 s, fired 2 time(s), prompt: check the backups"`,
		`2  system  model= id= rec= in= par= p= t=/none: "deletion fence: deleted_sessions_fence = {\"session_ids\": [\"20260801_000000_gone01\"], \"at\": 1786000000}"`,
		`1  system  model= id= rec= in= par= p= t=/none: "conversation generation 3 on telegram agent:main:telegram:dm:4242 (a counter never reset, even when the sessions behind it are deleted)"`,
	} {
		if l := r.Replace(line); !strings.Contains(got, l+"\n") {
			t.Errorf("missing row:\n%s\ngot:\n%s", l, got)
		}
	}
	if len(s.Events) != 23 {
		t.Errorf("%d rows:\n%s", len(s.Events), got)
	}
	if c := s.SkipCounts(); c["no_evidence:empty_assistant"] != 1 || c["state_only"] != 1 || len(c) != 2 {
		t.Errorf("skips: %v", c)
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 12: orphan_record: message of session 20260801_000000_gone01 whose sessions row is gone: its rows are kept" {
		t.Errorf("problems: %v", s.Problems)
	}
	states := map[string]string{}
	for _, st := range s.States {
		states[st.Key.SessionID] = st.Relayed + "/" + st.ParentSessionID + "/" + st.ForkedFrom
	}
	if states[tg] != "yes//" || states[sub] != "no/"+s1+"/" || states[br] != "no/"+s1+"/"+s1 || states[s1] != "no//" {
		t.Errorf("states: %v", states)
	}
}

// TestStateSnapshot: a quick snapshot reads like state.db, every row
// secondary, after a row naming the snapshot.
func TestStateSnapshot(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state_old.sql")
	s := run(t, "hermes/state-db", db, home+"/state-snapshots/20260810-0900/state.db", "state-db", "state_snapshot_old")
	want := `1 old1 system  model= id= rec=session:old1 in= par= p= t=2025-10-09T08:53:20.000Z/ secondary: "session: source cli; model nous/hermes-4"
1 old1 user  model= id= rec=msg:1 in= par= p= t=2025-10-09T08:53:21.000Z/ secondary: "hi"
2 old1 assistant  model=nous/hermes-4 id= rec=msg:2 in= par= p= t=2025-10-09T08:53:22.000Z/ secondary: "Hello!"
0  system  model= id= rec= in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime secondary: "state snapshot 20260810-0900: a quick copy of state.db, read as a secondary source (file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestSessionDivert(t *testing.T) {
	s := run(t, "hermes/session-jsonl", "testdata/divert.jsonl", home+"/sessions/"+s1+".jsonl", "sessions", "divert")
	want := `1 {s1} user  model= id= rec= in= par= p= t=2026-08-10T09:05:00.000Z/ secondary: "this turn was written after state.db was replaced"
2 {s1} tool_use terminal model= id=call_d1 rec=call_d1 in={"command":"ls"} par= p= t=2026-08-10T09:05:01.000Z/ secondary: "ls"
3 {s1} tool_result terminal model= id=call_d1 rec=call_d1#output in= par= p= t=2026-08-10T09:05:02.000Z/ secondary: "a.txt"
`
	if got := rows(s); got != strings.ReplaceAll(want, "{s1}", s1) {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Problems) != 2 || s.Problems[0] != "line 4: skipped_record: message without a known role: critic" {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestPromptHistory(t *testing.T) {
	s := run(t, "hermes/prompt-history", "testdata/.hermes_history", home+"/.hermes_history", "prompt-history", "hermes_history")
	want := `2  user  model= id= rec= in= par= p= t=2026-08-10T11:00:00.250Z/local-as-utc secondary: "delete the old logs"
5  user  model= id= rec= in= par= p= t=2026-08-10T11:05:00.000Z/local-as-utc secondary: "/model openai/gpt-5"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestCronOutput(t *testing.T) {
	s := run(t, "hermes/cron-output", "testdata/2026-08-10_01-00-00.md", home+"/cron/output/backup-check/2026-08-10_01-00-00.md", "cron-output", "cron_output")
	want := `1  assistant  model= id= rec= in= par= p= t=2026-08-10T01:00:00.000Z/local-as-utc secondary: "cron job backup-check output: Backups checked: all 3 present.\n"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestPastes(t *testing.T) {
	s := run(t, "hermes/pastes", "testdata/pending.json", home+"/pastes/pending.json", "pastes", "pastes")
	// The same URL in two entries is two rows, each with its byte offset
	// as identity (issue 25 item 2: the parser drops no copy itself).
	want := `1  system  model= id= rec=pending.json@22 in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "debug share uploaded to https://paste.rs/AbC1 (hermes debug share; from .hermes/pastes/pending.json, file mtime)"
1  system  model= id= rec=pending.json@82 in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "debug share uploaded to https://paste.rs/AbC1 (hermes debug share; from .hermes/pastes/pending.json, file mtime)"
1  system  model= id= rec=pending.json@116 in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "debug share uploaded to https://paste.rs/zz9.log (hermes debug share; from .hermes/pastes/pending.json, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestApprovals: config.yaml's command_allowlist only (never the API key
// beside it), and a pairing store's approved users.
func TestApprovals(t *testing.T) {
	s := run(t, "hermes/approvals", "testdata/config.yaml", home+"/config.yaml", "approvals", "config")
	want := `7  system  model= id= rec= in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "permission setting: command_allowlist=rm -rf logs/*.old (from .hermes/config.yaml, file mtime)"
8  system  model= id= rec= in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "permission setting: command_allowlist=git push --force (from .hermes/config.yaml, file mtime)"
`
	if got := rows(s); got != want || strings.Contains(string(parsertest.Render(s)), "sk-ant") {
		t.Fatalf("rows:\n%s", got)
	}
	p := run(t, "hermes/approvals", "testdata/telegram-approved.json", home+"/pairing/telegram-approved.json", "approvals", "telegram_approved")
	want = `2  system  model= id= rec= in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "permission setting: approved telegram user 4242 (Anna, approved 2026-08-09T18:26:40Z) (from .hermes/pairing/telegram-approved.json, file mtime)"
3  system  model= id= rec= in= par= p= t=2026-08-10T12:00:00.000Z/file-mtime: "permission setting: approved telegram user 777 (from .hermes/pairing/telegram-approved.json, file mtime)"
`
	if got := rows(p); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestNotHermesDB(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state_old.sql")
	_ = db
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/empty.sql"), parser.File{Path: home + "/state.db", Agent: agentName, Target: "state-db"}, nil)
	s := parsertest.Run(t, byID(t, "hermes/state-db"), in)
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: no sessions and messages tables: not a Hermes state database" {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// alterCopy builds the fixture store from sql into a temp file and runs
// stmts on that copy (a renamed column: the schema of a version the
// parser does not know).
func alterCopy(t *testing.T, sqlPath string, stmts ...string) string {
	t.Helper()
	p := parsertest.SQLite(t, sqlPath)
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return p
}

func countRows(s *parsertest.Sink, prefix string) int {
	n := 0
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, prefix) {
			n++
		}
	}
	return n
}

// TestStateDBUnknownSchema: a copy of the fixture store whose messages
// table lacks content and whose session_model_usage lacks model (renamed):
// one problem names both tables and their missing columns, those tables
// give no rows, and every other table is still read as in the full store.
func TestStateDBUnknownSchema(t *testing.T) {
	orig := parser.File{Path: home + "/state.db", Agent: agentName, Target: "state-db", MTime: mtime}
	full := parsertest.Run(t, byID(t, "hermes/state-db"), parsertest.Input(t, parsertest.SQLite(t, "testdata/state.sql"), orig, nil))
	p := alterCopy(t, "testdata/state.sql",
		`ALTER TABLE messages RENAME COLUMN content TO body`,
		`ALTER TABLE session_model_usage RENAME COLUMN model TO model_name`)
	s := parsertest.Run(t, byID(t, "hermes/state-db"), parsertest.Input(t, p, orig, nil))
	want := "line 0: unknown schema: table messages lacks column(s) content; table session_model_usage lacks column(s) model: not read; the other tables are read"
	if len(s.Problems) != 1 || s.Problems[0] != want {
		t.Fatalf("problems %q, want [%q]", s.Problems, want)
	}
	for _, c := range []struct {
		prefix   string
		got, all int
	}{
		{"session: ", 4, 4},
		{"conversation generation ", 1, 1},
		{"model used: ", 0, 2},
	} {
		if n, m := countRows(s, c.prefix), countRows(full, c.prefix); n != c.got || m != c.all {
			t.Errorf("%q rows: %d (full store %d), want %d (full %d)", c.prefix, n, m, c.got, c.all)
		}
	}
	for _, e := range s.Events {
		if e.TurnType == timeline.User || e.TurnType == timeline.Assistant {
			t.Errorf("a messages row read from a table of unknown schema: %+v", e)
		}
	}
}
