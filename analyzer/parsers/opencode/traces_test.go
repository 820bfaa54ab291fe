package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestTracesFromLogLines: the real 1.18.33 store of
// fixtures/roots/opencode-deleted read without carving, beside a log
// whose lines name sessions the store does not hold: a session whose
// created line rotated away (only its loop lines are left) still exists,
// at its first line, and its span ends at its last; a subagent's created
// line gives its parent, project and quoted title; a lone created line is
// one row; a line whose time does not parse reads time_basis none; lines
// of the kept session (live in the store) give no trace.
func TestTracesFromLogLines(t *testing.T) {
	log := strings.Join([]string{
		"timestamp=2026-12-01T20:00:00.000Z level=INFO run=1 message=loop session.id=ses_rotatedAAAA step=3",
		"timestamp=2026-12-01T20:00:02.500Z level=INFO run=1 message=created id=ses_childBBBB slug=calm-fox version=1.18.33 projectID=p1 directory=/srv/app path=\"\" workspaceID=undefined parentID=ses_rotatedAAAA title=\"Run \\\"rm -rf\\\" (@general subagent)\" agent=general",
		"timestamp=2026-12-01T20:00:03.000Z level=INFO run=1 message=loop session.id=" + keptSess + " step=0",
		"timestamp=2026-12-01T20:00:04.000Z level=INFO run=1 message=stream providerID=mock session.id=ses_rotatedAAAA small=false",
		"timestamp=2026-12-01T20:00:05.000Z level=INFO run=1 message=created id=ses_loneCCCC slug=odd-owl version=1.18.33 projectID=p1 directory=/srv/app parentID=undefined title=\"New session\"",
		"timestamp=yesterday level=INFO run=1 message=process sessionID=ses_untimedDDDD",
		"",
	}, "\n")
	dir := t.TempDir()
	local := filepath.Join(dir, "opencode.log")
	if err := os.WriteFile(local, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	in := parsertest.Input(t, copyDB(t, filepath.Join(carveRoot, carveDB)), parser.File{Path: carveDB, Agent: agentOpenCode, Target: "db"},
		parsertest.Files{carveLog: local})
	in.NoCarve = true
	s := parsertest.Run(t, byID(t, agentOpenCode+"/db"), in)
	var got []string
	for _, e := range s.Events {
		if !strings.Contains(e.RecordID, "#trace") {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %d %s %s parent=%s|%s", e.TimeString(), e.TimeBasis, e.SourceLine, e.RecordID, e.ProjectPath, e.ParentSessionID, e.Text))
	}
	want := []string{
		"2026-12-01T20:00:00.000Z  1 ses_rotatedAAAA#trace  parent=|session existed: named by the opencode log (message loop), its created line not kept; its rows are gone from opencode.db (named by the opencode log)",
		"2026-12-01T20:00:02.500Z  2 ses_childBBBB#trace /srv/app parent=ses_rotatedAAAA|session existed: created (slug calm-fox, version 1.18.33, projectID p1, title \"Run \\\"rm -rf\\\" (@general subagent)\"); its rows are gone from opencode.db (named by the opencode log)",
		"2026-12-01T20:00:04.000Z  4 ses_rotatedAAAA#trace-last  parent=|session last named by the opencode log (message stream): 2 line(s) name it",
		"2026-12-01T20:00:05.000Z  5 ses_loneCCCC#trace /srv/app parent=|session existed: created (slug odd-owl, version 1.18.33, projectID p1, title \"New session\"); its rows are gone from opencode.db (named by the opencode log)",
		" none 6 ses_untimedDDDD#trace  parent=|session existed: named by the opencode log (message process), its created line not kept; its rows are gone from opencode.db (named by the opencode log)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var states []string
	for _, st := range s.States {
		if st.Recovered != "" {
			states = append(states, st.Key.SessionID+"="+st.Recovered)
		}
	}
	if strings.Join(states, " ") != "ses_rotatedAAAA=trace ses_childBBBB=trace ses_loneCCCC=trace ses_untimedDDDD=trace" {
		t.Errorf("states %v", states)
	}
}
