package vscode

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const wsDir = "/home/examiner/.config/Code/User/workspaceStorage/0a1b2c3d4e5f"

func TestChatSessionTypical(t *testing.T) {
	s := golden(t, "vscode/chat-session", "typical.json", wsDir+"/chatSessions/7f1d2c3b-aaaa-4bbb-8ccc-000000000001.json", "chat-sessions",
		parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json"})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := find(s, timeline.User, "run the tests")
	if len(u) != 1 || u[0].TimeString() != "2025-10-31T08:40:05.000Z" || u[0].ProjectPath != "/home/examiner/my demo" || u[0].SessionID != "7f1d2c3b-aaaa-4bbb-8ccc-000000000001" {
		t.Fatalf("user row: %+v", u)
	}
	// Model-side calls come from toolCallRounds, linked to toolCallResults.
	tu := find(s, timeline.ToolUse, "go test ./...")
	if len(tu) != 1 || tu[0].ToolUseID != "call_run_1" || tu[0].ToolName != "run_in_terminal" || tu[0].Model != "copilot/gpt-5" ||
		tu[0].ToolInput != `{"command":"go test ./...","explanation":"run tests"}` {
		t.Fatalf("tool_use: %+v", tu)
	}
	tr := find(s, timeline.ToolResult, "FAIL: TestAdd")
	if len(tr) != 1 || tr[0].ToolUseID != "call_run_1" || tr[0].IsError != "true" {
		t.Fatalf("tool_result (exit code 1 from the paired part): %+v", tr)
	}
	if d := find(s, timeline.System, "permission decision: user source=allow"); len(d) != 1 || d[0].ToolUseID != "call_run_1" {
		t.Fatalf("decision: %+v", d)
	}
	if e := find(s, timeline.ToolResult, "The file was edited."); len(e) != 1 || e[0].IsError != "false" || e[0].ToolUseID != "call_edit_2" {
		t.Fatalf("edit result: %+v", e)
	}
	if a := find(s, timeline.Assistant, "I'll run the tests in my demo."); len(a) != 1 {
		t.Fatalf("markdown with inline reference: %+v", a)
	}
	if th := find(s, timeline.Thinking, "I should run go test first."); len(th) != 1 || count(s, timeline.Thinking) != 1 {
		t.Fatalf("thinking rows: %d", count(s, timeline.Thinking))
	}
	if m := find(s, timeline.System, "model: copilot/gpt-5 -> copilot/claude-sonnet-4"); len(m) != 1 {
		t.Fatal("no model switch row")
	}
	if c := find(s, timeline.System, "request canceled"); len(c) != 1 || c[0].TimeString() != "2025-10-31T08:41:01.500Z" {
		t.Fatalf("cancel row: %+v", c)
	}
	if e := find(s, timeline.System, "request error: Sorry, you have been rate-limited. (code rate_limited)"); len(e) != 1 {
		t.Fatal("no error row")
	}
	if u := find(s, timeline.User, "old string message"); len(u) != 1 {
		t.Fatal("string message (old format) not read")
	}
}

func TestChatSessionMutationLog(t *testing.T) {
	s := golden(t, "vscode/chat-session", "mutation_log.jsonl", wsDir+"/chatSessions/9b9b9b9b-0000-4000-8000-00000000abcd.jsonl", "chat-sessions",
		parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json"})
	want := []string{"line 6: malformed JSON line (cut short or corrupt), skipped", "line 12: unknown entry kind 9"}
	if strings.Join(s.Problems, "|") != strings.Join(want, "|") {
		t.Fatalf("problems: %v", s.Problems)
	}
	// kind 1 set replaced the first response; kind 2 push with i=0 cut the draft.
	if a := find(s, timeline.Assistant, ""); len(a) != 2 || a[0].Text != "complete answer one" || a[1].Text != "final answer two" {
		t.Fatalf("assistant rows: %+v", a)
	}
	// The later kind 1 on requests.1.result brought the tool call.
	tu := find(s, timeline.ToolUse, "/home/examiner/demo/README.md")
	tr := find(s, timeline.ToolResult, "# demo")
	if len(tu) != 1 || len(tr) != 1 || tu[0].ToolUseID != "call_x" || tr[0].ToolUseID != "call_x" {
		t.Fatalf("tool pair: %+v %+v", tu, tr)
	}
	// Source lines: request 1 from the kind 0 line, request 2 from its push.
	if u := find(s, timeline.User, "second prompt"); len(u) != 1 || u[0].SourceLine != 3 {
		t.Fatalf("second prompt: %+v", u)
	}
	// kind 3 deleted the title. The truncating push on line 11 removed r3:
	// what happened stays, so its prompt is kept, followed by a system row
	// saying which line removed it.
	if len(find(s, timeline.System, "session title")) != 0 {
		t.Fatal("deletion not applied")
	}
	rp := find(s, timeline.User, "removed prompt")
	rm := find(s, timeline.System, "request removed from the session")
	if len(rp) != 1 || rp[0].SourceLine != 10 || rp[0].RecordID != "9b9b9b9b-0000-4000-8000-00000000abcd:r3#0" ||
		len(rm) != 1 || rm[0].Text != "request removed from the session by mutation log line 11 (edited, undone or rewound in VS Code)" ||
		rm[0].SourceLine != 11 || rm[0].RecordID != "9b9b9b9b-0000-4000-8000-00000000abcd:r3#removed" {
		t.Fatalf("removed request: %+v %+v", rp, rm)
	}
	// Every line accounted for (parsertest.Accounted runs on the golden):
	// the six lines folded into the replayed state are Skips.
	if sk := s.SkipCounts(); len(sk) != 1 || sk["state_only"] != 6 {
		t.Fatalf("skips: %v", s.Skips)
	}
	if len(s.States) != 1 || s.States[0].Origin != "local" {
		t.Fatalf("states: %+v", s.States)
	}
}

func TestChatSessionCompacted(t *testing.T) {
	s := golden(t, "vscode/chat-session", "compacted.jsonl", wsDir+"/chatSessions/c0c0c0c0-1111-4222-8333-444444444444.jsonl", "chat-sessions", nil)
	if len(s.Problems) != 0 || len(find(s, timeline.User, "after compaction")) != 1 || len(find(s, timeline.Assistant, "still here")) != 1 {
		t.Fatalf("compacted log: %v %+v", s.Problems, s.Events)
	}
}

func TestChatSessionEdgeCases(t *testing.T) {
	s := golden(t, "vscode/chat-session", "empty.jsonl", wsDir+"/chatSessions/x.jsonl", "chat-sessions", nil)
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("empty: %+v %v", s.Events, s.Problems)
	}
	s = golden(t, "vscode/chat-session", "no_initial.jsonl", wsDir+"/chatSessions/y.jsonl", "chat-sessions", nil)
	if len(s.Events) != 0 || len(s.Problems) != 2 {
		t.Fatalf("no initial: %v", s.Problems)
	}
	s = golden(t, "vscode/chat-session", "malformed.json", wsDir+"/chatSessions/broken.json", "chat-sessions", nil)
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("malformed: %v", s.Problems)
	}
	s = golden(t, "vscode/chat-session", "empty_session.json", wsDir+"/chatSessions/e0e0e0e0-0000-4000-8000-000000000000.json", "chat-sessions", nil)
	if len(find(s, timeline.System, "chat session: no requests")) != 1 {
		t.Fatalf("empty session: %+v", s.Events)
	}
	s = golden(t, "vscode/chat-session", "transferred.json", "/home/examiner/.config/Code/User/globalStorage/transferredChatSessions/t1t1t1t1-0000-4000-8000-000000000000.json", "global-chats", nil)
	if r := find(s, timeline.System, "chat session: transferred"); len(r) != 1 || r[0].SessionID != "t1t1t1t1-0000-4000-8000-000000000000" {
		t.Fatalf("transferred: %+v", s.Events)
	}
}

