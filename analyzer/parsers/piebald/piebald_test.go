package piebald

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const dbPath = "/home/alice/.local/share/piebald/app.db"

var (
	byID  = parsertest.IDs(Parsers())
	mtime = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	file  = parser.File{Path: dbPath, Target: "app-db", Agent: Agent, MTime: mtime}
)

func run(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, "piebald/app-db")
	f := file
	if !p.Match(&f) {
		t.Fatalf("piebald/app-db does not match %s", f.Path)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, parsertest.SQLite(t, sqlFile), f, nil), golden)
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

// TestTypical: a chat with a sub-agent chat and a deleted chat; text
// parts joined from their nodes, thinking, tool calls with full input and
// their results or errors, a denied call, a call left pending, a
// disabled (edited-away) prompt, an errored message, token usage, and
// the records that give no row accounted for.
func TestTypical(t *testing.T) {
	s := run(t, "testdata/typical.sql", "testdata/typical.golden.jsonl")
	head := find(t, s, timeline.System, "piebald chat 42")
	if head.Text != `piebald chat 42; title "Fix the login bug"; project app /home/alice/app; directory /home/alice/app; worktree /home/alice/app-wt; branch fix-login; messages 9; updated 2026-11-25T10:09:00Z` ||
		!head.Time.Equal(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) || head.ProjectPath != "/home/alice/app" {
		t.Fatalf("chat row %+v", head)
	}
	if sub := find(t, s, timeline.System, "piebald chat 43"); sub.ParentSessionID != "42" || !strings.Contains(sub.Text, "sub-agent chat of chat 42") {
		t.Fatalf("sub-agent chat %+v", sub)
	}
	find(t, s, timeline.System, "piebald chat 44; title \"old idea\"; messages 1; updated 2026-11-20T09:01:00Z; deleted in the app (is_deleted), kept in the store")
	u := find(t, s, timeline.User, "The login form")
	if u.Text != "The login form rejects valid passwords. Fix it." || u.SessionID != "42" || u.RecordID != "msg-100#part-1000" || u.Model != "" {
		t.Fatalf("prompt %+v", u)
	}
	if e := find(t, s, timeline.Thinking, "Let me look"); e.Model != "claude-sonnet-4-5" {
		t.Fatalf("thinking %+v", e)
	}
	call := find(t, s, timeline.ToolUse, "RunTerminalCommand")
	if call.ToolUseID != "toolu_01" || call.ToolInput != `{"command":"grep -rn bcrypt src/"}` {
		t.Fatalf("tool call %+v", call)
	}
	if r := find(t, s, timeline.ToolResult, "bcrypt.compare"); r.ToolName != "RunTerminalCommand" || r.IsError != "false" || r.ToolUseID != "toolu_01" {
		t.Fatalf("tool result %+v", r)
	}
	find(t, s, timeline.ToolUse, "Task (sub-agent chat 43)")
	if d := find(t, s, timeline.System, "permission decision: denied tool=RunTerminalCommand"); d.ToolUseID != "toolu_03" {
		t.Fatalf("denied %+v", d)
	}
	if e := find(t, s, timeline.ToolResult, "ENOENT"); e.IsError != "true" || e.ToolName != "ReadFile" {
		t.Fatalf("tool error %+v", e)
	}
	find(t, s, timeline.System, "the tool call above was left pending (tool_state)")
	find(t, s, timeline.System, "usage: input_tokens=1200 output_tokens=80 reasoning_tokens=12 cache_read_tokens=300 cache_write_tokens=0")
	find(t, s, timeline.User, "actually, use argon2 instead")
	find(t, s, timeline.System, "the message above is on a branch not shown (enabled=0: regenerated or edited away), kept; it follows message 102")
	if e := find(t, s, timeline.System, "message error: overloaded_error"); e.IsError != "true" {
		t.Fatalf("message error %+v", e)
	}
	find(t, s, timeline.System, "the message above has status error")
	if e := find(t, s, timeline.User, "explore auth"); e.SessionID != "43" || e.ParentSessionID != "42" {
		t.Fatalf("sub-agent prompt %+v", e)
	}
	find(t, s, timeline.User, "a message whose chat is gone")
	want := "line 10150: skipped_record: content node 10150: node type \"file_mention\" not known, not read|" +
		"line 1016: skipped_record: message part 1016: part type \"image\" not known, not read|" +
		"line 400: orphan_record: message 400 of chat 99, whose chats row is gone: kept|" +
		"line 1017: orphan_record: message part 1017 of message 777, whose messages row is gone: kept"
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "testdata/empty.sql", "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 0: not a Piebald database: none of the tables ") {
		t.Fatalf("empty: %d rows %q", len(s.Events), s.Problems)
	}
}

