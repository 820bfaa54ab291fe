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

const (
	goneSess = "5e1c0f5e-0000-4000-8000-0000000000aa"
	todoFile = "testdata/todos/" + goneSess + "-agent-" + goneSess + ".json"
)

var leftoverMTime = time.Date(2026, 11, 30, 8, 15, 0, 0, time.UTC)

func TestTodosGolden(t *testing.T) {
	in := parsertest.Input(t, todoFile, parser.File{Path: "/home/examiner/.claude/todos/" + filepath.Base(todoFile), Agent: Agent, Target: "todos", MTime: leftoverMTime}, nil)
	s := parsertest.Golden(t, Todos(), in, "testdata/todos.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		got = append(got, e.SessionID+"|"+e.RecordID+"|"+string(e.TurnType)+"|"+string(e.TimeBasis)+"|"+e.Text)
	}
	want := []string{
		goneSess + "|" + goneSess + "#todos-" + goneSess + "|system|file-mtime|todo list of the main agent: 3 item(s)",
		goneSess + "|" + goneSess + "#todos-" + goneSess + "-1|system|file-mtime|todo [completed]: Read the deploy script",
		goneSess + "|" + goneSess + "#todos-" + goneSess + "-2|system|file-mtime|todo [in_progress]: Copy ~/.ssh/id_ed25519 to the build host",
		goneSess + "|" + goneSess + "#todos-" + goneSess + "-3|system|file-mtime|todo [pending]: Delete the logs",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || !s.Events[0].Time.Equal(leftoverMTime) {
		t.Errorf("rows:\n%s", strings.Join(got, "\n"))
	}
	// a name that names no session is said, not guessed
	bad := parsertest.Run(t, Todos(), parsertest.Input(t, todoFile, parser.File{Path: "/home/examiner/.claude/todos/notes.json", Agent: Agent, Target: "todos"}, nil))
	if len(bad.Events) != 0 || len(bad.Problems) != 1 || !strings.Contains(bad.Problems[0], "todo file name notes.json is not <session>-agent-<agent>.json") {
		t.Errorf("bad name: %+v %v", bad.Events, bad.Problems)
	}
}

func TestFileHistoryGolden(t *testing.T) {
	in := parsertest.Input(t, "testdata/file-history-backup.txt", parser.File{Path: "/home/examiner/.claude/file-history/" + goneSess + "/3f2a9c1be07d4e11@v2", Agent: Agent, Target: "file-history", Size: 32, MTime: leftoverMTime}, nil)
	s := parsertest.Golden(t, FileHistory(), in, "testdata/file-history.golden.jsonl")
	if len(s.Events) != 1 || s.Events[0].Text != "file backup: 3f2a9c1be07d4e11 version 2 (32 bytes)" || s.Events[0].SessionID != goneSess ||
		s.Events[0].RecordID != goneSess+"#backup-3f2a9c1be07d4e11@v2" || strings.Contains(s.Events[0].Text, "token") {
		t.Errorf("rows %+v", s.Events)
	}
}

// TestLeftoversTraceGoneSession: a session whose transcript is gone and
// that only its todo list and file backups name reads recovered trace in
// sessions.jsonl, its source_files those leftovers; a session whose
// transcript survives beside its leftovers reads as before (no).
func TestLeftoversTraceGoneSession(t *testing.T) {
	todo, err := os.ReadFile(todoFile)
	if err != nil {
		t.Fatal(err)
	}
	const live = "5e1c0f5e-0000-4000-8000-0000000000bb"
	transcript := `{"type":"user","uuid":"u1","sessionId":"` + live + `","timestamp":"2026-11-30T08:00:00.000Z","cwd":"/home/examiner/p","message":{"role":"user","content":"hello"}}` + "\n"
	b := analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: "/home/examiner/.claude/todos/" + goneSess + "-agent-" + goneSess + ".json", Target: "todos", Data: todo},
		{Path: "/home/examiner/.claude/file-history/" + goneSess + "/3f2a9c1be07d4e11@v1", Target: "file-history", Data: []byte("x\n")},
		{Path: "/home/examiner/.claude/todos/" + live + "-agent-" + live + ".json", Target: "todos", Data: []byte("[]")},
		{Path: "/home/examiner/.claude/projects/-home-examiner-p/" + live + ".jsonl", Target: "projects", Data: []byte(transcript)},
	})
	o := analyzetest.Run(t, Parsers(), b)
	var got []string
	for _, s := range o.Sessions {
		got = append(got, s.SessionID+"="+s.Recovered+" "+strings.Join(s.SourceFiles, ","))
	}
	want := []string{
		goneSess + "=trace /home/examiner/.claude/file-history/" + goneSess + "/3f2a9c1be07d4e11@v1,/home/examiner/.claude/todos/" + goneSess + "-agent-" + goneSess + ".json",
		live + "=no /home/examiner/.claude/projects/-home-examiner-p/" + live + ".jsonl,/home/examiner/.claude/todos/" + live + "-agent-" + live + ".json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sessions:\n%s", strings.Join(got, "\n"))
	}
	for _, p := range o.Problems {
		t.Errorf("problem %+v", p)
	}
}
