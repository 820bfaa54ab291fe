package kiro

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const home = "/home/alice"

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local string, f parser.File, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	f.Agent, f.MTime = Agent, mtime
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), golden)
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

func count(s *parsertest.Sink, sub string) int {
	n := 0
	for _, e := range s.Events {
		if strings.Contains(e.Text, sub) {
			n++
		}
	}
	return n
}

func TestConversations(t *testing.T) {
	s := run(t, "kiro/cli-db", "testdata/data.sql", parser.File{Path: home + "/.local/share/amazon-q/data.sqlite3", Target: "cli-db"}, "testdata/data.golden.jsonl")
	sid := "0c0ffee0-0000-4000-8000-000000000001"
	u := find(t, s, timeline.User, "list the files and delete tmp/")
	if u.SessionID != sid || u.ProjectPath != home+"/demo" || !u.Time.Equal(time.Date(2026, 10, 6, 9, 0, 0, 123e6, time.UTC)) || u.RecordID != "u-1#user" || u.SourceLine != 1 {
		t.Fatalf("user row %+v", u)
	}
	call := find(t, s, timeline.ToolUse, "execute_bash")
	if call.ToolUseID != "tooluse_1" || call.ToolInput != `{"command":"ls -la"}` || call.Model != "claude-sonnet-4" {
		t.Fatalf("tool call %+v", call)
	}
	res := find(t, s, timeline.ToolResult, "a b tmp")
	if res.ToolUseID != "tooluse_1" || res.ToolName != "execute_bash" || res.IsError != "false" || !res.Time.Equal(time.UnixMilli(1791277203000).UTC()) {
		t.Fatalf("tool result %+v", res)
	}
	if e := find(t, s, timeline.System, "source=user (tool use cancelled)"); e.ToolUseID != "tooluse_2" {
		t.Fatalf("cancel decision %+v", e)
	}
	deny := find(t, s, timeline.System, "source=deniedlist")
	if deny.ToolName != "execute_bash" {
		t.Fatalf("deny-list decision %+v", deny)
	}
	if count(s, "was rejected because") != 1 || strings.Contains(func() string {
		for _, e := range s.Events {
			if e.TurnType == timeline.User && strings.Contains(e.Text, "rejected") {
				return e.Text
			}
		}
		return ""
	}(), "rejected") {
		t.Fatal("the CLI's rejection input became a user row")
	}
	find(t, s, timeline.System, "model: claude-sonnet-4 -> claude-opus-4")
	find(t, s, timeline.System, "compacted: 1 earlier entry no longer sent")
	find(t, s, timeline.System, "conversation summary (/compact): The user asked to list files")
	find(t, s, timeline.System, "checkpoint 1: list the files")
	// a snapshot-only entry stays, with a note; an entry in both is the
	// copy it is: written again under the same record ids, no note (the
	// engine keeps one row: TestEntryCopyThroughTheEngine)
	find(t, s, timeline.User, "an earlier prompt restored away")
	find(t, s, timeline.System, "from checkpoint 1's history snapshot")
	var copies []string
	for _, e := range s.Events {
		if e.Text == "list the files and delete tmp/" {
			copies = append(copies, e.RecordID)
		}
	}
	if strings.Join(copies, ",") != "u-1#user,u-1#user" || count(s, "the entry above: ") != 1 {
		t.Fatalf("entry in history and snapshot: rows %v, notes %d", copies, count(s, "the entry above: "))
	}
	find(t, s, timeline.User, "and then push")
	find(t, s, timeline.System, "the prompt above: not yet sent")
	if e := find(t, s, timeline.System, "shell command (legacy shell history): git push --force"); !e.Time.Equal(time.Unix(1791270000, 0).UTC()) || e.ProjectPath != home+"/demo" {
		t.Fatalf("legacy history %+v", e)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "NEVERPRINTED") {
			t.Fatal("auth_kv read")
		}
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "/home/alice/broken") {
		t.Fatalf("problems %q", s.Problems)
	}
}

