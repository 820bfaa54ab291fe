package kiro

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	kiroSID = "5e55100e-0000-4000-8000-000000000001"
	sessDir = home + "/.kiro/sessions/cli/"
)

func runSession(t *testing.T, local, orig, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	p := byID(t, "kiro/sessions")
	f := parser.File{Path: orig, Target: "kiro-sessions", Agent: Agent, MTime: mtime}
	if !p.Match(&f) {
		t.Fatalf("kiro/sessions does not match %s", orig)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, related), golden)
}

// TestSessionLog: a Kiro CLI 2.x transcript with its state file beside
// it: the prompt at its meta.timestamp, thinking, reply and tool calls
// with full input at the prompt's time (inherited: they record none), results paired by toolUseId with
// is_error from status, /clear kept as a row, an image counted, an empty
// reply a counted skip, an unknown record kind a skipped_record problem
// and a cut line a problem.
func TestSessionLog(t *testing.T) {
	dir := "testdata/kiro-sessions/cli/"
	s := runSession(t, dir+kiroSID+".jsonl", sessDir+kiroSID+".jsonl", "testdata/session_log.golden.jsonl",
		parsertest.Files{sessDir + kiroSID + ".json": dir + kiroSID + ".json"})
	u := find(t, s, timeline.User, "find the failing test")
	if u.SessionID != kiroSID || u.ProjectPath != home+"/calc" || !u.Time.Equal(time.UnixMilli(1795431600250).UTC()) || u.RecordID != "p-1#prompt" || u.SourceLine != 1 {
		t.Fatalf("prompt %+v", u)
	}
	call := find(t, s, timeline.ToolUse, "shell")
	if call.ToolUseID != "tooluse_s1" || call.ToolInput != `{"command":"go test ./...","summary":"run tests"}` || call.TimeBasis != timeline.TimeInherited || !call.Time.Equal(time.UnixMilli(1795431600250).UTC()) || call.SourceLine != 2 {
		t.Fatalf("tool call %+v", call)
	}
	res := find(t, s, timeline.ToolResult, "FAIL: TestAdd")
	if res.ToolName != "shell" || res.IsError != "true" || res.RecordID != "tooluse_s1#result" || res.Text != "--- FAIL: TestAdd (0.00s)\nFAIL" {
		t.Fatalf("tool result %+v", res)
	}
	if e := find(t, s, timeline.ToolUse, "write"); e.ToolInput != `{"command":"strReplace","path":"add.go","oldStr":"a - b","newStr":"a + b"}` {
		t.Fatalf("edit call %+v", e)
	}
	if e := find(t, s, timeline.ToolResult, "Replaced 1"); e.IsError != "false" || e.ToolName != "write" {
		t.Fatalf("edit result %+v", e)
	}
	if e := find(t, s, timeline.Thinking, "run the tests first"); e.RecordID != "a-1#0" {
		t.Fatalf("thinking %+v", e)
	}
	if e := find(t, s, timeline.System, "conversation cleared (/clear)"); e.SourceLine != 7 || e.TimeBasis != timeline.TimeInherited {
		t.Fatalf("clear %+v", e)
	}
	if e := find(t, s, timeline.System, "prompt attachment: 1 image block"); e.RecordID != "p-2#attach-image" {
		t.Fatalf("image %+v", e)
	}
	if len(s.Skips) != 1 || s.Skips[0].Line != 9 || s.Skips[0].Reason != "no_evidence:empty_message" {
		t.Fatalf("skips %+v", s.Skips)
	}
	want := `line 10: skipped_record: session record kind "Compaction" not known: not read|line 11: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input`
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
	if count(s, "iVBORw0K") != 0 {
		t.Fatal("image bytes written")
	}
	// without the state file: the session is the file's name, no project
	n := runSession(t, dir+kiroSID+".jsonl", sessDir+kiroSID+".jsonl", "testdata/session_log_alone.golden.jsonl", nil)
	if e := find(t, n, timeline.User, "find the failing test"); e.SessionID != kiroSID || e.ProjectPath != "" {
		t.Fatalf("prompt without state %+v", e)
	}
}

