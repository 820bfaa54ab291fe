package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// copyTree copies the committed fake root into a temporary directory, so a
// test can add the symbolic links and .git directories that are not
// committed, and returns the copy's path.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// walk returns "agent target rel" for every hit, "excluded agent target
// rel" for pruned directories, sorted; it fails on a repeated path or on a
// hit under a pruned directory.
func walk(t *testing.T, home string, list []Agent) ([]string, map[string]Hit) {
	t.Helper()
	var got []string
	hits := map[string]Hit{}
	var excluded []string
	err := WalkHome(home, list, func(h Hit) error {
		if h.Err != nil {
			t.Errorf("error hit %s: %v", h.Rel, h.Err)
		}
		if _, dup := hits[h.Rel]; dup {
			t.Errorf("path %s reported twice", h.Rel)
		}
		hits[h.Rel] = h
		line := h.Agent + " " + h.Target.ID + " " + h.Rel
		if h.Excluded {
			line = "excluded " + line
			excluded = append(excluded, h.Rel)
		}
		got = append(got, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range hits {
		for _, x := range excluded {
			if strings.HasPrefix(rel, x+"/") {
				t.Errorf("%s reported under pruned %s", rel, x)
			}
		}
	}
	sort.Strings(got)
	return got, hits
}

func check(t *testing.T, got, want []string) {
	t.Helper()
	sort.Strings(want)
	if slices.Equal(got, want) {
		return
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected: %s", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing:    %s", w)
		}
	}
}

func TestWalkHomeLinux(t *testing.T) {
	root := copyTree(t, filepath.Join("testdata", "fakeroot"))
	home := filepath.Join(root, "home", "alice")
	// Links are made at run time, never committed. A link named like a
	// transcript is reported (never read through); a link to a directory is
	// reported and not descended; a link standing for a whole editor
	// directory (a literal path component) or a relocated home is reported
	// once and does not duplicate what it points at.
	symlink(t, filepath.Join("..", "..", "..", "demo", "notes.jsonl"), filepath.Join(home, ".claude", "projects", "-home-alice-demo", "link.jsonl"))
	symlink(t, filepath.Join("..", "..", "demo"), filepath.Join(home, ".claude", "projects", "linked-dir"))
	symlink(t, "Code", filepath.Join(home, ".config", "Code - Insiders"))
	symlink(t, ".codex", filepath.Join(home, ".codex-link"))
	// .git cannot be committed inside the repository: made here. The
	// pattern names .git outright, so the default exclude does not prune it.
	write(t, filepath.Join(home, ".copilot", "repos", "r1", ".git", "refs", "copilot", "checkpoints", "s1", "1", "e1"))
	write(t, filepath.Join(home, ".copilot", "repos", "r1", ".git", "objects", "ab", "cdef"))
	write(t, filepath.Join(home, "work", ".git", "HEAD"))

	got, hits := walk(t, home, All())
	check(t, got, []string{
		"claude-code projects .claude/projects/linked-dir",
		"cline tasks .config/Code - Insiders",
		"codex-cli sessions .codex-link",
		"aider chat-history .aider.chat.history.md",
		"aider input-history .aider.input.history",
		"claude-code claude-json .claude.json",
		"claude-code file-history .claude/file-history/s1/f1",
		"excluded claude-code file-history .claude/file-history/node_modules",
		"excluded claude-code config .claude/plugins/repos",
		"claude-code history .claude-work/history.jsonl",
		"claude-code projects .claude/projects/-home-alice-demo/s1.jsonl",
		"claude-code projects .claude/projects/-home-alice-demo/link.jsonl",
		"claude-code settings .claude/settings.json",
		"cline task-files .config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/t1/task_metadata.json",
		"cline tasks .config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/t1/ui_messages.json",
		"codex-cli auth .codex/auth.json",
		"codex-cli sessions .codex/sessions/2026/10/01/rollout-a.jsonl",
		"copilot-desktop checkpoint-refs .copilot/repos/r1/.git/refs/copilot/checkpoints/s1/1/e1",
		"cursor editor-logs .config/Cursor/logs/20261001/main.log",
		"excluded cursor editor-logs .config/Cursor/logs/GPUCache",
		"cursor state-db .config/Cursor/User/globalStorage/state.vscdb",
		"gemini-cli chats .gemini/tmp/abc/chats/session-1.jsonl",
		"gemini-cli project-root .gemini/tmp/abc/.project_root",
		// The manifest only: models/blobs (the weights) is not a target.
		"ollama manifests .ollama/models/manifests/registry.ollama.ai/library/gpt-oss/20b",
		"opencode db .local/share/opencode/opencode.db",
		"opencode storage .local/share/opencode/storage/session/p1/ses_1.json",
		"excluded opencode storage .local/share/opencode/storage/node_modules",
		"vscode chat-sessions .config/Code/User/workspaceStorage/h1/chatSessions/c1.json",
		"vscode workspace-json .config/Code/User/workspaceStorage/h1/workspace.json",
	})
	if h := hits[".claude/projects/-home-alice-demo/link.jsonl"]; h.Info == nil || h.Info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link hit lacks link Lstat info: %+v", h.Info)
	}
}

