package cursor

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRealAgentFixture runs over the Cursor files of the real-agent roots
// when a real Cursor run has been recorded there; none had been when this
// was written, so it skips.
func TestRealAgentFixture(t *testing.T) {
	var found []string
	for _, root := range []string{"../../../fixtures/roots/real-agents", "../../../fixtures/roots/real-agents-2"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			sp := filepath.ToSlash(p)
			if strings.HasSuffix(sp, "/Cursor/User/globalStorage/state.vscdb") || (strings.Contains(sp, "/agent-transcripts/") && strings.HasSuffix(sp, ".jsonl")) {
				found = append(found, p)
			}
			return nil
		})
	}
	if len(found) == 0 {
		t.Skip("no Cursor files in fixtures/roots/real-agents*: skipping real-agent test")
	}
	related := parsertest.Files{}
	for _, p := range found {
		related["/"+filepath.ToSlash(p)] = p
	}
	for _, p := range found {
		orig := "/" + filepath.ToSlash(p)
		id, target := "cursor/transcript", "agent-transcripts"
		if strings.HasSuffix(p, "state.vscdb") {
			id, target = "cursor/state-db", "state-db"
		}
		st, _ := os.Stat(p)
		in := parsertest.Input(t, p, parser.File{Path: orig, Agent: Agent, Target: target, MTime: st.ModTime().UTC()}, related)
		s := parsertest.Run(t, byID(t, id), in)
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems: %v", p, s.Problems)
		}
		uses := map[string]bool{}
		for _, e := range s.Events {
			if e.TurnType == timeline.ToolUse && e.ToolUseID != "" {
				uses[e.ToolUseID] = true
			}
			if e.SessionID == "" && !strings.HasPrefix(e.Text, "permission setting:") && !strings.HasPrefix(e.Text, "model last used:") {
				t.Errorf("%s: row without session: %+v", p, e)
			}
		}
		for _, e := range s.Events {
			if e.TurnType == timeline.ToolResult && e.ToolUseID != "" && !uses[e.ToolUseID] {
				t.Errorf("%s: tool_result %s without its tool_use", p, e.ToolUseID)
			}
		}
	}
}
