package catalog

import "testing"

// TestBreadth5Paths: the home paths of the agents of issue 28 item 2 land
// on the targets that read them, and their neighbours do not.
func TestBreadth5Paths(t *testing.T) {
	for _, c := range []struct{ rel, agent, target string }{
		{".workbuddy/projects/proj/11111111-1111-4111-8111-111111111111.jsonl", "workbuddy", "sessions"},
		{".workbuddy/projects/proj/11111111-1111-4111-8111-111111111111/subagents/agent-1.jsonl", "workbuddy", "sessions"},
		{".workbuddy/projects/proj/11111111-1111-4111-8111-111111111111/tool-results/tool_1.txt", "workbuddy", "tool-results"},
		{".prime/agent/sessions/019c1111-file.jsonl", "prime-agent", "sessions"},
		{".omp/agent/sessions/-home-ex-proj-/2026-11-24T10-00-00-000Z_s1.jsonl", "omp", "sessions"},
		{".omp/agent/sessions/-home-ex-proj-/2026-11-24T10-00-00-000Z_s1/scout.jsonl", "omp", "sessions"},
		{".local/share/mimocode/storage/session_diff/global/ses_1.json", "mimocode", "storage"},
		{".local/share/mimocode/mimocode.db", "mimocode", "db"},
		{".trae/cli/sessions/2026/11/24/rollout-2026-11-24T10-00-00-x.jsonl", "traex", "sessions"},
		{".trae/cli/archived_sessions/rollout-2026-11-24T10-00-00-x.jsonl", "traex", "sessions"},
		{".trae/cli/state_5.sqlite", "traex", "state-db"},
		{"Downloads/Takeout/My Activity/Gemini Apps/MyActivity.json", "gemini-apps", "takeout"},
		{"Documents/takeout-20261124T100000Z-001/Takeout/My Activity/Bard/MyActivity.html", "gemini-apps", "takeout"},
		{"AppData/Local/Temp/VSGitHubCopilotLogs/traces/20260611T145205_aaaa1111_VSGitHubCopilot_traces.jsonl", "visualstudio-copilot", "traces"},
		{".dsh/sessions/-home-ex-proj/dsh-s1/session.jsonl", "deepseek-harness", "sessions"},
		{".dsh/sessions/_no-cwd/dsh-s2/session.jsonl.zstd", "deepseek-harness", "sessions"},
		// QClaw is OpenClaw's tree under ~/.qclaw.
		{".qclaw/agents/main/sessions/abc.jsonl", "openclaw", "sessions"},
		{".qclaw/agents/main/agent/openclaw-agent.sqlite", "openclaw", "agent-db"},
		{".qclaw/state/openclaw.sqlite", "openclaw", "state-db"},
	} {
		name, tg, ok := MatchesAt(c.rel, All())
		if !ok || name != c.agent || tg.ID != c.target {
			t.Errorf("%s: got %s/%s (%v), want %s/%s", c.rel, name, tg.ID, ok, c.agent, c.target)
		}
	}
	for _, rel := range []string{
		".workbuddy/projects/proj/notes.txt",
		".workbuddy/settings.json",
		"Downloads/Takeout/My Activity/YouTube/MyActivity.json",
	} {
		if name, tg, ok := MatchesAt(rel, All()); ok {
			t.Errorf("%s: matched %s/%s, want none", rel, name, tg.ID)
		}
	}
}