func TestWalkHomeMacOS(t *testing.T) {
	home := filepath.Join("testdata", "fakeroot", "Users", "bob")
	got, _ := walk(t, home, All())
	check(t, got, []string{
		"claude-desktop logs-macos Library/Logs/Claude/main.log",
		"claude-desktop session-records Library/Application Support/Claude/claude-code-sessions/acc/org/local_1.json",
		"claude-desktop sessions Library/Application Support/Claude/claude-code-sessions/acc/org/local_1/.claude/projects/p/s.jsonl",
		"codex-cli history .codex/history.jsonl",
		"cursor state-db Library/Application Support/Cursor/User/globalStorage/state.vscdb",
		"langflow config-dir Library/Caches/langflow/secret_key",
		"ollama app-db Library/Application Support/Ollama/db.sqlite",
		"vscode global-chats Library/Application Support/Code/User/globalStorage/emptyWindowChatSessions/e1.json",
		"vscode state-db Library/Application Support/Code/User/globalStorage/state.vscdb",
		"zed threads Library/Application Support/Zed/threads/threads.db",
	})
}

func TestWalkHomeWindows(t *testing.T) {
	home := filepath.Join("testdata", "fakeroot", "Users", "carol")
	got, _ := walk(t, home, All())
	check(t, got, []string{
		"claude-code projects .claude/projects/C--Users-carol-demo/s.jsonl",
		"claude-desktop msix-sessions AppData/Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/local-agent-mode-sessions/a/o/s.jsonl",
		"copilot tokens-windows AppData/Local/github-copilot/apps.json",
		"cursor state-db AppData/Roaming/Cursor/User/globalStorage/state.vscdb",
		"goose sessions-db AppData/Roaming/Block/goose/data/sessions/sessions.db",
		// Cache is a default exclude, but this pattern names it outright.
		"langflow config-dir-windows AppData/Local/langflow/langflow/Cache/secret_key",
		"roo-code tasks AppData/Roaming/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/t2/api_conversation_history.json",
		"shellgpt chat-cache AppData/Local/Temp/shell_gpt/chat_cache/chat1",
		"vscode chat-sessions AppData/Roaming/Code/User/workspaceStorage/h2/chatSessions/c2.jsonl",
	})
}

func TestWalkHomeWSLMount(t *testing.T) {
	home := filepath.Join("testdata", "fakeroot", "mnt", "c", "Users", "dave")
	got, _ := walk(t, home, All())
	check(t, got, []string{
		"aider chat-history .aider.chat.history.md",
		"codex-cli sessions .codex/sessions/2026/10/02/rollout-b.jsonl",
		"cursor state-db AppData/Roaming/Cursor/User/globalStorage/state.vscdb",
		"vscode workspace-json AppData/Roaming/Code/User/workspaceStorage/h3/workspace.json",
	})
}

// Before the fix, a pattern whose first segment had a wildcard after brace
// expansion ({.claude,.claude-*}/...) walked the whole home, reporting
// dependency trees in every project as the agent's excluded directories.
func TestWalkPrunesDirectoriesThePatternCannotReach(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, "src", "app", "node_modules", "x", "a.jsonl"))
	write(t, filepath.Join(home, "src", "app", ".git", "HEAD"))
	write(t, filepath.Join(home, ".claude-work", "projects", "p", "s.jsonl"))
	write(t, filepath.Join(home, ".claude-work", "projects", "p", "node_modules", "y.jsonl"))
	a := Agent{Name: "a", Targets: []Target{{ID: "t", Root: RootHome, Glob: "{.claude,.claude-*}/projects/**/*.jsonl", Kind: KindTranscript}}}
	got, _ := walk(t, home, []Agent{a})
	check(t, got, []string{
		"a t .claude-work/projects/p/s.jsonl",
		"excluded a t .claude-work/projects/p/node_modules",
	})
}