// TestSessionState: <id>.json gives the session row and each user turn's
// metadata; a file that does not decode is one problem; an IDE
// messages.jsonl line with no payload is one skipped_record problem, and
// a file of no known name under .kiro/sessions (a snapshot) another.
func TestSessionState(t *testing.T) {
	dir := "testdata/kiro-sessions/cli/"
	s := runSession(t, dir+kiroSID+".json", sessDir+kiroSID+".json", "testdata/session_state.golden.jsonl", nil)
	if len(s.Events) != 2 || len(s.Problems) != 0 {
		t.Fatalf("state rows %d problems %q", len(s.Events), s.Problems)
	}
	h := s.Events[0]
	if h.Text != "session "+kiroSID+" of "+home+"/calc: Fix the failing test model=claude-sonnet-4.5 (created_at 2026-11-23T10:59:59.921363Z, updated_at 2026-11-23T11:01:45Z)" || h.Model != "claude-sonnet-4.5" || h.RecordID != kiroSID+"#session" {
		t.Fatalf("session row %+v", h)
	}
	m := s.Events[1]
	if m.Text != `turn 1 metadata: context_usage_percentage=4.2 end_timestamp=1795431615 input_token_count=1200 message_ids=["p-1","a-1","a-3"] output_token_count=340 total_request_count=3 turn_duration=12.5` || !m.Time.Equal(time.Unix(1795431615, 0).UTC()) {
		t.Fatalf("turn row %+v", m)
	}
	b := runSession(t, dir+"broken.json", sessDir+"broken.json", "testdata/session_state_broken.golden.jsonl", nil)
	if len(b.Events) != 0 || strings.Join(b.Problems, "|") != "line 1: Kiro CLI session state is not a JSON object: unexpected end of JSON input" {
		t.Fatalf("broken state: %d rows %q", len(b.Events), b.Problems)
	}
	o := parsertest.Run(t, byID(t, "kiro/sessions"), parsertest.Input(t, "testdata/kiro-sessions/ide/sess_1/messages.jsonl", parser.File{Path: home + "/.kiro/sessions/calc/sess_1/messages.jsonl", Target: "kiro-sessions", Agent: Agent, MTime: mtime}, nil))
	if len(o.Events) != 0 || strings.Join(o.Problems, "|") != "line 1: skipped_record: a Kiro IDE session event with no payload type" {
		t.Fatalf("IDE file: %d rows %q", len(o.Events), o.Problems)
	}
	x := parsertest.Run(t, byID(t, "kiro/sessions"), parsertest.Input(t, "testdata/kiro-sessions/ide/sess_1/messages.jsonl", parser.File{Path: home + "/.kiro/sessions/calc/sess_1/snapshots/a.txt.json", Target: "kiro-sessions", Agent: Agent, MTime: mtime}, nil))
	if len(x.Events) != 0 || strings.Join(x.Problems, "|") != "line 0: skipped_record: not a Kiro session file (known: .kiro/sessions/cli/<id>.jsonl, <id>.json, <id>.lock and sess_<id>.history, and the IDE's .kiro/sessions/<workspace>/<session>/session.json and messages.jsonl): not read" {
		t.Fatalf("IDE snapshot: %d rows %q", len(x.Events), x.Problems)
	}
}

