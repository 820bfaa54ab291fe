package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

func TestLastSessionGolden(t *testing.T) {
	in := parsertest.Input(t, "testdata/last_session.claude.json", parser.File{Path: "/home/examiner/.claude.json", Rel: ".claude.json", Agent: Agent, Target: "claude-json", MTime: leftoverMTime}, nil)
	s := parsertest.Golden(t, LastSession(), in, "testdata/last_session.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		got = append(got, e.SessionID+"|"+e.ProjectPath+"|"+e.RecordID+"|"+string(e.TurnType)+"|"+string(e.TimeBasis)+"|"+e.Text)
	}
	want := []string{
		"5e1c0f5e-0000-4000-8000-0000000000dd|/home/examiner/bare|5e1c0f5e-0000-4000-8000-0000000000dd#last-session /home/examiner/bare in /home/examiner/.claude.json|system|file-mtime|" +
			"last session of project /home/examiner/bare (.claude.json)",
		"5e1c0f5e-0000-4000-8000-0000000000cc|/home/examiner/demo|5e1c0f5e-0000-4000-8000-0000000000cc#last-session /home/examiner/demo in /home/examiner/.claude.json|system||" +
			"last session of project /home/examiner/demo (.claude.json): cost $0.01234, duration 18532 ms, api 2140 ms, lines +3 -1, tokens in 1520 out 96, cache write 0 read 400, web searches 0, models claude-haiku-4-5-20251001, claude-sonnet-4-5-20250929",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || !s.Events[1].Time.Equal(time.UnixMilli(1796231376986).UTC()) || !s.Events[0].Time.Equal(leftoverMTime) {
		t.Errorf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "projects[/home/examiner/odd].lastSessionId is not a session id: 42") {
		t.Errorf("problems %q", s.Problems)
	}
	// a file that is no JSON object is the settings parser's problem; a
	// projects member cut short is said
	cut := parsertest.Run(t, LastSession(), bytesInput(t, `{"projects":{"/p":{"lastSessionId":"s1"},"/q":{"lastSess`, parser.File{Path: "/home/examiner/.claude.json", Agent: Agent, Target: "claude-json"}))
	if len(cut.Events) != 1 || cut.Events[0].SessionID != "s1" || len(cut.Problems) != 1 || !strings.Contains(cut.Problems[0], "projects[/q] cut short or corrupt") {
		t.Errorf("cut: %+v %q", cut.Events, cut.Problems)
	}
	if not := parsertest.Run(t, LastSession(), bytesInput(t, `[1]`, parser.File{Path: "/home/examiner/.claude.json", Agent: Agent, Target: "claude-json"})); len(not.Events) != 0 || len(not.Problems) != 0 {
		t.Errorf("not an object: %+v %q", not.Events, not.Problems)
	}
}

// TestLastSessionTraceGoneSession: a session whose transcript is gone and
// that only ~/.claude.json and a backup of it name (the backup Claude Code
// keeps under .claude/backups/) reads recovered trace, its project from
// the projects key and its source files both; a session whose transcript
// survives reads no.
func TestLastSessionTraceGoneSession(t *testing.T) {
	const gone, live = "5e1c0f5e-0000-4000-8000-0000000000ee", "5e1c0f5e-0000-4000-8000-0000000000ff"
	cj := `{"projects":{"/home/examiner/p":{"lastCost":0.5,"lastSessionId":"` + gone + `"},"/home/examiner/q":{"lastSessionId":"` + live + `"}}}`
	transcript := `{"type":"user","uuid":"u1","sessionId":"` + live + `","timestamp":"2026-11-30T08:00:00.000Z","cwd":"/home/examiner/q","message":{"role":"user","content":"hello"}}` + "\n"
	b := analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: "/home/examiner/.claude.json", Target: "claude-json", Data: []byte(cj)},
		{Path: "/home/examiner/.claude/backups/.claude.json.backup.1796137939418", Target: "settings-backups", Data: []byte(cj)},
		{Path: "/home/examiner/.claude/projects/-home-examiner-q/" + live + ".jsonl", Target: "projects", Data: []byte(transcript)},
	})
	o := analyzetest.Run(t, Parsers(), b)
	var got []string
	for _, s := range o.Sessions {
		got = append(got, s.SessionID+"="+s.Recovered+" "+s.ProjectPath+" "+strings.Join(s.SourceFiles, ","))
	}
	want := []string{
		gone + "=trace /home/examiner/p /home/examiner/.claude.json,/home/examiner/.claude/backups/.claude.json.backup.1796137939418",
		live + "=no /home/examiner/q /home/examiner/.claude.json,/home/examiner/.claude/backups/.claude.json.backup.1796137939418,/home/examiner/.claude/projects/-home-examiner-q/" + live + ".jsonl",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sessions:\n%s", strings.Join(got, "\n"))
	}
	for _, p := range o.Problems {
		t.Errorf("problem %+v", p)
	}
}

// bytesInput is the input of data under f.
func bytesInput(t *testing.T, data string, f parser.File) *parser.Input {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return parsertest.Input(t, p, f, nil)
}
