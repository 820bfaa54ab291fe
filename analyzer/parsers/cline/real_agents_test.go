package cline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// realAgentTaskFiles returns the task files a real agent wrote under
// fixtures/roots/real-agents*/ whose path contains marker.
func realAgentTaskFiles(t *testing.T, marker string) []string {
	t.Helper()
	var out []string
	roots, _ := filepath.Glob("../../../fixtures/roots/real-agents*/home")
	for _, r := range roots {
		_ = filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), marker) &&
				(d.Name() == "ui_messages.json" || d.Name() == "api_conversation_history.json") {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// TestRealAgentTasks reads every Cline task file written by a real run
// (when the fixture exists): no problems, every row carries the folder's
// task id, and each task has a typed prompt.
func TestRealAgentTasks(t *testing.T) {
	files := append(realAgentTaskFiles(t, "saoudrizwan.claude-dev/tasks/"), realAgentTaskFiles(t, ".cline/data/tasks/")...)
	if len(files) == 0 {
		t.Skip("no real-agent Cline task files under fixtures/roots/real-agents* yet")
	}
	for _, local := range files {
		orig := "/home/" + strings.SplitN(filepath.ToSlash(local), "/home/", 2)[1]
		id := filepath.Base(filepath.Dir(local))
		f := parser.File{Path: orig, Agent: Agent, Target: "tasks"}
		pid := "cline/ui-messages"
		if filepath.Base(local) != "ui_messages.json" {
			pid = "cline/api-history"
		}
		s := parsertest.Run(t, byID(t, pid), parsertest.Input(t, local, f, nil))
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems %v", orig, s.Problems)
		}
		users := 0
		for _, e := range s.Events {
			if e.SessionID != id {
				t.Errorf("%s: row session %q, want %q", orig, e.SessionID, id)
			}
			if e.TurnType == timeline.User {
				users++
			}
		}
		if users == 0 && len(s.Events) > 0 {
			t.Errorf("%s: no user row", orig)
		}
	}
}
