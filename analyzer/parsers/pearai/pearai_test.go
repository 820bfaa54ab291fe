package pearai

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home    = "/home/alice"
	sess    = home + "/.pearai/sessions/"
	editor  = home + "/.config/PearAI/User"
	taskID  = "7c1e2f40-0000-4000-8000-000000000002"
	taskDir = editor + "/globalStorage/pearai.pearai-roo-cline/tasks/" + taskID
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(append(Parsers(), vscodestate.ExtensionStateParsers(StateExtension())...))

func run(t *testing.T, id, local string, f parser.File, related parsertest.Files, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	f.MTime = mtime
	if f.Agent == "" {
		f.Agent = Agent
	}
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, related), golden)
}

func find(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			return e
		}
	}
	t.Fatalf("no %s row containing %q", tt, sub)
	return timeline.Event{}
}

func TestSessions(t *testing.T) {
	id := "5d1c0000-0000-4000-8000-0000000000a1"
	rel := parsertest.Files{sess + "sessions.json": "testdata/sessions.json", sess + id + ".json": "testdata/session.json"}
	s := run(t, "pearai/sessions", "testdata/session.json", parser.File{Path: sess + id + ".json", Target: "sessions"}, rel, "testdata/session.golden.jsonl")
	created := time.UnixMilli(1791280800000).UTC()
	u := find(t, s, timeline.User, "why does test_login fail?")
	if u.SessionID != id || !u.Time.Equal(created) || u.TimeBasis != timeline.TimeInherited || u.ProjectPath != home+"/demo" {
		t.Fatalf("user row %+v", u)
	}
	find(t, s, timeline.System, "perplexity history:")
	p := find(t, s, timeline.User, "latest pytest release?")
	if p.SourceLine != 3 {
		t.Fatalf("perplexity row line %d", p.SourceLine)
	}
	if a := find(t, s, timeline.Assistant, "pytest 8.4."); a.Model != "Perplexity" {
		t.Fatalf("perplexity reply model %q", a.Model)
	}
	idx := run(t, "pearai/sessions", "testdata/sessions.json", parser.File{Path: sess + "sessions.json", Target: "sessions"}, rel, "testdata/sessions_index.golden.jsonl")
	if e := find(t, idx, timeline.System, "without its session file"); e.SessionID != "deleted-0000" {
		t.Fatalf("deleted session row %+v", e)
	}
}

func TestTasks(t *testing.T) {
	rel := parsertest.Files{taskDir + "/ui_messages.json": "testdata/ui_messages.json", taskDir + "/api_conversation_history.json": "testdata/api_conversation_history.json"}
	s := run(t, "pearai/ui-messages", "testdata/ui_messages.json", parser.File{Path: taskDir + "/ui_messages.json", Target: "tasks"}, rel, "testdata/ui_messages.golden.jsonl")
	if u := find(t, s, timeline.User, "Write the unit tests for parser.go"); u.Agent != Agent || u.SessionID != taskID {
		t.Fatalf("task prompt %+v", u)
	}
	run(t, "pearai/api-history", "testdata/api_conversation_history.json", parser.File{Path: taskDir + "/api_conversation_history.json", Target: "tasks"}, rel, "testdata/api_decisions.golden.jsonl")
	full := run(t, "pearai/api-history", "testdata/api_conversation_history.json", parser.File{Path: taskDir + "/api_conversation_history.json", Target: "tasks"}, nil, "testdata/api_full.golden.jsonl")
	if len(full.Events) == 0 {
		t.Fatal("no rows from the whole API history")
	}
}

func TestState(t *testing.T) {
	rel := parsertest.Files{taskDir + "/ui_messages.json": "testdata/ui_messages.json"}
	s := run(t, "pearai/extension-state", "testdata/state.sql", parser.File{Path: editor + "/globalStorage/state.vscdb", Target: "state-db"}, rel, "testdata/state.golden.jsonl")
	if e := find(t, s, timeline.System, "gone-task-1"); e.Text != "task gone-task-1 is listed in state.vscdb but its folder is gone: delete old branches" || e.Agent != Agent || e.SourceLine != 1 {
		t.Fatalf("gone task %+v", e)
	}
	find(t, s, timeline.System, "permission setting: allowedCommands=npm test (from state.vscdb, file mtime)")
	find(t, s, timeline.System, "permission setting: alwaysAllowExecute=true")
	for _, e := range s.Events {
		if strings.Contains(e.Text, taskID) || strings.Contains(e.Text, "openAiBaseUrl") {
			t.Fatalf("unexpected row %q", e.Text)
		}
	}
}

func TestDevData(t *testing.T) {
	s := run(t, "pearai/dev-data", "testdata/chat.jsonl", parser.File{Path: home + "/.pearai/dev_data/chat.jsonl", Target: "dev-data"}, nil, "testdata/chat.golden.jsonl")
	a := find(t, s, timeline.Assistant, "login() returns None.")
	if !a.Secondary || a.SessionID != "5d1c0000-0000-4000-8000-0000000000a1" || a.Model != "PearAI Model" || a.TimeBasis != timeline.TimeNone {
		t.Fatalf("dev data reply %+v", a)
	}
	find(t, s, timeline.System, "reply rated: thumbs up")
	tk := run(t, "pearai/dev-data", "testdata/tokens_generated.jsonl", parser.File{Path: home + "/.pearai/dev_data/tokens_generated.jsonl", Target: "dev-data"}, nil, "testdata/tokens.golden.jsonl")
	if e := find(t, tk, timeline.System, "model used"); e.Text != "model used: claude-3-5-sonnet provider=pearai_server prompt_tokens=1200 generated_tokens=88" || e.Model != "claude-3-5-sonnet" {
		t.Fatalf("tokens row %+v", e)
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "pearai/dev-data", "testdata/empty.txt", parser.File{Path: home + "/.pearai/dev_data/chat.jsonl", Target: "dev-data"}, nil, "testdata/empty_chat.golden.jsonl")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Fatalf("empty chat log: %d rows %q", len(s.Events), s.Problems)
	}
	p := run(t, "pearai/sessions", "testdata/empty.txt", parser.File{Path: sess + "x.json", Target: "sessions"}, nil, "testdata/empty_session.golden.jsonl")
	if len(p.Events) != 0 {
		t.Fatalf("empty session file: %d rows", len(p.Events))
	}
}
