package claudecode

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestParsersMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"claude-code/transcript", "projects", "/home/e/.claude/projects/-p/s.jsonl", true},
		{"claude-code/transcript", "projects", "/home/e/.claude-work/projects/-p/s/subagents/agent-a1.jsonl", true},
		{"claude-code/transcript", "project-files", "/home/e/.claude/projects/-p/s/tool-results/t.txt", false},
		{"claude-code/history", "history", "/home/e/.claude/history.jsonl", true},
		{"claude-code/settings", "settings", "/home/e/.claude/settings.local.json", true},
		{"claude-code/settings", "claude-json", "/home/e/.claude.json", true},
		{"claude-code/sessions", "sessions", "/home/e/.claude/sessions/123.json", true},
		{"claude-code/sessions", "session-keys", "/home/e/.claude/sessions/123.abc.key", false},
		{"claude-code/settings", "project", "/srv/app/.claude/settings.local.json", true},
		{"claude-code/remote", "project-files", "/home/e/.claude/projects/-p/bridge-pointer.json", true},
		{"claude-code/remote", "project-files", "/home/e/.claude/projects/-p/s.ccr-tip.json", true},
		{"claude-code/remote", "project-files", "/home/e/.claude/projects/-p/s/subagents/agent-a1.meta.json", false},
	}
	byID := map[string]parser.Parser{}
	for _, p := range Parsers() {
		byID[p.ID()] = p
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID[c.id].Match(f); got != c.want {
			t.Errorf("%s Match(%s) = %v", c.id, c.path, got)
		}
	}
}

func TestHistory(t *testing.T) {
	related := parsertest.Files{"/home/examiner/.claude/paste-cache/4f2a9c.txt": "testdata/paste-cache/4f2a9c.txt"}
	in := parsertest.Input(t, "testdata/history.jsonl", parser.File{Path: "/home/examiner/.claude/history.jsonl",
		Agent: Agent, Target: "history"}, related)
	s := parsertest.Golden(t, History(), in, "testdata/history.golden.jsonl")
	if len(s.Events) != 3 {
		t.Fatalf("rows %d", len(s.Events))
	}
	e := s.Events[1]
	if e.Text != "fix this error: a\nerror: b\nerror: c and pasted from the cache" || !e.Secondary || e.TurnType != timeline.User ||
		e.SessionID != testSession || e.ProjectPath != "/home/examiner/demo" || e.TimeString() != "2026-10-11T10:00:02.000Z" {
		t.Fatalf("expanded row %+v", e)
	}
	if s.Events[2].Text != "lost paste [Pasted text #1 +5 lines]" || s.Events[2].SessionID != "" {
		t.Fatalf("uncollected paste %+v", s.Events[2])
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 4: malformed") {
		t.Fatalf("problems %v", s.Problems)
	}
}

func TestHistoryEmpty(t *testing.T) {
	in := parsertest.Input(t, "testdata/empty.jsonl", parser.File{Path: "/home/examiner/.claude/history.jsonl", Agent: Agent, Target: "history"}, nil)
	if s := parsertest.Run(t, History(), in); len(s.Events)+len(s.Problems) != 0 {
		t.Fatalf("%+v", s)
	}
}

