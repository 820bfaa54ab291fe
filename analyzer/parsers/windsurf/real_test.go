package windsurf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRealAgentFiles checks what holds for any Windsurf file (no error, the
// summary row with the file's id as session, only system rows from a .pb)
// over the in-repo hook transcripts, the hand-assembled typical .pb and every Windsurf file a real install
// left in the real-agent fixture roots or the shared samples. No Windsurf
// run has been recorded (it needs a sign-in), so today only the in-repo
// files run; the test never skips.
func TestRealAgentFiles(t *testing.T) {
	files := []string{"testdata/transcripts/typical.jsonl", "testdata/transcripts/tools.jsonl", writePB(t, uuid+".pb", typicalPB())}
	for _, root := range []string{"../../../fixtures/roots", "../../../../shared/agent-samples/windsurf"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			s := filepath.ToSlash(p)
			if (strings.Contains(s, "/.codeium/windsurf") && strings.Contains(s, "/cascade/") && strings.HasSuffix(s, ".pb")) ||
				(strings.Contains(s, "/.windsurf/transcripts/") && strings.HasSuffix(s, ".jsonl")) {
				files = append(files, p)
			}
			return nil
		})
	}
	for _, f := range files {
		id, target, stem := "windsurf/hook-transcript", "hook-transcripts", strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if strings.HasSuffix(f, ".pb") {
			id, target, stem = "windsurf/cascade-pb", "cascade", strings.TrimSuffix(filepath.Base(f), ".pb")
		}
		st, _ := os.Stat(f)
		in := parsertest.Input(t, f, parser.File{Path: "/home/examiner/" + filepath.Base(f), Agent: Agent, Target: target, MTime: st.ModTime().UTC()}, nil)
		s := parsertest.Run(t, byID(t, id), in)
		for _, p := range s.Problems {
			if strings.HasPrefix(p, "error:") {
				t.Errorf("%s: %s", f, p)
			}
		}
		var summary bool
		for _, e := range s.Events {
			if e.SessionID != stem {
				t.Errorf("%s: row session %q, want %q", f, e.SessionID, stem)
			}
			if id == "windsurf/cascade-pb" && e.TurnType != timeline.System {
				t.Errorf("%s: %s row from a .pb", f, e.TurnType)
			}
			summary = summary || strings.HasPrefix(e.Text, "cascade protobuf: ") || strings.HasPrefix(e.Text, "cascade hook transcript: ")
		}
		if !summary {
			t.Errorf("%s: no summary row", f)
		}
		t.Logf("%s: %d rows, problems %q", f, len(s.Events), s.Problems)
	}
}
