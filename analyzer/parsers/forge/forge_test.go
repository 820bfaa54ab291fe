package forge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

func run(t *testing.T, local, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/.forge/.forge.db", Rel: ".forge/.forge.db", Agent: Agent, Target: "db"}, nil)
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s rec=%s id=%s err=%s model=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.RecordID, e.ToolUseID, e.IsError, e.Model, e.ToolInput, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestTypical: a typed prompt (raw_content) is a user row and the rendered
// template is not; a user-role message with no raw_content is a system
// row; a slash command is what was typed; reasoning, reply and two tool
// calls from one message; results (a cancelled patch an error); the
// subagent's answer names its conversation, which takes the parent; an
// image without its data; a message with nothing and a non-message are
// problems; a conversation with no context and one with broken JSON.
func TestTypical(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/typical.sql"), "typical")
	want := `1 system  sid=c-parent parent= rec=c-parent#conversation id= err= model= in= t=2026-11-24T09:00:00.123Z/: "conversation c-parent; title Clean build cache; updated 2026-11-24T09:02:00Z; initiator user; tokens: prompt 1000, completion 50, cached 200; metrics tokens: input 1200, output 50, cached input 200; files changed: /home/ex/proj/target (lines +0 -10); files accessed: /home/ex/proj/Cargo.toml; 11 messages"
1 system  sid=c-parent parent= rec=c-parent:1 id= err= model= in= t=2026-11-24T09:00:00.123Z/inherited: "system prompt: You are Forge."
1 user  sid=c-parent parent= rec=c-parent:2 id= err= model= in= t=2026-11-24T09:00:00.123Z/inherited: "delete the build cache"
1 thinking  sid=c-parent parent= rec=c-parent:3 id= err= model=gpt-5 in= t=2026-11-24T09:00:00.123Z/inherited: "The cache is in target/."
1 assistant  sid=c-parent parent= rec=c-parent:3#1 id= err= model=gpt-5 in= t=2026-11-24T09:00:00.123Z/inherited: "Removing it."
1 tool_use shell sid=c-parent parent= rec=c-parent:3#2 id=call_1 err= model=gpt-5 in={"command": "rm -rf target", "cwd": "/home/ex/proj"} t=2026-11-24T09:00:00.123Z/inherited: "rm -rf target"
1 tool_use task sid=c-parent parent= rec=c-parent:3#3 id=call_2 err= model=gpt-5 in={"agent_id": "sage", "tasks": ["find other caches"]} t=2026-11-24T09:00:00.123Z/inherited: "sage"
1 tool_result shell sid=c-parent parent= rec=c-parent:4 id=call_1 err=false model= in= t=2026-11-24T09:00:00.123Z/inherited: "removed"
1 tool_result task sid=c-parent parent= rec=c-parent:5 id=call_2 err=false model= in= t=2026-11-24T09:00:00.123Z/inherited: "subagent conversation c-child: No other caches."
1 tool_result patch sid=c-parent parent= rec=c-parent:6 id=call_3 err=true model= in= t=2026-11-24T09:00:00.123Z/inherited: "Operation was cancelled by the user"
1 system  sid=c-parent parent= rec=c-parent:7 id= err= model= in= t=2026-11-24T09:00:00.123Z/inherited: "message in the user role composed by the agent (no typed input): Tool call pending: continue"
1 user  sid=c-parent parent= rec=c-parent:8 id= err= model= in= t=2026-11-24T09:00:00.123Z/inherited: "/compact now"
1 system  sid=c-parent parent= rec=c-parent:9 id= err= model= in= t=2026-11-24T09:00:00.123Z/inherited: "attached image image/png, 26 bytes of data (not shown)"
2 system  sid=c-child parent=c-parent rec=c-child#conversation id= err= model= in= t=2026-11-24T09:01:00.000Z/: "conversation c-child; initiator agent; 2 messages"
2 system  sid=c-child parent=c-parent rec=c-child:1 id= err= model= in= t=2026-11-24T09:01:00.000Z/inherited: "message in the user role composed by the agent (no typed input): <task>find other caches</task>"
2 assistant  sid=c-child parent=c-parent rec=c-child:2 id= err= model=gpt-5-mini in= t=2026-11-24T09:01:00.000Z/inherited: "No other caches."
3 system  sid=c-empty parent= rec=c-empty#conversation id= err= model= in= t=2026-11-24T10:00:00.000Z/: "conversation c-empty; title New conversation; no context (no messages written)"
4 system  sid=c-bad parent= rec=c-bad#conversation id= err= model= in= t=2026-11-24T11:00:00.000Z/: "conversation c-bad"
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 1: skipped_record: conversation c-parent: message 10 has no text, tool or image|line 1: conversation c-parent: message 11 is not a context message: expected an object, found a string|line 4: conversation c-bad: context is not valid JSON: invalid character 'n' looking for beginning of object key string"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "AAAA") || strings.Contains(e.Text, "<task>delete") && e.TurnType == "user" {
			t.Errorf("row shows image data or the rendered template as typed: %q", e.Text)
		}
	}
}

// TestTwoCallers: a subagent conversation that two conversations name in
// their tool output is not given to the first alone: the other caller's
// link is a row of the child, so the correlate stage sees both parents
// (and names the conflict); it was dropped without a word.
func TestTwoCallers(t *testing.T) {
	local := parsertest.SQLiteAltered(t, "testdata/typical.sql",
		`INSERT INTO conversations SELECT 'c-other', title, workspace_id, replace(context, '"conversation_id": "c-parent"', '"conversation_id": "c-other"'), '2026-11-24 09:30:00', updated_at, metrics FROM conversations WHERE conversation_id = 'c-parent'`)
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/.forge/.forge.db", Rel: ".forge/.forge.db", Agent: Agent, Target: "db"}, nil)
	s := parsertest.Run(t, Parsers()[0], in)
	var got []string
	for _, e := range s.Events {
		if e.SessionID == "c-child" && (e.RecordID == "c-child#conversation" || strings.Contains(e.RecordID, "#subagent-of-")) {
			got = append(got, e.RecordID+" parent="+e.ParentSessionID+": "+e.Text)
		}
	}
	want := "c-child#subagent-of-c-other parent=c-other: conversation c-child is also named as a subagent by conversation c-other|" +
		"c-child#conversation parent=c-parent: conversation c-child; initiator agent; 2 messages"
	if strings.Join(got, "|") != want {
		t.Errorf("child rows:\n%s\nwant:\n%s", strings.Join(got, "|"), want)
	}
}

// TestEmpty: a store with the table and no rows gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/empty.sql"), "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestMalformed: a file that is not a database, and a database of another
// layout, are one problem each and no rows.
func TestMalformed(t *testing.T) {
	for _, c := range []struct{ local, golden, want string }{
		{"testdata/malformed.db", "malformed", "line 0: not a readable SQLite database: read the schema: file is not a database (26)"},
		{parsertest.SQLite(t, "testdata/other.sql"), "other", "line 0: not a Forge database: none of the tables conversations"},
	} {
		s := run(t, c.local, c.golden)
		if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != c.want {
			t.Errorf("%s: rows %d, problems %q, want %q", c.golden, len(s.Events), got, c.want)
		}
	}
}

// TestSchema (issue 25), on copies of the typical store: without
// conversations it is "not a Forge database"; a conversations table
// without context (renamed) names table and column; nothing is read
// either way (it is the one table).
func TestSchema(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{`DROP TABLE conversations`, "line 0: empty_store: empty store: a SQLite database of 3 page(s) holding no table (never written, or every table dropped), where a Forge database should be: nothing to read"},
		{`ALTER TABLE conversations RENAME COLUMN context TO ctx`, "line 0: unknown schema: table conversations lacks column(s) context: not read; the other tables are read"},
	} {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", c.stmt), parser.File{Path: "/home/ex/.forge/.forge.db", Rel: ".forge/.forge.db", Agent: Agent, Target: "db"}, nil)
		s := parsertest.Run(t, Parsers()[0], in)
		if got := strings.Join(s.Problems, "|"); got != c.want || len(s.Events) != 0 {
			t.Errorf("%s: rows %d, problems %q", c.stmt, len(s.Events), got)
		}
	}
}
