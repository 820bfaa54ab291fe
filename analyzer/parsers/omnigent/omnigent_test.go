package omnigent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const dbPath = "/home/alice/.omnigent/chat.db"

var (
	byID  = parsertest.IDs(Parsers())
	mtime = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	convA = strings.Repeat("a1", 16)
	convS = strings.Repeat("5b", 16)
)

func run(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, "omnigent/chat-db")
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	if !p.Match(&f) {
		t.Fatalf("omnigent/chat-db does not match %s", f.Path)
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

// TestTypical: the current generation (Uuid16 BLOB ids, SMALLINT type and
// status codes, the metadata table): each conversation's row, the
// sub-agent under its parent, every item type, and the records that give
// no row accounted for.
func TestTypical(t *testing.T) {
	s := run(t, "testdata/typical.sql", "testdata/typical.golden.jsonl")
	head := find(t, s, timeline.System, "omnigent conversation "+convA)
	if head.Text != "omnigent conversation "+convA+`; title "Fix the flaky test"; workspace /home/alice/proj; branch main; native session claude-sess-1; session overrides {"model_override":"claude-opus-4-8"}; updated 2026-11-24T06:05:00Z` ||
		!head.Time.Equal(time.Unix(1795500000, 0).UTC()) || head.ProjectPath != "/home/alice/proj" {
		t.Fatalf("conversation row %+v", head)
	}
	sub := find(t, s, timeline.System, "omnigent conversation "+convS)
	if sub.ParentSessionID != convA || !strings.Contains(sub.Text, `sub-agent scout (task "map the test suite"); parent `+convA) || !strings.HasSuffix(sub.Text, "archived; updated 2026-11-24T06:03:20Z") {
		t.Fatalf("sub-agent row %+v", sub)
	}
	u := find(t, s, timeline.User, "TestSync is flaky")
	if u.SessionID != convA || u.RecordID != strings.Repeat("01", 16) || !u.Time.Equal(time.Unix(1795500010, 0).UTC()) || u.Text != "the test TestSync is flaky, fix it" {
		t.Fatalf("prompt %+v", u)
	}
	if e := find(t, s, timeline.System, "message attachments: input_image block"); strings.Contains(e.Text, "iVBOR") {
		t.Fatal("image bytes written")
	}
	find(t, s, timeline.System, "injected context (is_meta: replayed to the agent, not typed): skill instructions")
	for _, e := range s.Events {
		if e.TurnType == timeline.User && strings.Contains(e.Text, "skill instructions") {
			t.Fatal("an is_meta message became a user row")
		}
	}
	call := find(t, s, timeline.ToolUse, "sys_os_shell")
	if call.ToolUseID != "toolu_1" || call.ToolInput != `{"command":"go test -run TestSync -count=2 ./..."}` || call.Model != "polly" {
		t.Fatalf("tool call %+v", call)
	}
	if r := find(t, s, timeline.ToolResult, "FAIL: TestSync"); r.ToolName != "sys_os_shell" || r.ToolUseID != "toolu_1" {
		t.Fatalf("tool result %+v", r)
	}
	if e := find(t, s, timeline.User, "map the test suite"); e.SessionID != convS || e.ParentSessionID != convA {
		t.Fatalf("sub-agent's task %+v", e)
	}
	find(t, s, timeline.Thinking, "Run the test first")
	find(t, s, timeline.System, "encrypted reasoning (6 bytes, the provider's; not readable)")
	if e := find(t, s, timeline.ToolUse, "web_search_call"); e.ToolUseID != "ws_1" || e.ToolInput != `{"action":{"query":"go sync.Map race"},"id":"ws_1","status":"completed","type":"web_search_call"}` {
		t.Fatalf("native tool %+v", e)
	}
	if e := find(t, s, timeline.System, "error (tool) TimeoutError"); e.IsError != "true" {
		t.Fatalf("error %+v", e)
	}
	find(t, s, timeline.System, "compaction: the items up to "+strings.Repeat("0b", 16)+" are summarized for the model (kept here); 5120 tokens: The user asked")
	find(t, s, timeline.System, "routing decision: model=claude-opus-4-8 applied=true scope=turn router=llm: Multi-step debugging")
	find(t, s, timeline.System, "slash command (skill) /bulletproof TestSync")
	find(t, s, timeline.System, "terminal command (input): git diff --stat")
	find(t, s, timeline.System, "terminal command (stdout):  sync.go | 4 ++--")
	find(t, s, timeline.System, "the reply above was interrupted")
	find(t, s, timeline.System, "the item above has status failed")
	find(t, s, timeline.System, `resource created: file file_1 {"path":"/home/alice/proj/NOTES.md"}`)
	if e := find(t, s, timeline.User, "whose conversation is gone"); e.SessionID != strings.Repeat("0f", 16) {
		t.Fatalf("orphan item %+v", e)
	}
	want := "line 20: message item " + strings.Repeat("12", 16) + " data is not a JSON object: unexpected end of JSON input|" +
		"line 21: skipped_record: item " + strings.Repeat("13", 16) + ": item type code 12 not known, not read|" +
		"line 23: orphan_record: item " + strings.Repeat("31", 16) + " of conversation " + strings.Repeat("0f", 16) + ", whose conversations row is gone: kept"
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
	if len(s.Skips) != 1 || s.Skips[0].Line != 22 || s.Skips[0].Reason != "no_evidence:empty_message" {
		t.Fatalf("skips %+v", s.Skips)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "NEVERPRINTED") {
			t.Fatal("account_tokens read")
		}
	}
	// session_usage: zstd-framed for A, raw-framed for the sub-agent
	if u := find(t, s, timeline.System, "session usage (as of the conversation's last update): {\"by_model\""); u.SessionID != convA || u.TimeBasis != timeline.TimeInherited ||
		u.Text != `session usage (as of the conversation's last update): {"by_model":{"claude-haiku-4-5":{"input_tokens":120,"output_tokens":30},"claude-opus-4-8":{"input_tokens":5000,"output_tokens":800,"total_cost_usd":0.04}},"input_tokens":5120,"output_tokens":830,"total_cost_usd":0.042}` ||
		!u.Time.Equal(time.Unix(1795500300, 0).UTC()) {
		t.Fatalf("usage %+v", u)
	}
	if u := find(t, s, timeline.System, "session usage (as of the conversation's last update): {\"input_tokens\""); u.SessionID != convS {
		t.Fatalf("raw-framed usage %+v", u)
	}
}

