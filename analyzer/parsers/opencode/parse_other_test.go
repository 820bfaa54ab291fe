package opencode

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func fileInput(t *testing.T, local, orig, agent, target string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: orig, Agent: agent, Target: target, MTime: time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)}, nil)
}

func TestPromptHistory(t *testing.T) {
	in := fileInput(t, "testdata/prompt-history.jsonl", "/home/examiner/.local/state/opencode/prompt-history.jsonl", agentOpenCode, "tui-state")
	p := byID(t, "opencode/tui-state")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/prompt-history.golden.jsonl")
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "fix the build" || !u[0].Secondary || u[0].TimeBasis != timeline.TimeNone || u[1].Text != "!ls -la" || u[1].SourceLine != 2 {
		t.Fatalf("%+v", u)
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 3:") {
		t.Fatalf("problems: %v", s.Problems)
	}
	k := fileInput(t, "testdata/prompt-stash.jsonl", "/home/examiner/.local/state/kilo/prompt-stash.jsonl", agentKilo, "prompt-history")
	ks := parsertest.Golden(t, byID(t, "kilo-code/prompt-history"), k, "testdata/kilo_prompt_stash.golden.jsonl")
	if len(ks.Events) != 1 || ks.Events[0].Text != "prompt stashed: draft: refactor auth" || ks.Events[0].TurnType != timeline.System || ks.Events[0].TimeString() != "2026-01-11T23:00:00.000Z" {
		t.Fatalf("%+v", ks.Events)
	}
	e := parsertest.Golden(t, p, fileInput(t, "testdata/empty.jsonl", "/home/examiner/.local/state/opencode/prompt-history.jsonl", agentOpenCode, "tui-state"), "testdata/empty_history.golden.jsonl")
	if len(e.Events) != 0 || len(e.Problems) != 0 {
		t.Fatal("empty")
	}
}

func TestConfig(t *testing.T) {
	in := fileInput(t, "testdata/opencode.jsonc", "/home/examiner/.config/opencode/opencode.jsonc", agentOpenCode, "config")
	s := parsertest.Golden(t, byID(t, "opencode/config"), in, "testdata/config.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		if e.TimeBasis != timeline.TimeFileMTime || e.TimeString() != "2026-01-05T08:00:00.000Z" {
			t.Fatalf("time: %+v", e)
		}
		if strings.Contains(e.Text, "sk-ant") {
			t.Fatal("key printed")
		}
		got = append(got, e.Text)
	}
	want := []string{
		"permission setting: edit=ask (from opencode.jsonc, file mtime)",
		"permission setting: bash.*=ask (from opencode.jsonc, file mtime)",
		"permission setting: bash.git push *=deny (from opencode.jsonc, file mtime)",
		"permission setting: bash.ls=allow (from opencode.jsonc, file mtime)",
		"permission setting: webfetch=allow (from opencode.jsonc, file mtime)",
		"permission setting: agent.plan.edit=deny (from opencode.jsonc, file mtime)",
		"model setting: anthropic/claude-sonnet-4-5 (from opencode.jsonc, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
	k := fileInput(t, "testdata/opencode.jsonc", "/home/examiner/.config/kilo/kilo.jsonc", agentKilo, "config")
	if ks := parsertest.Golden(t, byID(t, "kilo-code/config"), k, "testdata/kilo_config.golden.jsonl"); len(ks.Events) != 7 || !strings.HasSuffix(ks.Events[0].Text, "(from kilo.jsonc, file mtime)") {
		t.Fatalf("kilo: %+v", ks.Events)
	}
	b := parsertest.Run(t, byID(t, "opencode/config"), fileInput(t, "testdata/bad_config.json", "/home/examiner/.config/opencode/opencode.json", agentOpenCode, "config"))
	if len(b.Events) != 0 || len(b.Problems) != 1 {
		t.Fatalf("bad config: %+v %v", b.Events, b.Problems)
	}
}

