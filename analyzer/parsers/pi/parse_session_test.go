package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home     = "/home/examiner"
	sessDir  = home + "/.pi/agent/sessions/--home-examiner-demo--"
	typFile  = sessDir + "/2026-03-10T09-00-00-000Z_0b6f4c1e-7d2a-4e55-9a51-3c1f2f9d8e10.jsonl"
	lcFile   = sessDir + "/2026-04-01T12-00-00-000Z_9c1d-lc.jsonl"
	ckptDir  = home + "/.little-coder/checkpoints/2026-04-01T12-00-00-000Z_9c1d-lc.jsonl"
	ckptData = "testdata/checkpoints/2026-04-01T12-00-00-000Z_9c1d-lc.jsonl"
)

var byID = parsertest.IDs(Parsers())

// related is every collected file of the test home.
func related() parsertest.Files {
	return parsertest.Files{
		typFile: "testdata/typical.jsonl",
		lcFile:  "testdata/littlecoder.jsonl",
		ckptDir + "/_home_examiner_demo_README.md":     ckptData + "/_home_examiner_demo_README.md",
		ckptDir + "/_home_examiner_demo_NEW.go.absent": ckptData + "/_home_examiner_demo_NEW.go.absent",
	}
}

func input(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	agent := Agent
	if strings.Contains(orig, "little-coder") {
		agent = LittleCoder
	}
	f := parser.File{Path: orig, Agent: agent, Target: target, MTime: time.Date(2026, 3, 9, 8, 0, 0, 0, time.UTC)}
	return parsertest.Input(t, local, f, related())
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
		id, agent, path, target string
		want                    bool
	}{
		{"pi/session", Agent, typFile, "sessions", true},
		{"pi/session", Agent, home + "/.pi/agent/2025-11-01_legacy.jsonl", "sessions", true},
		{"pi/session", Agent, home + "/.pi/agent/trust.json", "trust", false},
		{"pi/trust", Agent, home + "/.pi/agent/trust.json", "trust", true},
		{"pi/settings", Agent, home + "/.pi/agent/settings.json", "settings", true},
		{"pi/crashes", Agent, home + "/.pi/agent/crashes.json", "debug", true},
		{"pi/crashes", Agent, home + "/.pi/agent/pi-debug.log", "debug", false},
		{"little-coder/prompt-history", LittleCoder, home + "/.pi/agent/little-coder-prompt-history.json", "prompt-history", true},
		{"little-coder/checkpoints", LittleCoder, ckptDir + "/x", "checkpoints", true},
		{"little-coder/checkpoints", Agent, ckptDir + "/x", "checkpoints", false},
	} {
		f := parser.File{Path: c.path, Agent: c.agent, Target: c.target}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, c := range []struct{ name, id, file, orig, target string }{
		{"session_typical", "pi/session", "typical.jsonl", typFile, "sessions"},
		{"session_fork", "pi/session", "fork.jsonl", sessDir + "/2026-03-11T10-00-00-000Z_5e0c2a77-1111-4b3c-8d2e-aaaaaaaaaaaa.jsonl", "sessions"},
		{"session_littlecoder", "pi/session", "littlecoder.jsonl", lcFile, "sessions"},
		{"session_malformed", "pi/session", "malformed.jsonl", sessDir + "/2026-03-12T08-00-00-000Z_dead-beef.jsonl", "sessions"},
		{"session_empty", "pi/session", "empty.jsonl", sessDir + "/2026-03-13T08-00-00-000Z_empty.jsonl", "sessions"},
		{"session_legacy", "pi/session", "legacy.jsonl", home + "/.pi/agent/2025-11-01T08-00-00-000Z_legacy-1.jsonl", "sessions"},
		{"settings", "pi/settings", "settings.json", home + "/.pi/agent/settings.json", "settings"},
		{"trust", "pi/trust", "trust.json", home + "/.pi/agent/trust.json", "trust"},
		{"crashes", "pi/crashes", "crashes.json", home + "/.pi/agent/crashes.json", "debug"},
		{"prompt_history", "little-coder/prompt-history", "prompt_history.json", home + "/.pi/agent/little-coder-prompt-history.json", "prompt-history"},
		{"prompt_history_cut", "little-coder/prompt-history", "prompt_history_cut.json", home + "/.pi/agent/little-coder-prompt-history.json", "prompt-history"},
		{"prompt_history_empty", "little-coder/prompt-history", "empty.jsonl", home + "/.pi/agent/little-coder-prompt-history.json", "prompt-history"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", c.file), c.orig, c.target)
			parsertest.Golden(t, byID(t, c.id), in, filepath.Join("testdata", c.name+".golden.jsonl"))
		})
	}
}

