package copilotcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const historySessionFile = "session_5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d_1759958016398.json"

func historySessionInput(t *testing.T, local string) *parser.Input {
	return parsertest.Input(t, local, parser.File{Path: "/home/examiner/.copilot/history-session-state/" + filepath.Base(local),
		Agent: Agent, Target: "history-session-state"}, nil)
}

// The legacy single-object session of ~/.copilot/history-session-state
// (session_<id>_<ms>.json): chatMessages in the OpenAI chat shape, undated;
// the timeline's entries at their own times; the start and end recorded.
func TestHistorySession(t *testing.T) {
	in := historySessionInput(t, "testdata/history-session-state/"+historySessionFile)
	s := parsertest.Golden(t, HistorySession(), in, "testdata/history_session.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		at := "-"
		if !e.Time.IsZero() {
			at = e.Time.Format("15:04:05.000")
		}
		got = append(got, fmt.Sprintf("%d %s %s %q tool=%s/%s id=%s", e.SourceLine, at, e.TurnType, e.Text, e.ToolName, e.ToolUseID, e.RecordID))
	}
	want := []string{
		`3 21:10:16.398 system "session start (legacy history-session-state)" tool=/ id=5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d#start`,
		`67 21:10:20.001 system "timeline user: please add mcp servers to the config" tool=/ id=5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d#timeline:t1`,
		`73 21:10:24.512 system "timeline tool_call_completed: str_replace_editor: {\"command\":\"view\",\"path\":\"/home/examiner/demo/mcp.json\"}: result success" tool=str_replace_editor/call_Qm1 id=5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d#timeline:t2`,
		`95 21:12:02.000 system "session end (legacy history-session-state)" tool=/ id=5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d#end`,
		`5 - system "system prompt: You are the GitHub Copilot CLI." tool=/ id=`,
		`9 - user "please add mcp servers to the config" tool=/ id=`,
		`13 - assistant "I'll look at the config first." tool=/ id=`,
		`13 - tool_use "view" tool=str_replace_editor/call_Qm1 id=call_Qm1`,
		`27 - tool_result "{\"mcpServers\": {}}" tool=str_replace_editor/call_Qm1 id=call_Qm1#result`,
		`33 - tool_use "git status" tool=bash/call_Qm2 id=call_Qm2`,
		`47 - tool_result "On branch main\nnothing to commit" tool=bash/call_Qm2 id=call_Qm2#result`,
		`61 - user "thanks" tool=/ id=`,
		`88 - system "timeline copilot: Done. (unreadable time not a time)" tool=/ id=5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d#timeline:t3`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Events {
		if e.SessionID != "5b1f8c2e-3d4a-4f6b-9c7d-0e1f2a3b4c5d" {
			t.Errorf("session %q", e.SessionID)
		}
	}
	if p := strings.Join(s.Problems, "\n"); p != `line 57: skipped_record: chat message of role "function": not read` {
		t.Errorf("problems: %q", p)
	}
	if sk := fmt.Sprint(s.Skips); sk != "[{2 state_only} {53 no_evidence:empty assistant message}]" {
		t.Errorf("skips: %s", sk)
	}
}

// A file cut inside chatMessages keeps the messages before the cut, with
// the session id from the file name when the cut comes first.
func TestHistorySessionCut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "session_abc_1759958016398.json")
	if err := os.WriteFile(p, []byte("{\n  \"chatMessages\": [\n    {\"role\": \"user\", \"content\": \"kept\"},\n    {\"role\": \"user\", \"cont"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := parsertest.Run(t, HistorySession(), historySessionInput(t, p))
	if len(s.Events) != 1 || s.Events[0].Text != "kept" || s.Events[0].SessionID != "abc" || s.Events[0].SourceLine != 3 {
		t.Fatalf("events %+v", s.Events)
	}
	if p := strings.Join(s.Problems, "\n"); !strings.HasPrefix(p, "line 3: chatMessages cut short or corrupt after this line, the entries before it read: ") {
		t.Errorf("problems: %q", p)
	}
}
