package opencode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestEngineTraceOfDeletedSession: fixtures/roots/opencode-deleted, the
// real 1.18.33 home after `opencode session delete`, read with
// --no-carve, with the TUI's session.json naming the deleted session
// pinned (written at 20:26:30) and a third session opencode never
// logged: sessions.jsonl lists
// the deleted session as recovered trace, spanning its log lines (created
// 20:26:27.096, last named 20:26:36.688), its project, and the log and
// session.json as the files naming it; the session only session.json
// names is a trace too; the kept session reads no.
func TestEngineTraceOfDeletedSession(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(carveRoot, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const state = "/home/examiner3/.local/state/opencode/session.json"
	files := []bundletest.File{
		{Path: carveDB, Target: "db", Kind: "sqlite", Data: read(carveDB)},
		{Path: carveLog, Target: "logs", Kind: "log", Data: read(carveLog)},
		{Path: state, Target: "tui-state", MTime: time.Date(2026, 12, 1, 20, 26, 30, 0, time.UTC), Data: []byte(`{"pinned":["` + deletedSess + `","ses_pinnedOnlyEEEE"]}`)},
	}
	bun := analyzetest.Bundle(t, agentOpenCode, files)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{bun}, OutDir: out, Parsers: Parsers(), Jobs: 1, TempDir: t.TempDir(), NoCarve: true}); err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Read(t, out)
	seen := map[string]bool{}
	for _, s := range o.Sessions {
		seen[s.SessionID] = true
		switch s.SessionID {
		case deletedSess:
			if s.Recovered != "trace" || s.ProjectPath != "/home/examiner3/demo" || s.FirstUTC != "2026-12-01T20:26:27.096Z" ||
				s.LastUTC != "2026-12-01T20:26:36.688Z" || s.UserTurns != 0 || s.Events != 3 ||
				strings.Join(s.SourceFiles, " ") != carveLog+" "+state {
				t.Errorf("deleted session: %+v", s)
			}
		case "ses_pinnedOnlyEEEE":
			if s.Recovered != "trace" || s.Events != 1 || strings.Join(s.SourceFiles, " ") != state {
				t.Errorf("session only session.json names: %+v", s)
			}
		case keptSess:
			if s.Recovered != "no" || s.UserTurns != 1 {
				t.Errorf("kept session: %+v", s)
			}
		default:
			t.Errorf("other session: %+v", s)
		}
	}
	if !seen[deletedSess] || !seen["ses_pinnedOnlyEEEE"] || !seen[keptSess] {
		t.Errorf("sessions: %v", seen)
	}
}