func TestSessionRows(t *testing.T) {
	s := parsertest.Run(t, byID(t, "pi/session"), input(t, "testdata/typical.jsonl", typFile, "sessions"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := one(t, s, timeline.User, "fix README")
	if u.SessionID != "0b6f4c1e-7d2a-4e55-9a51-3c1f2f9d8e10" || u.ProjectPath != "/home/examiner/demo" || u.TimeString() != "2026-03-10T09:00:05.000Z" || u.SourceLine != 4 {
		t.Errorf("user row: %+v", u)
	}
	use := one(t, s, timeline.ToolUse, "ls -la")
	res := one(t, s, timeline.ToolResult, "README.md\nmain.go")
	if use.ToolUseID != "toolu_01" || res.ToolUseID != "toolu_01" || use.ToolName != "bash" || use.ToolInput != `{"command":"ls -la","timeout":30}` || use.Model != "claude-sonnet-4-5" || res.IsError != "false" {
		t.Errorf("tool pair: %+v / %+v", use, res)
	}
	if e := one(t, s, timeline.ToolResult, "Could not find"); e.IsError != "true" || e.ToolUseID != "toolu_02" {
		t.Errorf("error result: %+v", e)
	}
	if e := one(t, s, timeline.ToolUse, "README.md"); e.ToolName != "edit" {
		t.Errorf("edit call: %+v", e)
	}
	one(t, s, timeline.Thinking, "I should run ls first.")
	one(t, s, timeline.System, "model: claude-sonnet-4-5 provider=anthropic")
	one(t, s, timeline.System, "model: claude-sonnet-4-5 thinking_level=high")
	one(t, s, timeline.System, "model: claude-sonnet-4-5 -> gpt-5 provider=openai")
	one(t, s, timeline.System, "error: 429 rate limited")
	one(t, s, timeline.System, "compaction: The user asked to fix README.md.")
	one(t, s, timeline.System, "skill-inject: Use the go skill.")
	bu := one(t, s, timeline.ToolUse, "git status")
	br := one(t, s, timeline.ToolResult, "not a git repository")
	if bu.ToolUseID != br.ToolUseID || br.IsError != "true" || !strings.HasSuffix(br.Text, "[exit code 128]") {
		t.Errorf("user bash: %+v / %+v", bu, br)
	}
	if len(find(s, timeline.System, "little-coder")) != 0 {
		t.Error("plain pi session flagged as little-coder")
	}
}

// TestSessionFork: issue 12: a fork's copies of its parent's entries are
// the parent's records replayed: in the parent's session with the entry's
// own id, marked Replayed (the identity merge writes the parent's); the
// fork's own rows carry the parent as parent_session_id and its state is
// forked_from the parent. Without the parent file the copies stay the
// fork's own (nothing tells them apart), and the parent's id comes from
// the parentSession file name.
func TestSessionFork(t *testing.T) {
	const fork, parent = "5e0c2a77-1111-4b3c-8d2e-aaaaaaaaaaaa", "0b6f4c1e-7d2a-4e55-9a51-3c1f2f9d8e10"
	s := parsertest.Run(t, byID(t, "pi/session"), input(t, "testdata/fork.jsonl", sessDir+"/2026-03-11T10-00-00-000Z_"+fork+".jsonl", "sessions"))
	var replayed, own int
	for _, e := range s.Events {
		switch {
		case e.Replayed:
			replayed++
			if e.SessionID != parent || e.ParentSessionID != "" || (e.RecordID != "a1000001" && e.RecordID != "a1000003") {
				t.Errorf("replayed row %+v", e)
			}
		default:
			own++
			if e.SessionID != fork || e.ParentSessionID != parent {
				t.Errorf("fork row %+v", e)
			}
		}
	}
	if replayed != 2 || own != 2 {
		t.Fatalf("replayed %d own %d", replayed, own)
	}
	u := one(t, s, timeline.User, "now in the fork")
	if u.SessionID != fork || u.RecordID != "b2000001" {
		t.Errorf("fork row: %+v", u)
	}
	one(t, s, timeline.System, "session forked from "+typFile)
	if len(s.States) != 1 || s.States[0].ForkedFrom != parent || s.States[0].Key.SessionID != fork {
		t.Fatalf("states %+v", s.States)
	}
	in := parsertest.Input(t, "testdata/fork.jsonl", parser.File{Path: sessDir + "/f_5e0c.jsonl", Agent: Agent, Target: "sessions"}, nil)
	s = parsertest.Run(t, byID(t, "pi/session"), in)
	if n := len(find(s, timeline.User, "")); n != 2 {
		t.Errorf("fork without parent: %d user rows, want 2", n)
	}
	for _, e := range s.Events {
		if e.Replayed {
			t.Errorf("replayed without the parent: %+v", e)
		}
	}
	if len(s.States) != 1 || s.States[0].ForkedFrom != parent {
		t.Fatalf("states without the parent %+v", s.States)
	}
}

func TestLittleCoderSession(t *testing.T) {
	s := parsertest.Run(t, byID(t, "pi/session"), input(t, "testdata/littlecoder.jsonl", lcFile, "sessions"))
	flag := one(t, s, timeline.System, "session driven by little-coder")
	if flag.Text != "session driven by little-coder: pre-edit checkpoints in .little-coder/checkpoints/2026-04-01T12-00-00-000Z_9c1d-lc.jsonl" {
		t.Errorf("flag: %q", flag.Text)
	}
	d := one(t, s, timeline.System, "permission decision: denied source=little-coder-permission-gate")
	if d.ToolUseID != "call_1" || d.TimeString() != "2026-04-01T12:00:03.000Z" {
		t.Errorf("gate row: %+v", d)
	}
}

func TestSessionMalformed(t *testing.T) {
	s := parsertest.Run(t, byID(t, "pi/session"), input(t, "testdata/malformed.jsonl", sessDir+"/2026-03-12T08-00-00-000Z_dead-beef.jsonl", "sessions"))
	one(t, s, timeline.User, "glued after a cut")
	e := one(t, s, timeline.User, "no entry timestamp")
	if e.TimeString() != "2026-03-12T08:00:05.000Z" {
		t.Errorf("message timestamp fallback: %s", e.TimeString())
	}
	if len(s.Problems) < 3 {
		t.Errorf("problems: %v", s.Problems)
	}
}

func TestCheckpoints(t *testing.T) {
	p := byID(t, "little-coder/checkpoints")
	// Copies of the checkpoint set with fixed mtimes: the row's time is the
	// set's earliest file mtime.
	tmp := t.TempDir()
	files := related()
	mtimes := map[string]time.Time{
		"_home_examiner_demo_README.md":     time.Date(2026, 4, 1, 12, 5, 0, 0, time.UTC),
		"_home_examiner_demo_NEW.go.absent": time.Date(2026, 4, 1, 12, 3, 0, 0, time.UTC),
	}
	for name, mt := range mtimes {
		b, err := os.ReadFile(ckptData + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		local := filepath.Join(tmp, name)
		if err := os.WriteFile(local, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(local, mt, mt); err != nil {
			t.Fatal(err)
		}
		files[ckptDir+"/"+name] = local
	}
	in := func(name string) *parser.Input {
		f := parser.File{Path: ckptDir + "/" + name, Agent: LittleCoder, Target: "checkpoints", MTime: mtimes[name]}
		return parsertest.Input(t, files[ckptDir+"/"+name], f, files)
	}
	// The row comes from the set's first file only.
	if s := parsertest.Golden(t, p, in("_home_examiner_demo_README.md"), "testdata/checkpoints_later_file.golden.jsonl"); len(s.Events) != 0 {
		t.Fatalf("row from a later file: %+v", s.Events)
	}
	s := parsertest.Golden(t, p, in("_home_examiner_demo_NEW.go.absent"), "testdata/checkpoints.golden.jsonl")
	if len(s.Events) != 1 {
		t.Fatalf("events: %d", len(s.Events))
	}
	e := s.Events[0]
	want := "little-coder checkpoints for pi session 2026-04-01T12-00-00-000Z_9c1d-lc.jsonl: 2 pre-edit file(s): _home_examiner_demo_NEW.go (did not exist); _home_examiner_demo_README.md"
	if e.Text != want || e.SessionID != "9c1d-lc" || e.ProjectPath != "/home/examiner/demo" || e.Agent != LittleCoder || e.TimeBasis != timeline.TimeFileMTime {
		t.Errorf("checkpoint row: %+v", e)
	}
	if e.TimeString() != "2026-04-01T12:03:00.000Z" {
		t.Errorf("time %s, want the earliest mtime 2026-04-01T12:03:00.000Z", e.TimeString())
	}
}

func TestPromptHistory(t *testing.T) {
	s := parsertest.Run(t, byID(t, "little-coder/prompt-history"), input(t, "testdata/prompt_history_cut.json", home+"/.pi/agent/little-coder-prompt-history.json", "prompt-history"))
	if len(s.Events) != 2 || s.Events[1].Text != "add a LICENSE\nwith MIT" || s.Events[1].SourceLine != 2 || !s.Events[1].Secondary || !s.Events[1].Time.IsZero() || s.Events[1].Agent != LittleCoder {
		t.Fatalf("rows: %+v", s.Events)
	}
	if len(s.Problems) != 1 {
		t.Errorf("problems: %v", s.Problems)
	}
}

func TestSettingsTrustCrashes(t *testing.T) {
	s := parsertest.Run(t, byID(t, "pi/settings"), input(t, "testdata/settings.json", home+"/.pi/agent/settings.json", "settings"))
	if len(s.Events) != 1 || s.Events[0].Text != "permission setting: defaultProjectTrust=always (from /home/examiner/.pi/agent/settings.json, file mtime)" || s.Events[0].TimeString() != "2026-03-09T08:00:00.000Z" {
		t.Errorf("settings: %+v", s.Events)
	}
	s = parsertest.Run(t, byID(t, "pi/trust"), input(t, "testdata/trust.json", home+"/.pi/agent/trust.json", "trust"))
	if len(s.Events) != 2 || s.Events[0].Text != "permission setting: trust./home/examiner/demo=trusted (from /home/examiner/.pi/agent/trust.json, file mtime)" || s.Events[0].ProjectPath != "/home/examiner/demo" {
		t.Errorf("trust: %+v", s.Events)
	}
	s = parsertest.Run(t, byID(t, "pi/crashes"), input(t, "testdata/crashes.json", home+"/.pi/agent/crashes.json", "debug"))
	if len(s.Events) != 2 || s.Events[0].Text != "crash: TypeError: cannot read properties of undefined" || s.Events[0].SessionID != "0b6f4c1e-7d2a-4e55-9a51-3c1f2f9d8e10" ||
		s.Events[1].Text != "crash: ENOSPC" || s.Events[1].TimeString() != "2026-03-10T09:06:40.000Z" {
		t.Errorf("crashes: %+v", s.Events)
	}
}

// TestModelSwitchWithoutEntry: a session resumed with another model writes
// no model_change entry; the switch shows in the messages' model (seen in
// the real pi run of fixtures/roots/real-agents-2).
func TestModelSwitchWithoutEntry(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/s.jsonl"
	lines := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T18:09:06.894Z","cwd":"/p"}
{"type":"model_change","id":"a","parentId":null,"timestamp":"2026-11-29T18:09:06.930Z","provider":"mock","modelId":"mock-coder"}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-11-29T18:09:07.253Z","message":{"role":"assistant","content":[{"type":"text","text":"one"}],"provider":"mock","model":"mock-coder"}}
{"type":"message","id":"c","parentId":"b","timestamp":"2026-11-29T18:09:11.527Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"provider":"mock","model":"mock-coder-2"}}
`
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	s := parsertest.Run(t, Parsers()[0], parsertest.Input(t, p, parser.File{Path: "/home/u/.pi/agent/sessions/--p--/x_s1.jsonl", Agent: Agent, Target: "sessions"}, nil))
	var models []string
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "model: ") {
			models = append(models, e.Text)
		}
	}
	want := "model: mock-coder provider=mock|model: mock-coder -> mock-coder-2 provider=mock"
	if strings.Join(models, "|") != want {
		t.Fatalf("model rows %q, want %q", models, want)
	}
}
