package amp

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)

const home = "/home/examiner/"

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, file, rel, target string) *parser.Input {
	return parsertest.Input(t, "testdata/"+file, parser.File{Path: home + rel, Rel: rel, Agent: Agent, Target: target, MTime: mtime}, nil)
}

const threadLog = "T-0f4e6a1c-1111-2222-3333-444455556666.log"

func TestGolden(t *testing.T) {
	for _, c := range []struct{ id, file, rel, target string }{
		{"amp/history", "history.jsonl", ".local/share/amp/history.jsonl", "history"},
		{"amp/history", "empty.jsonl", ".local/share/amp/history.jsonl", "history"},
		{"amp/log", threadLog, ".cache/amp/logs/threads/" + threadLog, "thread-logs"},
		{"amp/log", "cli.log", ".cache/amp/logs/cli.log", "thread-logs"},
		{"amp/terminal-history", "history", ".cache/amp/terminal/T-abc/history", "terminal-history"},
		{"amp/settings", "settings.json", ".config/amp/settings.json", "settings"},
	} {
		name := strings.TrimPrefix(c.id, "amp/") + "-" + c.file
		t.Run(name, func(t *testing.T) {
			p := byID(t, c.id)
			in := input(t, c.file, c.rel, c.target)
			if !p.Match(&in.File) {
				t.Fatalf("%s does not match %s", c.id, c.rel)
			}
			parsertest.Golden(t, p, in, "testdata/"+name+".golden.jsonl")
		})
	}
}

// The prompt history is all Amp keeps of a prompt locally: secondary user
// rows, the cwd as project path, no time and no thread.
func TestHistory(t *testing.T) {
	p := byID(t, "amp/history")
	if sp := p.(parser.Specced).Spec(); sp.Secondary == nil || sp.Secondary.Window != 0 || len(sp.Secondary.TurnTypes) != 1 {
		t.Fatal("history must declare a Secondary source with no time")
	}
	s := parsertest.Run(t, p, input(t, "history.jsonl", ".local/share/amp/history.jsonl", "history"))
	if len(s.Events) != 2 {
		t.Fatalf("rows %+v", s.Events)
	}
	e := s.Events[0]
	if e.TurnType != timeline.User || e.Text != "add a --verbose flag" || e.ProjectPath != "/home/examiner/proj" || !e.Secondary || e.TimeBasis != timeline.TimeNone || e.SessionID != "" {
		t.Fatalf("row %+v", e)
	}
	if len(s.Problems) != 2 || s.Problems[0] != "line 3: skipped_record: history line without text" || s.SkipCounts()["empty_prompt"] != 1 {
		t.Fatalf("problems %v skips %v", s.Problems, s.Skips)
	}
}

// Thread logs: the thread from the file name or the threadId property; a
// tool named by the record; secrets in properties never printed.
func TestLogs(t *testing.T) {
	s := parsertest.Run(t, byID(t, "amp/log"), input(t, threadLog, ".cache/amp/logs/threads/"+threadLog, "thread-logs"))
	if len(s.Events) != 2 || len(s.Problems) != 2 || s.Problems[0] != "line 3: skipped_record: log record without a message" {
		t.Fatalf("rows %d problems %v", len(s.Events), s.Problems)
	}
	mcp := s.Events[1]
	if mcp.SessionID != "T-0f4e6a1c-1111-2222-3333-444455556666" || mcp.ToolName != "search_code" ||
		mcp.Text != "log ERROR amp.mcp: MCP tool call failed (toolName=search_code serverName=github error=timeout)" || mcp.Time != parsertest.Time(t, "2026-01-02T03:04:06Z") {
		t.Fatalf("mcp row %+v", mcp)
	}
	c := parsertest.Run(t, byID(t, "amp/log"), input(t, "cli.log", ".cache/amp/logs/cli.log", "thread-logs"))
	if len(c.Events) != 2 || c.Events[0].SessionID != "" || c.Events[1].SessionID != "T-abc" || c.Events[1].ProjectPath != "/home/examiner/proj" ||
		c.Events[0].Text != `log ERROR fatal-breadcrumb: CLI fatal breadcrumb (error={"message":"boom","name":"Error"})` {
		t.Fatalf("cli.log rows %+v", c.Events)
	}
}

func TestTerminalHistoryRedacts(t *testing.T) {
	s := parsertest.Run(t, byID(t, "amp/terminal-history"), input(t, "history", ".cache/amp/terminal/T-abc/history", "terminal-history"))
	if len(s.Events) != 2 || s.Events[0].Text != "terminal command: ls -la" || s.Events[0].SessionID != "T-abc" ||
		s.Events[1].Text != `terminal command: curl -H "Authorization: Bearer [redacted]" https://x.invalid` {
		t.Fatalf("rows %+v", s.Events)
	}
}

func TestSettingsNoSecret(t *testing.T) {
	s := parsertest.Run(t, byID(t, "amp/settings"), input(t, "settings.json", ".config/amp/settings.json", "settings"))
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
	}
	got := strings.Join(texts, "\n")
	for _, bad := range []string{"ghp_", "sk-secret", "GITHUB_TOKEN"} {
		if strings.Contains(got, bad) {
			t.Errorf("secret %q in rows", bad)
		}
	}
	want := []string{
		"model setting: amp.anthropic.thinking.enabled=true (from .config/amp/settings.json, file mtime)",
		`permission setting: amp.commands.allowlist=["npm test"] (from .config/amp/settings.json, file mtime)`,
		"permission setting: amp.dangerouslyAllowAll=false (from .config/amp/settings.json, file mtime)",
		"setting: amp.git.commit.coauthor.enabled=true (from .config/amp/settings.json, file mtime)",
		"setting: amp.mcpServers github command=npx (from .config/amp/settings.json, file mtime)",
		"setting: amp.notifications.enabled=false (from .config/amp/settings.json, file mtime)",
		`permission setting: amp.permissions[0]={"action":"allow","matches":{"cmd":"git *"},"tool":"Bash"} (from .config/amp/settings.json, file mtime)`,
		`permission setting: amp.permissions[1]={"action":"ask","tool":"*"} (from .config/amp/settings.json, file mtime)`,
	}
	if got != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", got)
	}
}
