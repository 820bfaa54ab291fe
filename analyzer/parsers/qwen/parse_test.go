package qwen

import (
	"fmt"
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
	chatsDir = home + "/.qwen/projects/-home-examiner-demo/chats"
)

// fixedMTime stands in for a settings or routes file's mtime in goldens.
var fixedMTime = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

func input(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: fixedMTime}
	return parsertest.Input(t, local, f, nil)
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		id, path, target string
		want             bool
	}{
		{"qwen-code/chat", chatsDir + "/3f1c.jsonl", "chats", true},
		{"qwen-code/chat", chatsDir + "/archive/3f1c.jsonl", "chats", true},
		{"qwen-code/chat", home + "/.qwen/tmp/abc/logs.json", "logs", false},
		{"qwen-code/logs", home + "/.qwen/tmp/abc/logs.json", "logs", true},
		{"qwen-code/settings", home + "/.qwen/trustedFolders.json", "trusted-folders", true},
		{"qwen-code/settings", home + "/.qwen/settings.json", "settings", true},
		{"qwen-code/settings", home + "/.qwen/QWEN.md", "settings", false},
		{"qwen-code/settings", home + "/demo/.qwen/settings.json", "project", true},
		{"qwen-code/channels", home + "/.qwen/channels/sessions.json", "channels", true},
		{"qwen-code/channels", home + "/.qwen/channels/daemon/ab12/routes.json", "channels", true},
		{"qwen-code/usage", home + "/.qwen/usage_record.jsonl", "usage", true},
	} {
		f := parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}

func TestChatGolden(t *testing.T) {
	p := byID(t, "qwen-code/chat")
	for _, c := range []struct{ name, file, orig string }{
		{"typical", "chats/typical.jsonl", chatsDir + "/s-typical.jsonl"},
		{"approval", "chats/approval.jsonl", chatsDir + "/s-approval.jsonl"},
		{"empty", "chats/empty.jsonl", chatsDir + "/s-empty.jsonl"},
		{"malformed", "chats/malformed.jsonl", chatsDir + "/archive/s-bad.jsonl"},
		{"truncated_line", "chats/truncated_line.jsonl", chatsDir + "/s-trunc.jsonl"},
		{"rewind", "chats/rewind.jsonl", chatsDir + "/s-rewind.jsonl"},
		{"branch", "chats/branch.jsonl", chatsDir + "/s-fork.jsonl"},
		{"channel", "chats/channel.jsonl", chatsDir + "/s-chan.jsonl"},
		{"subagent", "chats/subagents/s-parent/agent-explore-call_9.jsonl",
			home + "/.qwen/projects/-home-examiner-demo/subagents/s-parent/agent-explore-call_9.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", c.file), c.orig, "chats")
			parsertest.Golden(t, p, in, filepath.Join("testdata", "chats", c.name+".golden.jsonl"))
		})
	}
}

func find(s *parsertest.Sink, tt timeline.TurnType, text string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && e.Text == text {
			out = append(out, e)
		}
	}
	return out
}

// TestChatRows asserts the wordings and links the goldens hold, so a
// regenerated golden cannot silently lose them.
func TestChatRows(t *testing.T) {
	p := byID(t, "qwen-code/chat")
	s := parsertest.Run(t, p, input(t, "testdata/chats/typical.jsonl", chatsDir+"/s-typical.jsonl", "chats"))
	for _, w := range []struct {
		tt   timeline.TurnType
		text string
	}{
		{timeline.System, "model: qwen3-coder-plus auth=qwen-oauth"},
		{timeline.System, "permission mode: plan prePlanMode=default"},
		{timeline.System, "permission mode: default"},
		{timeline.User, "list files in @src"},
		{timeline.System, "at command: @src files=src/a.go,src/b.go status=success"},
		{timeline.Thinking, "The user wants a listing."},
		{timeline.ToolUse, "ls -la src"},
		{timeline.ToolUse, "/home/examiner/demo/src/a.go"},
		{timeline.System, "permission decision: accept (tool_call ui_telemetry)"},
		{timeline.System, "api error: 429 Too Many Requests (model=qwen3-coder-plus status=429)"},
		{timeline.System, "model: qwen3-coder-plus -> qwen3-coder-max"},
		{timeline.User, "also count lines"},
		{timeline.System, "permission mode: yolo"},
		{timeline.System, "notification: Background shell finished"},
		{timeline.System, "<system-reminder>Plan mode is off.</system-reminder>"},
		{timeline.System, "slash command: /compress"},
		{timeline.System, "session title: List files (auto)"},
		{timeline.System, "rewound by /rewind at 2026-01-02T10:00:11.000Z: 7 record(s)"},
		{timeline.System, "system record: future_thing"},
	} {
		if len(find(s, w.tt, w.text)) != 1 {
			t.Errorf("want one %s row %q", w.tt, w.text)
		}
	}
	if got := find(s, timeline.System, "permission decision: accept (tool_call ui_telemetry)"); len(got) == 1 &&
		(got[0].ToolUseID != "call_1" || got[0].TimeString() != "2026-01-02T10:00:02.400Z") {
		t.Errorf("decision row %+v", got[0])
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "secret file body") {
			t.Errorf("expanded @-file content in a row: %q", e.Text)
		}
		if e.SessionID != "s-typical" || e.ProjectPath != "/home/examiner/demo" {
			t.Errorf("row %q session %q project %q", e.Text, e.SessionID, e.ProjectPath)
		}
	}
	if n := len(find(s, timeline.System, "model: qwen3-coder-plus")); n != 0 {
		t.Errorf("assistant repeated the model session_model named: %d rows", n)
	}

	a := parsertest.Run(t, p, input(t, "testdata/chats/approval.jsonl", chatsDir+"/s-approval.jsonl", "chats"))
	for _, w := range []struct{ id, text string }{
		{"call_rm", "permission decision: reject (tool_call ui_telemetry)"},
		{"call_rm", "permission decision: cancelled"},
		{"call_w", "permission decision: awaiting_approval"},
	} {
		got := find(a, timeline.System, w.text)
		if len(got) != 1 || got[0].ToolUseID != w.id {
			t.Errorf("want one %q row for %s, got %v", w.text, w.id, got)
		}
	}
	if got := find(a, timeline.System, "model: qwen3-coder-plus -> qwen3-coder-flash auth=openai"); len(got) != 1 {
		t.Errorf("session_model change row missing")
	}
	if got := find(a, timeline.System, "permission mode: auto-edit"); len(got) != 1 {
		t.Errorf("executionContext mode change row missing")
	}
	for _, e := range a.Events {
		if e.TurnType == timeline.ToolResult && e.ToolUseID != "call_w" && e.IsError != "true" {
			t.Errorf("result %s %q is_error %q, want true", e.ToolUseID, e.Text, e.IsError)
		}
	}
}