// TestSessionState: session_state, the policy engine's per-conversation
// state, is one row at the conversation's updated_at (inherited), the
// JSON as stored (raw-framed here); an empty object gives none; a build
// before compression (plain TEXT on the conversations row) is read the
// same; a framed value that does not decode is one problem.
func TestSessionState(t *testing.T) {
	s := run(t, "testdata/typical.sql", "testdata/typical.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		if strings.HasSuffix(e.RecordID, "#state") {
			got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", e.SessionID, e.Time.Format(time.RFC3339), e.TimeBasis, e.SourceLine, e.Text))
		}
	}
	want := convA + `|2026-11-24T06:05:00Z|inherited|1|policy session state (as of the conversation's last update): {"risk_score":{"score":35,"events":[{"tool":"sys_os_write","delta":20}]},"gdrive_read_confidential":true,"_policy_cost_ask_approved_usd":2.5}`
	if strings.Join(got, "\n") != want {
		t.Fatalf("state rows\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	l := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/legacy.sql", `ALTER TABLE conversations ADD COLUMN session_state TEXT; UPDATE conversations SET session_state = '{"_task_switch_history": ["refactor", "tests"]}'`), f, nil))
	if e := find(t, l, timeline.System, "policy session state"); e.Text != `policy session state (as of the conversation's last update): {"_task_switch_history":["refactor","tests"]}` || e.SessionID != "conv_1" || e.RecordID != "conv_1#state" {
		t.Fatalf("legacy state %+v", e)
	}
	b := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `UPDATE omnigent_conversation_metadata SET session_state = X'0001ffff' WHERE kind = 1`), f, nil))
	var probs []string
	for _, p := range b.Problems {
		if strings.Contains(p, "session_state") {
			probs = append(probs, p)
		}
	}
	if len(probs) != 1 || !strings.HasPrefix(probs[0], "line 1: session_state of conversation "+convA+": zstd payload does not decode (") {
		t.Fatalf("problems %q", probs)
	}
}

// TestUsageNotDecodable: a framed zstd value that does not decode is one
// problem naming the conversation; its other rows stay.
func TestUsageNotDecodable(t *testing.T) {
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	s := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", `UPDATE omnigent_conversation_metadata SET session_usage = X'0001ffff' WHERE kind = 1`), f, nil))
	var probs []string
	for _, p := range s.Problems {
		if strings.Contains(p, "session_usage") {
			probs = append(probs, p)
		}
	}
	if len(probs) != 1 || !strings.HasPrefix(probs[0], "line 1: session_usage of conversation "+convA+": zstd payload does not decode (") {
		t.Fatalf("problems %q", probs)
	}
	find(t, s, timeline.User, "TestSync is flaky")
}