// Before the fix, os.Lstat of a static base followed links in every
// component but the last, so a linked directory was walked again.
func TestWalkNeverStartsThroughALink(t *testing.T) {
	home := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "User", "settings.json"))
	symlink(t, outside, filepath.Join(home, "linked"))
	a := Agent{Name: "a", Targets: []Target{{ID: "t", Root: RootHome, Glob: "linked/User/settings.json", Kind: KindSettings}}}
	got, _ := walk(t, home, []Agent{a})
	// The link is a path seen (it gets a manifest row); nothing behind it is.
	check(t, got, []string{"a t linked"})
}

// TestWalkReportsDirectoryLinks: a link inside a target's tree whose name
// the glob does not match may stand for a directory the walk would have
// entered; it is reported (never followed), so it gets a manifest row.
func TestWalkReportsDirectoryLinks(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".c", "projects", "p", "s.jsonl"))
	symlink(t, ".", filepath.Join(home, ".c", "projects", "selfdir"))
	symlink(t, "/etc", filepath.Join(home, ".c", "projects", "p", "etc"))
	symlink(t, "/etc", filepath.Join(home, ".c", "other"))
	a := Agent{Name: "a", Targets: []Target{{ID: "t", Root: RootHome, Glob: ".c/projects/**/*.jsonl", Kind: KindTranscript}}}
	got, _ := walk(t, home, []Agent{a})
	check(t, got, []string{"a t .c/projects/p/etc", "a t .c/projects/p/s.jsonl", "a t .c/projects/selfdir"})
}

func TestWalkFirstTargetWins(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".x", "a.json"))
	list := []Agent{
		{Name: "a", Targets: []Target{{ID: "first", Root: RootHome, Glob: ".x/*.json", Kind: KindOther}}},
		{Name: "b", Targets: []Target{{ID: "second", Root: RootHome, Glob: ".x/**", Kind: KindOther}}},
	}
	got, _ := walk(t, home, list)
	check(t, got, []string{"a first .x/a.json"})
}

func TestWalkSkipAll(t *testing.T) {
	home := filepath.Join("testdata", "fakeroot", "home", "alice")
	n := 0
	err := WalkHome(home, All(), func(Hit) error { n++; return fs.SkipAll })
	if err != nil || n != 1 {
		t.Errorf("SkipAll: err %v after %d hits, want nil after 1", err, n)
	}
	stop := errors.New("stop")
	if err := WalkHome(home, All(), func(Hit) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error not returned: %v", err)
	}
}

