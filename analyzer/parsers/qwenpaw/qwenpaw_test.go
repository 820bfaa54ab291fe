package qwenpaw

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const ws = ".qwenpaw/workspaces/default/"

func home(t *testing.T) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	err := filepath.WalkDir("testdata/home", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata/home", p)
		files["/home/ex/"+filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func run(t *testing.T, id int, local, rel, target, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target}, related)
	if !Parsers()[id].Match(&in.File) {
		t.Fatalf("%s does not match %s", Parsers()[id].ID(), rel)
	}
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func check(t *testing.T, s *parsertest.Sink, want, wantProblems string) {
	t.Helper()
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s rec=%s id=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.RecordID, e.ToolUseID, e.ToolInput, e.TimeString(), e.TimeBasis, e.Text)
	}
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestSession: the typed prompt is the one user row; the hint the agent
// added in the user role and another agent's chat_with_agent message are
// system rows; thinking, reply, the call (raw_input, the verbatim
// arguments, over input) and its result from a system-role message; the
// compressed message is kept and marked, the compaction summary is a row;
// an older save's bare item with an image; local times as local-as-utc,
// an unreadable one none; an unknown role, an unknown block, an empty item
// and a content of another shape are counted; chats.json names the chat.
func TestSession(t *testing.T) {
	rel := ws + "sessions/alice_console--alice.json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "session", home(t))
	check(t, s, `0 system  sid=default:alice_console--alice rec=default:alice_console--alice#chat id= in= t=2026-11-24T09:00:00.000Z/: "chat c-1 \"Quarterly numbers\" channel console user alice source chat status idle (from chats.json); updated 2026-11-24T09:05:00Z"
1 user  sid=default:alice_console--alice rec=m1 id= in= t=2026-11-24T10:00:00.000Z/local-as-utc: "sum the Q3 column of sales.xlsx"
2 thinking  sid=default:alice_console--alice rec=m2 id= in= t=2026-11-24T10:00:02.500Z/local-as-utc: "Read the sheet first."
2 assistant  sid=default:alice_console--alice rec=m2#1 id= in= t=2026-11-24T10:00:02.500Z/local-as-utc: "Reading the sheet."
2 tool_use execute_python_code sid=default:alice_console--alice rec=m2#2 id=call_1 in={"code":"import pandas as pd; print(pd.read_excel('sales.xlsx')['Q3'].sum())"} t=2026-11-24T10:00:02.500Z/local-as-utc: "import pandas as pd; print(pd.read_excel('sales.xlsx')['Q3'].sum())"
3 tool_result execute_python_code sid=default:alice_console--alice rec=m3 id=call_1 in= t=2026-11-24T10:00:04.000Z/local-as-utc: "48210"
4 system  sid=default:alice_console--alice rec=m4 id= in= t=2026-11-24T10:00:05.000Z/local-as-utc: "hint added by the agent in the user role (not typed): Continue: you stopped before answering."
5 assistant  sid=default:alice_console--alice rec=m5 id= in= t=2026-11-24T10:00:06.000Z/local-as-utc: "The Q3 total is 48210."
5 system  sid=default:alice_console--alice rec=m5#1 id= in= t=2026-11-24T10:00:06.000Z/local-as-utc: "message m5 above is marked compressed: replaced by the compaction summary in the model's context, kept in the file"
6 system  sid=default:alice_console--alice rec=m6 id= in= t=2026-11-24T10:01:00.000Z/local-as-utc: "message from another QwenPaw agent in the user role (not typed; chat_with_agent): [Agent researcher requesting] what is the Q3 total?"
7 user  sid=default:alice_console--alice rec=m7 id= in= t=2026-11-24T10:02:00.000Z/local-as-utc: "an item of an older save\n[image file:///home/ex/chart.png]"
12 system  sid=default:alice_console--alice rec=default:alice_console--alice#compressed-summary id= in= t=/none: "compaction summary (replaces the compressed messages in the model's context): The user asked for the Q3 total of sales.xlsx; it is 48210."
`, `line 8: skipped_record: a message of role "tool"|line 9: skipped_record: an assistant content block "audio_chunk", not known|line 10: memory entry is not a JSON object|line 11: message m10 content is not a JSON array: expected an array, found a number`)
}