// TestLegacy: a build before the metadata split and the integer codes:
// text ids, VARCHAR type names, the workspace on the conversations row,
// no metadata table and no problem.
func TestLegacy(t *testing.T) {
	s := run(t, "testdata/legacy.sql", "testdata/legacy.golden.jsonl")
	if len(s.Problems) != 0 || len(s.Events) != 3 {
		t.Fatalf("legacy: %d rows, problems %q", len(s.Events), s.Problems)
	}
	if u := find(t, s, timeline.User, "hello from an old build"); u.SessionID != "conv_1" || u.ProjectPath != "/home/alice/old" || u.RecordID != "msg_1" {
		t.Fatalf("legacy prompt %+v", u)
	}
	if c := find(t, s, timeline.ToolUse, "sys_os_read"); c.ToolInput != `{"path":"README.md"}` || c.ToolUseID != "call_1" {
		t.Fatalf("legacy call %+v", c)
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "testdata/empty.sql", "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 0: not an omnigent database: none of the tables conversation_items, conversations, omnigent_conversation_metadata" {
		t.Fatalf("empty: %d rows %q", len(s.Events), s.Problems)
	}
}

// TestAltered: the one SQLite policy. Without the metadata table the
// conversations are read on their own columns; without conversations the
// items are kept as orphans; a column gone from the items is named.
func TestAltered(t *testing.T) {
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	for _, c := range []struct {
		alter, problem string
		users          int
	}{
		{`DROP TABLE omnigent_conversation_metadata`, "", 3},
		{`DROP TABLE conversation_items`, "line 0: table conversation_items missing: its rows cannot be read; the other tables are read", 0},
		{`ALTER TABLE conversation_items DROP COLUMN data`, "line 0: unknown schema: table conversation_items lacks column(s) data: not read; the other tables are read", 0},
	} {
		s := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", c.alter), f, nil))
		users, heads := 0, 0
		for _, e := range s.Events {
			if e.TurnType == timeline.User {
				users++
			}
			if strings.HasPrefix(e.Text, "omnigent conversation ") {
				heads++
			}
		}
		probs := s.Problems
		if c.users > 0 {
			probs = probs[:0]
			for _, p := range s.Problems {
				if strings.HasPrefix(p, "line 0:") {
					probs = append(probs, p)
				}
			}
		}
		if strings.Join(probs, "|") != c.problem || users != c.users || heads != 2 {
			t.Errorf("%s: problems %q, %d user rows, %d conversation rows", c.alter, s.Problems, users, heads)
		}
	}
}

// TestBinaryIDsInProblems: an id or type column holding a blob that is not
// a Uuid16 (here 00 ff 7b 22) is named in the problem escaped, never as its
// raw bytes.
func TestBinaryIDsInProblems(t *testing.T) {
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	alter := `INSERT INTO conversation_items VALUES (0, X'00ff7b22', X'00ff7b22', 'resp_x', 1795500099, 1, 90, X'00ff7b22', '{}', '', NULL)`
	s := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", alter), f, nil))
	var got []string
	for _, p := range s.Problems {
		if strings.Contains(p, `\x00\xff`) || strings.Contains(p, "\x00") {
			got = append(got, p)
		}
	}
	want := []string{
		`line 24: orphan_record: item "\x00\xff{\"" of conversation "\x00\xff{\"", whose conversations row is gone: kept`,
		`line 24: skipped_record: item "\x00\xff{\"": item type "\x00\xff{\"" not known, not read`,
	}
	if len(got) != len(want) {
		t.Fatalf("problems %q", s.Problems)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("problem %q, want %q", got[i], want[i])
		}
	}
}

// TestOrphanMetadata: a metadata row whose conversations row is gone (the
// conversation deleted) is kept: an orphan_record problem and the
// conversation's row and usage from the metadata alone, its items under
// its workspace and no orphan item problems.
func TestOrphanMetadata(t *testing.T) {
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	alter := `DELETE FROM conversations WHERE id = X'5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b'`
	s := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", alter), f, nil))
	want := "line 2: orphan_record: omnigent_conversation_metadata of conversation 5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b, whose conversations row is gone: kept"
	if len(s.Problems) != 4 || s.Problems[0] != want || strings.Contains(strings.Join(s.Problems[1:], "|"), "5b5b") {
		t.Fatalf("problems %q, want %q first and the fixture's three others", s.Problems, want)
	}
	var head, usage, item *timeline.Event
	for i, e := range s.Events {
		switch e.RecordID {
		case "5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b#conversation":
			head = &s.Events[i]
		case "5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b#usage":
			usage = &s.Events[i]
		case "22222222222222222222222222222222":
			item = &s.Events[i]
		}
	}
	if head == nil || head.Text != `omnigent conversation 5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b; sub-agent scout (task "map the test suite"); workspace /home/alice/proj` || head.SourceLine != 2 || head.ProjectPath != "/home/alice/proj" {
		t.Errorf("conversation row %+v", head)
	}
	if usage == nil || usage.Text != `session usage (as of the conversation's last update): {"input_tokens":300,"output_tokens":40}` {
		t.Errorf("usage row %+v", usage)
	}
	if item == nil || item.ProjectPath != "/home/alice/proj" || item.SessionID != "5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b" {
		t.Errorf("item row %+v", item)
	}
}

// TestDuplicateMetadata: two metadata rows of one conversation id (the
// key is workspace_id and id) are a duplicate_id problem, the later read.
func TestDuplicateMetadata(t *testing.T) {
	f := parser.File{Path: dbPath, Target: "chat-db", Agent: Agent, MTime: mtime}
	alter := `INSERT INTO omnigent_conversation_metadata (workspace_id, id, kind, sub_agent_name, workspace) VALUES (7, X'5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b', 2, 'other', '/home/bob/proj')`
	s := parsertest.Run(t, byID(t, "omnigent/chat-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", alter), f, nil))
	want := "line 3: duplicate_id: omnigent_conversation_metadata of conversation 5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b again (workspace_id 7; the earlier row at rowid 2): the later row read"
	if len(s.Problems) == 0 || s.Problems[0] != want {
		t.Errorf("problems %q, want %q first", s.Problems, want)
	}
}
