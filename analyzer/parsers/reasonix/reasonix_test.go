package reasonix

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const real = ".reasonix/projects/-tmp-rx-proj/sessions-v4/a3363571503fa8b4fa8c9827e85e6430/events.frames"

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

func run(t *testing.T, id int, local, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target}, home(t))
	if !Parsers()[id].Match(&in.File) {
		t.Fatalf("%s does not match %s", Parsers()[id].ID(), rel)
	}
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		x := e.Text
		if len(x) > 60 {
			x = x[:60]
		}
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, x)
	}
	return b.String()
}

func check(t *testing.T, s *parsertest.Sink, want, wantProblems string) {
	t.Helper()
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestRealRun: the session Reasonix 1.38.11 wrote here against the
// loopback model (two turns: a bash call the shell sandbox refused, a
// write_file that ran): the host's session-context message is a system
// row and only the typed prompts are user rows; each call's result takes
// is_error and its time from the tool/result event; the bookkeeping
// events are skips, every record accounted for.
func TestRealRun(t *testing.T) {
	s := run(t, 0, "testdata/home/"+real, real, "sessions-v4", "real_run")
	const sid = "sid=a3363571503fa8b4fa8c9827e85e6430 proj= "
	want := strings.ReplaceAll(`2 system  SIDmodel= rec=01M8TBWQY38AJMGMJ5DM2WDNYW id= in= err= t=2026-12-02T03:13:41.315Z/: "You are Reasonix, a coding agent.\nUse the available tools wh"
3 system  SIDmodel=mock/claude-sonnet-4-5 rec=4133af23c33592615ad948bd95fd8b08 id= in= err= t=2026-12-02T03:13:41.315Z/: "model: mock/claude-sonnet-4-5"
10 user  SIDmodel= rec=01M8TBWQZVN2SWE306GZQVRWV7 id= in= err= t=2026-12-02T03:13:41.371Z/: "Run the shell command `+"`echo hello-reasonix`"+` and report."
9 system  SIDmodel= rec=01M8TBWQZVYT4Z17W9H6R22KX0 id= in= err= t=2026-12-02T03:13:41.371Z/: "injected in the user role by the host (not typed): <session-"
19 assistant  SIDmodel= rec=01M8TBWR000ZCZEB3AJ8J3YBP5 id= in= err= t=2026-12-02T03:13:41.414Z/: "I'll run that command."
19 tool_use bash SIDmodel= rec=01M8TBWR000ZCZEB3AJ8J3YBP5#1 id=call_mockc011a9b090f5e59250d42916 in={"command":"echo hello-reasonix","run_in_background":false} err= t=2026-12-02T03:13:41.414Z/: "echo hello-reasonix"
34 tool_result bash SIDmodel= rec=01M8TBWR5A0E0TH0WTH64QTSRC id=call_mockc011a9b090f5e59250d42916 in= err=true t=2026-12-02T03:13:41.545Z/: "error: shell sandbox requested but unavailable on this host;"
41 assistant  SIDmodel= rec=01M8TBWR5DFCV39PW7BBXMB612 id= in= err= t=2026-12-02T03:13:41.733Z/: "The tool call did not run. The tool reported: error: shell s"
54 user  SIDmodel= rec=01M8TBWZK8AKNJGN2BHPJA5F21 id= in= err= t=2026-12-02T03:13:49.160Z/: "Create the file `+"`notes.txt` containing `hello from reasonix`"+`"
53 system  SIDmodel= rec=01M8TBWZK8FB57BJEB7V4F1440 id= in= err= t=2026-12-02T03:13:49.160Z/: "injected in the user role by the host (not typed): <session-"
63 assistant  SIDmodel= rec=01M8TBWZK9XKWF64G82D618X0M id= in= err= t=2026-12-02T03:13:49.208Z/: "I'll create that file."
63 tool_use write_file SIDmodel= rec=01M8TBWZK9XKWF64G82D618X0M#1 id=call_mockcff9af38b999e17ac4ab16e6 in={"content":"hello from reasonix\n","path":"notes.txt"} err= t=2026-12-02T03:13:49.208Z/: "notes.txt"
75 tool_result write_file SIDmodel= rec=01M8TBWZQ0F4BSCF7HEP4SNE20 id=call_mockcff9af38b999e17ac4ab16e6 in= err=false t=2026-12-02T03:13:49.279Z/: "wrote 20 bytes to /tmp/rx/proj/notes.txt"
82 assistant  SIDmodel= rec=01M8TBWZQ1R4YRXKSEEKMGE4BV id= in= err= t=2026-12-02T03:13:49.312Z/: "The command printed:\n\nwrote 20 bytes to /tmp/rx/proj/notes.t"
`, "SID", sid)
	check(t, s, want, "")
	if got := fmt.Sprint(s.SkipCounts()); got != "map[state_only:assistant/attempt:8 state_only:batch/begin:28 state_only:batch/end:28 state_only:tool/call:5 state_only:tool/result:2 state_only:tool/start:2 state_only:turn/end completed:2 state_only:turn/start:2]" {
		t.Errorf("skips: %s", got)
	}
}

// TestCut: the same file cut inside a frame: the frames before it are
// read, the cut and the batch left open are named.
func TestCut(t *testing.T) {
	s := run(t, 0, "testdata/cut.frames", real, "sessions-v4", "cut")
	if len(s.Events) != 1 {
		t.Errorf("rows: %d\n%s", len(s.Events), rows(s))
	}
	if got := strings.Join(s.Problems, "|"); got != "line 3: frame 3 cut short: the rest of the file is not read|line 1: batch 5e7a7df1977d2ea8d5bf2cb02cc883bf (session-create) was begun and never ended: a write cut short; its events above are kept" {
		t.Errorf("problems: %s", got)
	}
}

// TestBadMagic: a frame header that is not RX4F stops the read with a
// problem.
func TestBadMagic(t *testing.T) {
	s := run(t, 0, "testdata/badmagic.frames", real, "sessions-v4", "badmagic")
	check(t, s, "", "line 1: frame 1 does not start with RX4F: the rest of the file is not read")
}

// TestTranscript: the older JSONL layout: the .meta sidecar's row, folder
// and model; reasoning, a call and its result; an unknown role and a cut
// line are counted.
func TestTranscript(t *testing.T) {
	rel := ".reasonix/sessions/20260612_101500_a1b2.jsonl"
	s := run(t, 1, "testdata/home/"+rel, rel, "sessions", "transcript")
	check(t, s, `0 system  sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec=20260612_101500_a1b2#meta id= in= err= t=2026-06-12T10:15:00.000Z/: "reasonix session 20260612_101500_a1b2; title Open ports; sco"
1 system  sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id= in= err= t=2026-06-12T10:15:00.000Z/inherited: "You are Reasonix."
2 user  sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id= in= err= t=2026-06-12T10:15:00.000Z/inherited: "list the open ports"
3 thinking  sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id= in= err= t=2026-06-12T10:15:00.000Z/inherited: "Use ss."
3 tool_use bash sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id=call_1 in={"command":"ss -ltnp"} err= t=2026-06-12T10:15:00.000Z/inherited: "ss -ltnp"
4 tool_result bash sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id=call_1 in= err= t=2026-06-12T10:15:00.000Z/inherited: "LISTEN 0 128 *:22"
5 assistant  sid=20260612_101500_a1b2 proj=/home/ex/srv model=deepseek-v4-flash rec= id= in= err= t=2026-06-12T10:15:00.000Z/inherited: "Only sshd listens."
`, `line 6: skipped_record: a message of role "critic"|line 7: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input`)
}

// TestSubagentTranscript: a subagent's user message is its parent's task.
func TestSubagentTranscript(t *testing.T) {
	rel := ".reasonix/sessions/subagents/sa_20260612_101520_000000000_ff.jsonl"
	s := run(t, 1, "testdata/home/"+rel, rel, "sessions", "subagent")
	check(t, s, `1 system  sid=sa_20260612_101520_000000000_ff proj= model= rec= id= in= err= t=/none: "subagent task from the parent session (not typed): check the"
2 assistant  sid=sa_20260612_101520_000000000_ff proj= model= rec= id= in= err= t=/none: "ufw is inactive."
`, ``)
}
