package cortex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const (
	uuid = "c0c0a000-0000-4000-8000-000000000001"
	dir  = ".snowflake/cortex/conversations/"
)

func run(t *testing.T, id int, local, rel, target, golden string, related ...parsertest.Files) *parsertest.Sink {
	t.Helper()
	var rf parsertest.Files
	if len(related) > 0 {
		rf = related[0]
	}
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target}, rf)
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s rec=%s id=%s in=%s err=%s replayed=%v t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.Replayed, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestHistory: the folder from the session file beside it; only the typed text is a user row (the reminder is a system
// row); the internal-only assistant text a system row; thinking blocks
// (text or thinking member) thinking rows, an empty one a Skip; calls and results by
// id with status; times recorded on prompts and inherited after; an unknown
// block, an unknown role and a cut line counted.
func TestHistory(t *testing.T) {
	rel := dir + uuid + ".history.jsonl"
	s := run(t, 1, "testdata/home/"+rel, rel, "history", "history",
		parsertest.Files{"/home/ex/" + dir + uuid + ".json": "testdata/home/" + dir + uuid + ".json"})
	want := strings.ReplaceAll(strings.ReplaceAll(`1 system  sid=U proj= rec=m1 id= in= err= replayed=false t=2026-11-24T10:00:05.000Z/: "injected in the user role (not typed): <system-reminder>skills: sql</system-reminder>"
1 user  sid=U proj= rec=m1#1 id= in= err= replayed=false t=2026-11-24T10:00:05.000Z/: "count the rows in ORDERS"
2 assistant  sid=U proj= rec=m2 id= in= err= replayed=false t=2026-11-24T10:00:05.000Z/inherited: "Running SQL."
2 system  sid=U proj= rec=m2#1 id= in= err= replayed=false t=2026-11-24T10:00:05.000Z/inherited: "internal only (not shown to the person): plan: use warehouse X"
2 tool_use snowflake_sql_execute sid=U proj= rec=m2#2 id=tu1 in={"query":"select count(*) from ORDERS"} err= replayed=false t=2026-11-24T10:00:05.000Z/inherited: "select count(*) from ORDERS"
3 tool_result snowflake_sql_execute sid=U proj= rec=m3 id=tu1 in= err=false replayed=false t=2026-11-24T10:00:05.000Z/inherited: "42"
4 user  sid=U proj= rec=m4 id= in= err= replayed=false t=2026-11-24T10:01:00.000Z/: "now drop it"
5 thinking  sid=U proj= rec=m5 id= in= err= replayed=false t=2026-11-24T10:01:00.000Z/inherited: "no"
5 thinking  sid=U proj= rec=m5#1 id= in= err= replayed=false t=2026-11-24T10:01:00.000Z/inherited: "It asks to delete everything."
5 tool_use bash sid=U proj= rec=m5#2 id=tu2 in={"command":"rm -rf /"} err= replayed=false t=2026-11-24T10:01:00.000Z/inherited: "rm -rf /"
6 tool_result bash sid=U proj= rec=m6 id=tu2 in= err=true replayed=false t=2026-11-24T10:01:00.000Z/inherited: "denied"
`, "proj= ", "proj=/home/ex/proj "), "U", uuid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 7: skipped_record: a message of role system|line 8: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
	if got := fmt.Sprint(s.Skips); got != "[{5 no_evidence:empty_thinking}]" {
		t.Errorf("skips %s", got)
	}
}

// TestSession: the metadata row, one row per cached permission decision
// (sorted by tool), an unknown member counted.
func TestSession(t *testing.T) {
	rel := dir + uuid + ".json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "session")
	want := strings.ReplaceAll(`0 system  sid=U proj=/home/ex/proj rec=U#session id= in= err= replayed=false t=2026-11-24T10:00:00.000Z/: "session U; title Chat for session: c0c0a000; type interactive; connection prod; git main; git root /home/ex/proj; updated 2026-11-24T10:03:00Z; history length 4"
0 system bash sid=U proj=/home/ex/proj rec=U#permission:bash id= in= err= replayed=false t=2026-11-24T10:00:00.000Z/: "cached permission decision for bash: allow_session"
0 system write sid=U proj=/home/ex/proj rec=U#permission:write id= in= err= replayed=false t=2026-11-24T10:00:00.000Z/: "cached permission decision for write: deny"
`, "U", uuid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != "line 0: skipped_record: a session member ui_state" {
		t.Errorf("problems %q", got)
	}
}

// TestBackup: a cut backup with an inline history: its rows are replayed
// (the live file wins an identity merge), the message only it holds stays,
// the cut is named, and the metadata row still comes.
func TestBackup(t *testing.T) {
	rel := dir + uuid + ".back.1764000000.json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "backup")
	want := strings.ReplaceAll(`0 system  sid=U proj=/home/ex/proj rec=U#session id= in= err= replayed=true t=2026-11-24T10:00:00.000Z/: "session U; backup copy U.back.1764000000.json"
1 user  sid=U proj=/home/ex/proj rec=m1 id= in= err= replayed=true t=2026-11-24T10:00:05.000Z/: "count the rows in ORDERS"
2 assistant  sid=U proj=/home/ex/proj rec=m2 id= in= err= replayed=true t=2026-11-24T10:00:05.000Z/inherited: "Sure."
3 user  sid=U proj=/home/ex/proj rec=m9 id= in= err= replayed=true t=2026-11-24T10:00:05.000Z/inherited: "a prompt the live file no longer holds"
`, "U", uuid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != "line 4: session cut short at history message 4: unexpected end of JSON input" {
		t.Errorf("problems %q", got)
	}
}

// TestEmpty: an empty history gives nothing; a session that is not an
// object is one problem.
func TestEmpty(t *testing.T) {
	s := run(t, 1, "testdata/empty.jsonl", dir+"x.history.jsonl", "history", "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
	s = run(t, 0, "testdata/null.json", dir+"x.json", "sessions", "null")
	if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != "line 0: not a session: the file is not a JSON object" {
		t.Errorf("rows %d, problems %q", len(s.Events), got)
	}
}
