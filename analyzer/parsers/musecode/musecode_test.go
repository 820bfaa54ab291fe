package musecode

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const base = "/home/alice/.local/share/muse/sessions/2026/10/13/s-1"

var mtime = time.Date(2026, 10, 14, 8, 0, 0, 0, time.UTC)

func run(t *testing.T, id, local string, f parser.File, golden string) *parsertest.Sink {
	t.Helper()
	var p parser.Parser
	for _, q := range Parsers() {
		if q.ID() == id {
			p = q
		}
	}
	f.Agent, f.MTime = Agent, mtime
	if p == nil || !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), golden)
}

func TestSession(t *testing.T) {
	s := run(t, "muse-code/sessions", "testdata/sessions/2026/10/13/s-1/session.jsonl", parser.File{Path: base + "/session.jsonl", Target: "sessions"}, "testdata/session.golden.jsonl")
	e := s.Events[1]
	if e.Text != `event tool_call: arguments={"command":"rm -rf build/"} call_id="c-1" name="shell" type="tool_call"` || e.ToolUseID != "c-1" || e.SessionID != "s-1" || !e.Time.Equal(time.Date(2026, 10, 13, 9, 0, 1, 1000, time.UTC)) || e.TurnType != timeline.System {
		t.Fatalf("event row %+v", e)
	}
	if len(s.Problems) != 1 || s.Events[2].TimeBasis != timeline.TimeNone {
		t.Fatalf("problems %q / undated %+v", s.Problems, s.Events[2])
	}
	sub := run(t, "muse-code/sessions", "testdata/sessions/2026/10/13/s-1/subagent/sub-1/session.jsonl", parser.File{Path: base + "/subagent/sub-1/session.jsonl", Target: "sessions"}, "testdata/subagent.golden.jsonl")
	if sub.Events[0].Text != "subagent sub-1 of s-1" || sub.Events[0].ParentSessionID != "s-1" || sub.Events[1].SessionID != "sub-1" {
		t.Fatalf("subagent rows %+v", sub.Events)
	}
	if len(sub.States) != 1 || sub.States[0].ParentSessionID != "s-1" {
		t.Fatalf("subagent state %+v", sub.States)
	}
}

func TestHistoryAndTrust(t *testing.T) {
	h := run(t, "muse-code/tui-history", "testdata/tui-history.jsonl", parser.File{Path: "/home/alice/.local/share/muse/tui-history.jsonl", Target: "tui-history"}, "testdata/tui_history.golden.jsonl")
	if len(h.Events) != 2 || h.Events[0].Text != "fix the tests" || !h.Events[0].Secondary || h.Events[1].Text != "add logging" {
		t.Fatalf("history rows %+v", h.Events)
	}
	if !strings.Contains(strings.Join(h.Problems, "\n"), "line 3: skipped_record") || h.SkipCounts()["no_evidence:empty-history-entry"] != 1 {
		t.Fatalf("problems %q skips %v", h.Problems, h.SkipCounts())
	}
	tr := run(t, "muse-code/trust", "testdata/trust.json", parser.File{Path: "/home/alice/.config/muse/trust.json", Rel: ".config/muse/trust.json", Target: "trust"}, "testdata/trust.golden.jsonl")
	if len(tr.Events) != 2 || tr.Events[0].Text != "permission setting: trust.projects./home/alice/demo.trusted=true (from .config/muse/trust.json, file mtime)" {
		t.Fatalf("trust rows %+v", tr.Events)
	}
}

func TestEmpty(t *testing.T) {
	for _, c := range []struct{ id, path, target string }{
		{"muse-code/sessions", base + "/session.jsonl", "sessions"},
		{"muse-code/tui-history", "/home/alice/.local/share/muse/tui-history.jsonl", "tui-history"},
		{"muse-code/trust", "/home/alice/.config/muse/trust.json", "trust"},
	} {
		s := run(t, c.id, "testdata/empty.txt", parser.File{Path: c.path, Target: c.target}, "testdata/empty_"+c.target+".golden.jsonl")
		if len(s.Events)+len(s.Problems)+len(s.Skips) != 0 {
			t.Fatalf("%s: empty file gave %d rows %q", c.id, len(s.Events), s.Problems)
		}
	}
}
