package opencode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Real `opencode export` output copied into ../shared/agent-samples/opencode
// (tomjnsn/agentlogs, MIT; see SOURCES.md there): opencode 1.1.13.

func runExport(t *testing.T, local string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/examiner/.local/share/opencode/storage/" + filepath.Base(local), Agent: agentOpenCode, Target: "storage"}, nil)
	p := byID(t, "opencode/export")
	if !p.Match(&in.File) {
		t.Fatalf("export parser does not match %s", in.Path)
	}
	return parsertest.Run(t, p, in)
}

func TestRealExportCrud(t *testing.T) {
	dir := parsertest.SharedSamples(t, "opencode")
	s := runExport(t, filepath.Join(dir, "agentlogs/crud.json"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	for _, e := range s.Events {
		if e.SessionID != "ses_450b70e67ffeoaXH496F8i0fVA" || e.ProjectPath != "/Users/philipp/dev/agentlogs" {
			t.Fatalf("row session/project: %+v", e)
		}
	}
	u := ofType(s, timeline.User)
	if len(u) != 1 || !strings.HasPrefix(u[0].Text, "create a file JOKE.md with a random joke") || u[0].TimeString() != "2026-01-11T22:59:11.902Z" || u[0].SourceLine != 1 {
		t.Fatalf("user rows: %+v", u)
	}
	if m := withText(s, "model: "); len(m) != 1 || m[0].Text != "model: openai/gpt-5.2-codex" || m[0].TimeString() != "2026-01-11T22:59:11.908Z" {
		t.Fatalf("model rows: %+v", m)
	}
	if ti := withText(s, "session title: "); len(ti) != 1 || ti[0].Text != "session title: New session - 2026-01-11T22:59:11.896Z" {
		t.Fatalf("title: %+v", ti)
	}
	c := withID(s, timeline.ToolUse, "call_mO9J7UcA7rft4D8zUXSxS4nL")
	r := withID(s, timeline.ToolResult, "call_mO9J7UcA7rft4D8zUXSxS4nL")
	if len(c) != 1 || c[0].ToolName != "read" || c[0].Text != "/Users/philipp/dev/agentlogs/JOKE.md" ||
		c[0].ToolInput != `{"filePath":"/Users/philipp/dev/agentlogs/JOKE.md"}` || c[0].Model != "openai/gpt-5.2-codex" ||
		c[0].TimeString() != "2026-01-11T22:59:18.426Z" {
		t.Fatalf("read call: %+v", c)
	}
	if len(r) != 1 || r[0].IsError != "false" || !strings.HasPrefix(r[0].Text, "<file>\n00001| # The Elevator") || r[0].TimeString() != "2026-01-11T22:59:18.427Z" {
		t.Fatalf("read result: %+v", r)
	}
	if e := withID(s, timeline.ToolUse, "call_AzA1yNZKBASsQGiBlGCAJJdc"); len(e) != 1 || e[0].ToolName != "edit" || e[0].Text != "/Users/philipp/dev/agentlogs/JOKE.md" {
		t.Fatalf("edit call: %+v", e)
	}
	// encrypted-only reasoning (text "") gives no thinking row
	for _, th := range ofType(s, timeline.Thinking) {
		if strings.TrimSpace(th.Text) == "" {
			t.Fatalf("empty thinking row: %+v", th)
		}
	}
	nu, nr := len(ofType(s, timeline.ToolUse)), len(ofType(s, timeline.ToolResult))
	if nu != nr || nu == 0 {
		t.Fatalf("%d calls, %d results", nu, nr)
	}
	t.Logf("%d rows, %d calls", len(s.Events), nu)
}
