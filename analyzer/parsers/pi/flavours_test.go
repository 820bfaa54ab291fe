package pi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const (
	primeDir   = "/home/ex/.prime/agent/sessions"
	ompDir     = "/home/ex/.omp/agent/sessions/-home-ex-proj-"
	ompParent  = ompDir + "/2026-11-24T10-00-00-000Z_omp-parent.jsonl"
	ompSubFile = ompDir + "/2026-11-24T10-00-00-000Z_omp-parent/scout.jsonl"
)

func flavourRows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s rec=%s id=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.RecordID, e.ToolUseID, e.TimeString(), e.TimeBasis, e.Text)
	}
	for _, st := range s.States {
		fmt.Fprintf(&b, "state %s/%s parent=%s forked=%s\n", st.Key.Agent, st.Key.SessionID, st.ParentSessionID, st.ForkedFrom)
	}
	return b.String()
}

func flavourInput(t *testing.T, local, orig, agent string, related parsertest.Files) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: orig, Agent: agent, Target: "sessions"}, related)
}

// TestPrimeSession: the file name is not the session id (the header's is);
// parentSession's path is another machine's, so the parent's id is the
// header of the file of that name beside this one; the subagent usage
// attribution is a system row; an unknown entry type is a problem.
func TestPrimeSession(t *testing.T) {
	rel := parsertest.Files{primeDir + "/019c0000-parent.jsonl": "testdata/flavours/prime_parent.jsonl"}
	in := flavourInput(t, "testdata/flavours/prime_child.jsonl", primeDir+"/019c1111-file.jsonl", PrimeAgent, rel)
	s := parsertest.Golden(t, byID(t, "prime-agent/session"), in, "testdata/prime_session.golden.jsonl")
	want := `1 system  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=019c1234-session#fork id= t=2026-08-06T12:00:00.000Z/: "session forked from /config/.prime/agent/sessions/019c0000-parent.jsonl"
2 system  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=info-1 id= t=2026-08-06T12:00:01.000Z/: "session name: Investigate scheduler"
3 user  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=user-1 id= t=2026-08-06T12:00:02.000Z/: "Inspect the scheduler."
4 system  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=assistant-1#model id= t=2026-08-06T12:00:03.000Z/: "model: intellect-3 provider=prime-inference"
4 assistant  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=assistant-1#0 id= t=2026-08-06T12:00:03.000Z/: "I found the issue."
5 system  sid=019c1234-session parent=019c0000-parent-id proj=/work/prime-project rec=usage-1 id= t=2026-08-06T12:00:04.000Z/: "subagent usage attributed to message assistant-1: child {\"input\":20,\"output\":6,\"cacheRead\":5,\"cacheWrite\":2}; aggregate {\"input\":30,\"output\":7,\"cacheRead\":5,\"cacheWrite\":2}"
state prime-agent/019c1234-session parent=019c0000-parent-id forked=019c0000-parent-id
`
	if got := flavourRows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != `line 6: unknown entry type "prime_checkpoint"` {
		t.Errorf("problems: %s", got)
	}
}

