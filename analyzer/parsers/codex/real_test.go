package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Real rollouts copied into ../shared/agent-samples/codex (see SOURCES.md
// there): codex_exec 0.89.0 and 0.93.0, Codex Desktop 0.104.0-alpha.1.

func TestRealCrud(t *testing.T) {
	dir := parsertest.SharedSamples(t, "codex")
	s := runRollout(t, filepath.Join(dir, "agentlogs/crud.jsonl"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	for _, e := range s.Events {
		if e.SessionID != "019bf4b5-e7b0-75a0-8bf2-05fbf1b13c9b" || e.ProjectPath != "/Users/philipp/dev/agentlogs/fixtures" {
			t.Fatalf("row session/project: %+v", e)
		}
	}
	u := ofType(s, timeline.User)
	if len(u) != 1 || !strings.HasPrefix(u[0].Text, "create a file `JOKE.md` with a random joke") ||
		u[0].TimeString() != "2026-01-25T10:32:00.708Z" || u[0].SourceLine != 6 {
		t.Fatalf("user rows: %+v", u)
	}
	// AGENTS.md and environment_context are system, not prompts
	if r := withText(s, "# AGENTS.md instructions for /Users/philipp/dev/agentlogs/fixtures"); len(r) != 1 || r[0].TurnType != timeline.System {
		t.Fatalf("AGENTS.md: %+v", r)
	}
	c := withID(s, timeline.ToolUse, "call_3LP2FP4eeep7JxJRvO3h42Oh")
	r := withID(s, timeline.ToolResult, "call_3LP2FP4eeep7JxJRvO3h42Oh")
	if len(c) != 1 || c[0].ToolName != "exec_command" || !strings.HasPrefix(c[0].Text, "cat <<'EOF' > /Users/philipp/dev/agentlogs/fixtures/JOKE.md\n# The Late Comedian") ||
		c[0].Model != "gpt-5.2-codex" || c[0].TimeString() != "2026-01-25T10:32:04.513Z" {
		t.Fatalf("call: %+v", c)
	}
	if len(r) != 1 || r[0].IsError != "false" || !strings.Contains(r[0].Text, "Process exited with code 0") || r[0].TimeString() != "2026-01-25T10:32:04.612Z" {
		t.Fatalf("result: %+v", r)
	}
	if c := withID(s, timeline.ToolUse, "call_jNxPfZXnxjqCPQxUeOy07aR1"); len(c) != 1 || c[0].ToolName != "apply_patch" || c[0].Text != "/Users/philipp/dev/agentlogs/fixtures/JOKE.md" {
		t.Fatalf("apply_patch call: %+v", c)
	}
	if r := withID(s, timeline.ToolResult, "call_jNxPfZXnxjqCPQxUeOy07aR1"); len(r) != 1 || r[0].Text != "Success. Updated the following files:\nM /Users/philipp/dev/agentlogs/fixtures/JOKE.md\nexit code: 0" {
		t.Fatalf("apply_patch result: %+v", r)
	}
	if n := len(ofType(s, timeline.ToolUse)); n != 4 {
		t.Fatalf("%d tool calls, want 4", n)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Text != "Created `JOKE.md`, read it, updated the footer line, and deleted the file." {
		t.Fatalf("assistant rows (event twin must not double): %+v", a)
	}
	if th := ofType(s, timeline.Thinking); len(th) != 3 {
		t.Fatalf("thinking rows: %d", len(th))
	}
	if m := withText(s, "model: "); len(m) != 1 || m[0].Text != "model: gpt-5.2-codex" {
		t.Fatalf("model rows: %+v", m)
	}
	if o := withText(s, "session origin:"); len(o) != 1 || o[0].Text != "session origin: local (originator=codex_exec cli_version=0.89.0 source=exec)" {
		t.Fatalf("origin: %+v", o)
	}
}

func TestRealImages(t *testing.T) {
	dir := parsertest.SharedSamples(t, "codex")
	s := runRollout(t, filepath.Join(dir, "agentlogs/images.jsonl"))
	u := ofType(s, timeline.User)
	if len(u) != 3 || u[0].Text != "why does the claude code label break here on the /team dashboard? [Image #1]\n[local images: /Users/philipp/Desktop/Screenshots/CleanShot 2026-02-01 at 02.07.43@2x.png]" ||
		u[0].TimeString() != "2026-02-01T01:07:46.801Z" || u[1].Text != "lets increase the width" || u[2].Text != "commit" {
		t.Fatalf("user rows: %+v", u)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "base64,") {
			t.Fatalf("inline image data in a row: %.200s", e.Text)
		}
	}
	if r := withID(s, timeline.ToolResult, "call_S5ESEnvXyNW5GukmA7ARhie5"); len(r) != 1 || r[0].ToolName != "exec_command" || r[0].IsError != "false" {
		t.Fatalf("commit result: %+v", r)
	}
}

func TestRealLocalpushDesktop(t *testing.T) {
	dir := parsertest.SharedSamples(t, "codex")
	// File name 13-19-38 is local time (UTC+1); the records are UTC.
	s := runRollout(t, filepath.Join(dir, "localpush/rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl"))
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].Text != "[REDACTED_MESSAGE len=86 sha=2239bcba]" || u[0].TimeString() != "2026-02-23T12:19:42.563Z" ||
		u[0].SessionID != "019c8a70-dda7-7f33-98ea-f30553347322" {
		t.Fatalf("user rows: %+v", u)
	}
	if o := withText(s, "session origin:"); len(o) != 1 || o[0].Text != "session origin: local (originator=Codex Desktop cli_version=0.104.0-alpha.1 source=vscode)" {
		t.Fatalf("origin: %+v", o)
	}
	if p := withText(s, "permission mode:"); len(p) != 1 || p[0].Text != "permission mode: approval=on-request sandbox=workspace-write" {
		t.Fatalf("permission mode: %+v", p)
	}
	// The file ends after a call whose output was never written.
	if c := withID(s, timeline.ToolUse, "call_UtYwHmwWekzvq83m8Rb9K8jJ"); len(c) != 1 || len(withID(s, timeline.ToolResult, "call_UtYwHmwWekzvq83m8Rb9K8jJ")) != 0 {
		t.Fatalf("dangling call: %+v", c)
	}

	s = runRollout(t, filepath.Join(dir, "localpush/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl"))
	c := withID(s, timeline.ToolUse, "call_OIMY41RetdVChp5U51mMLGOD")
	r := withID(s, timeline.ToolResult, "call_OIMY41RetdVChp5U51mMLGOD")
	if len(c) != 1 || c[0].ToolName != "mcp__cloud-associates__search_workflows" || len(r) != 1 ||
		r[0].ToolName != "mcp__cloud-associates__search_workflows" || r[0].Text != "[REDACTED_OUTPUT len=4215 sha=9a9d94de]" || r[0].TimeString() != "2026-02-23T19:34:39.532Z" {
		t.Fatalf("pair: %+v %+v", c, r)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 6 {
		t.Fatalf("%d assistant rows, want 6 (no agent_message twins)", len(a))
	}
	if u := ofType(s, timeline.User); len(u) != 1 || u[0].TimeString() != "2026-02-23T19:34:26.099Z" {
		t.Fatalf("user rows: %+v", u)
	}
}

// The real-agent fixture: Codex CLI run here against a scripted mock
// model (fixtures/roots/real-agents, scripts/gen-real-fixtures.sh).
type fixtureExpect struct {
	Codex struct {
		Version   string `json:"version"`
		Scenarios []struct {
			Scenario  string `json:"scenario"`
			SessionID string `json:"session_id"`
			Prompt    string `json:"prompt"`
			Command   string `json:"command"`
			Started   string `json:"started_utc"`
			Ended     string `json:"ended_utc"`
			Model     string `json:"model"`
			Mock      struct {
				ToolCalls []struct {
					Tool    string `json:"tool"`
					ID      string `json:"id"`
					Command string `json:"command"`
					Path    string `json:"path"`
				} `json:"tool_calls"`
				ToolResults []struct {
					Result string `json:"tool_result"`
				} `json:"tool_results"`
			} `json:"mock"`
		} `json:"scenarios"`
	} `json:"codex-cli"`
}

func TestRealAgentFixture(t *testing.T) {
	root := filepath.Join("..", "..", "..", "fixtures", "roots")
	var exp fixtureExpect
	if !readExpect(t, root, &exp) {
		return
	}
	home := filepath.Join(root, "real-agents", "home", "examiner")
	for _, sc := range exp.Codex.Scenarios {
		t.Run(sc.Scenario, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(home, ".codex", "sessions", "*", "*", "*", "rollout-*-"+sc.SessionID+".jsonl"))
			if len(files) != 1 {
				t.Fatalf("%d rollouts for session %s in the fixture, want 1", len(files), sc.SessionID)
			}
			s := runRollout(t, files[0])
			if len(s.Problems) != 0 {
				t.Fatalf("problems: %v", s.Problems)
			}
			u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User && e.Text == sc.Prompt })
			if len(u) != 1 || u[0].SessionID != sc.SessionID || u[0].ProjectPath != "/home/examiner/demo" {
				t.Fatalf("prompt row for %q: %+v", sc.Prompt, u)
			}
			lo, hi := parsertest.Time(t, sc.Started).Add(-time.Second), parsertest.Time(t, sc.Ended).Add(time.Second)
			if u[0].Time.Before(lo) || u[0].Time.After(hi) {
				t.Fatalf("prompt time %s outside %s..%s", u[0].TimeString(), sc.Started, sc.Ended)
			}
			for i, call := range sc.Mock.ToolCalls {
				c := withID(s, timeline.ToolUse, call.ID)
				r := withID(s, timeline.ToolResult, call.ID)
				if len(c) != 1 || c[0].ToolName != call.Tool || len(r) != 1 {
					t.Fatalf("call %s: %+v / %+v", call.ID, c, r)
				}
				if call.Command != "" && c[0].Text != call.Command {
					t.Fatalf("call text %q, want %q", c[0].Text, call.Command)
				}
				if call.Path != "" && c[0].Text != call.Path {
					t.Fatalf("call text %q, want path %q", c[0].Text, call.Path)
				}
				if i < len(sc.Mock.ToolResults) {
					want := sc.Mock.ToolResults[i].Result
					if !strings.HasPrefix(r[0].Text, strings.TrimRight(want, "\n")) {
						t.Fatalf("result text %q, want %q", r[0].Text, want)
					}
					wantErr := "false"
					if m := exitRe.FindStringSubmatch(want); m != nil && m[1] != "0" {
						wantErr = "true"
					}
					if r[0].IsError != wantErr {
						t.Fatalf("is_error %s, want %s", r[0].IsError, wantErr)
					}
				}
			}
			if sc.Model != "" {
				if m := find(s, func(e *timeline.Event) bool { return strings.HasSuffix(e.Text, "-> "+sc.Model) }); len(m) != 1 {
					t.Fatalf("no model change to %s", sc.Model)
				}
			}
			if o := withText(s, "session origin: local (originator=codex_exec cli_version="+exp.Codex.Version); len(o) != 1 {
				t.Fatalf("origin rows: %+v", withText(s, "session origin:"))
			}
		})
	}
}

func readExpect(t *testing.T, root string, exp *fixtureExpect) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "real-agents.expect.json"))
	if err != nil {
		t.Fatalf("real-agent fixture: %v", err)
	}
	if err := json.Unmarshal(data, exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Codex.Scenarios) == 0 {
		t.Fatal("no codex-cli scenarios in real-agents.expect.json")
	}
	return true
}

// exitRe finds the exit status a Codex tool result ends with (as the
// rollout reader does).
var exitRe = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:) (-?\d+)\s*$`)
