package antigravity

import (
	"database/sql"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home  = "/home/alice"
	cli   = home + "/.gemini/antigravity-cli"
	conv  = "8b1c0000-0000-4000-8000-0000000000c1"
	logs  = cli + "/brain/" + conv + "/.system_generated/logs"
	local = "testdata/cli/brain/" + conv + "/.system_generated/logs"
)

var mtime = time.Date(2026, 10, 14, 8, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, localPath string, f parser.File, related parsertest.Files, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	f.Agent, f.MTime = Agent, mtime
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, localPath, f, related), golden)
}

func find(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			return e
		}
	}
	t.Fatalf("no %s row containing %q", tt, sub)
	return timeline.Event{}
}

var brainFiles = parsertest.Files{
	logs + "/transcript_full.jsonl":       local + "/transcript_full.jsonl",
	logs + "/transcript.jsonl":            local + "/transcript.jsonl",
	logs + "/chunks/transcript/000.jsonl": local + "/chunks/transcript/000.jsonl",
}

func TestBrainTranscript(t *testing.T) {
	s := run(t, "antigravity/brain-logs", local+"/transcript_full.jsonl", parser.File{Path: logs + "/transcript_full.jsonl", Target: "brain-logs"}, brainFiles, "testdata/brain_full.golden.jsonl")
	u := find(t, s, timeline.User, "clean the build")
	if u.Text != "clean the build and list the files" || u.SessionID != conv || !u.Secondary || !u.Time.Equal(time.Date(2026, 10, 13, 9, 0, 0, 0, time.UTC)) || u.RecordID != conv+":0#0" || u.ProjectPath != "" {
		t.Fatalf("user row %+v", u)
	}
	if m := find(t, s, timeline.System, "model: None -> Gemini 3.5 Flash (Medium)"); m.Model != "Gemini 3.5 Flash (Medium)" {
		t.Fatalf("model row %+v", m)
	}
	find(t, s, timeline.System, "additional_metadata: The current local time is")
	if th := find(t, s, timeline.Thinking, "wants the build removed"); th.Model != "Gemini 3.5 Flash (Medium)" {
		t.Fatalf("thinking model %q", th.Model)
	}
	call := find(t, s, timeline.ToolUse, "run_command")
	if call.ToolInput != `{"CommandLine":"\"rm -rf build/\"","Cwd":"\"/home/alice/demo\""}` {
		t.Fatalf("tool input %q", call.ToolInput)
	}
	if r := find(t, s, timeline.ToolResult, "removed 3 files"); r.ToolName != "run_command" || r.IsError != "false" {
		t.Fatalf("tool result %+v", r)
	}
	if r := find(t, s, timeline.ToolResult, "file not found"); r.IsError != "true" || r.Text != "file not found: Makefile\n(status ERROR)" {
		t.Fatalf("failed tool result %+v", r)
	}
	find(t, s, timeline.System, "compaction checkpoint: {{ CHECKPOINT 0 }}")
	sm := find(t, s, timeline.System, "step SYSTEM_MESSAGE (system): <SYSTEM_MESSAGE>")
	for _, e := range s.Events {
		if e.TurnType == timeline.User && strings.Contains(e.Text, "another agent") {
			t.Fatalf("an injected system message became a user row: %+v", sm)
		}
	}
	if a := find(t, s, timeline.Assistant, "build/ is gone"); a.Model != "gemini-3.5-flash" {
		t.Fatalf("object content / model %+v", a)
	}
	if u := find(t, s, timeline.User, "just do it"); u.RecordID != conv+":line10#0" {
		t.Fatalf("untagged user input %+v", u)
	}
	if sk := s.SkipCounts(); sk["no_evidence:empty-planner_response"] != 1 {
		t.Fatalf("skips %v", sk)
	}
}

