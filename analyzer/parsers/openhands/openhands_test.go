package openhands

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 8, 7, 8, 0, 0, 0, time.UTC)

const (
	home        = "/home/ex/.openhands"
	convID      = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
	convDirOrig = home + "/conversations/" + convID
)

var byID = parsertest.IDs(Parsers())

// tree maps the original paths of a local testdata folder's files.
func tree(t *testing.T, local, orig string) parsertest.Files {
	t.Helper()
	fs := parsertest.Files{}
	err := filepath.Walk(local, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(local, p)
			fs[orig+"/"+filepath.ToSlash(rel)] = p
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func rowsOf(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%s %s %s id=%s rec=%s in=%s err=%s p=%s par=%s t=%s/%s: %q\n", e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.ProjectPath, e.ParentSessionID, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	for _, p := range s.Problems {
		b.WriteString("problem " + p + "\n")
	}
	for _, k := range s.Skips {
		fmt.Fprintf(&b, "skip %d %s\n", k.Line, k.Reason)
	}
	return b.String()
}

// runTree parses every file of a conversation folder with the parser its
// target gives and returns the rows file by file, and the rendered
// output for a golden.
func runTree(t *testing.T, files parsertest.Files, target func(string) (string, string)) (string, []byte) {
	t.Helper()
	var origs []string
	for o := range files {
		origs = append(origs, o)
	}
	sort.Strings(origs)
	var b strings.Builder
	var gold bytes.Buffer
	for _, o := range origs {
		id, tg := target(o)
		if id == "" {
			continue
		}
		in := parsertest.Input(t, files[o], parser.File{Path: o, Rel: strings.TrimPrefix(o, "/home/ex/"), Agent: agentName, Target: tg, MTime: mtime}, files)
		p := byID(t, id)
		if !p.Match(&in.File) {
			t.Fatalf("%s does not match %s", id, o)
		}
		s := parsertest.Run(t, p, in)
		b.WriteString("# " + filepath.Base(o) + "\n" + rowsOf(s))
		gold.Write(parsertest.Render(s))
	}
	return b.String(), gold.Bytes()
}

func target(o string) (string, string) {
	switch {
	case strings.Contains(o, "/events/"):
		return "openhands/event", "events"
	case strings.HasSuffix(o, "/meta.json"):
		return "openhands/meta", "meta"
	case strings.HasSuffix(o, "/base_state.json"):
		return "openhands/base-state", "base-state"
	}
	return "", ""
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	parsertest.GoldenBytes(t, got, filepath.Join("testdata", name+".golden.jsonl"),
		byID(t, "openhands/event"), byID(t, "openhands/meta"), byID(t, "openhands/base-state"))
}

// TestConversation: every event kind of an SDK conversation, the naive
// event times corrected by the +02:00 offset meta.json's UTC created_at
// implies, rejections and hook blocks as permission decisions, the
// standing settings of base_state.json, the fork link of meta.json.
func TestConversation(t *testing.T) {
	got, gold := runTree(t, tree(t, "testdata/conv", convDirOrig), target)
	C := convID + " "
	P := " p=/home/ex/projects/app par="
	want := "# base_state.json\n" +
		C + "system  id= rec= in= err=" + P + " t=2026-08-07T08:00:00.000Z/file-mtime: \"model setting: anthropic/claude-sonnet-4-5 (from .openhands/conversations/" + convID + "/base_state.json, file mtime)\"\n"
	_ = want
	lines := []string{
		`# base_state.json`,
		C + `system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "model setting: anthropic/claude-sonnet-4-5 (from .openhands/conversations/` + convID + `/base_state.json, file mtime)"`,
		C + `system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "permission setting: confirmation_policy=ConfirmRisky (threshold HIGH) (from .openhands/conversations/` + convID + `/base_state.json, file mtime)"`,
		C + `system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "permission setting: security_analyzer=LLMSecurityAnalyzer (from .openhands/conversations/` + convID + `/base_state.json, file mtime)"`,
		C + `system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "permission decision: denied source=hook: action e2: rm is not allowed (from .openhands/conversations/` + convID + `/base_state.json, file mtime)"`,
		C + `system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "token usage agent: model=anthropic/claude-sonnet-4-5 responses=2 prompt_tokens=2600 completion_tokens=100 (from .openhands/conversations/` + convID + `/base_state.json, file mtime)"`,
		`# event-00000-e0.json`,
		C + `system  id= rec=e0 in= err=` + P + ` t=2026-08-07T07:00:00.500Z/: "system prompt (2 tools): You are OpenHands agent."`,
		`# event-00001-e1.json`,
		C + `user  id= rec=e1 in= err=` + P + ` t=2026-08-07T07:00:10.000Z/: "clean the build folder"`,
		C + `system  id= rec=e1#context in= err=` + P + ` t=2026-08-07T07:00:10.000Z/: "context added to the message (skills git): <skill>git</skill>"`,
		`# event-00002-e2.json`,
		C + `thinking  id= rec=e2#reasoning in= err=` + P + ` t=2026-08-07T07:00:12.000Z/: "build/ holds artifacts."`,
		C + `assistant  id= rec=e2#thought in= err=` + P + ` t=2026-08-07T07:00:12.000Z/: "I will delete build/."`,
		C + `tool_use terminal id=toolu_1 rec=e2 in={"command":"rm -rf build"} err=` + P + ` t=2026-08-07T07:00:12.000Z/: "rm -rf build"`,
		C + `system terminal id=toolu_1 rec=e2#risk in= err=` + P + ` t=2026-08-07T07:00:12.000Z/: "security risk: HIGH (the action's risk as assessed for the security analyzer and confirmation policy)"`,
		`# event-00003-e3.json`,
		C + `tool_result terminal id=toolu_1 rec=e3 in= err=true` + P + ` t=2026-08-07T07:00:20.000Z/: "not now"`,
		C + `system terminal id=toolu_1 rec=e3#decision in= err=` + P + ` t=2026-08-07T07:00:20.000Z/: "permission decision: denied source=user: not now"`,
		`# event-00004-e4.json`,
		C + `tool_use terminal id=toolu_2 rec=e4 in={"command":"ls build"} err=` + P + ` t=2026-08-07T07:00:22.000Z/: "ls build"`,
		C + `system terminal id=toolu_2 rec=e4#risk in= err=` + P + ` t=2026-08-07T07:00:22.000Z/: "security risk: LOW (the action's risk as assessed for the security analyzer and confirmation policy)"`,
		`# event-00005-e5.json`,
		C + `tool_result terminal id=toolu_2 rec=e5 in= err=true` + P + ` t=2026-08-07T07:00:23.000Z/: "ls: cannot access 'build'\nexit code: 2"`,
		`# event-00006-e6.json`,
		C + `thinking  id= rec=e6#reasoning in= err=` + P + ` t=2026-08-07T07:00:25.000Z/: "Nothing to delete."`,
		C + `assistant  id= rec=e6 in= err=` + P + ` t=2026-08-07T07:00:25.000Z/: "build/ does not exist."`,
		`# event-00007-e7.json`,
		C + `system  id= rec=e7 in= err=` + P + ` t=2026-08-07T07:01:00.000Z/: "condensed: 2 earlier event(s) forgotten from the model's view (their files stay); summary: User asked to clean build/."`,
		`# event-00008-e8.json`,
		C + `system terminal id= rec=e8 in= err=` + P + ` t=2026-08-07T07:01:05.000Z/: "hook PreToolUse: ./guard.sh exit=2 reason=rm is not allowed"`,
		C + `system terminal id= rec=e8#decision in= err=` + P + ` t=2026-08-07T07:01:05.000Z/: "permission decision: denied source=hook (PreToolUse): rm is not allowed"`,
		`# event-00009-e9.json`,
		C + `system  id= rec=e9 in= err=` + P + ` t=2026-08-07T07:01:06.000Z/: "permission setting: confirmation_policy=AlwaysConfirm"`,
		`# event-00010-e10.json`,
		`skip 1 state_only`,
		`# event-00011-e11.json`,
		C + `system  id= rec=e11 in= err=` + P + ` t=2026-08-07T07:01:08.000Z/: "paused by the user"`,
		`# event-00012-e12.json`,
		`problem line 1: not an OpenHands event: unexpected end of JSON input`,
		`# event-00013-e13.json`,
		`problem line 1: skipped_record: event kind FutureEvent not read`,
		`# meta.json`,
		C + `system  id= rec= in= err= p=/home/ex/projects/app par= t=2026-08-07T07:00:00.200Z/: "conversation created: Clean the build (working directory /home/ex/projects/app); event times are host-local with no zone, corrected by +02:00 (the offset this created_at implies)"`,
		C + `system  id= rec= in= err= p=/home/ex/projects/app par= t=2026-08-07T07:00:00.200Z/: "conversation forked from aaaaaaaabbbbccccddddeeeeeeeeeeee at event ev-parent-9"`,
	}
	if g := strings.TrimRight(got, "\n"); g != strings.Join(lines, "\n") {
		t.Fatalf("rows:\n%s", got)
	}
	golden(t, "conversation", gold)
}

// TestConversationNoMeta: without meta.json the naive times are emitted
// as if UTC; images are named, never their data.
func TestConversationNoMeta(t *testing.T) {
	got, _ := runTree(t, tree(t, "testdata/noconv", home+"/agent-canvas/dev_conversations/abc"), target)
	want := "# event-00000-x0.json\nabc user  id= rec=x0 in= err= p= par= t=2026-08-07T10:00:00.000Z/local-as-utc: \"hi\\n[image x1]\"\n"
	if got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestMetaForkState(t *testing.T) {
	in := parsertest.Input(t, "testdata/conv/meta.json", parser.File{Path: convDirOrig + "/meta.json", Agent: agentName, Target: "meta"}, nil)
	s := parsertest.Run(t, byID(t, "openhands/meta"), in)
	if len(s.States) != 1 || s.States[0].ForkedFrom != "aaaaaaaabbbbccccddddeeeeeeeeeeee" || s.States[0].Key.SessionID != convID {
		t.Fatalf("states: %+v", s.States)
	}
}

// TestBaseStateNoSecret: the LLM's API key in base_state.json never
// reaches a row.
func TestBaseStateNoSecret(t *testing.T) {
	in := parsertest.Input(t, "testdata/conv/base_state.json", parser.File{Path: convDirOrig + "/base_state.json", Agent: agentName, Target: "base-state", MTime: mtime}, nil)
	s := parsertest.Run(t, byID(t, "openhands/base-state"), in)
	if strings.Contains(string(parsertest.Render(s)), "sk-ant") || len(s.Events) != 5 {
		t.Fatalf("rows: %s", rowsOf(s))
	}
}

func TestPromptHistory(t *testing.T) {
	orig := home + "/projects/6f1ed002ab5595859014ebf0951522d9/prompt_history.json"
	in := parsertest.Input(t, "testdata/prompt_history.json", parser.File{Path: orig, Agent: agentName, Target: "prompt-history"}, nil)
	s := parsertest.Golden(t, byID(t, "openhands/prompt-history"), in, "testdata/prompt_history.golden.jsonl")
	want := ` user  id= rec= in= err= p= par= t=2026-08-07T09:00:09.800Z/local-as-utc: "clean the build folder"
 user  id= rec= in= err= p= par= t=2026-08-07T09:30:00.000Z/local-as-utc: "what changed?"
problem line 3: skipped_record: prompt history entry without text
`
	if got := rowsOf(s); got != want || !s.Events[0].Secondary {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestLegacySession(t *testing.T) {
	dir := home + "/sessions/s-legacy/events"
	files := parsertest.Files{dir + "/0.json": "testdata/legacy/0.json", dir + "/1.json": "testdata/legacy/0.json"}
	in := parsertest.Input(t, "testdata/legacy/0.json", parser.File{Path: dir + "/0.json", Agent: agentName, Target: "legacy-sessions", MTime: mtime}, files)
	s := parsertest.Golden(t, byID(t, "openhands/legacy-session"), in, "testdata/legacy_session.golden.jsonl")
	want := `s-legacy system  id= rec= in= err= p= par= t=2026-08-07T08:00:00.000Z/file-mtime: "legacy OpenHands 0.x session s-legacy: 2 event file(s) collected, not parsed (first event file mtime)"
`
	if got := rowsOf(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	in1 := parsertest.Input(t, "testdata/legacy/0.json", parser.File{Path: dir + "/1.json", Agent: agentName, Target: "legacy-sessions"}, files)
	if s := parsertest.Run(t, byID(t, "openhands/legacy-session"), in1); rowsOf(s) != "skip 0 legacy_session_not_parsed\n" {
		t.Fatalf("second file: %s", rowsOf(s))
	}
}
