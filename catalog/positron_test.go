package catalog

import "testing"

// TestPositronIsVSCode: Positron (Posit's IDE, a VS Code fork) keeps its
// built-in Assistant's chats in VS Code's chatSessions files
// (kenn-io/agentsview 5386007 positron_provider.go reuses its VS Code
// Copilot reader on them), so Positron is a flavour of the vscode agent,
// not an agent of its own: its User folder on each OS is vscode's.
func TestPositronIsVSCode(t *testing.T) {
	for _, c := range []struct{ rel, target string }{
		{".config/Positron/User/workspaceStorage/0f1e/chatSessions/6b7c.jsonl", "chat-sessions"},
		{"Library/Application Support/Positron/User/workspaceStorage/0f1e/chatSessions/6b7c.json", "chat-sessions"},
		{"AppData/Roaming/Positron/User/workspaceStorage/0f1e/chatSessions/6b7c.jsonl", "chat-sessions"},
		{"AppData/Roaming/Positron/User/globalStorage/emptyWindowChatSessions/6b7c.jsonl", "global-chats"},
		{".config/Positron/User/workspaceStorage/0f1e/workspace.json", "workspace-json"},
		{"Library/Application Support/Positron/User/globalStorage/state.vscdb", "state-db"},
		{".config/Positron/User/settings.json", "settings"},
	} {
		agent, tg, ok := MatchesAt(c.rel, All())
		if !ok || agent != "vscode" || tg.ID != c.target {
			t.Errorf("%s: agent %q target %q (%v), want vscode %s", c.rel, agent, tg.ID, ok, c.target)
		}
	}
}
