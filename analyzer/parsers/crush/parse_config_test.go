package crush

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)

func fileInput(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, "/home/examiner/"), Agent: Agent, Target: target, MTime: mtime}, nil)
}

func TestProjects(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/projects"),
		fileInput(t, "testdata/projects.json", "/home/examiner/.local/share/crush/projects.json", "projects"), "testdata/projects.golden.jsonl")
	if len(s.Events) != 2 || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
	// Sorted by time: the second entry (20:00+02:00 the day before) first.
	e := s.Events[0]
	if e.Text != "project: /home/examiner/other data_dir=/home/examiner/other/.crush" || e.TimeString() != "2026-03-01T18:00:00.000Z" ||
		e.ProjectPath != "/home/examiner/other" || e.SourceLine != 2 || e.TurnType != timeline.System {
		t.Fatalf("row: %+v", e)
	}
	if s.Events[1].TimeString() != "2026-03-02T09:01:00.123Z" {
		t.Fatalf("row: %+v", s.Events[1])
	}
}

func TestProjectsMalformed(t *testing.T) {
	s := parsertest.Run(t, byID(t, "crush/projects"), fileInput(t, "testdata/bad_crush.json", "/home/examiner/.local/share/crush/projects.json", "projects"))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

func TestConfigJSON(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/config"),
		fileInput(t, "testdata/crush.json", "/home/examiner/.config/crush/crush.json", "config"), "testdata/crush_json.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(mtime) {
			t.Fatalf("time: %+v", e)
		}
		got = append(got, e.Text)
		if strings.Contains(e.Text, "SECRET") {
			t.Fatalf("secret emitted: %q", e.Text)
		}
	}
	want := []string{
		"permission setting: permissions.allowed_tools=view (from .config/crush/crush.json, file mtime)",
		"permission setting: permissions.allowed_tools=bash:ls (from .config/crush/crush.json, file mtime)",
		"permission setting: options.disabled_tools=sourcegraph (from .config/crush/crush.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if s.Events[0].SourceLine != 8 || s.Events[1].SourceLine != 9 || s.Events[2].SourceLine != 12 {
		t.Fatalf("lines: %d %d %d", s.Events[0].SourceLine, s.Events[1].SourceLine, s.Events[2].SourceLine)
	}
	raw, _ := os.ReadFile("testdata/crush_json.golden.jsonl")
	if strings.Contains(string(raw), "SECRET") {
		t.Fatal("secret in golden")
	}
}

func TestConfigMalformedAndEmpty(t *testing.T) {
	for _, f := range []string{"testdata/bad_crush.json", "testdata/empty.json"} {
		s := parsertest.Run(t, byID(t, "crush/config"), fileInput(t, f, "/home/examiner/proj/crush.json", "project"))
		if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "not valid JSON") {
			t.Fatalf("%s: %+v %v", f, s.Events, s.Problems)
		}
	}
}

func TestCrushrc(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/config"),
		fileInput(t, "testdata/crushrc", "/home/examiner/proj/crushrc", "project"), "testdata/crushrc.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		got = append(got, e.Text)
	}
	want := []string{
		"permission setting: permissions.allowed_tools=bash (from proj/crushrc, file mtime)",
		"permission setting: permissions.allowed_tools=view (from proj/crushrc, file mtime)",
		"permission setting: options.disabled_tools=sourcegraph (from proj/crushrc, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || s.Events[2].SourceLine != 4 {
		t.Fatalf("rows: %q", got)
	}
}
