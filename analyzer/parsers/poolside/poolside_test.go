package poolside

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const rel = ".local/state/poolside/trajectories/trajectory-standalone_019e658b-56c3-7cb2-a9d1-8af2ea649438.ndjson"

func run(t *testing.T, local, rel, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "trajectories"}, nil)
	if !Parsers()[0].Match(&in.File) {
		t.Fatal("no match")
	}
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

// TestTrajectory: the start row names the working directory, which every
// later row carries; the typed input is the one user row (its mode a
// system row); thought, calls and results (an execution error kind makes
// is_error); each inference's model: a change is a row and the reply takes
// its step's model; session error and exit are rows; the bookkeeping
// events are skips; an unknown event type and a cut line are counted;
// offsets are read to UTC.
func TestTrajectory(t *testing.T) {
	s := run(t, "testdata/home/"+rel, rel, "trajectory")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.Text)
	}
	want := `1 system  proj=/home/ex/infra model= rec=ev-1 id= in= err= t=2026-11-24T10:00:00.000Z: "poolside session standalone_019e658b-56c3-7cb2-a9d1-8af2ea649438 started; working directories /home/ex/infra"
2 user  proj=/home/ex/infra model= rec=ev-2 id= in= err= t=2026-11-24T10:00:01.000Z: "why is the deploy failing?"
2 system  proj=/home/ex/infra model= rec=ev-2#mode id= in= err= t=2026-11-24T10:00:01.000Z: "input mode: build"
3 system  proj=/home/ex/infra model=poolside/laguna-m.1 rec=ev-3 id= in= err= t=2026-11-24T10:00:02.000Z: "model: poolside/laguna-m.1"
6 thinking  proj=/home/ex/infra model=poolside/laguna-m.1 rec=ev-6 id= in= err= t=2026-11-24T10:00:03.200Z: "Check the deploy log."
8 tool_use shell proj=/home/ex/infra model=poolside/laguna-m.1 rec=ev-8 id=call-1 in={"cmd":"tail -n 20 deploy.log"} err= t=2026-11-24T10:00:03.400Z: "tail -n 20 deploy.log"
9 tool_result shell proj=/home/ex/infra model= rec=ev-9 id=call-1 in= err=false t=2026-11-24T10:00:04.000Z: "error: token expired"
10 system  proj=/home/ex/infra model=poolside/laguna-xs.2 rec=ev-10 id= in= err= t=2026-11-24T10:00:05.000Z: "model: poolside/laguna-xs.2"
11 tool_use read proj=/home/ex/infra model=poolside/laguna-xs.2 rec=ev-11 id=call-2 in={"path":"/home/ex/infra/.env"} err= t=2026-11-24T10:00:05.100Z: "/home/ex/infra/.env"
12 tool_result read proj=/home/ex/infra model= rec=ev-12 id=call-2 in= err=true t=2026-11-24T10:00:05.200Z: "execution error permission_denied: permission denied"
13 assistant  proj=/home/ex/infra model=poolside/laguna-xs.2 rec=ev-13 id= in= err= t=2026-11-24T10:00:06.000Z: "The deploy token expired."
15 system  proj=/home/ex/infra model= rec=ev-15 id= in= err= t=2026-11-24T10:00:08.000Z: "session error: rate limited"
16 system  proj=/home/ex/infra model= rec=ev-16 id= in= err= t=2026-11-24T10:00:09.000Z: "session exit: user_quit"
`
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	for _, e := range s.Events {
		if e.SessionID != "standalone_019e658b-56c3-7cb2-a9d1-8af2ea649438" {
			t.Errorf("session %q", e.SessionID)
		}
	}
	if got := strings.Join(s.Problems, "|"); got != `line 14: skipped_record: an event "plan.update", not known|line 17: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input` {
		t.Errorf("problems: %s", got)
	}
	if got := fmt.Sprint(s.SkipCounts()); got != "map[state_only:assistant_message.start:1 state_only:thought.start:1 state_only:tool_call.inference.end:1]" {
		t.Errorf("skips: %s", got)
	}
}

// TestEmpty: an empty trajectory gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, "testdata/empty.ndjson", rel, "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d problems %v", len(s.Events), s.Problems)
	}
}