func TestAPIHistory(t *testing.T) {
	orig := "/home/examiner/.config/Code/User/globalStorage/kilocode.kilo-code/tasks/0199aaaa-task/api_conversation_history.json"
	in := fileInput(t, "testdata/api_conversation_history.json", orig, agentKilo, "extension-tasks")
	p := byID(t, "kilo-code/extension-tasks")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/api_conversation_history.golden.jsonl")
	for _, e := range s.Events {
		if e.SessionID != "0199aaaa-task" || e.ProjectPath != "/home/examiner/src/lib" {
			t.Fatalf("session/project: %+v", e)
		}
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "add a test for parse()" || u[0].TimeString() != "2025-10-09T08:53:20.000Z" || u[1].Text != "use vitest" {
		t.Fatalf("user: %+v", u)
	}
	c, r := withID(s, timeline.ToolUse, "toolu_k1"), withID(s, timeline.ToolResult, "toolu_k1")
	if len(c) != 1 || c[0].Text != "parse.ts" || len(r) != 1 || r[0].Text != "export function parse() {}" || r[0].ToolName != "read_file" || r[0].IsError != "false" || r[0].SourceLine != 3 {
		t.Fatalf("pair: %+v %+v", c, r)
	}
	if r := withID(s, timeline.ToolResult, "toolu_k2"); len(r) != 1 || r[0].IsError != "true" {
		t.Fatalf("error result: %+v", r)
	}
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "Read the file first." {
		t.Fatalf("thinking: %+v", th)
	}
	if env := withText(s, "<environment_details>"); len(env) != 2 || env[0].TurnType != timeline.System {
		t.Fatalf("env: %+v", env)
	}
	if lg := ofType(s, timeline.ToolResult); len(lg) != 3 || lg[2].ToolName != "read_file" || lg[2].ToolUseID != "" || lg[2].TimeBasis != timeline.TimeInherited || lg[2].TimeString() != "2025-10-09T08:53:25.000Z" {
		t.Fatalf("legacy result: %+v", lg)
	}
	tr := parsertest.Run(t, p, fileInput(t, "testdata/api_truncated.json", orig, agentKilo, "extension-tasks"))
	if len(ofType(tr, timeline.User)) != 1 || len(tr.Problems) != 1 {
		t.Fatalf("truncated: %+v %v", tr.Events, tr.Problems)
	}
}

func TestRealExportAllTools(t *testing.T) {
	dir := parsertest.SharedSamples(t, "opencode")
	s := runExport(t, filepath.Join(dir, "agentlogs/all-tools.json"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	if u := ofType(s, timeline.User); len(u) < 2 || u[1].Text != "you can use one tool more than once but each tool should be used at least once sir." || u[1].TimeString() != "2026-01-23T21:26:04.099Z" {
		t.Fatalf("user rows: %+v", u)
	}
	r := withID(s, timeline.ToolResult, "call_YFooH8xOJmxs8W2MwtqeFLPA")
	if len(r) != 1 || r[0].ToolName != "execute" || r[0].IsError != "true" || !strings.HasPrefix(r[0].Text, "TypeError: def.execute is not a function") {
		t.Fatalf("error state: %+v", r)
	}
	if c := withID(s, timeline.ToolUse, "call_brR2ntAyuU5bh3DAufLJbl50"); len(c) != 1 || c[0].Text != "temp-tool-usage.txt" {
		t.Fatalf("apply_patch: %+v", c)
	}
	if c := withID(s, timeline.ToolUse, "call_gpkxz4AttvMDlK9xt0sQ3VjB"); len(c) != 1 || c[0].ToolName != "task" || c[0].Text != "Find package manifest" {
		t.Fatalf("task: %+v", c)
	}
	if sa := withText(s, "subagent "); len(sa) != 1 || sa[0].Text != "subagent ses_4133f9119ffeHydORAuKxtmR3h of ses_4134312deffeWMYdSt1q5bAW7z" || sa[0].SessionID != "ses_4133f9119ffeHydORAuKxtmR3h" {
		t.Fatalf("subagent: %+v", sa)
	}
	if c := withID(s, timeline.ToolUse, "call_saC4cpDpCoC4PRkjdbeGIzy9"); len(c) != 1 || c[0].Text != "git status --short" {
		t.Fatalf("bash: %+v", c)
	}
	if len(ofType(s, timeline.ToolUse)) != len(ofType(s, timeline.ToolResult)) {
		t.Fatal("every call of the sample completed")
	}
}
