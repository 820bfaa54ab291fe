package surface

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestWriteTargets(t *testing.T) {
	for cmd, want := range map[string]string{
		`printf '{"a":1}\n' > .mcp.json`:                                         ".mcp.json",
		`echo x >>~/.bashrc`:                                                     "~/.bashrc",
		`cat a 2>/dev/null | tee -a /etc/x "/tmp/y z"`:                           "/etc/x|/tmp/y z",
		`mkdir -p .claude/skills/s && printf -- 'x' > .claude/skills/s/SKILL.md`: ".claude/skills/s/SKILL.md",
		`cp -p settings.json settings.json.bak`:                                  "settings.json.bak",
		`sudo mv /tmp/h ~/.claude/settings.json`:                                 "~/.claude/settings.json",
		`sed -i 's/a/b/' .claude/settings.json`:                                  ".claude/settings.json",
		`curl -fsSL https://x.example/a -o $HOME/.local/bin/a`:                   "$HOME/.local/bin/a",
		`dd if=/dev/zero of=/dev/sda bs=1M`:                                      "/dev/sda",
		`Set-Content -Path C:\Users\u\.cursor\mcp.json -Value x`:                 `C:\Users\u\.cursor\mcp.json`,
		`cat .mcp.json`:            "",
		`grep -r "a>b" .`:          "",
		`echo "x; y" > 'out file'`: "out file",
		`ls 2>&1 >/dev/null`:       "",
		`curl -s http://h/x?a>b`:   "b", // unquoted: the shell redirects into b
	} {
		if got := strings.Join(WriteTargets(cmd), "|"); got != want {
			t.Errorf("WriteTargets(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestContainsPath(t *testing.T) {
	for _, c := range []struct {
		hay, path string
		want      bool
	}{
		{"/home/u/shop/.mcp.json", "/home/u/shop/.mcp.json", true},
		{"Create: /home/u/shop/.mcp.json\n", "/home/u/shop/.mcp.json", true},
		{"/home/u/shop/.mcp.json.bak", "/home/u/shop/.mcp.json", false},
		{"/x/home/u/shop/.mcp.json", "/home/u/shop/.mcp.json", false},
		{"codex-notes.txt", "codex-notes.txt", true},
		{"./.mcp.json", ".mcp.json", true},
		{"a/.mcp.json", ".mcp.json", false},
		{"x.mcp.json", ".mcp.json", false},
	} {
		if got := containsPath(c.hay, c.path); got != c.want {
			t.Errorf("containsPath(%q, %q) = %v", c.hay, c.path, got)
		}
	}
}

// TestTracker: a write names the file by its absolute path, relative to
// the call's project, through ~ or a path field of tool_input; a call
// whose result is an error wrote nothing; a content field naming the
// path, a read, another user's or another host's call are not writes.
func TestTracker(t *testing.T) {
	tr := NewTracker()
	row := func(line int64, tt, action, text, in, id, isErr string) {
		tr.Observe(line, &timeline.Row{Host: "h", User: "u", Agent: "claude-code", SessionID: "s1", ProjectPath: "/home/u/shop", TurnType: tt, Action: action,
			Text: text, ToolInput: in, ToolUseID: id, IsError: isErr, TimestampUTC: "2026-01-01T00:00:0" + string(rune('0'+line)) + ".000Z"})
	}
	row(1, "tool_use", "execute", "printf x > .mcp.json", "", "t1", "")
	row(2, "tool_result", "execute", "ok", "", "t1", "false")
	row(3, "tool_use", "execute", "printf y > .claude/settings.json", "", "t2", "")
	row(4, "tool_result", "execute", "Claude requested permissions to edit ... a sensitive file.", "", "t2", "true")
	row(5, "tool_use", "file_write", "/home/u/notes.md", `{"file_path":"/home/u/notes.md","content":"see /home/u/.claude/settings.json"}`, "t3", "")
	row(6, "tool_use", "file_edit", "edit", `{"file_path":"/home/u/.claude/settings.json"}`, "t4", "")
	row(7, "tool_use", "execute", "cat /home/u/shop/CLAUDE.md > /tmp/x", "", "t5", "")
	row(8, "tool_use", "execute", "echo hook >> ~/.bashrc", "", "t6", "")
	tr.Observe(9, &timeline.Row{Host: "h", User: "other", TurnType: "tool_use", Action: "execute", Text: "echo > /home/u/shop/CLAUDE.md"})
	got := func(file string) string {
		var s []string
		for _, w := range tr.WrittenBy("h", "u", file) {
			s = append(s, w.SessionID+"#"+string(rune('0'+w.TimelineLine)))
		}
		return strings.Join(s, ",")
	}
	for file, want := range map[string]string{
		"/home/u/shop/.mcp.json":             "s1#1",
		"/home/u/shop/.claude/settings.json": "", // refused
		"/home/u/.claude/settings.json":      "s1#6",
		"/home/u/notes.md":                   "s1#5",
		"/home/u/shop/CLAUDE.md":             "",
		"/home/u/.bashrc":                    "s1#8",
	} {
		if g := got(file); g != want {
			t.Errorf("%s written by %q, want %q", file, g, want)
		}
	}
	if ws := tr.WrittenBy("h2", "u", "/home/u/shop/.mcp.json"); len(ws) != 0 {
		t.Errorf("another host: %v", ws)
	}
}