// TestPromptAttachmentOrder: a prompt's non-text blocks are counted by
// kind, one row per kind in the order the record first holds each (source
// order), the same on every run (a map's order would vary).
func TestPromptAttachmentOrder(t *testing.T) {
	local := t.TempDir() + "/" + kiroSID + ".jsonl"
	line := `{"version":"v1","kind":"Prompt","data":{"message_id":"p-9","content":[` +
		`{"kind":"document","data":{"name":"a.pdf"}},{"kind":"text","data":"read these"},` +
		`{"kind":"image","data":{"format":"png"}},{"kind":"document","data":{"name":"b.pdf"}},` +
		`{"kind":"video","data":{}},{"kind":"image","data":{"format":"jpeg"}}],"meta":{"timestamp":1795431700}}}` + "\n"
	if err := os.WriteFile(local, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "user read these p-9#prompt|system prompt attachment: 2 document blocks p-9#attach-document|" +
		"system prompt attachment: 2 image blocks p-9#attach-image|system prompt attachment: 1 video block p-9#attach-video"
	for run := 0; run < 20; run++ {
		s := parsertest.Run(t, byID(t, "kiro/sessions"), parsertest.Input(t, local, parser.File{Path: sessDir + kiroSID + ".jsonl", Target: "kiro-sessions", Agent: Agent, MTime: mtime}, nil))
		var got []string
		for _, e := range s.Events {
			got = append(got, string(e.TurnType)+" "+e.Text+" "+e.RecordID)
		}
		if g := strings.Join(got, "|"); g != want {
			t.Fatalf("run %d:\n%s\nwant\n%s", run, g, want)
		}
	}
}

// TestSessionStoreOtherFiles: the CLI store's <id>.lock is a counted
// skip and its sess_<id>.history (cass 28b3191 names both) is read as
// rustyline history when it has the #V2 header: each line a secondary
// user row of session <id>, unescaped, with no time; without the header
// it is one skipped_record problem and no row; a file of another kind in
// cli/ is one skipped_record problem.
func TestSessionStoreOtherFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		if err := os.WriteFile(dir+"/"+name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir + "/" + name
	}
	p := byID(t, "kiro/sessions")
	run := func(local, name string) *parsertest.Sink {
		f := parser.File{Path: sessDir + name, Target: "kiro-sessions", Agent: Agent, MTime: mtime}
		if !p.Match(&f) {
			t.Fatalf("kiro/sessions does not match %s", name)
		}
		return parsertest.Run(t, p, parsertest.Input(t, local, f, nil))
	}
	l := run(write(kiroSID+".lock", "4242\n"), kiroSID+".lock")
	if len(l.Events) != 0 || len(l.Problems) != 0 || len(l.Skips) != 1 || l.Skips[0].Reason != "state_only:session-lock" {
		t.Fatalf("lock: rows %d problems %q skips %+v", len(l.Events), l.Problems, l.Skips)
	}
	h := run(write("sess_"+kiroSID+".history", "#V2\nfix the failing test\nrun it\\nagain\n"), "sess_"+kiroSID+".history")
	var got []string
	for _, e := range h.Events {
		got = append(got, fmt.Sprintf("%s|%s|%v|%d|%s|%s", e.TurnType, e.SessionID, e.Secondary, e.SourceLine, e.TimeBasis, e.Text))
	}
	want := "user|" + kiroSID + "|true|2|none|fix the failing test\nuser|" + kiroSID + "|true|3|none|run it\nagain"
	if strings.Join(got, "\n") != want || len(h.Problems) != 0 {
		t.Fatalf("history rows\n%s\nwant\n%s\nproblems %q", strings.Join(got, "\n"), want, h.Problems)
	}
	o := run(write("sess_other.history", "{\"prompt\":\"x\"}\n"), "sess_other.history")
	if len(o.Events) != 0 || strings.Join(o.Problems, "|") != "line 0: skipped_record: Kiro CLI sess_<id>.history without rustyline's #V2 header (its format no source shows): not read" {
		t.Fatalf("other history: rows %d problems %q", len(o.Events), o.Problems)
	}
}

