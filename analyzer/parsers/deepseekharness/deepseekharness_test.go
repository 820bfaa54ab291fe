package deepseekharness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const rel = ".dsh/sessions/-home-ex-proj/dsh-s1/session.jsonl"

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s model=%s rec=%s id=%s in=%s err=%s t=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.Text)
	}
	return b.String()
}

const wantRows = `1 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/header id= in= err= t=2023-11-14T22:13:20.000Z: "session dsh-s1; cwd /home/ex/proj; parent dsh-parent; origin delegate; delegation depth 1; agent preset coding"
3 user  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/1 id= in= err= t=2023-11-14T22:13:20.002Z: "open image\n[image]"
4 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/2 id= in= err= t=2023-11-14T22:13:20.003Z: "plugin message (not typed): injected instructions"
8 thinking  sid=dsh-s1 parent=dsh-parent model=deepseek-chat rec=dsh-s1/7 id= in= err= t=2023-11-14T22:13:20.008Z: "thought final"
8 assistant  sid=dsh-s1 parent=dsh-parent model=deepseek-chat rec=dsh-s1/7#1 id= in= err= t=2023-11-14T22:13:20.008Z: "answer final"
8 tool_use read_file sid=dsh-s1 parent=dsh-parent model=deepseek-chat rec=dsh-s1/call/call-1 id=call-1 in={"path":"x"} err= t=2023-11-14T22:13:20.008Z: "x"
8 system  sid=dsh-s1 parent=dsh-parent model=deepseek-chat rec=dsh-s1/7#3 id= in= err= t=2023-11-14T22:13:20.008Z: "token usage: input 10, output 5, cache read 3, cache write 2"
9 tool_use read_file sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/call/call-1 id=call-1 in={"path":"x"} err= t=2023-11-14T22:13:20.009Z: "x"
10 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/9 id= in= err= t=2023-11-14T22:13:20.010Z: "approval decided: {\"callId\":\"call-2\",\"decision\":\"deny\",\"scope\":\"once\"}"
11 tool_use bash sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/call/call-2 id=call-2 in={"command":"rm -rf /"} err= t=2023-11-14T22:13:20.011Z: "rm -rf /"
12 tool_result  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/11 id=call-1 in= err=false t=2023-11-14T22:13:20.012Z: "file data\n[image]"
13 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/12 id= in= err= t=2023-11-14T22:13:20.013Z: "turn 1 ended: {\"turn\":1,\"reason\":{\"kind\":\"aborted\"}}"
14 user  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/13 id= in= err= t=2023-11-14T22:13:20.014Z: "edited prompt"
14 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/13#1 id= in= err= t=2023-11-14T22:13:20.014Z: "conversation edited: {\"op\":\"replace\",\"start\":1,\"end\":4} (the rows it replaced or removed are kept)"
15 system  sid=dsh-s1 parent=dsh-parent model= rec=dsh-s1/14 id= in= err= t=2023-11-14T22:13:20.015Z: "session title: {\"title\":\"Open image\",\"messageSeqs\":[1],\"source\":{\"kind\":\"user\"}}"
`

// TestSession: the header row and parent; the typed prompt as user, the
// plugin's message as system; the final message's reasoning, reply and
// call (its tool/call echo a row of the same call identity, merged by the
// correlate stage: TestEngineCallEcho), a call only tool/call names, the
// denied approval, the result; an aborted turn; an edit keeps the rows and
// says so; stream chunks and state are skips, an unknown type a problem,
// an ignorable one a skip, the cut line a problem.
func TestSession(t *testing.T) {
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "sessions"}, nil)
	s := parsertest.Golden(t, Parsers()[0], in, "testdata/session.golden.jsonl")
	if got := rows(s); got != wantRows {
		t.Errorf("rows:\n%s\nwant:\n%s", got, wantRows)
	}
	wantP := `line 16: skipped_record: an event "mystery/event"|line 18: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input`
	if got := strings.Join(s.Problems, "|"); got != wantP {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantP)
	}
	sk := s.SkipCounts()
	if len(sk) != 3 || sk["stream_chunk"] != 2 || sk["state_only"] != 2 || sk["ignorable:future/thing"] != 1 {
		t.Errorf("skips: %v", sk)
	}
}

// TestZstd: the compressed log gives the same rows.
func TestZstd(t *testing.T) {
	raw, err := os.ReadFile("testdata/home/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "session.jsonl.zstd")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := zstd.NewWriter(f)
	w.Write(raw)
	w.Close()
	f.Close()
	in := parsertest.Input(t, p, parser.File{Path: "/home/ex/" + rel + ".zstd", Rel: rel + ".zstd", Agent: Agent, Target: "sessions"}, nil)
	s := parsertest.Run(t, Parsers()[0], in)
	if got := rows(s); got != wantRows || len(s.Problems) != 2 {
		t.Errorf("rows:\n%s\nproblems %v", got, s.Problems)
	}
}
