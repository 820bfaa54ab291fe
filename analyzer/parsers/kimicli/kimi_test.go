package kimicli

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2025, 12, 1, 15, 0, 0, 0, time.UTC)

const (
	md5dir  = "30ca4f5e99a993898c47722b672326eb" // md5("/home/ex/proj/api")
	session = "5f0c2a1e-7b7d-4c1a-9d55-0e7a3c9b2f10"
	sessDir = ".kimi/sessions/" + md5dir + "/" + session
)

var byID = parsertest.IDs(Parsers())

// home maps every fixture file under testdata/home to /home/ex/..., minus
// the ones named in without.
func home(t testing.TB, without ...string) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	err := filepath.WalkDir("testdata/home", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, filepath.Join("testdata", "home")+string(filepath.Separator)))
		for _, w := range without {
			if rel == w {
				return nil
			}
		}
		files["/home/ex/"+rel] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func run(t *testing.T, id, rel, target, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, related)
	s := parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
	if strings.HasSuffix(rel, ".jsonl") {
		parsertest.Accounted(t, in, s)
	}
	return s
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s id=%s rec=%s err=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ToolUseID, e.RecordID, e.IsError, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestWire: the main session's wire log, its subagent's own wire beside
// it. Every record is a row, a counted skip or a problem; the subagent
// event whose own wire is collected is a skip, the one whose wire is not
// gives its rows in the subagent's session.
func TestWire(t *testing.T) {
	s := run(t, "kimi-cli/wire", sessDir+"/wire.jsonl", "sessions", "wire", home(t))
	const sid, sub2 = session, session + "/b71d04"
	want := strings.Join([]string{
		`2 user  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:01.125Z/: "delete the build cache and rerun the tests"`,
		`4 thinking  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:03.125Z/: "The user wants the cache removed."`,
		`5 assistant  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:04.125Z/: "I'll remove the cache first."`,
		`6 tool_use Shell sid=S parent= id=tool_shell_1 rec=tool_shell_1 err= in={"command":"rm -rf .cache && go test ./..."} t=2025-12-01T14:40:05.125Z/: "rm -rf .cache && go test ./..."`,
		`7 system Shell sid=S parent= id=tool_shell_1 rec=req-1 err= in= t=2025-12-01T14:40:06.125Z/: "permission requested: run command: rm -rf .cache && go test ./... (by Shell)"`,
		`8 system Shell sid=S parent= id=tool_shell_1 rec=req-1#response err= in= t=2025-12-01T14:40:07.125Z/: "permission decision: approve_for_session"`,
		`9 tool_result Shell sid=S parent= id=tool_shell_1 rec=tool_shell_1#result err=false in= t=2025-12-01T14:40:08.125Z/: "Command executed successfully.\nok  \texample.com/api\t0.41s"`,
		`10 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:09.125Z/: "token usage of step m1: input 5000 (cache read 0, cache creation 0), output 210; context 5210 of 262144 tokens"`,
		`11 tool_use Agent sid=S parent= id=tool_agent_1 rec=tool_agent_1 err= in={"description":"find flaky tests","prompt":"Search the repo for flaky tests","subagent_type":"explore"} t=2025-12-01T14:40:10.125Z/: "Agent: find flaky tests"`,
		`13 assistant  sid=SUB2 parent=S id= rec= err= in= t=2025-12-01T14:40:12.125Z/: "Legacy subagent reply."`,
		`14 tool_result Agent sid=S parent= id=tool_agent_1 rec=tool_agent_1#result err=false in= t=2025-12-01T14:40:13.125Z/: "No flaky tests found."`,
		`15 tool_use WriteFile sid=S parent= id=tool_write_1 rec=tool_write_1 err= in={"path":"/etc/hosts","content":"x"} t=2025-12-01T14:40:14.125Z/: "/etc/hosts"`,
		`16 system WriteFile sid=S parent= id=tool_write_1 rec=req-2 err= in= t=2025-12-01T14:40:15.125Z/: "permission requested: edit file outside the work dir: /etc/hosts (by WriteFile)"`,
		`17 system WriteFile sid=S parent= id=tool_write_1 rec=req-2#response err= in= t=2025-12-01T14:40:16.125Z/: "permission decision: reject (feedback: never touch /etc)"`,
		`18 tool_result WriteFile sid=S parent= id=tool_write_1 rec=tool_write_1#result err=true in= t=2025-12-01T14:40:17.125Z/: "The tool call is rejected by the user."`,
		`20 user  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:19.125Z/: "what is in this screenshot?\n[image_url: data URL, 34 bytes]"`,
		`21 user  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:20.125Z/: "also check the README"`,
		`22 tool_use AskUserQuestion sid=S parent= id=tool_ask_1 rec=tool_ask_1 err= in={"questions":[{"question":"Which branch?"}]} t=2025-12-01T14:40:21.125Z/: "AskUserQuestion {\"questions\":[{\"question\":\"Which branch?\"}]}"`,
		`23 system  sid=S parent= id=tool_ask_1 rec=q-1 err= in= t=2025-12-01T14:40:22.125Z/: "question to the user: Which branch? [main | dev]"`,
		`24 user  sid=S parent= id=tool_ask_1 rec=q-1#response err= in= t=2025-12-01T14:40:23.125Z/: "Which branch? -> dev"`,
		`25 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:24.125Z/: "model call failed (APIStatusError, HTTP 529); retry 2 of 3"`,
		`26 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:25.125Z/: "step interrupted"`,
		`28 user  sid=S parent= id= rec=btw-1 err= in= t=2025-12-01T14:40:27.125Z/: "how long will this take?"`,
		`29 assistant  sid=S parent= id= rec=btw-1#answer err= in= t=2025-12-01T14:40:28.125Z/: "About a minute."`,
		`30 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:29.125Z/: "hook resolved: PreToolUse Shell -> block (policy: no network)"`,
		`31 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:30.125Z/: "context compaction began: earlier turns were summarised for the model (the rows above stay)"`,
		`32 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:31.125Z/: "context compaction ended"`,
		`33 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:32.125Z/: "plan mode: on"`,
		`34 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:33.125Z/: "notification (task, info): Background task finished: go test exited 0"`,
		`35 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:34.125Z/: "plan (/home/ex/.kimi/plans/fix.md):\n1. fix tests"`,
		`38 system  sid=S parent= id= rec= err= in= t=2025-12-01T14:40:37.125Z/: "context imported (not typed): [Imported context from session 1234]"`,
	}, "\n") + "\n"
	want = strings.NewReplacer("sid=SUB2", "sid="+sub2, "sid=S ", "sid="+sid+" ", "parent=S ", "parent="+sid+" ").Replace(want)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	for _, e := range s.Events {
		if e.ProjectPath != "/home/ex/proj/api" {
			t.Fatalf("project path from kimi.json: %+v", e)
		}
	}
	wantSkips := "[{1 wire_metadata} {3 step_begin} {12 subagent_event:in_subagent_wire} {19 turn_end} {27 turn_end} {36 mcp_loading} {37 tool_call_part:merged_into_tool_call}]"
	if fmt.Sprint(s.Skips) != wantSkips {
		t.Fatalf("skips: %v", s.Skips)
	}
	if len(s.Problems) != 2 || s.Problems[0] != `line 39: skipped_record: unknown wire message type "FutureThing"` || !strings.HasPrefix(s.Problems[1], "line 40: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("problems: %q", s.Problems)
	}
}