func TestLegacyOnly(t *testing.T) {
	s := run(t, "kiro/cli-db", "testdata/legacy_only.sql", parser.File{Path: home + "/.local/share/amazon-q/data.sqlite3", Target: "cli-db"}, "testdata/legacy_only.golden.jsonl")
	if e := find(t, s, timeline.System, "make deploy"); !strings.HasSuffix(e.Text, "(shell=bash hostname=h exit_code=2)") || !e.Time.Equal(time.Unix(1700000000, 0).UTC()) {
		t.Fatalf("pre-003 history row %+v", e)
	}
}

func TestPromptHistory(t *testing.T) {
	s := run(t, "kiro/prompt-history", "testdata/cli_bash_history", parser.File{Path: home + "/.aws/amazonq/.cli_bash_history", Target: "prompt-history"}, "testdata/prompt_history.golden.jsonl")
	if e := find(t, s, timeline.User, "write a function"); e.Text != "write a function\nthat adds" || !e.Secondary || e.TimeBasis != timeline.TimeNone || e.SourceLine != 3 {
		t.Fatalf("history row %+v", e)
	}
	find(t, s, timeline.User, `cat C:\temp`)
	if len(s.Skips) != 1 || s.Skips[0].Reason != "state_only:history-version-header" {
		t.Fatalf("skips %+v", s.Skips)
	}
}

