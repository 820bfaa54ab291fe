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
// read unnamed; without the tool-call table the text rows stay and the
// tool_call parts are named; a missing column of messages is named (and
// the parts, whose messages are then unread, kept as orphans: their calls).
func TestAltered(t *testing.T) {
	for _, c := range []struct {
		alter, problem string
		users, calls   int
	}{
		{`DROP TABLE projects`, "", 6, 5},
		{`DROP TABLE message_part_tool_call`, "line 0: table message_part_tool_call missing: its rows cannot be read; the other tables are read", 6, 0},
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
		if !strings.HasPrefix(strings.Join(s.Problems, "|"), c.problem) || users != c.users || calls != c.calls {
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

// TestOrphanNodeKept: the text of a content node whose message_parts row
// is gone is kept as a row, the node an orphan_record problem.
func TestOrphanNodeKept(t *testing.T) {
	s := parsertest.Run(t, byID(t, "piebald/app-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `DELETE FROM message_parts WHERE id = 1000`), file, nil))
	want := "line 10000: orphan_record: content node 10000 of text part 1000, whose message_parts row is gone: kept"
	if !strings.Contains(strings.Join(s.Problems, "\n"), want) {
		t.Errorf("problems %q, want %q", s.Problems, want)
	}
	var got string
	for _, e := range s.Events {
		if e.RecordID == "node-10000" {
			got = fmt.Sprintf("%s|%s|%d|%s", e.SessionID, e.TurnType, e.SourceLine, e.Text)
		}
	}
	if w := "|system|10000|text of content node 10000 (its message part is gone): The login form "; got != w {
		t.Errorf("row %q, want %q", got, w)
	}
}