// TestCronSession: a session chats.json says a cron job started is the
// job's prompt, never a typed one; the channel folder is part of the id.
func TestCronSession(t *testing.T) {
	rel := ws + "sessions/console/bob_cron-7.json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "cron", home(t))
	check(t, s, `0 system  sid=default:console:bob_cron-7 rec=default:console:bob_cron-7#chat id= in= t=2026-11-24T02:00:00.000Z/: "chat c-2 \"Nightly report\" channel console user bob source cron status idle (from chats.json); updated 2026-11-24T02:01:00Z"
1 system  sid=default:console:bob_cron-7 rec=k1 id= in= t=2026-11-24T03:00:00.000Z/local-as-utc: "cron job prompt (not typed; chats.json source cron): Write the nightly sales report"
2 assistant  sid=default:console:bob_cron-7 rec=k2 id= in= t=2026-11-24T03:00:09.000Z/local-as-utc: "Report written."
`, "")
}

// TestLegacyCopy: the pre-migration weixin copy's rows keep their ids (the
// migrated file holds the same messages) and say where they come from.
func TestLegacyCopy(t *testing.T) {
	rel := ws + "sessions/.weixin-legacy/dave_weixin--9.json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "legacy", home(t))
	check(t, s, `1 user  sid=default:dave_weixin--9 rec=w1 id= in= t=2026-11-20T08:00:00.000Z/local-as-utc: "hello from WeChat"
1 system  sid=default:dave_weixin--9 rec=w1#1 id= in= t=2026-11-20T08:00:00.000Z/local-as-utc: "the message above is in the pre-migration copy QwenPaw archived in sessions/.weixin-legacy/ when it renamed the weixin-- session file to wechat--"
`, "")
}

// TestBadSessions: a state without agent memory, a cut file, an empty file.
func TestBadSessions(t *testing.T) {
	s := run(t, 0, "testdata/nomemory.json", ws+"sessions/x.json", "sessions", "nomemory", nil)
	check(t, s, "", "line 0: skipped_record: a session state without agent.memory.content")
	s = run(t, 0, "testdata/cut.json", ws+"sessions/alice_console--alice.json", "sessions", "cut", nil)
	check(t, s, `1 user  sid=default:alice_console--alice rec=m1 id= in= t=2026-11-24T10:00:00.000Z/local-as-utc: "sum the Q3 column of sales.xlsx"
`, "line 2: memory entry is not a JSON object: unexpected end of JSON input (the rest of the file is not read)")
	s = run(t, 0, "testdata/empty.json", ws+"sessions/e.json", "sessions", "empty", nil)
	check(t, s, "", "")
}

// TestChats: one row per chat; the one whose session file was not
// collected says so; an entry without a session_id is a problem.
func TestChats(t *testing.T) {
	rel := ws + "chats.json"
	s := run(t, 1, "testdata/home/"+rel, rel, "chats", "chats", home(t))
	check(t, s, `3 system  sid=default:carol_dingtalk--42 rec=default:carol_dingtalk--42#chat id= in= t=2026-11-23T18:00:00.000Z/: "chat c-3 \"Send the passwords\" channel dingtalk user carol source chat status idle (from chats.json); updated 2026-11-23T18:10:00Z; its session file was not collected (deleted, or never saved)"
2 system  sid=default:console:bob_cron-7 rec=default:console:bob_cron-7#chat id= in= t=2026-11-24T02:00:00.000Z/: "chat c-2 \"Nightly report\" channel console user bob source cron status idle (from chats.json); updated 2026-11-24T02:01:00Z"
1 system  sid=default:alice_console--alice rec=default:alice_console--alice#chat id= in= t=2026-11-24T09:00:00.000Z/: "chat c-1 \"Quarterly numbers\" channel console user alice source chat status idle (from chats.json); updated 2026-11-24T09:05:00Z"
`, "line 4: chat entry is not a JSON object with a session_id")
}

// TestDialog: compacted messages keep their rows, marked, under the
// workspace's dialog session and ids of their own; a cut line is counted.
func TestDialog(t *testing.T) {
	rel := ws + "dialog/2026-11-23.jsonl"
	s := run(t, 2, "testdata/home/"+rel, rel, "dialog", "dialog", home(t))
	check(t, s, `1 user  sid=default:dialog rec=d1@dialog id= in= t=2026-11-23T17:00:00.000Z/local-as-utc: "earlier question about the budget"
1 system  sid=default:dialog rec=d1@dialog#1 id= in= t=2026-11-23T17:00:00.000Z/local-as-utc: "the message above was compacted out of its session's memory into 2026-11-23.jsonl (the file does not name the session)"
2 tool_use read_file sid=default:dialog rec=d2@dialog id=call_9 in={"file_path":"budget.md"} t=2026-11-23T17:00:03.000Z/local-as-utc: "budget.md"
2 system  sid=default:dialog rec=d2@dialog#1 id= in= t=2026-11-23T17:00:03.000Z/local-as-utc: "the message above was compacted out of its session's memory into 2026-11-23.jsonl (the file does not name the session)"
`, "line 3: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input")
}