func TestBrainCopiesSkipped(t *testing.T) {
	for _, f := range []string{"transcript.jsonl", "chunks/transcript/000.jsonl"} {
		s := run(t, "antigravity/brain-logs", local+"/"+f, parser.File{Path: logs + "/" + f, Target: "brain-logs"}, brainFiles, "testdata/brain_copy_"+strings.ReplaceAll(strings.TrimSuffix(f, ".jsonl"), "/", "_")+".golden.jsonl")
		if len(s.Events) != 0 || s.SkipCounts()["copy_of:transcript_full.jsonl"] != 2 {
			t.Fatalf("%s: events %d skips %v", f, len(s.Events), s.SkipCounts())
		}
	}
	// without the full log, the shortened one is read
	only := parsertest.Files{logs + "/transcript.jsonl": local + "/transcript.jsonl"}
	s := run(t, "antigravity/brain-logs", local+"/transcript.jsonl", parser.File{Path: logs + "/transcript.jsonl", Target: "brain-logs"}, only, "testdata/brain_short.golden.jsonl")
	find(t, s, timeline.User, "clean the build and list...")
}

func TestHistory(t *testing.T) {
	s := run(t, "antigravity/history", "testdata/history.jsonl", parser.File{Path: cli + "/history.jsonl", Target: "history"}, nil, "testdata/history.golden.jsonl")
	u := find(t, s, timeline.User, "clean the build")
	if u.SessionID != conv || u.ProjectPath != home+"/demo" || !u.Secondary || !u.Time.Equal(time.UnixMilli(1791882000000).UTC()) {
		t.Fatalf("history row %+v", u)
	}
	find(t, s, timeline.System, "prompt history entry type: command")
}

func TestPermissions(t *testing.T) {
	s := run(t, "antigravity/permissions", "testdata/config/config.json", parser.File{Path: home + "/.gemini/config/config.json", Rel: ".gemini/config/config.json", Target: "permissions"}, nil, "testdata/config.golden.jsonl")
	find(t, s, timeline.System, "permission setting: terminal.denyList=rm -rf / (from .gemini/config/config.json, file mtime)")
	find(t, s, timeline.System, "permission setting: trustedWorkspaces=/home/alice/demo")
	find(t, s, timeline.System, "permission setting: migrated=true")
	for _, e := range s.Events {
		if strings.Contains(e.Text, "NEVERPRINTED") || strings.Contains(e.Text, "model=") {
			t.Fatalf("unexpected row %q", e.Text)
		}
	}
	sc := run(t, "antigravity/permissions", "testdata/config/sidecars/gh/sidecar.json", parser.File{Path: home + "/.gemini/config/sidecars/gh/sidecar.json", Target: "permissions"}, nil, "testdata/sidecar.golden.jsonl")
	find(t, sc, timeline.System, `permission setting: accessGrants={"path":"/home/alice/.config/gh","allow":true} (from sidecar.json, file mtime)`)
	for _, e := range sc.Events {
		if strings.Contains(e.Text, "gho_") {
			t.Fatal("sidecar token in a row")
		}
	}
	pr := run(t, "antigravity/permissions", "testdata/config/projects/demo.json", parser.File{Path: home + "/.gemini/config/projects/demo.json", Target: "permissions"}, nil, "testdata/project.golden.jsonl")
	find(t, pr, timeline.System, "reviewPolicy=always_ask")
	st := run(t, "antigravity/permissions", "testdata/cli_settings.json", parser.File{Path: cli + "/settings.json", Target: "permissions"}, nil, "testdata/cli_settings.golden.jsonl")
	find(t, st, timeline.System, "approvalMode=auto")
	for _, e := range st.Events {
		if strings.Contains(e.Text, "theme") {
			t.Fatal("a non-permission key gave a row")
		}
	}
}

func payload(fields ...string) []byte {
	var inner []byte
	for i, f := range fields[1:] {
		inner = protowire.AppendTag(inner, protowire.Number(i+1), protowire.BytesType)
		inner = protowire.AppendString(inner, f)
	}
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 14)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, fields[0])
	b = protowire.AppendTag(b, 5, protowire.BytesType)
	b = protowire.AppendBytes(b, inner)
	return b
}