// TestWireSubagentNotCollected: without the subagent's own wire the
// parent's copy of its event is its row, in the subagent's session.
func TestWireSubagentNotCollected(t *testing.T) {
	in := parsertest.Input(t, "testdata/home/"+sessDir+"/wire.jsonl", parser.File{Path: "/home/ex/" + sessDir + "/wire.jsonl", Agent: agentName, Target: "sessions"}, home(t, sessDir+"/subagents/a3f9c2/wire.jsonl", ".kimi/kimi.json"))
	s := parsertest.Run(t, byID(t, "kimi-cli/wire"), in)
	var got string
	for _, e := range s.Events {
		if e.SourceLine == 12 {
			got += fmt.Sprintf("%s %s %s %s %s %s|", e.TurnType, e.ToolName, e.ToolUseID, e.SessionID, e.ParentSessionID, e.Text)
		}
		if e.ProjectPath != "" {
			t.Fatalf("no kimi.json, no project path: %+v", e)
		}
	}
	if want := "tool_use Grep tool_grep_1 " + session + "/a3f9c2 " + session + " t.Skip|"; got != want {
		t.Fatalf("line 12: %q", got)
	}
	for _, k := range s.Skips {
		if k.Reason == "subagent_event:in_subagent_wire" {
			t.Fatal("skipped a subagent event whose own wire is not collected")
		}
	}
}

