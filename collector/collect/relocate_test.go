//go:build unix

package collect

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// TestRelocatedFolders: every relocation variable the catalog knows, set in
// each kind of start file (bash, zsh, fish, environment.d, /etc/environment,
// a launchd agent), moves the agent's folder; the collector walks it,
// every row saying where its location came from; ~/.config/claude is
// Claude Code's; values it cannot expand, or that point into /proc, are
// logged and not walked.
func TestRelocatedFolders(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "alice:x:1000:1000::/home/alice:/bin/bash\nbob:x:1001:1001::/home/bob:/bin/zsh\n")
	put(t, root, "etc/environment", "PATH=/usr/bin\nGOOSE_PATH_ROOT=\"/srv/goose\"\n")
	put(t, root, "srv/goose/config/history.txt", "ls\n")
	put(t, root, "Library/LaunchDaemons/org.example.env.plist", `<plist><dict><key>EnvironmentVariables</key><dict><key>COPILOT_HOME</key><string>/srv/copilot</string></dict></dict></plist>`)
	put(t, root, "srv/copilot/session-state/s1/events.jsonl", "{}\n")

	put(t, root, "home/alice/.bashrc", "# dotfiles\nexport CLAUDE_CONFIG_DIR=\"$HOME/work/claude-cfg\"  # work account\nalias ll='ls -l'\nexport COPILOT_HOME=$(pwd)/x\n")
	put(t, root, "home/alice/work/claude-cfg/projects/-home-alice-p/s1.jsonl", `{"type":"user"}`+"\n")
	put(t, root, "home/alice/work/claude-cfg/.claude.json", `{"projects":{}}`)
	put(t, root, "home/alice/.zshenv", "export CODEX_HOME=/data/codex\nexport OLLAMA_MODELS=/data/ollama-models\n")
	put(t, root, "data/ollama-models/manifests/registry.ollama.ai/library/gpt-oss/20b", "{}")
	put(t, root, "data/ollama-models/blobs/sha256-00", "weights")
	put(t, root, "data/codex/sessions/2026/11/30/rollout-1.jsonl", `{"type":"session_meta"}`+"\n")
	put(t, root, "home/alice/.config/fish/config.fish", "set -gx XDG_DATA_HOME /data/alice-share\n")
	put(t, root, "data/alice-share/opencode/log/x.log", "log\n")
	put(t, root, "home/alice/.config/environment.d/agents.conf", "QWEN_HOME=${HOME}/q\n")
	put(t, root, "home/alice/q/usage/token-usage-1.jsonl", "{}\n")
	put(t, root, "home/alice/Library/LaunchAgents/env.plist", `<plist><dict><key>EnvironmentVariables</key><dict><key>GEMINI_CLI_HOME</key><string>/home/alice/g</string><key>SECRET_TOKEN</key><string>s3cr3t</string></dict></dict></plist>`)
	put(t, root, "home/alice/g/.gemini/tmp/abc/logs.json", "[]")

	put(t, root, "home/bob/.config/claude/projects/-home-bob-q/s2.jsonl", `{"type":"user"}`+"\n")
	put(t, root, "home/bob/.bashrc", "export CODEX_HOME=/proc/1\nexport GEMINI_CLI_HOME=/data/gone\nexport QWEN_HOME=~carol/q\n")
	put(t, root, "proc/1/x", "")

	b, _, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	// A relocated folder named but not walked is a row (never silently
	// absent), and a row_error problem for the analyzer.
	var probs []string
	for _, p := range vr.Problems {
		probs = append(probs, p.Kind+" "+p.Path+" "+p.Msg)
	}
	if got, want := strings.Join(probs, "\n"), "row_error $(pwd)/x error_read: relocation variable COPILOT_HOME=$(pwd)/x in /home/alice/.bashrc:4 not followed: its value needs a shell to expand (a variable other than HOME, or a command): the folder it names is not walked, never guessed\n"+
		"row_error ~carol/q error_read: relocation variable QWEN_HOME=~carol/q in /home/bob/.bashrc:3 not followed: its value names another account's home (~carol), which only the host's account database resolves: the folder it names is not walked, never guessed\n"+
		"row_error /data/gone error_read: relocated agent folder named but not there: its target does not exist inside --root (an absolute target is taken relative to the root) (found via GEMINI_CLI_HOME=/data/gone in /home/bob/.bashrc:2)\nrow_error /proc/1 error_read: relocated agent folder not walked: its target is under /proc (found via CODEX_HOME=/proc/1 in /home/bob/.bashrc:1)"; got != want {
		t.Errorf("problems:\n%s\nwant\n%s", got, want)
	}
	for _, w := range []struct{ path, user, agent, target, status, via string }{
		{"/proc/1", "bob", "codex-cli", "history", "error_read", "CODEX_HOME=/proc/1 in /home/bob/.bashrc:1"},
		{"$(pwd)/x", "alice", "copilot-cli", "", "error_read", "COPILOT_HOME=$(pwd)/x in /home/alice/.bashrc:4"},
		{"~carol/q", "bob", "qwen-code", "", "error_read", "QWEN_HOME=~carol/q in /home/bob/.bashrc:3"},
		{"/data/gone", "bob", "gemini-cli", "", "error_read", "GEMINI_CLI_HOME=/data/gone in /home/bob/.bashrc:2"},
		{"/home/alice/work/claude-cfg", "alice", "claude-code", "history", "folder", `CLAUDE_CONFIG_DIR=$HOME/work/claude-cfg in /home/alice/.bashrc:2`},
		{"/home/alice/work/claude-cfg/projects", "alice", "claude-code", "projects", "folder", `CLAUDE_CONFIG_DIR=$HOME/work/claude-cfg in /home/alice/.bashrc:2`},
		{"/home/alice/work/claude-cfg/projects/-home-alice-p/s1.jsonl", "alice", "claude-code", "projects", "collected", `CLAUDE_CONFIG_DIR=$HOME/work/claude-cfg in /home/alice/.bashrc:2`},
		{"/home/alice/work/claude-cfg/.claude.json", "alice", "claude-code", "claude-json", "collected", `CLAUDE_CONFIG_DIR=$HOME/work/claude-cfg in /home/alice/.bashrc:2`},
		{"/data/codex/sessions/2026/11/30/rollout-1.jsonl", "alice", "codex-cli", "sessions", "collected", "CODEX_HOME=/data/codex in /home/alice/.zshenv:1"},
		{"/data/alice-share/opencode/log/x.log", "alice", "opencode", "logs", "collected", "XDG_DATA_HOME=/data/alice-share in /home/alice/.config/fish/config.fish:1"},
		{"/home/alice/q/usage/token-usage-1.jsonl", "alice", "qwen-code", "token-usage", "collected", "QWEN_HOME=${HOME}/q in /home/alice/.config/environment.d/agents.conf:1"},
		{"/home/alice/g/.gemini/tmp/abc/logs.json", "alice", "gemini-cli", "logs", "collected", "GEMINI_CLI_HOME=/home/alice/g in /home/alice/Library/LaunchAgents/env.plist"},
		{"/data/ollama-models/manifests/registry.ollama.ai/library/gpt-oss/20b", "alice", "ollama", "manifests", "collected", "OLLAMA_MODELS=/data/ollama-models in /home/alice/.zshenv:2"},
		{"/srv/goose/config/history.txt", "alice", "goose", "history", "collected", "GOOSE_PATH_ROOT=/srv/goose in /etc/environment:2"},
		{"/home/bob/.config/claude/projects/-home-bob-q/s2.jsonl", "bob", "claude-code", "projects", "collected", "the catalog's alternate place of ~/.claude (.config/claude)"},
		{"/srv/copilot/session-state/s1/events.jsonl", "alice", "copilot-cli", "events", "collected", "COPILOT_HOME=/srv/copilot in /Library/LaunchDaemons/org.example.env.plist"},
	} {
		e := rowOf(t, m, w.path)
		if e.User != w.user || e.Agent != w.agent || e.Target != w.target || e.Status != w.status || e.FoundVia != w.via {
			t.Errorf("%s:\n got user=%s agent=%s target=%s status=%s found_via=%q\nwant user=%s agent=%s target=%s status=%s found_via=%q", w.path, e.User, e.Agent, e.Target, e.Status, e.FoundVia, w.user, w.agent, w.target, w.status, w.via)
		}
	}
	for _, e := range vr.Manifest {
		if strings.HasPrefix(e.Path, "/proc") && (e.Path != "/proc/1" || e.Status != bundle.StatusErrorRead || e.SHA256 != "") {
			t.Errorf("walked into /proc: %+v", e)
		}
	}
	lines := logLines(t, vr.Log)
	var warned []string
	for _, l := range lines {
		switch l["message"] {
		case "relocated agent folder not walked":
			warned = append(warned, l["user"].(string)+" "+l["folder"].(string)+" "+l["reason"].(string))
		case "relocation variable's value is not an absolute path the collector can expand without a shell: its folder is not walked":
			warned = append(warned, l["user"].(string)+" "+l["var"].(string)+" "+l["value"].(string)+" "+l["where"].(string))
		}
	}
	want := "alice COPILOT_HOME $(pwd)/x /home/alice/.bashrc:4\nbob QWEN_HOME ~carol/q /home/bob/.bashrc:3\nbob /proc/1 its target is under /proc"
	if got := strings.Join(warned, "\n"); got != want {
		t.Errorf("warnings:\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(string(vr.Log), "s3cr3t") || strings.Contains(string(vr.Log), "SECRET_TOKEN") {
		t.Error("a variable the catalog does not name reached the log")
	}
	if _, ok := m["/data/ollama-models/blobs/sha256-00"]; ok {
		t.Error("a model blob under OLLAMA_MODELS was collected")
	}
	if e := m["/home/alice/work/claude-cfg/projects/-home-alice-p/s1.jsonl"]; e.Status != bundle.StatusCollected {
		t.Errorf("relocated transcript: %+v", e)
	}
}

