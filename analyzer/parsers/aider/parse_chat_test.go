package aider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const proj = "/home/examiner/demo"

var byID = parsertest.IDs(Parsers())

// input presents a testdata file as <proj>/<name>, with the typical chat
// history collected beside it.
func input(t *testing.T, local, name, target string) *parser.Input {
	t.Helper()
	f := parser.File{Path: proj + "/" + name, Agent: Agent, Target: target}
	return parsertest.Input(t, local, f, parsertest.Files{proj + "/" + chatName: "testdata/typical.md"})
}

func find(s *parsertest.Sink, tt timeline.TurnType, sub string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			out = append(out, e)
		}
	}
	return out
}

func exact(s *parsertest.Sink, text string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.Text == text {
			out = append(out, e)
		}
	}
	return out
}

func one(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	got := find(s, tt, sub)
	if len(got) != 1 {
		t.Fatalf("want one %s row with %q, got %d", tt, sub, len(got))
	}
	return got[0]
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		id, path, target string
		want             bool
	}{
		{"aider/chat-history", "/home/examiner/.aider.chat.history.md", "chat-history", true},
		{"aider/chat-history", "/home/examiner/demo/.aider.chat.history.md", "project", true},
		{"aider/chat-history", "/home/examiner/demo/.aider.input.history", "project", false},
		{"aider/input-history", "/home/examiner/demo/.aider.input.history", "project", true},
		{"aider/llm-history", "/home/examiner/.aider.llm.history", "llm-history", true},
		{"aider/llm-history", "/home/examiner/.aider.conf.yml", "config", false},
	} {
		f := parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s, %s) = %v, want %v", c.id, c.path, c.target, got, c.want)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, c := range []struct{ name, id, file, as, target string }{
		{"chat_typical", "aider/chat-history", "typical.md", chatName, "project"},
		{"chat_empty", "aider/chat-history", "empty.md", chatName, "chat-history"},
		{"chat_malformed", "aider/chat-history", "malformed.md", chatName, "chat-history"},
		{"chat_latin1", "aider/chat-history", "latin1.md", chatName, "chat-history"},
		{"input_typical", "aider/input-history", "typical.input.history", inputName, "project"},
		{"input_malformed", "aider/input-history", "malformed.input.history", inputName, "project"},
		{"input_empty", "aider/input-history", "empty.md", inputName, "input-history"},
		{"llm_typical", "aider/llm-history", "typical.llm.history", llmName, "project"},
		{"llm_malformed", "aider/llm-history", "malformed.llm.history", llmName, "project"},
		{"llm_empty", "aider/llm-history", "empty.md", llmName, "llm-history"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", c.file), c.as, c.target)
			parsertest.Golden(t, byID(t, c.id), in, filepath.Join("testdata", c.name+".golden.jsonl"))
		})
	}
}

