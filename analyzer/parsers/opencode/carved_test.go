package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// The real opencode 1.18.33 store of fixtures/roots/opencode-deleted: two
// sessions run against the loopback mock model, the first deleted with
// `opencode session delete`, the WAL checkpointed
// (scripts/gen-carve-fixture.sh).
const (
	carveRoot   = "../../../fixtures/roots/opencode-deleted"
	carveDB     = "/home/examiner3/.local/share/opencode/opencode.db"
	deletedSess = "ses_dccb67667ffedFiHCx5a9BYKVb"
	keptSess    = "ses_dccb6215bffempodh0GeJHTBdp"
)

const carveLog = "/home/examiner3/.local/share/opencode/log/opencode.log"

func carveRows(t *testing.T, noCarve bool) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, copyDB(t, filepath.Join(carveRoot, carveDB)), parser.File{Path: carveDB, Agent: agentOpenCode, Target: "db"},
		parsertest.Files{carveLog: filepath.Join(carveRoot, carveLog)})
	in.NoCarve = noCarve
	return parsertest.Run(t, byID(t, agentOpenCode+"/db"), in)
}

// TestCarvedDeletedSession: the session opencode's own delete removed
// comes back from the store's freeblocks as rows under its own ids, each
// record after a row naming where it was found; the kept session's rows
// are what they are without carving.
func TestCarvedDeletedSession(t *testing.T) {
	s := carveRows(t, false)
	var got []string
	for _, e := range s.Events {
		if e.SessionID != deletedSess {
			continue
		}
		got = append(got, strings.Join([]string{e.TimeString(), string(e.TurnType), e.ToolName, e.RecordID, firstLine(e.Text)}, "|"))
	}
	want := []string{
		"2026-12-01T20:26:27.096Z|system||ses_dccb67667ffedFiHCx5a9BYKVb#recovered|recovered record: session ses_dccb67667ffedFiHCx5a9BYKVb (freeblock on page 35 at offset 3689)",
		"2026-12-01T20:26:27.096Z|system||ses_dccb67667ffedFiHCx5a9BYKVb#title|session title: Mock session",
		"2026-12-01T20:26:27.433Z|system||msg_233498ae9001FrnVosl1qqwj9L#recovered|recovered record: message msg_233498ae9001FrnVosl1qqwj9L (freeblock on page 25 at offset 3270)",
		"2026-12-01T20:26:29.675Z|system||prt_233498b130017NpEVRZLhwcfjr#recovered|recovered record: part prt_233498b130017NpEVRZLhwcfjr (freeblock on page 70 at offset 3864)",
		"2026-12-01T20:26:29.675Z|user||prt_233498b130017NpEVRZLhwcfjr|\"Run the shell command `echo doubleagent-carve-deleted-marker` and tell me what it printed.\"",
		"2026-12-01T20:26:29.719Z|system||msg_2334993d7001IFQykSHdXdK7uF#recovered|recovered record: message msg_2334993d7001IFQykSHdXdK7uF (freeblock on page 25 at offset 3626)",
		"2026-12-01T20:26:29.719Z|system|||model: mock/mock-coder",
		"2026-12-01T20:26:34.357Z|system||prt_23349a5f5001Gh1XPXBvV0UN6L#recovered|recovered record: part prt_23349a5f5001Gh1XPXBvV0UN6L (freeblock on page 70 at offset 3676)",
		"2026-12-01T20:26:34.370Z|system||prt_23349a602001NXB9Sfyt4xEyxJ#recovered|recovered record: part prt_23349a602001NXB9Sfyt4xEyxJ (freeblock on page 70 at offset 3153)",
		"2026-12-01T20:26:34.370Z|assistant||prt_23349a602001NXB9Sfyt4xEyxJ|I'll run that command.",
		"2026-12-01T20:26:34.434Z|system||prt_23349a6410011gTk3kBMI5Ns0z#recovered|recovered record: part prt_23349a6410011gTk3kBMI5Ns0z (freeblock on page 70 at offset 2644)",
		"2026-12-01T20:26:34.541Z|tool_use|bash|prt_23349a6410011gTk3kBMI5Ns0z|echo doubleagent-carve-deleted-marker",
		"2026-12-01T20:26:35.065Z|tool_result|bash|prt_23349a6410011gTk3kBMI5Ns0z#result|doubleagent-carve-deleted-marker…",
		"2026-12-01T20:26:35.479Z|system||prt_23349aa56001MhO9gTc8Bum3rK#recovered|recovered record: part prt_23349aa56001MhO9gTc8Bum3rK (freeblock on page 70 at offset 3364)",
		"2026-12-01T20:26:35.966Z|system||msg_23349ac3d001ZNlcb121ng4NeX#recovered|recovered record: message msg_23349ac3d001ZNlcb121ng4NeX (freeblock on page 25 at offset 2806)",
		"2026-12-01T20:26:36.806Z|system||prt_23349af85001nPjV82oSm9FAWH#recovered|recovered record: part prt_23349af85001nPjV82oSm9FAWH (freeblock on page 70 at offset 2456)",
		"2026-12-01T20:26:36.830Z|system||prt_23349af9e001F9VrdS3CrTFZeW#recovered|recovered record: part prt_23349af9e001F9VrdS3CrTFZeW (freeblock on page 70 at offset 2202)",
		"2026-12-01T20:26:36.830Z|assistant||prt_23349af9e001F9VrdS3CrTFZeW|The command printed:…",
		"2026-12-01T20:26:37.710Z|system||prt_23349b30e001vlRc7xCEmNieCC#recovered|recovered record: part prt_23349b30e001vlRc7xCEmNieCC (freeblock on page 70 at offset 1896)",
		"2026-12-01T20:26:38.192Z|system||ses_dccb67667ffedFiHCx5a9BYKVb#permission-0|permission setting: question *=deny (from session ses_dccb67667ffedFiHCx5a9BYKVb)",
		"2026-12-01T20:26:38.192Z|system||ses_dccb67667ffedFiHCx5a9BYKVb#permission-1|permission setting: plan_enter *=deny (from session ses_dccb67667ffedFiHCx5a9BYKVb)",
		"2026-12-01T20:26:38.192Z|system||ses_dccb67667ffedFiHCx5a9BYKVb#permission-2|permission setting: plan_exit *=deny (from session ses_dccb67667ffedFiHCx5a9BYKVb)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deleted session rows:\n%s", strings.Join(got, "\n"))
	}
	// every row of a recovered record says so itself, with where the
	// record was found: the same words its "recovered record" row gives;
	// the kept session's rows carry neither field
	prov, byRecord := "", map[string]string{}
	var marks []string
	for _, e := range s.Events {
		if e.SessionID != deletedSess {
			if e.Recovered != "" || e.Provenance != "" {
				t.Errorf("live row marked recovered: %+v", e)
			}
			continue
		}
		base, _, _ := strings.Cut(e.RecordID, "#")
		if strings.HasPrefix(e.Text, "recovered record: ") {
			byRecord[base] = e.Text[strings.Index(e.Text, "(")+1 : len(e.Text)-1]
		}
		if base != "" {
			prov = byRecord[base]
		}
		if e.Recovered != "yes" || e.Provenance != prov {
			t.Errorf("row %s %q: recovered %q provenance %q, want yes %q", e.RecordID, firstLine(e.Text), e.Recovered, e.Provenance, prov)
		}
		if e.TurnType != "system" {
			marks = append(marks, string(e.TurnType)+"|"+e.Provenance)
		}
	}
	wantMarks := []string{
		"user|freeblock on page 70 at offset 3864",
		"assistant|freeblock on page 70 at offset 3153",
		"tool_use|freeblock on page 70 at offset 2644",
		"tool_result|freeblock on page 70 at offset 2644",
		"assistant|freeblock on page 70 at offset 2202",
	}
	if strings.Join(marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("recovered turns' provenance:\n%s", strings.Join(marks, "\n"))
	}
	var states []string
	for _, st := range s.States {
		if st.Recovered != "" {
			states = append(states, st.Key.SessionID+"="+st.Recovered)
		}
	}
	if strings.Join(states, " ") != deletedSess+"=yes" {
		t.Errorf("recovered states %v", states)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems %v", s.Problems)
	}
	// --no-carve: the kept session's rows alone, the same as with carving
	off := carveRows(t, true)
	var kept, keptOff, traceRows []string
	for _, e := range s.Events {
		if e.SessionID != deletedSess {
			kept = append(kept, e.RecordID+"|"+e.Text)
		}
	}
	for _, e := range off.Events {
		if e.SessionID == deletedSess {
			// without carving, the log's lines naming it are what is
			// left: its created line and the last of the 8 lines
			traceRows = append(traceRows, fmt.Sprintf("%s %d %s %s %s|%s", e.TimeString(), e.SourceLine, e.RecordID, e.ProjectPath, e.ParentSessionID, e.Text))
			if e.SourceFile != carveLog || e.TurnType != "system" || e.Secondary {
				t.Errorf("--no-carve row of the deleted session: %+v", e)
			}
			continue
		}
		keptOff = append(keptOff, e.RecordID+"|"+e.Text)
	}
	wantTrace := []string{
		"2026-12-01T20:26:27.096Z 10 " + deletedSess + "#trace /home/examiner3/demo |session existed: created (slug jolly-harbor, version 1.18.33, projectID a4c25ef60c8f7119e835d12522401c0fc075aa36, title \"New session - 2026-12-01T20:26:27.096Z\"); its rows are gone from opencode.db (named by the opencode log)",
		"2026-12-01T20:26:36.688Z 31 " + deletedSess + "#trace-last /home/examiner3/demo |session last named by the opencode log (message stream): 8 line(s) name it",
	}
	if strings.Join(traceRows, "\n") != strings.Join(wantTrace, "\n") {
		t.Errorf("--no-carve rows of the deleted session:\n%s", strings.Join(traceRows, "\n"))
	}
	var offStates []string
	for _, st := range off.States {
		if st.Recovered != "" {
			offStates = append(offStates, st.Key.SessionID+"="+st.Recovered)
		}
	}
	if strings.Join(offStates, " ") != deletedSess+"=trace" {
		t.Errorf("--no-carve recovered states %v", offStates)
	}
	if strings.Join(kept, "\n") != strings.Join(keptOff, "\n") || len(kept) == 0 {
		t.Errorf("kept session rows differ with carving:\n%s\n--\n%s", strings.Join(kept, "\n"), strings.Join(keptOff, "\n"))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + "…"
	}
	return s
}