// TestAltered: the one SQLite policy. Without projects the chats are
// read unnamed; without the tool-call table (Optional: the typed-parts
// schema drops it) the text rows stay and each tool_call part is named; a missing column of messages is named (and
// the parts, whose messages are then unread, kept as orphans: their calls).
func TestAltered(t *testing.T) {
	for _, c := range []struct {
		alter, problem string
		users, calls   int
	}{
		{`DROP TABLE projects`, "", 6, 5},
		{`DROP TABLE message_part_tool_call`, "line 1003: orphan_record: tool_call part 1003 with no message_part_tool_call row: not read", 6, 0},
		{`ALTER TABLE messages DROP COLUMN role`, "line 0: unknown schema: table messages lacks column(s) role: not read; the other tables are read", 0, 5},
	} {
		s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", c.alter), file, nil))
		users, calls := 0, 0
		for _, e := range s.Events {
			switch e.TurnType {
			case timeline.User:
				users++
			case timeline.ToolUse:
				calls++
			}
		}
		if !strings.Contains(strings.Join(s.Problems, "|"), c.problem) || users != c.users || calls != c.calls {
			t.Errorf("%s: problems %q, %d user rows, %d calls", c.alter, s.Problems, users, calls)
		}
	}
}

// TestBinaryIDsInProblems: an id or type column holding a blob (here 00 ff
// 7b 22) is named in the problem escaped, never as its raw bytes.
func TestBinaryIDsInProblems(t *testing.T) {
	alter := `INSERT INTO messages (id, parent_chat_id, role, created_at, updated_at, status) VALUES (900, X'00ff7b22', 'user', '2026-11-24T06:00:00Z', '2026-11-24T06:00:00Z', 'completed');
INSERT INTO message_parts VALUES (901, X'00ff7b22', 0, X'00ff7b22');
INSERT INTO message_content_nodes VALUES (902, X'00ff7b22', 0, 'text');`
	s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", alter), file, nil))
	var got []string
	for _, p := range s.Problems {
		if strings.Contains(p, `\x00\xff`) || strings.Contains(p, "\x00") {
			got = append(got, p)
		}
	}
	want := []string{
		`line 902: orphan_record: content node 902 of text part "\x00\xff{\"", whose message_parts row is gone: kept`,
		`line 900: orphan_record: message 900 of chat "\x00\xff{\"", whose chats row is gone: kept`,
		`line 901: orphan_record: message part 901 of message "\x00\xff{\"", whose messages row is gone: kept`,
		`line 901: skipped_record: message part 901: part type "\x00\xff{\"" not known, not read`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems %q", got)
	}
}

// TestOrphanPartsKept: the parts of a message whose messages row is gone
// (a deleted message) are kept: each an orphan_record problem, and their
// text a row under no chat, at the part's rowid.
func TestOrphanPartsKept(t *testing.T) {
	s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `DELETE FROM messages WHERE id = 100`), file, nil))
	want := "line 1000: orphan_record: message part 1000 of message 100, whose messages row is gone: kept"
	if !strings.Contains(strings.Join(s.Problems, "\n"), want) {
		t.Errorf("problems %q, want %q", s.Problems, want)
	}
	var got []string
	for _, e := range s.Events {
		if strings.HasPrefix(e.RecordID, "msg-100#") {
			got = append(got, fmt.Sprintf("%s|%s|%d|%s", e.SessionID, e.TurnType, e.SourceLine, e.Text))
		}
	}
	if w := "|system|1000|(messages row gone) message: The login form rejects valid passwords. Fix it."; len(got) != 1 || got[0] != w {
		t.Errorf("rows %q, want [%q]", got, w)
	}
}