// An empty-window session stored as a log under a .json name; a second
// kind 0 replaces the first; a cut line with a record glued after it keeps
// the glued record; a call without a result gives a tool_use only.
func TestChatSessionEmptyWindowLog(t *testing.T) {
	s := golden(t, "vscode/chat-session", "log_named_json.json", "/home/examiner/.vscode-server/data/User/globalStorage/emptyWindowChatSessions/ew-1.json", "global-chats", nil)
	if strings.Join(s.Problems, "|") != "line 4: glued_record: cut record glued to the next record on one line; kept 1 complete record(s)" {
		t.Fatalf("problems: %v", s.Problems)
	}
	// The second kind 0 replaced the first: the request it dropped stays,
	// followed by a system row.
	if len(find(s, timeline.User, "stale prompt")) != 1 || len(find(s, timeline.User, "prompt in an empty window")) != 1 ||
		len(find(s, timeline.System, "request removed from the session by mutation log line 2 ")) != 1 {
		t.Fatal("second kind 0 did not replace the first")
	}
	if len(find(s, timeline.System, "chat session: empty window, no folder open (globalStorage/emptyWindowChatSessions)")) != 1 {
		t.Fatal("no empty-window row")
	}
	if tu := find(s, timeline.ToolUse, "https://example.com"); len(tu) != 1 || count(s, timeline.ToolResult) != 0 {
		t.Fatalf("call without result: %+v", tu)
	}
}