// TestEngineCarvedSession: through the engine, the deleted session is a
// recovered session of sessions.jsonl.
func TestEngineCarvedSession(t *testing.T) {
	root, _ := filepath.Abs(carveRoot)
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Run(t, Parsers(), filepath.Join(root, "home", "examiner3"))
	var got []string
	for _, s := range o.Sessions {
		got = append(got, s.SessionID+" recovered="+s.Recovered)
	}
	if strings.Join(got, " ") != deletedSess+" recovered=yes "+keptSess+" recovered=no" {
		t.Fatalf("sessions %v", got)
	}
	for _, s := range o.Sessions {
		if s.SessionID == deletedSess && (s.UserTurns != 1 || s.ToolCalls != 1 || s.FirstUTC != "2026-12-01T20:26:27.096Z" || s.ProjectPath != "/home/examiner3/demo") {
			t.Errorf("recovered session %+v", s)
		}
	}
	for _, p := range o.Problems {
		t.Errorf("problem %+v", p)
	}
}

// TestCorruptPageProblemRow (issue 30 item 4): the real store with the
// part table's leaf page 70 corrupted (every seventh byte flipped) is read
// on: the carver's problem row names the page and its table, the live read
// of the broken table is a problem row of its own, and the deleted
// session's records on the other pages still come back; no panic, no error.
func TestCorruptPageProblemRow(t *testing.T) {
	db := copyDB(t, filepath.Join(carveRoot, carveDB))
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for i := 69 * 4096; i < 70*4096; i += 7 {
		b[i] ^= 0xff
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	in := parsertest.Input(t, db, parser.File{Path: carveDB, Agent: agentOpenCode, Target: "db"},
		parsertest.Files{carveLog: filepath.Join(carveRoot, carveLog)})
	s := parsertest.Run(t, byID(t, agentOpenCode+"/db"), in)
	if want := "line 0: table part not read to the end: database disk image is malformed (11); the other tables are read\n" +
		"line 70: carve: page 70: b-tree of part: page 70 has page type 242"; strings.Join(s.Problems, "\n") != want {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(s.Problems, "\n"), want)
	}
	var recovered []string
	for _, e := range s.Events {
		if e.SessionID == deletedSess && e.Recovered != "" && strings.HasSuffix(e.RecordID, "#recovered") {
			recovered = append(recovered, e.RecordID)
		}
	}
	if want := "ses_dccb67667ffedFiHCx5a9BYKVb#recovered msg_233498ae9001FrnVosl1qqwj9L#recovered msg_2334993d7001IFQykSHdXdK7uF#recovered msg_23349ac3d001ZNlcb121ng4NeX#recovered"; strings.Join(recovered, " ") != want {
		t.Errorf("recovered records of the deleted session: %v", recovered)
	}
}
