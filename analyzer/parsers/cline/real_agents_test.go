package cline

import (
	"os"
	"path"
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

// TestRealAgentTasks reads the in-repo typical task files and every Cline
// task file a real run wrote under fixtures/roots/real-agents* (none yet:
// the real runs recorded are of the CLI 3.x SDK layout): no problems, every
// row carries the folder's task id, and each task has a typed prompt. It
// never skips.
func TestRealAgentTasks(t *testing.T) {
	origs := map[string]string{
		"testdata/ui_typical.json": vsTasks + "/1760000000000/ui_messages.json",
		"testdata/api_native.json": cliData + "/tasks/1760000000000/api_conversation_history.json",
	}
	files := []string{"testdata/ui_typical.json", "testdata/api_native.json"}
	files = append(files, realAgentTaskFiles(t, "saoudrizwan.claude-dev/tasks/")...)
	files = append(files, realAgentTaskFiles(t, ".cline/data/tasks/")...)
	for _, local := range files {
		orig, ok := origs[local]
		if !ok {
			orig = "/home/" + strings.SplitN(filepath.ToSlash(local), "/home/", 2)[1]
		}
		id := path.Base(path.Dir(orig))
		f := parser.File{Path: orig, Agent: Agent, Target: "tasks"}
		pid := "cline/ui-messages"
		if path.Base(orig) != "ui_messages.json" {
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
