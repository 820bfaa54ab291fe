package qwen

import (
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
		{timeline.System, "rewind: 3 history items truncated"},
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