func TestLogsGolden(t *testing.T) {
	p := byID(t, "qwen-code/logs")
	for _, c := range []string{"logs", "truncated", "empty"} {
		t.Run(c, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", "logs", c+".json"), home+"/.qwen/tmp/9f86d0/logs.json", "logs")
			s := parsertest.Golden(t, p, in, filepath.Join("testdata", "logs", c+".golden.jsonl"))
			if c == "logs" && len(find(s, timeline.System, "model: qwen3-coder-plus -> qwen-vl-max-latest reason=vision_auto_switch")) != 1 {
				t.Errorf("model_switch row missing")
			}
		})
	}
}

func TestSettingsGolden(t *testing.T) {
	p := byID(t, "qwen-code/settings")
	for _, c := range []struct{ name, file, orig, target string }{
		{"trusted_folders", "trustedFolders.json", home + "/.qwen/trustedFolders.json", "trusted-folders"},
		{"home_settings", "settings.json", home + "/.qwen/settings.json", "settings"},
		{"project_settings", "project_settings.json", home + "/demo/.qwen/settings.json", "project"},
		{"malformed", "malformed.json", home + "/.qwen/settings.json", "settings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", "settings", c.file), c.orig, c.target)
			s := parsertest.Golden(t, p, in, filepath.Join("testdata", "settings", c.name+".golden.jsonl"))
			for _, e := range s.Events {
				if strings.Contains(e.Text, "sk-") {
					t.Errorf("secret value in a row: %q", e.Text)
				}
				if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(fixedMTime) {
					t.Errorf("row %q not at the file mtime", e.Text)
				}
			}
		})
	}
}

func TestChannelsGolden(t *testing.T) {
	p := byID(t, "qwen-code/channels")
	for _, c := range []struct{ name, orig string }{
		{"sessions", home + "/.qwen/channels/sessions.json"},
		{"routes", home + "/.qwen/channels/daemon/ab12/routes.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", "channels", c.name+".json"), c.orig, "channels")
			s := parsertest.Golden(t, p, in, filepath.Join("testdata", "channels", c.name+".golden.jsonl"))
			for _, st := range s.States {
				if st.Relayed != "yes" || st.Key.Agent != Agent {
					t.Errorf("state %+v", st)
				}
			}
			if c.name == "sessions" && len(s.States) != 2 {
				t.Errorf("states %v", s.States)
			}
		})
	}
}

func TestUsageGolden(t *testing.T) {
	p := byID(t, "qwen-code/usage")
	in := input(t, "testdata/usage/usage_record.jsonl", home+"/.qwen/usage_record.jsonl", "usage")
	parsertest.Golden(t, p, in, "testdata/usage/usage_record.golden.jsonl")
}

// rowLines renders rows as "<line> <session> <turn type> <text> <record id>
// parent=<parent> replayed=<bool>".
func rowLines(s *parsertest.Sink) string {
	var out []string
	for _, e := range s.Events {
		out = append(out, fmt.Sprintf("%d %s %s %q %s parent=%s replayed=%v", e.SourceLine, e.SessionID, e.TurnType, e.Text, e.RecordID, e.ParentSessionID, e.Replayed))
	}
	return strings.Join(out, "\n")
}

