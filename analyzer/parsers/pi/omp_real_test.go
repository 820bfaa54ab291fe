package pi

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// ompRealDir holds the sessions a real OhMyPi run wrote here: npm
// @oh-my-pi/pi-coding-agent 18.2.3 under Bun 1.4.5 against the loopback
// mock model (fixtures/cmd/mockmodel), three print-mode runs in
// $HOME/demo: a bash call, a write, and a bash call with only read and
// grep offered (the mock calls bash anyway: "Tool bash not found").
// scripts/gen-omp-fixture.sh regenerates them.
const ompRealDir = "testdata/omp-real/.omp/agent/sessions/-demo"

// TestOMPRealRun: every line of the real files is read or accounted for
// (parsertest.Golden checks the accounting), and each session gives its
// typed prompt, the call with its full arguments, the result, the reply
// and OhMyPi's own entries, exactly.
func TestOMPRealRun(t *testing.T) {
	files, err := filepath.Glob(ompRealDir + "/*.jsonl")
	if err != nil || len(files) != 3 {
		t.Fatalf("real omp sessions: %v %v", files, err)
	}
	sort.Strings(files)
	// per session: its typed prompt, the call (name, full arguments), the
	// result (is_error), the thinking level row
	want := [][5]string{
		{"Run the shell command `echo doubleagent-omp-marker` and tell me what it printed.", "bash", `{"async":false,"command":"echo doubleagent-omp-marker","i":"mock answer"}`, "doubleagent-omp-marker\n\n\nWall time: 0.05 seconds", "false"},
		{"Create the file `omp-notes.txt` containing `doubleagent-omp-edit` and tell me when it is done.", "write", `{"content":"doubleagent-omp-edit\n","i":"mock answer","path":"omp-notes.txt"}`, "[omp-notes.txt#C2B5]\nSuccessfully wrote 21 bytes to omp-notes.txt", "false"},
		{"Run the shell command `echo doubleagent-omp-denied > denied.txt` and tell me what it printed.", "bash", `{"command":"echo doubleagent-omp-denied > denied.txt"}`, "Tool bash not found", "true"},
	}
	for i, f := range files {
		orig := "/tmp/breadth-omp/fx/home/examiner/.omp/agent/sessions/-demo/" + filepath.Base(f)
		s := parsertest.Golden(t, byID(t, "omp/session"), flavourInput(t, f, orig, OMP, nil), fmt.Sprintf("testdata/omp_real_%d.golden.jsonl", i+1))
		if len(s.Problems) != 0 || len(s.Events) != 9 {
			t.Errorf("%s: %d rows, problems %q", f, len(s.Events), s.Problems)
		}
		var got [5]string
		var level string
		for _, e := range s.Events {
			switch {
			case e.TurnType == "user":
				got[0] = e.Text
			case e.TurnType == "tool_use":
				got[1], got[2] = e.ToolName, e.ToolInput
			case e.TurnType == "tool_result":
				got[3], got[4] = e.Text, e.IsError
			case strings.Contains(e.Text, "thinking_level="):
				level = e.Text
			}
		}
		if got != want[i] {
			t.Errorf("%s:\n%q\nwant\n%q", f, got, want[i])
		}
		if level != "model: mock-coder thinking_level=(not set: null)" {
			t.Errorf("%s: thinking level row %q", f, level)
		}
	}
}