func TestAgentsAndDelegates(t *testing.T) {
	s := run(t, "kiro/agents", "testdata/rust-agent.json", parser.File{Path: home + "/.aws/amazonq/cli-agents/rust-agent.json", Target: "cli-agents"}, "testdata/agent.golden.jsonl")
	find(t, s, timeline.System, "permission setting: toolsSettings.execute_bash.deniedCommands=rm .* (from rust-agent.json, file mtime)")
	find(t, s, timeline.System, "permission setting: allowedTools=@git")
	p := run(t, "kiro/agents", "testdata/rust-agent.json", parser.File{Path: home + "/demo/.amazonq/cli-agents/rust-agent.json", Target: "project"}, "testdata/project_agent.golden.jsonl")
	if len(p.Events) != len(s.Events) {
		t.Fatalf("project agent rows %d, global %d", len(p.Events), len(s.Events))
	}
	d := run(t, "kiro/agents", "testdata/delegate.json", parser.File{Path: home + "/demo/.amazonq/.subagents/rust-agent.json", Target: "project"}, "testdata/delegate.golden.jsonl")
	task := find(t, d, timeline.System, "subagent task: Create a snake game")
	if task.SessionID != "delegate:rust-agent:1791277300" || !task.Time.Equal(time.Unix(1791277300, 0).UTC()) || task.ProjectPath != home+"/demo" {
		t.Fatalf("delegate task %+v", task)
	}
	if e := find(t, d, timeline.Assistant, "Created snake.rs"); !e.Time.Equal(time.Unix(1791277400, 0).UTC()) {
		t.Fatalf("delegate output %+v", e)
	}
	find(t, d, timeline.System, "subagent finished: exit code 0")
	o := run(t, "kiro/agents", "testdata/rust-agent.json", parser.File{Path: home + "/demo/.amazonq/rules/x.json", Target: "project"}, "testdata/other_project_json.golden.jsonl")
	if len(o.Events) != 0 {
		t.Fatal("an unrelated project JSON gave rows")
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "kiro/cli-db", "testdata/empty.sql", parser.File{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db"}, "testdata/empty_db.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where a Q / Kiro CLI database should be: nothing to read" {
		t.Fatalf("empty database: %d rows %q", len(s.Events), s.Problems)
	}
	h := run(t, "kiro/prompt-history", "testdata/empty.txt", parser.File{Path: home + "/.aws/amazonq/.cli_bash_history", Target: "prompt-history"}, "testdata/empty_history.golden.jsonl")
	if len(h.Events)+len(h.Problems)+len(h.Skips) != 0 {
		t.Fatalf("empty history: %d rows", len(h.Events))
	}
}

// TestCLIDBAltered: the one SQLite policy. conversations is Optional
// (migration 007): without it there is no problem and every history row
// is there; without history the one problem names it and every
// conversation row is there; a history table lacking command is named
// and every conversation row is there.
func TestCLIDBAltered(t *testing.T) {
	f := parser.File{Path: home + "/.local/share/amazon-q/data.sqlite3", Target: "cli-db", Agent: Agent, MTime: mtime}
	full := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLite(t, "testdata/data.sql"), f, nil))
	isHistory := func(e timeline.Event) bool {
		return strings.HasPrefix(e.Text, "shell command (legacy shell history): ")
	}
	nHist := 0
	for _, e := range full.Events {
		if isHistory(e) {
			nHist++
		}
	}
	if nHist == 0 || nHist == len(full.Events) {
		t.Fatalf("full store: %d history rows of %d", nHist, len(full.Events))
	}
	for _, c := range []struct {
		alter, problem string
		history        bool // the rows kept are the history table's
	}{
		{`DROP TABLE conversations`, "", true},
		{`DROP TABLE history`, "line 0: table history missing: its rows cannot be read; the other tables are read", false},
		{`ALTER TABLE history DROP COLUMN command`, "line 0: unknown schema: table history lacks column(s) command: not read; the other tables are read", false},
	} {
		s := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/data.sql", c.alter), f, nil))
		var want, got []string
		for _, e := range full.Events {
			if isHistory(e) == c.history {
				want = append(want, e.RecordID+" "+e.Text)
			}
		}
		for _, e := range s.Events {
			got = append(got, e.RecordID+" "+e.Text)
		}
		// the broken conversation's problem follows while conversations is read
		wantProbs := c.problem
		if !c.history {
			wantProbs += "|" + full.Problems[0]
		}
		probs := strings.Join(s.Problems, "|")
		if probs != wantProbs || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: problems %q rows\n%s\nwant\n%s", c.alter, s.Problems, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestConversationsV2: a store after migration 008 (conversations_v2,
// several conversations per directory). The old table's copy of
// conversation A is written under the same record ids as its
// conversations_v2 row (the engine keeps one: TestV2CopyThroughTheEngine);
// B shares A's directory; a row that is not JSON is one problem, a row
// whose value names another conversation is read under the row's id with
// a problem; each row's times are a "saved" row at updated_at.
func TestConversationsV2(t *testing.T) {
	s := run(t, "kiro/cli-db", "testdata/data_v2.sql", parser.File{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db"}, "testdata/data_v2.golden.jsonl")
	a, b, c := "a0000000-0000-4000-8000-00000000000a", "b0000000-0000-4000-8000-00000000000b", "c0000000-0000-4000-8000-00000000000c"
	var copies []string
	for _, e := range s.Events {
		if e.TurnType == timeline.User && e.Text == "add a test for the parser" {
			copies = append(copies, fmt.Sprintf("%s %s line %d", e.SessionID, e.RecordID, e.SourceLine))
		}
	}
	if strings.Join(copies, ",") != a+" m-1#user line 1,"+a+" m-1#user line 1" {
		t.Fatalf("A's first prompt in both tables: %q", copies)
	}
	call := find(t, s, timeline.ToolUse, "execute_bash")
	if call.SessionID != a || call.ToolInput != `{"command":"go test ./..."}` || call.ToolUseID != "tooluse_v2_1" || !call.Time.Equal(time.UnixMilli(1795168862000).UTC()) {
		t.Fatalf("tool call %+v", call)
	}
	res := find(t, s, timeline.ToolResult, "ok  example.com/app")
	if res.ToolName != "execute_bash" || res.IsError != "false" || res.RecordID != "m-3#result-0" {
		t.Fatalf("tool result %+v", res)
	}
	if u := find(t, s, timeline.User, "explain the build script"); u.SessionID != b || u.ProjectPath != home+"/app" {
		t.Fatalf("second conversation of the directory %+v", u)
	}
	saved := find(t, s, timeline.System, "conversation "+a+" of "+home+"/app saved")
	if saved.Text != "conversation "+a+" of "+home+"/app saved (conversations_v2 created_at 2026-11-20T10:00:30Z, updated_at 2026-11-20T10:01:33.5Z)" || !saved.Time.Equal(time.UnixMilli(1795168893500).UTC()) || saved.RecordID != a+"#saved:"+home+"/app" {
		t.Fatalf("saved row %+v", saved)
	}
	if u := find(t, s, timeline.User, "rename the module"); u.SessionID != c || u.ProjectPath != home+"/lib" {
		t.Fatalf("row read under its conversation_id %+v", u)
	}
	want := "line 3: conversations_v2 row broken-1 of " + home + "/app: not a ConversationState: unexpected end of JSON input|" +
		"line 4: conversations_v2 row " + c + " of " + home + "/lib: its value names conversation not-the-row-id; read under the row's conversation_id"
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "NEVERPRINTED") {
			t.Fatal("auth_kv read")
		}
	}
	// chat_readline_history: each line as typed, secondary, at its epoch ms
	var typed []string
	for _, e := range s.Events {
		if e.Secondary {
			typed = append(typed, fmt.Sprintf("%s|%s|%s|%d|%s", e.Text, e.ProjectPath, e.Time.Format(time.RFC3339Nano), e.SourceLine, e.SessionID))
		}
	}
	if strings.Join(typed, ",") != "run it|"+home+"/app|2026-11-20T10:00:59.8Z|1|,/quit|"+home+"/app|2026-11-20T10:01:40Z|2|" {
		t.Fatalf("readline history rows %q", typed)
	}
}

// TestCLIDBV2Altered: conversations_v2 is Optional (before migration
// 008): dropped, no problem and the old table's rows and the two
// readline history rows stay; lacking a column, one problem names it and
// the other tables are read. chat_readline_history is Optional too.
func TestCLIDBV2Altered(t *testing.T) {
	f := parser.File{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db", Agent: Agent, MTime: mtime}
	for _, c := range []struct {
		alter, problem string
		rows           int
	}{
		{`DROP TABLE conversations_v2`, "", 6},
		{`ALTER TABLE conversations_v2 DROP COLUMN created_at`, "line 0: unknown schema: table conversations_v2 lacks column(s) created_at: not read; the other tables are read", 6},
	} {
		s := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/data_v2.sql", c.alter), f, nil))
		if strings.Join(s.Problems, "|") != c.problem || len(s.Events) != c.rows {
			t.Errorf("%s: problems %q, %d rows", c.alter, s.Problems, len(s.Events))
		}
		for _, e := range s.Events {
			if strings.Contains(e.Text, " saved (conversations_v2") {
				t.Errorf("%s: a conversations_v2 row was read: %s", c.alter, e.Text)
			}
		}
	}
	full := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLite(t, "testdata/data_v2.sql"), f, nil))
	s := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/data_v2.sql", `DROP TABLE chat_readline_history`), f, nil))
	if len(s.Events) != len(full.Events)-2 || len(s.Problems) != len(full.Problems) {
		t.Errorf("without chat_readline_history: %d rows (full %d), problems %q", len(s.Events), len(full.Events), s.Problems)
	}
}

// TestBinaryIDsInProblems: a key or id column holding a blob (here 00 ff
// 7b 22) is named in the problem escaped, never as its raw bytes.
func TestBinaryIDsInProblems(t *testing.T) {
	f := parser.File{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db", Agent: Agent, MTime: mtime}
	alter := `INSERT INTO conversations_v2 VALUES (X'00ff7b22', X'00ff7b22', X'00ff7b22', 1795500000000, 1795500000000);
INSERT INTO conversations_v2 VALUES (X'00ff7b23', 'c-1', '{"conversation_id": "c-\u0000x", "history": []}', 1795500000000, 1795500000000)`
	s := parsertest.Run(t, byID(t, "kiro/cli-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/data_v2.sql", alter), f, nil))
	var got []string
	for _, p := range s.Problems {
		if strings.Contains(p, `\x00`) || strings.Contains(p, "\x00") {
			got = append(got, p)
		}
	}
	want := []string{
		`line 5: conversations_v2 row "\x00\xff{\"" of "\x00\xff{\"": not a ConversationState: invalid character '\x00' looking for beginning of value`,
		`line 6: conversations_v2 row c-1 of "\x00\xff{#": its value names conversation "c-\x00x"; read under the row's conversation_id`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems %q", got)
	}
}