// TestOMPSession: the title slot before the header is a row, not a missing
// header; parentSession is the parent's id; OhMyPi's own entry types are
// system rows; model_change's "model" names the model; an unknown type is
// a problem.
func TestOMPSession(t *testing.T) {
	in := flavourInput(t, "testdata/flavours/omp_parent.jsonl", ompParent, OMP, nil)
	s := parsertest.Golden(t, byID(t, "omp/session"), in, "testdata/omp_session.golden.jsonl")
	got := flavourRows(s)
	for _, w := range []string{
		`1 system  sid=omp-parent parent= proj= rec= id= t=2026-11-24T10:05:00.000Z/: "session title (current, auto): Audit the repo"`,
		`2 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=omp-parent#fork id= t=2026-11-24T10:00:00.000Z/: "session forked from omp-grandparent"`,
		`3 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=m1 id= t=2026-11-24T10:00:01.000Z/: "model: claude-sonnet-4 provider=anthropic"`,
		`4 user  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=u1#0 id= t=2026-11-24T10:00:02.000Z/: "audit the repo"`,
		`5 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=r1 id= t=2026-11-24T10:00:02.000Z/: "rules injected into the context (not typed): no-secrets, go-style"`,
		`6 tool_use task sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=a1#0 id=call1 t=2026-11-24T10:00:03.000Z/: "scout"`,
		`7 tool_result task sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=t1 id=call1 t=2026-11-24T10:00:09.000Z/: "found .env"`,
		`8 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=mu1 id= t=2026-11-24T10:00:10.000Z/: "model call outside the transcript (title, role tiny): anthropic/claude-haiku stop=stop usage {\"input\":50,\"output\":5}"`,
		`9 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=tc1 id= t=2026-11-24T10:00:10.000Z/: "session title: Audit -> Audit the repo (auto, first-turn)"`,
		`10 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=mc1 id= t=2026-11-24T10:00:11.000Z/: "mode: plan {\"planFile\":\"PLAN.md\"}"`,
		`11 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=cp1 id= t=2026-11-24T10:00:11.000Z/: "account pinned for provider anthropic (hash 9f86d081)"`,
		`12 system  sid=omp-parent parent=omp-grandparent proj=/home/ex/proj rec=rb1 id= t=2026-11-24T10:00:12.000Z/: "context reset (/clear): the entries before stay in the file, the model no longer sees them"`,
		`state omp/omp-parent parent=omp-grandparent forked=omp-grandparent`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("no row %s in:\n%s", w, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 13 {
		t.Errorf("%d rows and states, want 13:\n%s", n, got)
	}
	if got := strings.Join(s.Problems, "|"); got != `line 13: unknown entry type "ghost_entry"` {
		t.Errorf("problems: %s", got)
	}
}

// TestOMPSubagent: a transcript in the folder named for the parent's file
// is the parent's subagent (the parent's header id); its user message is
// the parent agent's task, a system row, never user; session_init names
// the agent, task and tools; the empty title slot is counted, no row.
func TestOMPSubagent(t *testing.T) {
	for _, c := range []struct {
		name    string
		related parsertest.Files
		parent  string
	}{
		{"parent collected", parsertest.Files{ompParent: "testdata/flavours/omp_parent.jsonl"}, "omp-parent"},
		{"parent not collected", nil, "omp-parent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := flavourInput(t, "testdata/flavours/omp_sub.jsonl", ompSubFile, OMP, c.related)
			s := parsertest.Golden(t, byID(t, "omp/session"), in, "testdata/omp_subagent.golden.jsonl")
			want := `3 system  sid=omp-sub-1 parent=PAR proj=/home/ex/proj rec=si1 id= t=2026-11-24T10:00:04.000Z/: "subagent scout started: task \"list the .env files\"; tools read,grep; system prompt 14 characters; model anthropic/claude-haiku; read-only"
4 system  sid=omp-sub-1 parent=PAR proj=/home/ex/proj rec=su1 id= t=2026-11-24T10:00:05.000Z/: "subagent task from the parent agent (not typed): list the .env files"
5 system  sid=omp-sub-1 parent=PAR proj=/home/ex/proj rec=sa1#model id= t=2026-11-24T10:00:08.000Z/: "model: claude-haiku provider=anthropic"
5 assistant  sid=omp-sub-1 parent=PAR proj=/home/ex/proj rec=sa1#0 id= t=2026-11-24T10:00:08.000Z/: "found .env"
state omp/omp-sub-1 parent=PAR forked=
`
			want = strings.ReplaceAll(want, "PAR", c.parent)
			if got := flavourRows(s); got != want || len(s.Problems) != 0 {
				t.Errorf("rows:\n%s\nwant:\n%s\nproblems %v", got, want, s.Problems)
			}
		})
	}
}
