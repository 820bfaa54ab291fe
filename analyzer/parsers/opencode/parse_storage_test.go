package opencode

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// treeFiles maps every file under local to origRoot + its relative path.
func treeFiles(t *testing.T, local, origRoot string) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	err := filepath.WalkDir(local, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(local, p)
		files[origRoot+filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func storageInput(t *testing.T, files parsertest.Files, orig, agent string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, files[orig], parser.File{Path: orig, Agent: agent, Target: "storage", MTime: time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC)}, files)
}

func TestStorageTree(t *testing.T) {
	root := "/home/examiner/.local/share/opencode/"
	files := treeFiles(t, "testdata/tree", root)
	p := byID(t, "opencode/storage")
	in := storageInput(t, files, root+"storage/session/prj1/ses_t1.json", agentOpenCode)
	if !p.Match(&in.File) || byID(t, "opencode/export").Match(&in.File) {
		t.Fatal("session file: storage parser only")
	}
	s := parsertest.Golden(t, p, in, "testdata/tree.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].Text != "list the files" || u[0].SourceFile != root+"storage/part/msg_t1/prt_t1a.json" || u[0].TimeString() != "2026-01-11T22:59:11.902Z" {
		t.Fatalf("user: %+v", u)
	}
	c, r := withID(s, timeline.ToolUse, "call_ls"), withID(s, timeline.ToolResult, "call_ls")
	if len(c) != 1 || c[0].Text != "ls" || c[0].Model != "openai/gpt-5.2-codex" || len(r) != 1 || r[0].Text != "README.md\n" || r[0].SourceFile != root+"storage/part/msg_t2/prt_t2a.json" {
		t.Fatalf("pair: %+v %+v", c, r)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Text != "There is one file: README.md." || a[0].ProjectPath != "/home/examiner/src/app" {
		t.Fatalf("assistant: %+v", a)
	}

	// the share marker beside it
	sh := storageInput(t, files, root+"storage/session_share/ses_t1.json", agentOpenCode)
	ss := parsertest.Run(t, p, sh)
	if len(ss.Events) != 1 || ss.Events[0].Text != "session synced: share shr_t1 https://opncd.ai/s/shr_t1 (from session_share/ses_t1.json, file mtime)" ||
		ss.Events[0].SessionID != "ses_t1" || ss.Events[0].TimeBasis != timeline.TimeFileMTime || len(ss.States) != 1 || ss.States[0].Synced != "yes" {
		t.Fatalf("share marker: %+v %+v", ss.Events, ss.States)
	}
	if strings.Contains(ss.Events[0].Text, "SECRET") {
		t.Fatal("secret printed")
	}
	// message and part files give nothing on their own
	for _, f := range []string{"storage/message/ses_t1/msg_t1.json", "storage/part/msg_t1/prt_t1a.json"} {
		in := storageInput(t, files, root+f, agentOpenCode)
		if p.Match(&in.File) || byID(t, "opencode/export").Match(&in.File) {
			t.Fatalf("%s matched", f)
		}
	}
}

// The pre-1.0 project/<slug>/storage/session/{info,message,part} layout
// with inline parts.
func TestStorageOldLayout(t *testing.T) {
	root := "/home/examiner/.local/share/opencode/project/app/"
	files := treeFiles(t, "testdata/old", root)
	s := parsertest.Golden(t, byID(t, "opencode/storage"), storageInput(t, files, root+"storage/session/info/ses_o1.json", agentOpenCode), "testdata/old.golden.jsonl")
	// ses_o1 is a subagent session (parentID ses_o0): its prompt is the
	// task the parent's model wrote
	u, a := withText(s, "subagent task: "), ofType(s, timeline.Assistant)
	if len(ofType(s, timeline.User)) != 0 || len(u) != 1 || u[0].Text != "subagent task: hello old layout" || u[0].TurnType != timeline.System || u[0].ParentSessionID != "ses_o0" || len(a) != 1 || a[0].Text != "hi from the old tree" || a[0].ProjectPath != "/home/examiner/old" || a[0].Model != "anthropic/claude-sonnet-4" {
		t.Fatalf("%+v %+v", u, a)
	}
	if sa := withText(s, "subagent ses_"); len(sa) != 1 || sa[0].Text != "subagent ses_o1 of ses_o0" || sa[0].RecordID != "ses_o1#subagent" {
		t.Fatalf("subagent: %+v", sa)
	}
}

func TestStorageKilo(t *testing.T) {
	root := "/home/examiner/.local/share/kilo/"
	files := treeFiles(t, "testdata/tree", root)
	in := storageInput(t, files, root+"storage/session/prj1/ses_t1.json", agentKilo)
	p := byID(t, "kilo-code/storage")
	if !p.Match(&in.File) || byID(t, "opencode/storage").Match(&in.File) {
		t.Fatal("kilo storage match")
	}
	s := parsertest.Golden(t, p, in, "testdata/kilo_tree.golden.jsonl")
	if len(ofType(s, timeline.User)) != 1 || len(ofType(s, timeline.ToolResult)) != 1 {
		t.Fatalf("%+v", s.Events)
	}
}

func TestStorageMalformed(t *testing.T) {
	root := "/home/examiner/.local/share/opencode/"
	files := parsertest.Files{root + "storage/session/prj1/ses_bad.json": "testdata/bad_config.json"}
	s := parsertest.Run(t, byID(t, "opencode/storage"), storageInput(t, files, root+"storage/session/prj1/ses_bad.json", agentOpenCode))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// Kilo 7.7.7 leaves storage/session_diff/<ses>.json beside its database;
// those (and todo/<ses>.json) are not sessions.
func TestStorageSessionDiffIgnored(t *testing.T) {
	root := "/home/examiner/.local/share/kilo/"
	for _, f := range []string{"storage/session_diff/ses_x.json", "storage/todo/ses_x.json"} {
		files := parsertest.Files{root + f: "testdata/tree/storage/session/prj1/ses_t1.json"}
		in := storageInput(t, files, root+f, agentKilo)
		if !byID(t, "kilo-code/storage").Match(&in.File) {
			t.Fatalf("%s: not matched", f)
		}
		if s := parsertest.Run(t, byID(t, "kilo-code/storage"), in); len(s.Events) != 0 || len(s.Problems) != 0 {
			t.Fatalf("%s: %+v %v", f, s.Events, s.Problems)
		}
	}
}

// TestExport reads an `opencode export` document saved among the storage
// files, under opencode's and Kilo's paths (the shared real exports are in
// real_test.go).
func TestExport(t *testing.T) {
	for _, c := range []struct{ agent, root, golden string }{
		{agentOpenCode, "/home/examiner/.local/share/opencode/storage/", "testdata/export.golden.jsonl"},
		{agentKilo, "/home/examiner/.local/share/kilo/storage/", "testdata/kilo_export.golden.jsonl"},
		{agentIcode, "/home/examiner/.local/share/icodemate/storage/", "testdata/icodemate_export.golden.jsonl"},
		{agentMiMo, "/home/examiner/.local/share/mimocode/storage/", "testdata/mimocode_export.golden.jsonl"},
	} {
		in := parsertest.Input(t, "testdata/export.json", parser.File{Path: c.root + "export.json", Agent: c.agent, Target: "storage"}, nil)
		p := byID(t, c.agent+"/export")
		if !p.Match(&in.File) {
			t.Fatalf("%s/export does not match %s", c.agent, in.Path)
		}
		s := parsertest.Golden(t, p, in, c.golden)
		if len(s.Problems) != 0 || len(ofType(s, timeline.User)) != 1 || len(ofType(s, timeline.ToolUse)) != 1 || len(ofType(s, timeline.ToolResult)) != 1 {
			t.Fatalf("%s: %+v %v", c.agent, s.Events, s.Problems)
		}
		if u := ofType(s, timeline.User)[0]; u.Text != "list the files, then say done" || u.SessionID != "ses_exp1" || u.TimeString() != "2026-01-11T22:59:11.902Z" {
			t.Fatalf("%s: user row %+v", c.agent, u)
		}
	}
}

// TestStorageMiMoCode: MiMoCode keeps OpenCode's tree with the session
// infos in storage/session_diff/<project>/ (kenn-io/agentsview 5386007
// discovery.go mimoFmt, mimocode_test.go): the same rows as OpenCode's
// under the mimocode agent; a flat session_diff/<ses>.json (a diff) stays
// no session.
func TestStorageMiMoCode(t *testing.T) {
	root := "/home/examiner/.local/share/mimocode/"
	files := parsertest.Files{}
	for k, v := range treeFiles(t, "testdata/tree", root) {
		files[strings.Replace(k, "storage/session/prj1/", "storage/session_diff/global/", 1)] = v
	}
	in := storageInput(t, files, root+"storage/session_diff/global/ses_t1.json", agentMiMo)
	p := byID(t, "mimocode/storage")
	if !p.Match(&in.File) || byID(t, "opencode/storage").Match(&in.File) || byID(t, "mimocode/export").Match(&in.File) {
		t.Fatal("mimocode storage match")
	}
	s := parsertest.Golden(t, p, in, "testdata/mimocode_tree.golden.jsonl")
	u := ofType(s, timeline.User)
	if len(s.Problems) != 0 || len(u) != 1 || u[0].Text != "list the files" || u[0].Agent != "" && u[0].Agent != agentMiMo || len(ofType(s, timeline.ToolResult)) != 1 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
	flat := root + "storage/session_diff/ses_t1.json"
	files[flat] = "testdata/tree/storage/session/prj1/ses_t1.json"
	if s := parsertest.Run(t, p, storageInput(t, files, flat, agentMiMo)); len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("flat session_diff: %+v %v", s.Events, s.Problems)
	}
}