// TestOrphanNodeKept: a text part whose message_parts row is gone is
// kept from its message_part_text row: its content nodes' text one system
// row (never a user row: its role is gone with it), the part an
// orphan_record problem; a content node whose part is gone from both
// tables is a row of its own.
func TestOrphanNodeKept(t *testing.T) {
	s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `DELETE FROM message_parts WHERE id = 1000`), file, nil))
	want := "line 1000: orphan_record: message_part_text of part 1000, whose message_parts row is gone: kept (its text a row of its own)"
	if !strings.Contains(strings.Join(s.Problems, "\n"), want) || strings.Contains(strings.Join(s.Problems, "\n"), "content node 10000") {
		t.Errorf("problems %q, want %q", s.Problems, want)
	}
	var got []string
	for _, e := range s.Events {
		if e.RecordID == "part-1000" || e.RecordID == "node-10000" || strings.HasSuffix(e.RecordID, "#part-1000") {
			got = append(got, fmt.Sprintf("%s|%s|%d|%s|%s", e.SessionID, e.TurnType, e.SourceLine, e.TimeBasis, e.Text))
		}
	}
	if w := "|system|1000|none|text of part 1000 (its message_parts row is gone): The login form rejects valid passwords. Fix it."; strings.Join(got, "\n") != w {
		t.Errorf("rows %q, want %q", got, w)
	}
	n := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `DELETE FROM message_parts WHERE id = 1000; DELETE FROM message_part_text WHERE message_part_id = 1000`), file, nil))
	want = "line 10000: orphan_record: content node 10000 of text part 1000, whose message_parts row is gone: kept"
	if !strings.Contains(strings.Join(n.Problems, "\n"), want) {
		t.Errorf("problems %q, want %q", n.Problems, want)
	}
	var row string
	for _, e := range n.Events {
		if e.RecordID == "node-10000" {
			row = fmt.Sprintf("%s|%s|%d|%s", e.SessionID, e.TurnType, e.SourceLine, e.Text)
		}
	}
	if w := "|system|10000|text of content node 10000 (its message part is gone): The login form "; row != w {
		t.Errorf("row %q, want %q", row, w)
	}
}