// Issue 12: qwen-code keeps rewound records; aligned with gemini-cli's
// /rewind (gemini-cli PR 15720): the records the rewind record's
// parentUuid re-roots away (the prompt and the run_shell_command
// "rm -rf build/" that ran) stay as rows, and the rewind record gives
// "rewound by /rewind at <time>: <n> record(s)".
func TestChatRewind(t *testing.T) {
	in := input(t, "testdata/chats/rewind.jsonl", chatsDir+"/s-rewind.jsonl", "chats")
	s := parsertest.Run(t, byID(t, "qwen-code/chat"), in)
	parsertest.Accounted(t, in, s)
	want := strings.Join([]string{
		`1 s-rewind user "clean the build" w1 parent= replayed=false`,
		`2 s-rewind system "model: qwen3-coder-plus" w2#model parent= replayed=false`,
		`2 s-rewind tool_use "rm -rf /build/" w2 parent= replayed=false`,
		`3 s-rewind tool_result "Command: rm -rf build/\nExit Code: 0" w3 parent= replayed=false`,
		`4 s-rewind assistant "The build directory is gone." w4 parent= replayed=false`,
		`5 s-rewind system "rewound by /rewind at 2026-05-01T10:00:30.000Z: 4 record(s)" w5 parent= replayed=false`,
		`6 s-rewind user "list the files instead" w6 parent= replayed=false`,
	}, "\n")
	want = strings.Replace(want, "rm -rf /build/", "rm -rf build/", 1)
	if got := rowLines(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 0 || len(s.Skips) != 0 {
		t.Errorf("problems %v skips %v", s.Problems, s.Skips)
	}
}

// A /branch copy (forkedFrom {sessionId, messageUuid} on every copied
// record): the copies are the original session's records, replayed, with
// the original uuids; the fork's own rows carry the origin as parent and
// its state names it in forked_from. A session_source other than a
// messaging channel says the session was not relayed.
func TestChatBranchAndSource(t *testing.T) {
	in := input(t, "testdata/chats/branch.jsonl", chatsDir+"/s-fork.jsonl", "chats")
	s := parsertest.Run(t, byID(t, "qwen-code/chat"), in)
	parsertest.Accounted(t, in, s)
	want := strings.Join([]string{
		`1 s-origin user "write a parser" o1 parent= replayed=true`,
		`2 s-origin system "model: qwen3-coder-plus" o2#model parent= replayed=true`,
		`2 s-origin assistant "Here is one." o2 parent= replayed=true`,
		`3 s-fork system "session source: standalone task-42" f1 parent=s-origin replayed=false`,
		`4 s-fork user "now in Go" f2 parent=s-origin replayed=false`,
	}, "\n")
	if got := rowLines(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if fmt.Sprint(s.States) != fmt.Sprint([]timeline.SessionState{{Key: timeline.SessionKey{Agent: Agent, SessionID: "s-fork"}, ForkedFrom: "s-origin", Relayed: "no"}}) {
		t.Errorf("states %+v", s.States)
	}
}

// Issue 16: relayed reads "yes" for a session a messaging channel created
// (session_source channel) as well as "no" (above); a parent_session
// record links a sub-session to the session that spawned it.
func TestChatChannelSource(t *testing.T) {
	in := input(t, "testdata/chats/channel.jsonl", chatsDir+"/s-chan.jsonl", "chats")
	s := parsertest.Run(t, byID(t, "qwen-code/chat"), in)
	if fmt.Sprint(s.States) != fmt.Sprint([]timeline.SessionState{{Key: timeline.SessionKey{Agent: Agent, SessionID: "s-chan"}, Relayed: "yes", ParentSessionID: "s-daemon"}}) {
		t.Errorf("states %+v", s.States)
	}
	if len(find(s, timeline.System, "session source: channel telegram-main")) != 1 || len(find(s, timeline.System, "parent session: s-daemon")) != 1 {
		t.Errorf("rows:\n%s", rowLines(s))
	}
}

// TestChatSubagentIDShown: a subagent id the transcript stores with
// control bytes (a terminal escape, a line break) is shown escaped in the
// row's text (parser.Shown), never printed raw into it; its session id
// keeps the stored value.
func TestChatSubagentIDShown(t *testing.T) {
	line := `{"uuid":"a1","sessionId":"s-parent","timestamp":"2026-05-01T10:00:00.000Z","type":"user","isSidechain":true,"agentId":"sub\u001b[2J\nfake row","message":{"role":"user","parts":[{"text":"do the task"}]}}` + "\n"
	p := filepath.Join(t.TempDir(), "agent.jsonl")
	if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	s := parsertest.Run(t, byID(t, "qwen-code/chat"), input(t, p, chatsDir+"/agent.jsonl", "chats"))
	var texts []string
	for _, e := range s.Events {
		if e.TurnType == timeline.System {
			texts = append(texts, e.SessionID+" | "+e.Text)
		}
	}
	if want := "sub\x1b[2J\nfake row | subagent \"sub\\x1b[2J\\nfake row\" of s-parent\nsub\x1b[2J\nfake row | subagent task: do the task"; strings.Join(texts, "\n") != want {
		t.Errorf("system rows:\n%q\nwant\n%q", texts, want)
	}
}
