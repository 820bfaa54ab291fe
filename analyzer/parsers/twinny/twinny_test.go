package twinny

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
	gs = "/home/alice/.config/Code/User/globalStorage/state.vscdb"
	ws = "/home/alice/.config/Code/User/workspaceStorage/0f3a/state.vscdb"
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

func run(t *testing.T, sqlFile, orig, golden string) *parsertest.Sink {
	t.Helper()
	return runAs(t, "vscode", sqlFile, orig, golden)
}

// runAs parses a state.vscdb of the given VS Code family owner.
func runAs(t *testing.T, owner, sqlFile, orig, golden string) *parsertest.Sink {
	t.Helper()
	return runAsTarget(t, owner, "state-db", sqlFile, orig, golden)
}

func runAsTarget(t *testing.T, owner, target, sqlFile, orig, golden string) *parsertest.Sink {
	t.Helper()
	var p parser.Parser
	f := parser.File{Path: orig, Agent: owner, Target: target, MTime: mtime}
	for _, q := range vscodestate.ExtensionStateParsers(StateExtension()) {
		if q.Match(&f) {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no extension-state parser for a vscode state.vscdb")
	}
	return parsertest.Golden(t, p, parsertest.Input(t, parsertest.SQLite(t, sqlFile), f, nil), golden)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct{ name, sql, orig string }{
		{"global", "testdata/global.sql", gs},
		{"workspace", "testdata/workspace.sql", ws},
		{"malformed", "testdata/malformed.sql", gs},
		{"empty", "testdata/empty.sql", gs},
	} {
		t.Run(c.name, func(t *testing.T) { run(t, c.sql, c.orig, "testdata/"+c.name+".golden.jsonl") })
	}
	// twinny installed in Kiro, Trae and Windsurf: the same rows from each
	// fork's own store, through its owner's extension-state parser.
	runAsTarget(t, "kiro", "ide-state", "testdata/global.sql", "/home/alice/.config/Kiro/User/globalStorage/state.vscdb", "testdata/kiro_global.golden.jsonl")
	runAsTarget(t, "trae", "state", "testdata/global.sql", "/home/alice/.config/Trae/User/globalStorage/state.vscdb", "testdata/trae_global.golden.jsonl")
	runAs(t, "windsurf", "testdata/global.sql", "/home/alice/.config/Windsurf/User/globalStorage/state.vscdb", "testdata/windsurf_global.golden.jsonl")
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

func TestRows(t *testing.T) {
	s := run(t, "testdata/global.sql", gs, "testdata/global.golden.jsonl")
	upd := time.UnixMilli(1791280800123).UTC()
	u := find(t, s, timeline.User, "delete the")
	if u.Text != "delete the <tmp> folder\nplease @workspace" || u.Agent != Agent || u.SessionID != "c1" || !u.Time.Equal(upd) || u.TimeBasis != timeline.TimeInherited || u.RecordID != "m1#0" || u.SourceLine != 1 {
		t.Fatalf("user row %+v", u)
	}
	skip := find(t, s, timeline.System, "permission decision: denied")
	if skip.ToolUseID != "call_1" || skip.ToolName != "run_command" {
		t.Fatalf("skip row %+v", skip)
	}
	call := find(t, s, timeline.ToolUse, "rm -rf tmp/")
	if call.ToolInput != `{"command":"rm -rf tmp/"}` || call.RecordID != "call_1#use" {
		t.Fatalf("call row %+v", call)
	}
	res := find(t, s, timeline.ToolResult, "no rule")
	if res.IsError != "true" || res.ToolUseID != "call_3" {
		t.Fatalf("failed result %+v", res)
	}
	if p := find(t, s, timeline.System, "prompt sent for this message"); p.Text != "prompt sent for this message: Explain the selected code: foo()" {
		t.Fatalf("prompt row %q", p.Text)
	}
	if e := find(t, s, timeline.User, "hi"); e.TimeBasis != timeline.TimeNone || !e.Time.IsZero() {
		t.Fatalf("conversation without updatedAt: %+v", e)
	}
	if e := find(t, s, timeline.User, "draft question"); e.SessionID != "c9" {
		t.Fatalf("unsaved active conversation %+v", e)
	}
	find(t, s, timeline.System, "unsaved or removed")
	if e := find(t, s, timeline.System, "twinny.teamPolicy"); !strings.Contains(e.Text, "url=https://team.example.com/t/acme providers=acme-llm") || e.TimeBasis != timeline.TimeFileMTime {
		t.Fatalf("team policy %+v", e)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "sk-never") {
			t.Fatal("provider apiKey in a row")
		}
	}
	w := run(t, "testdata/workspace.sql", ws, "testdata/workspace.golden.jsonl")
	if e := find(t, w, timeline.System, "review repository"); e.Text != "pull request review repository: acme/api (from state.vscdb, file mtime)" {
		t.Fatalf("review row %q", e.Text)
	}
}

func TestNotAStateDB(t *testing.T) {
	s := run(t, "testdata/empty_db.sql", gs, "testdata/empty_db.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where a VS Code state database should be: nothing to read" {
		t.Fatalf("a database without ItemTable: %d rows %q", len(s.Events), s.Problems)
	}
}
