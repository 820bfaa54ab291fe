package commandcode

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

const (
	dir = ".commandcode/projects/home-ex-proj-web/"
	sid = "0b5e7c1a-2d3f-4e5a-8b9c-0d1e2f3a4b5c"
)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, nil)
	s := parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
	if strings.HasSuffix(rel, ".jsonl") {
		parsertest.Accounted(t, in, s)
	}
	return s
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s id=%s rec=%s err=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.ToolUseID, e.RecordID, e.IsError, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestSessionV3: every entry type of the v3 store; an automated input is
// a system row, never a user row; a denied edit is an error result.
func TestSessionV3(t *testing.T) {
	s := run(t, "command-code/session", dir+sid+".jsonl", "sessions", "session_v3")
	want := strings.ReplaceAll(`2 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e1 err= in= t=2026-11-30T09:00:01.000Z/: "model changed: moonshotai/Kimi-K2.5"
3 user  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e2 err= in= t=2026-11-30T09:00:02.000Z/: "list the open ports and kill the dev server"
4 thinking  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model=moonshotai/Kimi-K2.5 id= rec=e3 err= in= t=2026-11-30T09:00:05.000Z/: "Check listening sockets first."
4 assistant  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model=moonshotai/Kimi-K2.5 id= rec=e3#1 err= in= t=2026-11-30T09:00:05.000Z/: "Listing ports."
4 tool_use shell_command sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model=moonshotai/Kimi-K2.5 id=call_1 rec=e3#2 err= in={"command":"ss -ltnp"} t=2026-11-30T09:00:05.000Z/: "ss -ltnp"
5 tool_result shell_command sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id=call_1 rec=e4 err=false in= t=2026-11-30T09:00:06.000Z/: "LISTEN 0 511 *:3000"
6 tool_use edit_file sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id=call_2 rec=e5 err= in={"file_path":"/home/ex/proj/web/.env","old":"A","new":"B"} t=2026-11-30T09:00:07.000Z/: "/home/ex/proj/web/.env"
7 tool_result edit_file sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id=call_2 rec=e6 err=true in= t=2026-11-30T09:00:08.000Z/: "Permission denied by user"
8 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e7 err= in= t=2026-11-30T09:05:00.000Z/: "automated input, not typed (scheduled-cron:t1): Scheduled task fired: nightly check"
9 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e8 err= in= t=2026-11-30T09:06:00.000Z/: "reasoning effort changed: high"
10 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e9 err= in= t=2026-11-30T09:07:00.000Z/: "context compacted (the entries before stay in the file), 12000 tokens before: User asked about ports."
11 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e10 err= in= t=2026-11-30T09:08:00.000Z/: "branch left (from entry e9), summary: Abandoned the edit."
12 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e11 err= in= t=2026-11-30T09:08:30.000Z/: "label on entry e3: ports"
13 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e12 err= in= t=2026-11-30T09:09:00.000Z/: "session named: port cleanup"
14 system  sid=@ parent=9a8b7c6d proj=/home/ex/proj/web model= id= rec=e13 err= in= t=2026-11-30T09:09:30.000Z/: "custom entry (goal)"
`, "@", sid)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{1 session_header} {15 no_evidence:empty_message}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if len(s.Problems) != 2 || s.Problems[0] != `line 16: skipped_record: unknown entry type "hologram"` || !strings.HasPrefix(s.Problems[1], "line 17: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("problems: %q", s.Problems)
	}
}

// TestSessionV2: the lines before the v3 store, with v1's Anthropic
// blocks; the session id is the line's sessionId.
func TestSessionV2(t *testing.T) {
	s := run(t, "command-code/session", dir+"legacy-1.jsonl", "sessions", "session_v2")
	want := `1 user  sid=legacy-1 parent= proj=/home/ex/proj/web model= id= rec=v1 err= in= t=2026-10-01T12:00:00.000Z/: "fix the login bug"
2 tool_use read_file sid=legacy-1 parent= proj=/home/ex/proj/web model= id=tu_1 rec=v2 err= in={"file_path":"login.ts"} t=2026-10-01T12:00:03.000Z/: "login.ts"
3 tool_result read_file sid=legacy-1 parent= proj=/home/ex/proj/web model= id=tu_1 rec=v3 err=false in= t=2026-10-01T12:00:04.000Z/: "export function login() {}"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 4: skipped_record: line with neither a type nor a role" {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

func TestMeta(t *testing.T) {
	s := run(t, "command-code/session-meta", dir+sid+".meta.json", "session-meta", "meta")
	const f = " (from " + dir + sid + ".meta.json, file mtime)"
	want := strings.Join([]string{"session title (renamed by the user): port cleanup" + f, "model setting: moonshotai/Kimi-K2.5" + f, "session forked from 9a8b7c6d at 2026-11-30T08:59:59.000Z" + f}, "\n")
	var got []string
	for _, e := range s.Events {
		if e.SessionID != sid || e.ParentSessionID != "9a8b7c6d" || e.TimeString() != "2026-11-30T10:00:00.000Z" {
			t.Fatalf("row: %+v", e)
		}
		got = append(got, e.Text)
	}
	if strings.Join(got, "\n") != want {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	in := parsertest.Input(t, "testdata/home/"+dir+"legacy-1.jsonl", parser.File{Path: "/home/ex/x.meta.json", Agent: agentName}, nil)
	if m := parsertest.Run(t, byID(t, "command-code/session-meta"), in); len(m.Events) != 0 || len(m.Problems) != 1 || !strings.HasPrefix(m.Problems[0], "line 0: not a Command Code session meta") {
		t.Fatalf("malformed meta: %+v %q", m.Events, m.Problems)
	}
}