func TestChatRows(t *testing.T) {
	s := parsertest.Run(t, byID(t, "aider/chat-history"), input(t, "testdata/typical.md", chatName, "project"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	// A multi-line prompt is one row; times are the run start, local as UTC.
	u := one(t, s, timeline.User, "add a subtract")
	if u.Text != "add a subtract function to calc.py\nand a test for it" || u.SessionID != "aider-20250504T170650" ||
		u.TimeString() != "2025-05-04T17:06:50.000Z" || u.TimeBasis != timeline.TimeLocalAsUTC || u.ProjectPath != proj || u.SourceLine != 11 {
		t.Errorf("prompt row: %+v", u)
	}
	// The reply keeps its own "#### " heading, "> " quote and the fenced
	// lines that look like prompts and tool lines.
	a := one(t, s, timeline.Assistant, "I will add it.")
	for _, want := range []string{"#### Plan", "> A quoted note", "#### not a prompt  ", "> not a tool line  ", "return a - b\n```"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("reply lacks %q: %q", want, a.Text)
		}
	}
	if a.Model != "gemini/gemini-2.5-pro-exp-03-25" {
		t.Errorf("reply model %q", a.Model)
	}
	if len(find(s, timeline.User, "not a prompt")) != 0 || len(find(s, timeline.System, "not a tool line")) != 0 {
		t.Error("fenced lines were split out of the reply")
	}
	if n := len(exact(s, "model: gemini/gemini-2.5-pro-exp-03-25")); n != 1 {
		t.Errorf("model rows: %d", n)
	}
	one(t, s, timeline.System, "permission decision: yes Run shell command?")
	one(t, s, timeline.System, "permission decision: no Add command output to the chat?")
	// (A)ll offered and answered: yes.
	p := one(t, s, timeline.System, "permission decision: yes Add calc.py to the chat?")
	if p.SessionID != "aider-20250505T090001" {
		t.Errorf("second run session: %q", p.SessionID)
	}
	one(t, s, timeline.System, "model: ollama/qwen3 -> openai/gpt-4o")
	one(t, s, timeline.User, "/run python -m pytest")
	if len(find(s, timeline.User, "<blank>")) != 0 {
		t.Error("<blank> input gave a row")
	}
	th := one(t, s, timeline.Thinking, "The user wants an explanation.")
	ans := one(t, s, timeline.Assistant, "It subtracts.")
	if th.Text != "The user wants an explanation." || ans.Text != "It subtracts." || ans.Model != "ollama/qwen3" {
		t.Errorf("thinking split: %q / %q (%s)", th.Text, ans.Text, ans.Model)
	}
}

func TestChatNotUTF8(t *testing.T) {
	s := parsertest.Run(t, byID(t, "aider/chat-history"), input(t, "testdata/latin1.md", chatName, "chat-history"))
	u := one(t, s, timeline.User, "caf")
	if u.Text != "café crème" {
		t.Errorf("Latin-1 prompt: %q", u.Text)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "Latin-1") {
		t.Errorf("problems: %v", s.Problems)
	}
}

func TestChatStrippedSpaces(t *testing.T) {
	// malformed.md has no "  " line ends (a whitespace hook stripped them):
	// every "#### " and "> " line outside a fence is still read as one.
	s := parsertest.Run(t, byID(t, "aider/chat-history"), input(t, "testdata/malformed.md", chatName, "chat-history"))
	u := one(t, s, timeline.User, "typed without the run header")
	if u.SessionID != "" || !u.Time.IsZero() {
		t.Errorf("row before any run: %+v", u)
	}
	one(t, s, timeline.System, "tool line without trailing spaces")
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "bad run start time") {
		t.Errorf("problems: %v", s.Problems)
	}
	p := one(t, s, timeline.User, "prompt")
	if p.SessionID != "aider-20250507T100000" {
		t.Errorf("session %q", p.SessionID)
	}
}

func TestInputHistory(t *testing.T) {
	s := parsertest.Run(t, byID(t, "aider/input-history"), input(t, "testdata/typical.input.history", inputName, "project"))
	u := one(t, s, timeline.User, "add a subtract")
	if u.Text != "add a subtract function to calc.py\nand a test for it" || !u.Secondary ||
		u.TimeString() != "2025-05-04T17:06:57.158Z" || u.SessionID != "aider-20250504T170650" || u.TimeBasis != timeline.TimeLocalAsUTC {
		t.Errorf("input row: %+v", u)
	}
	if e := one(t, s, timeline.User, "explain"); e.SessionID != "aider-20250505T090001" {
		t.Errorf("second run: %q", e.SessionID)
	}
}

func TestLLMHistory(t *testing.T) {
	s := parsertest.Run(t, byID(t, "aider/llm-history"), input(t, "testdata/typical.llm.history", llmName, "project"))
	users := find(s, timeline.User, "")
	if len(users) != 2 || users[0].Text != "add a subtract function to calc.py\nand a test for it" || users[1].Text != "explain" {
		t.Fatalf("user rows: %+v", users)
	}
	if users[0].SessionID != "aider-20250504T170650" || users[0].TimeString() != "2025-05-04T17:06:58.000Z" || !users[0].Secondary {
		t.Errorf("user row: %+v", users[0])
	}
	a := one(t, s, timeline.Assistant, "I will add it.")
	if a.Text != "I will add it.\n\n```python\ndef subtract(a, b):\n```" || a.TimeString() != "2025-05-04T17:07:30.000Z" {
		t.Errorf("reply: %q at %s", a.Text, a.TimeString())
	}
	if th := one(t, s, timeline.Thinking, "pondering"); th.Text != "pondering" {
		t.Errorf("thinking %q", th.Text)
	}
}