// TestSubagentWire: a subagent's own wire is its session under the main
// one; its TurnBegin is the parent agent's task, not a user row.
func TestSubagentWire(t *testing.T) {
	s := run(t, "kimi-cli/wire", sessDir+"/subagents/a3f9c2/wire.jsonl", "sessions", "subagent_wire", home(t))
	want := strings.ReplaceAll(`2 system  sid=@/a3f9c2 parent=@ id= rec= err= in= t=2025-12-01T14:40:11.625Z/: "subagent task (written by the parent agent): Search the repo for flaky tests"
3 tool_use Grep sid=@/a3f9c2 parent=@ id=tool_grep_1 rec=tool_grep_1 err= in={"pattern":"t.Skip"} t=2025-12-01T14:40:11.725Z/: "t.Skip"
4 tool_result Grep sid=@/a3f9c2 parent=@ id=tool_grep_1 rec=tool_grep_1#result err=false in= t=2025-12-01T14:40:11.825Z/: "No matches found."
5 assistant  sid=@/a3f9c2 parent=@ id= rec= err= in= t=2025-12-01T14:40:11.925Z/: "No flaky tests found."
`, "@", session)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{1 wire_metadata} {6 turn_end}]" || len(s.Problems) != 0 {
		t.Fatalf("skips %v problems %v", s.Skips, s.Problems)
	}
}

func TestState(t *testing.T) {
	s := run(t, "kimi-cli/state", sessDir+"/state.json", "session-state", "state", home(t))
	const f = " (from " + sessDir + "/state.json, file mtime)"
	want := strings.Join([]string{
		"permission setting: yolo (approve every action)=false, afk=false, actions approved for the session: run command" + f,
		"session title: cache cleanup" + f,
		"plan mode: on (fix-tests)" + f,
		"permission setting: additional directory the agent may use: /home/ex/shared" + f,
		"session archived at 2025-12-01T15:40:00.125Z" + f,
		"to-do list: [done] rerun tests; [pending] check README" + f,
	}, "\n")
	var got []string
	for _, e := range s.Events {
		if e.SessionID != session || e.ProjectPath != "/home/ex/proj/api" || e.TimeString() != "2025-12-01T15:00:00.000Z" {
			t.Fatalf("row: %+v", e)
		}
		got = append(got, e.Text)
	}
	if strings.Join(got, "\n") != want {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
}

func TestWorkDirs(t *testing.T) {
	s := run(t, "kimi-cli/work-dirs", ".kimi/kimi.json", "work-dirs", "work_dirs", nil)
	want := `1 system  sid=` + session + ` parent= id= rec= err= in= t=2025-12-01T15:00:00.000Z/file-mtime: "work directory: /home/ex/proj/api (sessions/` + md5dir + `), last session ` + session + ` (from .kimi/kimi.json, file mtime)"
2 system  sid= parent= id= rec= err= in= t=2025-12-01T15:00:00.000Z/file-mtime: "work directory: /home/ex/scratch (sessions/8d4f6a3b3e0e0e5b8d6c0a0c3a5e7a71), last session"
`
	got := rows(s)
	// the second md5 is computed, not typed: check it by the function
	want = strings.Replace(want, "8d4f6a3b3e0e0e5b8d6c0a0c3a5e7a71), last session", kimiwire.MD5Dir(kimiwire.WorkDir{Path: "/home/ex/scratch"})+") (from .kimi/kimi.json, file mtime)", 1)
	if got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if kimiwire.MD5Dir(kimiwire.WorkDir{Path: "/home/ex/proj/api", Kaos: "local"}) != md5dir || kimiwire.MD5Dir(kimiwire.WorkDir{Path: "/w", Kaos: "ssh"}) != "ssh_"+kimiwire.MD5Dir(kimiwire.WorkDir{Path: "/w"}) {
		t.Fatal("sessions folder name")
	}
}

func TestUserHistory(t *testing.T) {
	s := run(t, "kimi-cli/user-history", ".kimi/user-history/"+md5dir+".jsonl", "user-history", "user_history", home(t))
	want := `1 user  sid= parent= id= rec= err= in= t=/none: "delete the build cache and rerun the tests"
2 user  sid= parent= id= rec= err= in= t=/none: "also check the README"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.ProjectPath != "/home/ex/proj/api" {
			t.Fatalf("row: %+v", e)
		}
	}
	if fmt.Sprint(s.Skips) != "[{4 no_evidence:empty_prompt}]" || len(s.Problems) != 2 || s.Problems[0] != "line 5: skipped_record: history entry without content" || !strings.HasPrefix(s.Problems[1], "line 6: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

// TestMalformed: files that are not what they should be give a problem
// row each and no panic.
func TestMalformed(t *testing.T) {
	for _, id := range []string{"kimi-cli/state", "kimi-cli/work-dirs"} {
		in := parsertest.Input(t, "testdata/home/"+sessDir+"/wire.jsonl", parser.File{Path: "/home/ex/x.json", Agent: agentName}, nil)
		s := parsertest.Run(t, byID(t, id), in)
		if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 0: not ") {
			t.Fatalf("%s: %+v %q", id, s.Events, s.Problems)
		}
	}
}
