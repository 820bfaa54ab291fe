package roocode

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

func stateParser(t *testing.T) parser.Parser {
	t.Helper()
	for _, p := range vscodestate.ExtensionStateParsers(StateExtension()) {
		if p.ID() == "vscode/extension-state" {
			return p
		}
	}
	t.Fatal("no vscode/extension-state parser")
	return nil
}

func lines(s *parsertest.Sink) string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Agent+"|"+e.SessionID+"|"+e.Text)
	}
	return strings.Join(out, "\n")
}

func noSecret(t *testing.T, s *parsertest.Sink) {
	t.Helper()
	for _, e := range s.Events {
		if strings.Contains(e.Text, "SECRET") || strings.Contains(e.ToolInput, "SECRET") {
			t.Fatalf("secret printed: %+v", e)
		}
	}
}

// TestStateGlobal (issue 16): the extension's global state in
// state.vscdb: settings, a task whose folder is gone, the Roo Code Cloud
// settings cache; the provider profile's key is never read.
func TestStateGlobal(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/state_global.sql"), parser.File{
		Path: "/home/examiner/.config/Code/User/globalStorage/state.vscdb", Rel: ".config/Code/User/globalStorage/state.vscdb",
		Agent: "vscode", Target: "state-db", MTime: mtime}, nil)
	s := parsertest.Golden(t, stateParser(t), in, "testdata/state_global.golden.jsonl")
	noSecret(t, s)
	const f = " (from state.vscdb, file mtime)"
	const c = " (from state.vscdb RooVeterinaryInc.roo-cline row, cached cloud settings, file mtime)"
	want := strings.Join([]string{
		"roo-code||permission setting: allowedCommands=npm test" + f,
		"roo-code||permission setting: allowedCommands=git log" + f,
		"roo-code||permission setting: alwaysAllowExecute=true" + f,
		"roo-code||permission setting: autoApprovalEnabled=true" + f,
		"roo-code||permission setting: organization-settings.version=3" + c,
		"roo-code||permission setting: organization-settings.cloudSettings.enableTaskSharing=false" + c,
		"roo-code||permission setting: organization-settings.cloudSettings.recordTaskMessages=true" + c,
		"roo-code||permission setting: organization-settings.allowList.allowAll=false" + c,
		"roo-code||permission setting: organization-settings.allowList.providers.anthropic.allowAll=true" + c,
		"roo-code||permission setting: organization-settings.defaultSettings.disabledTools=browser_action" + c,
		"roo-code||permission setting: user-settings.version=2" + c,
		"roo-code||permission setting: user-settings.settings.taskSyncEnabled=true" + c,
		"roo-code||roo code cloud sign-in state: active-session (from state.vscdb RooVeterinaryInc.roo-cline row, file mtime)",
		"roo-code|0d0d0d0d-0000-4000-8000-000000000009|task 0d0d0d0d-0000-4000-8000-000000000009 is listed in state.vscdb but its folder is gone: delete the cache",
	}, "\n")
	if got := lines(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
}

// TestStateWorkspaceRetryQueue (issue 16): the retry queue of the
// workspace state, oldest first; no header, body or query is printed.
func TestStateWorkspaceRetryQueue(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/state_workspace.sql"), parser.File{
		Path: "/home/examiner/.config/Code/User/workspaceStorage/9f1c/state.vscdb", Agent: "vscode", Target: "state-db", MTime: mtime}, nil)
	s := parsertest.Golden(t, stateParser(t), in, "testdata/state_workspace.golden.jsonl")
	noSecret(t, s)
	want := "roo-code||cloud request queued: telemetry POST https://app.roocode.com/api/events operation=capture retries=0 (RooVeterinaryInc.roo-cline row)\n" +
		"roo-code||cloud request queued: telemetry POST https://app.roocode.com/api/events retries=2 last error: fetch failed (RooVeterinaryInc.roo-cline row)"
	if got := lines(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
	if s.Events[0].RecordID != "roo.retryQueue:q1" || !s.Events[0].Time.Equal(parsertest.Time(t, "2026-10-11T09:00:30Z")) {
		t.Fatalf("first row: %+v", s.Events[0])
	}
	// The CLI's workspace-state.json: the same queue.
	in = parsertest.Input(t, "testdata/workspace-state.json", parser.File{Path: "/home/examiner/.vscode-mock/workspace-storage/9f1c/workspace-state.json",
		Agent: Agent, Target: "cli-workspace-state", MTime: mtime}, nil)
	s = parsertest.Golden(t, byID(t, "roo-code/workspace-state"), in, "testdata/cli_workspace_state.golden.jsonl")
	noSecret(t, s)
	if got := lines(s); got != "roo-code||cloud request queued: telemetry POST https://app.roocode.com/api/events retries=1" || len(s.Problems) != 0 {
		t.Fatalf("CLI rows:\n%s\n%v", got, s.Problems)
	}
}