func TestConversationDB(t *testing.T) {
	dbPath := parsertest.SQLite(t, "testdata/steps.sql")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		idx, typ int
		payload  []byte
		perms    []byte
	}{
		{0, 14, payload("clean the build and list the files", "user"), nil},
		{1, 15, payload("I will remove build/ first.", "run_command", "rm -rf build/"), payload("run_command", "rm -rf build/", "allow")},
		{2, 21, []byte{0x0a, 0xff, 0xff}, nil},
	} {
		if _, err := db.Exec("INSERT INTO steps (idx, step_type, status, step_payload, step_format, permissions) VALUES (?, ?, 3, ?, 1, ?)", r.idx, r.typ, r.payload, r.perms); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO trajectory_metadata VALUES ('k', 'v')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f := parser.File{Path: cli + "/conversations/" + conv + ".db", Target: "conversations", Agent: Agent, MTime: mtime}
	// the one SQLite policy: a steps table without step_type, or none, is
	// one problem row naming it, and every table is then written decoded
	// without a schema (the three steps and the metadata row)
	for _, c := range []struct{ stmt, problem string }{
		{`ALTER TABLE steps RENAME COLUMN step_type TO kind`, "line 0: unknown schema: table steps lacks column(s) step_type: not read; the other tables are read"},
		{`DROP TABLE steps`, "line 0: not an Antigravity conversation database: none of the tables steps"},
	} {
		alt := filepath.Join(t.TempDir(), conv+".db")
		copyFile(t, dbPath, alt)
		adb, err := sql.Open("sqlite", alt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := adb.Exec(c.stmt); err != nil {
			t.Fatal(err)
		}
		adb.Close()
		a := parsertest.Run(t, byID(t, "antigravity/conversations"), parsertest.Input(t, alt, f, nil))
		var tables []string
		for _, e := range a.Events {
			tables = append(tables, strings.SplitN(strings.TrimPrefix(e.Text, conv+".db table "), " row", 2)[0])
		}
		sort.Strings(tables)
		want := "steps,steps,steps,trajectory_metadata"
		if strings.HasPrefix(c.stmt, "DROP") {
			want = "trajectory_metadata"
		}
		if strings.Join(a.Problems, "|") != c.problem || strings.Join(tables, ",") != want {
			t.Errorf("%s: problems %q rows %q", c.stmt, a.Problems, tables)
		}
	}
	s := parsertest.Golden(t, byID(t, "antigravity/conversations"), parsertest.Input(t, dbPath, f, nil), "testdata/conversation_db.golden.jsonl")
	head := find(t, s, timeline.System, "conversation "+conv)
	if head.Text != "conversation "+conv+" (database, data_dir=antigravity-cli)" {
		t.Fatalf("head %q", head.Text)
	}
	st := find(t, s, timeline.System, "step 1 type=15")
	if !strings.Contains(st.Text, "step_payload: 2=I will remove build/ first.\n5.1=run_command\n5.2=rm -rf build/") || st.RecordID != conv+":1#db" || st.TimeBasis != timeline.TimeNone {
		t.Fatalf("step row %+v", st)
	}
	find(t, s, timeline.System, "permission grants of step 1 (decoded without a schema): 2=run_command\n5.1=rm -rf build/\n5.2=allow")
	find(t, s, timeline.System, "(3 bytes, not a well-formed protobuf message)")
	for _, e := range s.Events {
		if e.TurnType != timeline.System {
			t.Fatalf("a schemaless row took turn type %s", e.TurnType)
		}
	}
	sum := run(t, "antigravity/conversations", parsertest.SQLite(t, "testdata/summaries.sql"), parser.File{Path: cli + "/conversation_summaries.db", Target: "conversations"}, nil, "testdata/summaries.golden.jsonl")
	if e := find(t, sum, timeline.System, "table summaries row 1"); e.SessionID != conv || !strings.Contains(e.Text, "summary=1=clean build") || !strings.Contains(e.Text, "title=Clean the build") {
		t.Fatalf("summary row %+v", e)
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "antigravity/conversations", parsertest.SQLite(t, "testdata/empty.sql"), parser.File{Path: cli + "/conversations/" + conv + ".db", Target: "conversations"}, nil, "testdata/empty_db.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where an Antigravity conversation database should be: nothing to read" {
		t.Fatalf("empty database: %d rows %q", len(s.Events), s.Problems)
	}
	b := run(t, "antigravity/brain-logs", "testdata/empty.txt", parser.File{Path: logs + "/transcript_full.jsonl", Target: "brain-logs"}, nil, "testdata/empty_brain.golden.jsonl")
	if len(b.Events)+len(b.Problems) != 0 {
		t.Fatalf("empty transcript: %d rows %q", len(b.Events), b.Problems)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