// TestCopilotTranscript (issue 16): Copilot Chat's transcripts/*.jsonl,
// a secondary copy of the chat session; every line accounted for.
func TestCopilotTranscript(t *testing.T) {
	s := golden(t, "vscode/copilot-transcript", "copilot_transcript.jsonl", wsDir+"/GitHub.copilot-chat/transcripts/7f1d2c3b-aaaa-4bbb-8ccc-000000000009.jsonl", "copilot-transcripts",
		parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json"})
	var got []string
	for _, e := range s.Events {
		if !e.Secondary || e.SessionID != "7f1d2c3b-aaaa-4bbb-8ccc-000000000009" || e.ProjectPath != "/home/examiner/my demo" {
			t.Fatalf("row: %+v", e)
		}
		got = append(got, e.TimeString()+" "+string(e.TurnType)+" "+e.ToolUseID+" "+e.Text+" "+e.RecordID)
	}
	want := []string{
		"2026-03-20T10:00:00.000Z system  copilot chat transcript: session start (producer=copilot-agent copilotVersion=0.40.0 vscodeVersion=1.115.0 cwd=/home/examiner/my demo) transcript:e1#0",
		"2026-03-20T10:00:01.000Z user  delete the old logs transcript:e2#0",
		"2026-03-20T10:00:03.000Z thinking  A clean-up request. transcript:e4#0",
		"2026-03-20T10:00:03.000Z assistant  Deleting logs/. transcript:e4#1",
		"2026-03-20T10:00:03.000Z tool_use call_rm rm -rf logs/ transcript:e4#2",
		"2026-03-20T10:00:05.000Z tool_result call_rm  transcript:e6#0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if sk := s.SkipCounts(); sk["state_only"] != 3 || strings.Join(s.Problems, "|") != "line 8: not a transcript entry (no type)" {
		t.Fatalf("skips %v problems %v", sk, s.Problems)
	}
}

// TestChatSessionSyncedNo (issue 16): with Copilot Chat's cloudSessions.json
// collected, a session it lists is left to vscode/cloud-sessions (synced
// yes), one it does not list reads synced no; every local chat session
// reads origin local.
func TestChatSessionSyncedNo(t *testing.T) {
	cloud := userDir + "/globalStorage/github.copilot-chat/cloudSessions.json"
	related := parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json", cloud: "testdata/cloudSessions.json"}
	s := runAt(t, "vscode/chat-session", "testdata/typical.json", wsDir+"/chatSessions/7f1d2c3b-aaaa-4bbb-8ccc-000000000001.json", "chat-sessions", related)
	if len(s.States) != 1 || s.States[0].Origin != "local" || s.States[0].Synced != "" {
		t.Fatalf("listed session states: %+v", s.States)
	}
	s = runAt(t, "vscode/chat-session", "testdata/mutation_log.jsonl", wsDir+"/chatSessions/9b9b9b9b-0000-4000-8000-00000000abcd.jsonl", "chat-sessions", related)
	if len(s.States) != 1 || s.States[0].Origin != "local" || s.States[0].Synced != "no" {
		t.Fatalf("unlisted session states: %+v", s.States)
	}
	// Without cloudSessions.json the parser cannot tell.
	s = runAt(t, "vscode/chat-session", "testdata/mutation_log.jsonl", wsDir+"/chatSessions/9b9b9b9b-0000-4000-8000-00000000abcd.jsonl", "chat-sessions", nil)
	if len(s.States) != 1 || s.States[0].Synced != "" {
		t.Fatalf("states without cloudSessions.json: %+v", s.States)
	}
}
