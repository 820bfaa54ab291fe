package claudecode_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// realHome finds the real Claude Code home of fixtures/roots/real-agents;
// a missing fixture fails.
func realHome(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for i := 0; i < 6; i++ {
		h := filepath.Join(dir, "fixtures", "roots", "real-agents", "home", "examiner")
		if _, err := os.Stat(filepath.Join(h, ".claude", "sessions", "13440.json")); err == nil {
			return h
		}
		dir = filepath.Dir(dir)
	}
	t.Fatal("fixtures/roots/real-agents/home/examiner/.claude/sessions/13440.json not found")
	return ""
}

// TestTraceOfGoneTranscript: the real Claude Code home with the
// transcript of session cdd4aea2 removed. Its process registry entry
// (sessions/13440.json, written by Claude Code 2.1.332) and a
// history.jsonl line still name it, so sessions.jsonl lists it as
// recovered trace, from those files, with the time, project and first
// prompt that survive. With the transcript present it reads no.
func TestTraceOfGoneTranscript(t *testing.T) {
	home := realHome(t)
	const gone = "cdd4aea2-f82f-4e2a-8ac7-84396ac13b23"
	const orig = "/home/examiner/.claude/"
	var files []bundletest.File
	projects, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "-home-examiner-demo", "*.jsonl"))
	if len(projects) != 9 {
		t.Fatalf("%d transcripts in the real home, want 9", len(projects))
	}
	var goneFile bundletest.File
	for _, p := range projects {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := bundletest.File{Path: orig + "projects/-home-examiner-demo/" + filepath.Base(p), Target: "projects", Data: b}
		if strings.HasPrefix(filepath.Base(p), gone) {
			goneFile = f
			continue
		}
		files = append(files, f)
	}
	reg, err := os.ReadFile(filepath.Join(home, ".claude", "sessions", "13440.json"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, bundletest.File{Path: orig + "sessions/13440.json", Target: "sessions", Data: reg})
	// history.jsonl in the shape Claude Code writes (one line per typed
	// prompt), its prompt the transcript's first; the real home kept none.
	hist := `{"display":"[mock:stall] Run the shell command ` + "`echo doubleagent-claude-killed`" + ` and tell me what it printed.","pastedContents":{},"timestamp":1795976825119,"project":"/home/examiner/demo","sessionId":"` + gone + `"}` + "\n"
	files = append(files, bundletest.File{Path: orig + "history.jsonl", Target: "history", Data: []byte(hist)})

	o := runEngine(t, files)
	var found bool
	for _, s := range o.sessions {
		if s.SessionID != gone {
			if s.Recovered == "trace" {
				t.Errorf("session %s with a transcript reads trace", s.SessionID)
			}
			continue
		}
		found = true
		if s.Recovered != "trace" || s.ProjectPath != "/home/examiner/demo" || s.FirstUTC != "2026-11-29T18:27:05.049Z" ||
			s.LastUTC != "2026-11-29T18:27:05.119Z" || s.UserTurns != 1 || s.Events != 2 ||
			strings.Join(s.SourceFiles, " ") != orig+"history.jsonl "+orig+"sessions/13440.json" {
			t.Errorf("gone session: %+v", s)
		}
	}
	if !found {
		t.Fatalf("no sessions.jsonl entry for the gone session %s", gone)
	}
	var prompt []string
	for _, r := range o.rows {
		if r.SessionID == gone {
			prompt = append(prompt, r.TurnType+" "+r.Text)
		}
	}
	if strings.Join(prompt, "|") != "system claude-code process 13440 interactive status=busy entrypoint=sdk-cli bridge=none host_session=none|user [mock:stall] Run the shell command `echo doubleagent-claude-killed` and tell me what it printed." {
		t.Errorf("rows of the gone session: %q", prompt)
	}

	o = runEngine(t, append(files, goneFile))
	for _, s := range o.sessions {
		if s.SessionID == gone && s.Recovered != "no" {
			t.Errorf("with its transcript: %+v", s)
		}
	}
}
