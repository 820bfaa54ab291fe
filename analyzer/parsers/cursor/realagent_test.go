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

// TestRealAgentFixture checks what holds for any Cursor state database and
// agent transcript (no problems, every row in a session but the global
// settings rows, every tool result after its call) over the in-repo typical
// files and the Cursor files of the real-agent roots. No real Cursor run
// has been recorded (it needs a sign-in), so today only the in-repo files
// run; the test never skips.
func TestRealAgentFixture(t *testing.T) {
	type run struct {
		name, id string
		in       *parser.Input
	}
	runs := []run{
		{"testdata/typical.sql", "cursor/state-db", dbInput(t, "testdata/typical.sql", homeTranscripts(liveID, deletedID))},
		{"testdata/transcripts/typical.jsonl", "cursor/transcript", trInput(t, "testdata/transcripts/typical.jsonl", slugA+parentID+"/"+parentID+".jsonl", nil)},
	}
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
		runs = append(runs, run{p, id, parsertest.Input(t, p, parser.File{Path: orig, Agent: Agent, Target: target, MTime: st.ModTime().UTC()}, related)})
	}
	for _, r := range runs {
		p := r.name
		s := parsertest.Run(t, byID(t, r.id), r.in)
		if len(s.Events) == 0 {
			t.Errorf("%s: no rows", p)
		}
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