// TestShellValue: the values the start-file reader takes, and the
// expansions it does (and refuses to guess).
func TestShellValue(t *testing.T) {
	for line, want := range map[string][2]string{
		`export CODEX_HOME="$HOME/.codex-work" # work`: {"CODEX_HOME", "$HOME/.codex-work"},
		`CLAUDE_CONFIG_DIR='/opt/claude cfg'`:          {"CLAUDE_CONFIG_DIR", "/opt/claude cfg"},
		`declare -x QWEN_HOME=/q; echo hi`:             {"QWEN_HOME", "/q"},
		`set -Ux XDG_CONFIG_HOME ~/.cfg`:               {"XDG_CONFIG_HOME", "~/.cfg"},
		`setenv COPILOT_HOME /c`:                       {"COPILOT_HOME", "/c"},
		`launchctl setenv GOOSE_PATH_ROOT /g`:          {"GOOSE_PATH_ROOT", "/g"},
		`export A\ B=1`:                                {"", ""},
	} {
		k, v, _ := catalog.ParseEnvLine(line)
		if k != want[0] || v != want[1] {
			t.Errorf("%q: %q=%q, want %q=%q", line, k, v, want[0], want[1])
		}
	}
	for in, want := range map[string]string{
		"~/x": "/home/a/x", "$HOME/x": "/home/a/x", "${HOME}/x": "/home/a/x", "${CODEX_HOME:-$HOME/.codex}": "/home/a/.codex",
		"$HOMEX/y": "", "$(pwd)": "", "/abs": "/abs",
	} {
		got, ok := catalog.ExpandEnvValue(in, "/home/a")
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("ExpandEnvValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProcEnv: on a live Linux host the environment of the user's running
// processes is read, keeping only the catalog's variables.
func TestProcEnv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/environ is Linux's")
	}
	cmd := exec.Command("sleep", "30")
	cmd.Env = []string{"CODEX_HOME=/tmp/da-test-codex-home", "OTHER_SECRET=x"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c := &collector{opts: Options{Root: "/"}}
	where := fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid)
	// cmd.Start returns once the child's close-on-exec pipe closes, which
	// the kernel does before it sets the new image's environment bounds:
	// for a moment /proc/PID/environ reads empty (seen once under -race in
	// CI). So read until the child's environment is there, the way a live
	// host is read, and bound the wait rather than time it.
	var got []catalog.EnvSetting
	found := false
	for try := 0; try < 200 && !found; try++ {
		if try > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		var read int
		got, read, _ = c.procEnv(int64(os.Getuid()), map[string]bool{"CODEX_HOME": true})
		if read == 0 {
			t.Fatal("no process read")
		}
		for _, s := range got {
			if s.Name != "CODEX_HOME" {
				t.Errorf("kept %s", s.Name)
			}
			if s.Where == where && s.Value == "/tmp/da-test-codex-home" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("CODEX_HOME of pid %d not found: %+v", cmd.Process.Pid, got)
	}
}

// TestStartFileNotRegular: a start file that is a FIFO (never opened) or a
// link (never followed) is a manifest row saying so, since the agent
// folders it may move are not looked for; before, it was a log line only
// and the analyzer said nothing. A start file reached through a linked
// folder (~/.config -> elsewhere) gets no row of its own.
func TestStartFileNotRegular(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "alice:x:1000:1000::/home/alice:/bin/bash\n")
	put(t, root, "home/alice/.claude/settings.json", "{}")
	put(t, root, "home/alice/dotfiles/zshrc", "export CODEX_HOME=/data/codex\n")
	if err := syscall.Mkfifo(root+"/home/alice/.bashrc", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("dotfiles/zshrc", root+"/home/alice/.zshrc"); err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	m := byPath(vr.Manifest)
	const why = "a start file where relocation variables may be set (CLAUDE_CONFIG_DIR, CODEX_HOME, ...)"
	if e := m["/home/alice/.bashrc"]; e.Status != bundle.StatusSkippedSpecial || e.Type != "fifo" || e.Error != why+", which is a FIFO: never opened, so the agent folders it may move are not looked for" {
		t.Errorf(".bashrc row %+v", e)
	}
	if e := m["/home/alice/.zshrc"]; e.Status != bundle.StatusSymlink || e.LinkTarget != "dotfiles/zshrc" || e.Error != `link to "dotfiles/zshrc" not followed: `+why+", read only as a regular file with no link on the way: the agent folders it may move are not looked for" {
		t.Errorf(".zshrc row %+v", e)
	}
}
