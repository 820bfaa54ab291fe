package opencode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestIcodeMate: IcodeMate keeps OpenCode's JSON tree with the session
// records under storage/session_diff/<project>/ (kenn-io/agentsview
// 5386007 icodemateFmt): icodemate/storage reads that session with its
// messages and parts, and a session_diff/<ses>.json directly under the
// folder (a diff file, as OpenCode writes) is no session; OpenCode's own
// storage parser keeps reading storage/session/ only.
func TestIcodeMate(t *testing.T) {
	root := "/home/examiner/.local/share/icodemate/"
	files := treeFiles(t, "testdata/icodemate", root)
	p := byID(t, "icodemate/storage")
	in := storageInput(t, files, root+"storage/session_diff/global/ses_i1.json", agentIcode)
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/icodemate.golden.jsonl")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%s %s sid=%s proj=%s rec=%s id=%s err=%s t=%s: %q\n", e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.RecordID, e.ToolUseID, e.IsError, e.TimeString(), e.Text)
	}
	want := `system  sid=ses_i1 proj=/home/examiner/work rec=ses_i1#title id= err= t=2026-11-24T10:00:00.000Z: "session title: Rotate the key"
user  sid=ses_i1 proj=/home/examiner/work rec=prt_i1 id= err= t=2026-11-24T10:00:01.000Z: "rotate the deploy key in ci.yml"
system  sid=ses_i1 proj=/home/examiner/work rec= id= err= t=2026-11-24T10:00:02.000Z: "model: icode/icode-pro"
tool_use read sid=ses_i1 proj=/home/examiner/work rec=prt_i2 id=call_r1 err= t=2026-11-24T10:00:03.000Z: "ci.yml"
tool_result read sid=ses_i1 proj=/home/examiner/work rec=prt_i2#result id=call_r1 err=false t=2026-11-24T10:00:03.100Z: "deploy_key: ***"
`
	if got := b.String(); got != want || len(s.Problems) != 0 {
		t.Errorf("rows:\n%s\nwant:\n%s\nproblems %v", got, want, s.Problems)
	}
	diff := storageInput(t, files, root+"storage/session_diff/ses_i1.json", agentIcode)
	if s := parsertest.Run(t, p, diff); len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Errorf("the diff file gave rows %d problems %v", len(s.Events), s.Problems)
	}
}

// TestIcodeMateDB: icodemate*.db is OpenCode's SQLite store, read by the
// same reader under IcodeMate's name: the 1.x fixture gives the rows it
// gives for OpenCode (its orphaned session named the same way).
func TestIcodeMateDB(t *testing.T) {
	in := dbInput(t, "testdata/opencode_1x.sql", agentIcode, "/home/examiner/.local/share/icodemate/icodemate.db")
	p := byID(t, "icodemate/db")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/icodemate_db.golden.jsonl")
	if len(s.Problems) != 1 || s.Problems[0] != "line 0: orphan_record: records of session ses_gone whose session row is gone: kept" {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[1].Text != "fix the login bug in @src/auth.ts" || u[1].SessionID != "ses_a1" {
		t.Fatalf("user rows: %+v", u)
	}
}