func ideRows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestIDESession: the Kiro IDE's .kiro/sessions/<workspace>/<session>/
// store. session.json is one row; messages.jsonl's events each a row at
// their time: the typed prompt (its image a system row), reasoning and
// reply fragments of one execution joined, the call with its arguments,
// the permission asked and answered, the failed result, metadata, the
// subagent, usage, an error end of turn and the tombstone; turn starts
// and a normal end counted, an unknown type, a line with no payload and a
// cut line problems.
func TestIDESession(t *testing.T) {
	dir := "testdata/kiro-sessions/ide/3f2a9c/sess_7c1e/"
	orig := home + "/.kiro/sessions/3f2a9c/sess_7c1e/"
	m := runSession(t, dir+"session.json", orig+"session.json", "testdata/ide_store_session.golden.jsonl", nil)
	wantMeta := `1 system  sid=sess_7c1e proj=/home/ex/web model=claude-sonnet-4.5 rec= id= in= err= t=2026-11-24T09:00:00.000Z/: "Kiro IDE session sess_7c1e; title Fix the flaky login test; mode vibe; status at its last write in_progress; model claude-sonnet-4.5; autopilot false; workspaces /home/ex/web; created 2026-11-24T09:00:00.000Z; last modified 2026-11-24T09:05:00.000Z"
`
	if got := ideRows(m); got != wantMeta || len(m.Problems) != 0 {
		t.Fatalf("session.json rows:\n%s\nwant:\n%s\nproblems %q", got, wantMeta, m.Problems)
	}
	s := runSession(t, dir+"messages.jsonl", orig+"messages.jsonl", "testdata/ide_store_messages.golden.jsonl", parsertest.Files{orig + "session.json": dir + "session.json"})
	want := `2 user  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e2 id= in= err= t=2026-11-24T09:00:01.100Z/: "fix the flaky login test"
2 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e2#attachments id= in= err= t=2026-11-24T09:00:01.100Z/: "attached to the prompt: 1 image(s), 0 document(s)"
3 thinking  sid=sess_7c1e proj=/home/ex/web model=claude-sonnet-4.5 rec=kiro-ide:e3 id= in= err= t=2026-11-24T09:00:02.000Z/: "The test waits on a timer."
5 assistant  sid=sess_7c1e proj=/home/ex/web model=claude-sonnet-4.5 rec=kiro-ide:e5 id= in= err= t=2026-11-24T09:00:03.000Z/: "I will run the test first."
7 tool_use shell sid=sess_7c1e proj=/home/ex/web model=claude-sonnet-4.5 rec=kiro-ide:e7 id=tc1 in={"command":"npm test -- login","explanation":"run the test"} err= t=2026-11-24T09:00:04.000Z/: "npm test -- login (Run tests)"
8 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e8 id=tc1 in= err= t=2026-11-24T09:00:04.500Z/: "permission asked (command_approval) for call tc1: Run npm test -- login?; options [\"Run\",\"Reject\"]"
9 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e9 id=tc1 in= err= t=2026-11-24T09:00:09.000Z/: "permission answered for call tc1: approved (selected \"Run\")"
10 tool_result  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e10 id=tc1 in= err=true t=2026-11-24T09:00:12.000Z/: "1 failing: login waits 5s"
11 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e11 id= in= err= t=2026-11-24T09:00:13.000Z/: "session metadata contextUsage: {\"usagePercentage\":12.5}"
12 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e12 id= in= err= t=2026-11-24T09:00:14.000Z/: "subagent started: test-fixer"
13 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e13 id= in= err= t=2026-11-24T09:00:20.000Z/: "subagent finished: failed: timed out"
14 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e14 id= in= err= t=2026-11-24T09:00:21.000Z/: "usage summary: status complete, elapsed 20000"
15 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e15 id= in= err= t=2026-11-24T09:00:21.100Z/: "turn ended: error"
16 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e16 id= in= err= t=2026-11-24T09:01:00.000Z/: "tombstone (compaction): the session was cleared or compacted here; the rows before it are kept"
17 system  sid=sess_7c1e proj=/home/ex/web model= rec=kiro-ide:e17 id= in= err= t=2026-11-24T09:01:01.000Z/: "session event checkpoint: {\"status\":\"created\"}"
`
	if got := ideRows(s); got != want {
		t.Fatalf("messages rows:\n%s\nwant:\n%s", got, want)
	}
	if got, want := fmt.Sprint(s.Skips), "[{1 state_only:turn_start} {4 joined:assistant_fragment} {6 joined:assistant_fragment} {18 state_only:turn_end}]"; got != want {
		t.Errorf("skips %s, want %s", got, want)
	}
	if len(s.Problems) != 3 || s.Problems[0] != `line 19: skipped_record: a Kiro IDE session event typed hook_fired` || s.Problems[1] != "line 20: skipped_record: a Kiro IDE session event with no payload type" || !strings.HasPrefix(s.Problems[2], "line 21: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Errorf("problems %q", s.Problems)
	}
}
