package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// restoreReal is the restore checkpoint real Gemini CLI 0.61.0 wrote in
// fixtures/roots/deleted-by-agents (scripts/gen-deleted-fixtures.sh,
// general.checkpointing.enabled, a write_file call approved).
const restoreReal = "../../../fixtures/roots/deleted-by-agents/home/examiner6/.gemini/tmp/demo/checkpoints/" + restoreRealName

func restoreFile(name string) parser.File {
	return parser.File{Path: slugDir + "/checkpoints/" + name, Agent: Agent, Target: "restore-checkpoints"}
}

// TestRestoreGolden: the real checkpoint, the same cut short, one whose
// messageId names no session, and a file that is not an object.
func TestRestoreGolden(t *testing.T) {
	b, err := os.ReadFile(restoreReal)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cases := map[string][]byte{
		"real":       b,
		"truncated":  b[:len(b)/2],
		"no-session": []byte(`{"history":[{"type":"user","text":"hi","id":1}],"toolCall":{"name":"replace","args":{"file_path":"/x"}},"commitHash":"abc","messageId":"0"}`),
		"not-object": []byte(`[]`),
	}
	for _, name := range []string{"real", "truncated", "no-session", "not-object"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name+".json")
			if err := os.WriteFile(p, cases[name], 0o600); err != nil {
				t.Fatal(err)
			}
			in := parsertest.Input(t, p, restoreFile(restoreRealName), parsertest.Files{slugDir + "/.project_root": "testdata/project_root"})
			parsertest.Golden(t, byID(t, "gemini-cli/restore-checkpoints"), in, filepath.Join("testdata", "restore", name+".golden.jsonl"))
		})
	}
}

// TestRestoreReal: the real checkpoint is one system row in the session
// its prompt id names, at the time its file name records, naming the tool,
// the file, the snapshot and the one typed prompt of its saved history.
func TestRestoreReal(t *testing.T) {
	in := parsertest.Input(t, restoreReal, restoreFile(restoreRealName), parsertest.Files{slugDir + "/.project_root": "testdata/project_root"})
	s := parsertest.Run(t, byID(t, "gemini-cli/restore-checkpoints"), in)
	if len(s.Events) != 1 || len(s.Problems) != 0 {
		t.Fatalf("events %+v problems %v", s.Events, s.Problems)
	}
	e := s.Events[0]
	if e.SessionID != restoreRealSession || e.TurnType != timeline.System || e.TimeBasis != timeline.TimeRecorded ||
		e.TimeString() != restoreRealTime || e.RecordID != restoreRealSession+"#checkpoint-"+strings.TrimSuffix(restoreRealName, ".json") ||
		e.ProjectPath != "/home/examiner/demo" || e.Text != restoreRealText {
		t.Errorf("row %+v", e)
	}
}

const (
	restoreRealName    = "2026-12-03T12-49-06_882Z-gemini-notes.txt-write_file.json"
	restoreRealSession = "22e4a90b-6158-40b6-bbf5-fdfe532405b9"
	restoreRealTime    = "2026-12-03T12:49:06.882Z"
	restoreRealText    = "restore checkpoint before write_file of /home/examiner6/demo/gemini-notes.txt: snapshot d588c0c91ba12daaef7fa343d45dc952753f11b5, prompt 0 of the session, its saved history 1 typed prompt(s) (/restore 2026-12-03T12-49-06_882Z-gemini-notes.txt-write_file)"
)
