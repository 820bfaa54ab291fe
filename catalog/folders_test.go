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