func TestSettings(t *testing.T) {
	mtime := parsertest.Time(t, "2026-10-11T09:00:00Z")
	run := func(t *testing.T, local, orig, rel, target string) *parsertest.Sink {
		in := parsertest.Input(t, local, parser.File{Path: orig, Rel: rel, Agent: Agent, Target: target, MTime: mtime}, nil)
		golden := "testdata/" + strings.TrimSuffix(strings.TrimPrefix(local, "testdata/"), ".json") + ".golden.jsonl"
		return parsertest.Golden(t, Settings(), in, golden)
	}
	t.Run("user_settings", func(t *testing.T) {
		s := run(t, "testdata/settings.json", "/home/examiner/.claude/settings.json", ".claude/settings.json", "settings")
		var texts []string
		for _, e := range s.Events {
			texts = append(texts, e.Text)
			if !e.Time.Equal(mtime) || e.TimeBasis != timeline.TimeFileMTime || e.ProjectPath != "" || e.TurnType != timeline.System {
				t.Fatalf("row %+v", e)
			}
			if strings.Contains(e.Text, "SECRET") || strings.Contains(e.Text, "/bin/secret") {
				t.Fatalf("secret printed: %q", e.Text)
			}
		}
		want := []string{
			"permission setting: allow=Bash(npm run test:*) (from settings.json, file mtime)",
			"permission setting: allow=Read(~/.zshrc) (from settings.json, file mtime)",
			"permission setting: deny=Bash(curl:*) (from settings.json, file mtime)",
			"permission setting: ask=Bash(git push:*) (from settings.json, file mtime)",
			"permission setting: additionalDirectories=../docs/ (from settings.json, file mtime)",
			"permission setting: defaultMode=acceptEdits (from settings.json, file mtime)",
			"permission setting: disableBypassPermissionsMode=disable (from settings.json, file mtime)",
			"retention setting: cleanupPeriodDays=99 (from settings.json, file mtime)",
			"model setting: opus (from settings.json, file mtime)",
		}
		if strings.Join(texts, "\n") != strings.Join(want, "\n") {
			t.Fatalf("rows:\n%s", strings.Join(texts, "\n"))
		}
	})
	t.Run("project_local_settings", func(t *testing.T) {
		s := run(t, "testdata/settings.local.json", "/home/examiner/demo/.claude/settings.local.json", "demo/.claude/settings.local.json", "settings")
		if len(s.Events) != 1 || s.Events[0].Text != "permission setting: allow=PowerShell(Get-ChildItem *) (from settings.local.json, file mtime)" ||
			s.Events[0].ProjectPath != "/home/examiner/demo" {
			t.Fatalf("%+v", s.Events)
		}
	})
	t.Run("claude_json", func(t *testing.T) {
		s := run(t, "testdata/claude.json", "/home/examiner/.claude.json", ".claude.json", "claude-json")
		var texts []string
		for _, e := range s.Events {
			texts = append(texts, e.ProjectPath+" "+e.Text)
			if strings.Contains(e.Text, "examiner@example.com") || strings.Contains(e.Text, "secret-uuid") || strings.Contains(e.Text, "rc-machine") {
				t.Fatal("account or machine id printed")
			}
		}
		// Issue 16: the Remote Control machine id (said to be set, never
		// printed), a project's spawn mode, the cloud environment flag
		// and the GitHub connection status.
		want := []string{
			" remote control: machine id set (from .claude.json, file mtime)",
			" cloud: hasRemoteEnvironment=true (from .claude.json, file mtime)",
			" source host: github status=connected (from .claude.json, file mtime)",
			"/home/examiner/demo permission setting: allowedTools=Bash(python3 *) (from .claude.json, file mtime)",
			"/home/examiner/demo permission setting: hasTrustDialogAccepted=true (from .claude.json, file mtime)",
			"/home/examiner/demo permission setting: hasClaudeMdExternalIncludesApproved=false (from .claude.json, file mtime)",
			"/home/examiner/demo remote control: spawn mode worktree for /home/examiner/demo (from .claude.json, file mtime)",
			"/home/examiner/other permission setting: hasTrustDialogAccepted=false (from .claude.json, file mtime)",
		}
		if strings.Join(texts, "\n") != strings.Join(want, "\n") {
			t.Fatalf("rows:\n%s", strings.Join(texts, "\n"))
		}
	})
	t.Run("malformed", func(t *testing.T) {
		s := run(t, "testdata/settings_malformed.json", "/home/examiner/.claude/settings.json", ".claude/settings.json", "settings")
		if len(s.Events) != 0 || len(s.Problems) != 1 {
			t.Fatalf("%+v", s)
		}
	})
	t.Run("empty", func(t *testing.T) {
		s := run(t, "testdata/settings_empty.json", "/home/examiner/.claude/settings.json", ".claude/settings.json", "settings")
		if len(s.Events) != 0 || len(s.Problems) != 1 {
			t.Fatalf("%+v", s)
		}
	})
}

func TestSessionsRegistry(t *testing.T) {
	mtime := parsertest.Time(t, "2026-10-11T10:30:00Z")
	in := parsertest.Input(t, "testdata/sessions_bridge.json", parser.File{Path: "/home/examiner/.claude/sessions/4242.json",
		Agent: Agent, Target: "sessions", MTime: mtime}, nil)
	s := parsertest.Golden(t, Sessions(), in, "testdata/sessions_bridge.golden.jsonl")
	if len(s.Events) != 2 {
		t.Fatalf("rows %+v", s.Events)
	}
	p := s.Events[0]
	if p.Text != "claude-code process 4242 interactive status=busy entrypoint=cli bridge=session_01BRIDGE host_session=none" ||
		p.TimeString() != "2026-10-11T10:00:00.000Z" || p.SessionID != testSession {
		t.Fatalf("process row %+v", p)
	}
	if s.Events[1].Text != "session synced: remote control bridge session_01BRIDGE url - (from /home/examiner/.claude/sessions/4242.json, file mtime)" {
		t.Fatalf("sync row %+v", s.Events[1])
	}
	if len(s.States) != 1 || s.States[0].Synced != "yes" || s.States[0].Key.SessionID != testSession {
		t.Fatalf("states %+v", s.States)
	}
}