func TestExpandBraces(t *testing.T) {
	cases := map[string][]string{
		"a/b":                   {"a/b"},
		"{.claude,.claude-*}/x": {".claude/x", ".claude-*/x"},
		"s{,.local}.json":       {"s.json", "s.local.json"},
		"a/{b,c{d,e}}/f":        {"a/b/f", "a/cd/f", "a/ce/f"},
		"{a,b}/{c,d}":           {"a/c", "a/d", "b/c", "b/d"},
		"{,p/*/}state.db":       {"state.db", "p/*/state.db"},
		`a/\{b,c\}`:             {`a/\{b,c\}`},
	}
	for in, want := range cases {
		if got := ExpandBraces(in); !slices.Equal(got, want) {
			t.Errorf("ExpandBraces(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDirState(t *testing.T) {
	segs := strings.Split(".copilot/repos/*/.git/refs/**", "/")
	cases := []struct {
		rel              string
		descend, literal bool
	}{
		{".copilot", true, true},
		{".copilot/repos/r1", true, false},
		{".copilot/repos/r1/.git", true, true},
		{".copilot/repos/r1/.git/objects", false, false},
		{".copilot/repos/r1/.git/refs/x/y", true, false},
		{".other", false, false},
	}
	for _, c := range cases {
		d, l := dirState(segs, strings.Split(c.rel, "/"))
		if d != c.descend || l != c.literal {
			t.Errorf("dirState(%s) = %v, %v; want %v, %v", c.rel, d, l, c.descend, c.literal)
		}
	}
	// A directory as deep as the file segment cannot hold a match.
	if d, _ := dirState([]string{"a", "*.json"}, []string{"a", "b"}); d {
		t.Error("descends below the last segment")
	}
}

func TestTargetPatterns(t *testing.T) {
	c, _ := Lookup("cursor")
	tg, _ := c.Target("state-db")
	got := TargetPatterns(tg)
	want := []string{
		".config/Cursor/User/globalStorage/state.vscdb{,.backup}",
		"Library/Application Support/Cursor/User/globalStorage/state.vscdb{,.backup}",
		"AppData/Roaming/Cursor/User/globalStorage/state.vscdb{,.backup}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("TargetPatterns = %q, want %q", got, want)
	}
}

// TestWalkFlowise: Flowise's logs are found under the install's
// node_modules/flowise/logs (config.ts logging.dir), below the literal
// node_modules segment the default exclude would otherwise prune; the
// encryption key beside database.sqlite is not collected.
func TestWalkFlowise(t *testing.T) {
	home := t.TempDir()
	for _, p := range []string{
		".flowise/database.sqlite",
		".flowise/encryption.key",
		".flowise/uploads/f1/chat-a/notes.txt",
		".nvm/versions/node/v20.20.2/lib/node_modules/flowise/logs/server.log",
		".npm/_npx/1a2b3c/node_modules/flowise/logs/server-requests.log.jsonl",
		"AppData/Roaming/npm/node_modules/flowise/logs/server-error.log",
		".npm-global/lib/node_modules/other/logs/x.log",
		".flowise/logs/server.log",
	} {
		write(t, filepath.Join(home, filepath.FromSlash(p)))
	}
	a, _ := Lookup("flowise")
	got, _ := walk(t, home, []Agent{a})
	check(t, got, []string{
		"flowise database .flowise/database.sqlite",
		"flowise storage .flowise/uploads/f1/chat-a/notes.txt",
		"flowise logs .nvm/versions/node/v20.20.2/lib/node_modules/flowise/logs/server.log",
		"flowise logs .npm/_npx/1a2b3c/node_modules/flowise/logs/server-requests.log.jsonl",
		"flowise logs AppData/Roaming/npm/node_modules/flowise/logs/server-error.log",
	})
}

// TestWalkLangflow: the server's langflow.db in the installed package
// (settings/base.py: the package directory unless save_db_in_config_dir)
// and in the config directory are SQLite targets ahead of the config
// directory's catch-all.
func TestWalkLangflow(t *testing.T) {
	home := t.TempDir()
	for _, p := range []string{
		".local/lib/python3.12/site-packages/langflow/langflow.db",
		".local/share/uv/tools/langflow/lib/python3.13/site-packages/langflow/langflow-pre.db",
		".local/lib/python3.12/site-packages/langflow/components/x.py",
		".cache/langflow/langflow.db",
		".cache/langflow/secret_key",
		".langflow/data/database.db",
	} {
		write(t, filepath.Join(home, filepath.FromSlash(p)))
	}
	a, _ := Lookup("langflow")
	got, _ := walk(t, home, []Agent{a})
	check(t, got, []string{
		"langflow server-db-package .local/lib/python3.12/site-packages/langflow/langflow.db",
		"langflow server-db-package .local/share/uv/tools/langflow/lib/python3.13/site-packages/langflow/langflow-pre.db",
		"langflow server-db .cache/langflow/langflow.db",
		"langflow config-dir .cache/langflow/secret_key",
		"langflow desktop-db .langflow/data/database.db",
	})
}

// TestWalkOrphanSidecars: the -wal and -journal of a SQLite target's store
// that is gone are hits naming the absent store (SidecarOf), for a
// wildcard pattern and for one whose last name is literal; beside a store
// that is there they are not hits (they travel with it), and an -shm alone
// (an index, no record) is not one.
func TestWalkOrphanSidecars(t *testing.T) {
	home := t.TempDir()
	for _, rel := range []string{
		".local/share/opencode/opencode.db-wal", // opencode*.db, store gone
		".local/share/opencode/opencode-dev.db", // a store, with its WAL
		".local/share/opencode/opencode-dev.db-wal",
		".local/share/opencode/opencode-old.db-journal", // store gone
		".local/share/opencode/opencode-x.db-shm",       // an index alone
		".codex/state_5.sqlite-wal",                     // {.codex,...}/*.sqlite, store gone
		".crush/crush.db-wal",                           // a literal path, store gone
	} {
		p := filepath.Join(home, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	var got []string
	err := WalkHome(home, All(), func(h Hit) error {
		if h.Info != nil && h.Info.IsDir() {
			return nil
		}
		line := h.Agent + " " + h.Target.ID + " " + h.Rel
		if h.SidecarOf != "" {
			line += " sidecar of " + relSlash(home, h.SidecarOf)
		}
		got = append(got, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{
		"codex-cli state-db .codex/state_5.sqlite-wal sidecar of .codex/state_5.sqlite",
		"crush home-db .crush/crush.db-wal sidecar of .crush/crush.db",
		"opencode db .local/share/opencode/opencode-dev.db",
		"opencode db .local/share/opencode/opencode-old.db-journal sidecar of .local/share/opencode/opencode-old.db",
		"opencode db .local/share/opencode/opencode.db-wal sidecar of .local/share/opencode/opencode.db",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hits:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