// TestOrphanToolCallKept: a tool call whose message_parts row is gone is
// kept: the call with its full input and its result, under no chat,
// marked, the call an orphan_record problem.
func TestOrphanToolCallKept(t *testing.T) {
	s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `DELETE FROM message_parts WHERE id IN (1003, 1005)`), file, nil))
	for _, want := range []string{
		"line 1003: orphan_record: tool call toolu_01 of part 1003, whose message_parts row is gone: kept (its rows under no chat)",
		"line 1005: orphan_record: tool call toolu_03 of part 1005, whose message_parts row is gone: kept (its rows under no chat)",
	} {
		if !strings.Contains(strings.Join(s.Problems, "\n"), want) {
			t.Errorf("problems %q, want %q", s.Problems, want)
		}
	}
	var got []string
	for _, e := range s.Events {
		if strings.HasPrefix(e.RecordID, "part-100") {
			got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s", e.SessionID, e.TurnType, e.RecordID, e.ToolName, e.ToolUseID, e.ToolInput, e.IsError, e.Text))
		}
	}
	want := []string{
		`|tool_use|part-1003|RunTerminalCommand|toolu_01|{"command":"grep -rn bcrypt src/"}||RunTerminalCommand (its message part 1003 is gone)`,
		`|tool_result|part-1003#result|RunTerminalCommand|toolu_01||false|src/auth.ts:12: bcrypt.compare(pw, hash)`,
		`|tool_use|part-1005|RunTerminalCommand|toolu_03|{"command":"rm -rf node_modules"}||RunTerminalCommand (its message part 1005 is gone)`,
		`|system|part-1005#decision|RunTerminalCommand|toolu_03|||permission decision: denied tool=RunTerminalCommand (tool_state denied)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTyped: the typed-parts schema (splitrail caa74804's shape). The
// model and tokens of a message come from message_generations (the
// chat's model is not lent); a context_container message is never a
// user row, its rules text a system row, its context part named; a tool
// part is a call named by its subtype, its tool_execution_context row's
// columns written as they are (this one has none but message_part_id);
// a tool part with no such row says so; a generation or execution row
// whose message or part is gone is kept and named.
func TestTyped(t *testing.T) {
	s := run(t, "testdata/typed.sql", "testdata/typed.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%s", e.SessionID, e.TurnType, e.RecordID, e.Model, e.ToolName, e.Text))
	}
	want := []string{
		`50|user|msg-1#part-1|||Read the config and list the MCP servers.`,
		`50|system|chat-50|||piebald chat 50; title "Schema compatibility"; project app /home/alice/app; directory /home/alice/app; messages 4; updated 2026-11-27T12:00:09Z`,
		`50|assistant|msg-2#part-2|gpt-5.5||Reading it now.`,
		`50|tool_use|msg-2#part-3|gpt-5.5||tool part (read_file)`,
		`50|tool_use|msg-2#part-4|gpt-5.5||tool part (mcp)`,
		`50|system|msg-2#usage|gpt-5.5||usage: input_tokens=1000 output_tokens=200 reasoning_tokens=30 cache_read_tokens=100 cache_write_tokens=50 config_id=20`,
		`50|tool_use|msg-3#part-6|||tool part (streaming): no tool_execution_context row`,
		`50|system|msg-3#usage|||usage: input_tokens=500 output_tokens=100 reasoning_tokens=10 cache_read_tokens=0 cache_write_tokens=0 config_id=30`,
		`50|system|msg-5#part-7|||context part (agent_rules) added by the app to the user message (its content is in no table read)`,
		`50|system|msg-5#part-8|||user message of kind context_container (not typed by the person): Always run the tests before committing.`,
		`|system|msg-9#usage|gpt-5.5||usage: input_tokens=7 output_tokens=1 reasoning_tokens=0 cache_read_tokens=0 cache_write_tokens=0 config_id=20`,
		`|tool_use|part-11|||tool part (its message part 11 is gone)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantP := "line 11: orphan_record: tool_execution_context of part 11, whose message_parts row is gone: kept (its row under no chat)|" +
		"line 9: orphan_record: message_generations row of message 9, whose messages row is gone: kept"
	if p := strings.Join(s.Problems, "|"); p != wantP {
		t.Fatalf("problems\n%s\nwant\n%s", p, wantP)
	}
}

// TestTypedMigrating: a store part way through the migration (the new
// tables created, the legacy tool-call table still full: splitrail
// caa74804's additive case) gives each call once, from the legacy table.
func TestTypedMigrating(t *testing.T) {
	alter := `CREATE TABLE tool_execution_context (message_part_id INTEGER PRIMARY KEY);
INSERT INTO tool_execution_context VALUES (1003), (1004), (1005), (1006), (1010);
CREATE TABLE message_generations AS SELECT id AS message_id, model, input_tokens FROM messages WHERE role = 'assistant';
ALTER TABLE messages ADD COLUMN message_kind TEXT NOT NULL DEFAULT 'normal';`
	before := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLite(t, "testdata/typical.sql"), file, nil))
	during := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", alter), file, nil))
	if len(before.Events) != len(during.Events) || strings.Join(before.Problems, "|") != strings.Join(during.Problems, "|") {
		t.Fatalf("before %d rows %q, during %d rows %q", len(before.Events), before.Problems, len(during.Events), during.Problems)
	}
	for i := range before.Events {
		if before.Events[i] != during.Events[i] {
			t.Fatalf("row %d\n%+v\nduring the migration\n%+v", i, before.Events[i], during.Events[i])
		}
	}
}
