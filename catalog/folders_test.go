package catalog

import (
	"strings"
	"testing"
)

// TestFolders: the folders Claude Code's targets name outright, and no
// root folder (.config, AppData/Roaming) taken for an agent's.
func TestFolders(t *testing.T) {
	var cc []string
	for _, f := range Folders(All()) {
		switch f.Rel {
		case ".config", ".local/share", "AppData/Roaming", "AppData/Local", "Library/Application Support", ".", "":
			t.Errorf("a root folder listed as %s's: %+v", f.Agent, f)
		}
		if f.Agent == "claude-code" {
			cc = append(cc, f.Rel)
		}
	}
	want := ".claude .claude/agents .claude/backups .claude/commands .claude/file-history .claude/hooks .claude/output-styles .claude/paste-cache .claude/plans .claude/plugins .claude/projects .claude/rules .claude/session-env .claude/sessions .claude/shell-snapshots .claude/skills .claude/todos"
	if got := strings.Join(cc, " "); got != want {
		t.Errorf("claude-code folders:\n got %s\nwant %s", got, want)
	}
}

// TestFoldersSharedEditorContainers: no editor extension (twinny, cline,
// roo-code, kilo-code, cody, pearai's extension) is given a folder every
// VS Code extension shares (workspaceStorage, globalStorage, User, logs);
// such a folder is the editor's own agent's, or no one's.
func TestFoldersSharedEditorContainers(t *testing.T) {
	owner := map[string]string{}
	for _, f := range Folders(All()) {
		owner[f.Rel] = f.Agent
		last := f.Rel[strings.LastIndex(f.Rel, "/")+1:]
		if editorSharedDirs[last] && extensionTarget(f.Target) {
			t.Errorf("%s: shared editor folder given to the extension %s (%s)", f.Rel, f.Agent, f.Target.Glob)
		}
	}
	for rel, want := range map[string]string{
		".config/Code/User/workspaceStorage":                "vscode",
		".config/Code/User/globalStorage":                   "vscode",
		".config/Code/logs":                                 "",
		".config/Antigravity/User/workspaceStorage":         "",
		".config/Windsurf/logs":                             "windsurf",
		".config/Cursor/User/workspaceStorage":              "cursor",
		".config/Code/User/globalStorage/rjmacarthy.twinny": "twinny",
		".vscode-remote/data/User/workspaceStorage":         "vscode",
	} {
		if owner[rel] != want {
			t.Errorf("%s: folder of %q, want %q", rel, owner[rel], want)
		}
	}
}
