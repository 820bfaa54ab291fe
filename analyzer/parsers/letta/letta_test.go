package letta

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home    = "/home/examiner"
	backend = home + "/.letta/lc-local-backend"
	// base64url("conversation:local-conv-1") and ("conversation:local-conv-9").
	conv1Dir = backend + "/conversations/Y29udmVyc2F0aW9uOmxvY2FsLWNvbnYtMQ"
	conv9Dir = backend + "/conversations/Y29udmVyc2F0aW9uOmxvY2FsLWNvbnYtOQ"
	memDir   = backend + "/memfs/agent-local-1111/memory"
)

var mtime = time.Date(2026, 3, 9, 8, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	f := parser.File{Path: orig, Rel: strings.TrimPrefix(orig, home+"/"), Agent: Agent, Target: target, MTime: mtime}
	return parsertest.Input(t, local, f, nil)
}

func golden(t *testing.T, id, local, orig, target, name string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	in := input(t, local, orig, target)
	if !p.Match(&in.File) {
		t.Fatalf("%s does not match %s (target %s)", id, orig, target)
	}
	return parsertest.Golden(t, p, in, "testdata/"+name+".golden.jsonl")
}

func rows(s *parsertest.Sink, tt timeline.TurnType) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt {
			out = append(out, e)
		}
	}
	return out
}

func TestGoldens(t *testing.T) {
	for _, c := range []struct{ id, local, orig, target, name string }{
		{"letta/conversation", "testdata/typical.jsonl", conv1Dir + "/messages.jsonl", "conversations", "conversation_typical"},
		{"letta/conversation", "testdata/denied.jsonl", backend + "/conversations/Y29udmVyc2F0aW9uOmxvY2FsLWNvbnYtMw/messages.jsonl", "conversations", "conversation_denied"},
		{"letta/conversation", "testdata/malformed.jsonl", conv9Dir + "/messages.jsonl", "conversations", "conversation_malformed"},
		{"letta/conversation", "testdata/empty.jsonl", conv9Dir + "/messages.jsonl", "conversations", "conversation_empty"},
		{"letta/conversation", "testdata/noheader.jsonl", conv9Dir + "/messages.jsonl", "conversations", "conversation_noheader"},
		{"letta/conversation-meta", "testdata/conversation.json", conv1Dir + "/conversation.json", "conversation-meta", "meta_conversation"},
		{"letta/conversation-meta", "testdata/conversation_archived.json", conv9Dir + "/conversation.json", "conversation-meta", "meta_conversation_archived"},
		{"letta/conversation-meta", "testdata/manifest.json", conv1Dir + "/manifest.json", "conversation-meta", "meta_manifest"},
		{"letta/conversation-meta", "testdata/manifest_migrated.json", conv9Dir + "/manifest.json", "conversation-meta", "meta_manifest_migrated"},
		{"letta/conversation-meta", "testdata/system-prompt.json", conv1Dir + "/system-prompt.json", "conversation-meta", "meta_system_prompt"},
		{"letta/agent", "testdata/agent.json", backend + "/agents/YWdlbnQtbG9jYWwtMTExMQ.json", "local-agents", "agent"},
		{"letta/settings", "testdata/settings.json", home + "/.letta/settings.json", "settings", "settings"},
		{"letta/settings", "testdata/settings.local.json", home + "/demo/.letta/settings.local.json", "project", "settings_local"},
		{"letta/providers", "testdata/auth.json", backend + "/providers/auth.json", "local-secrets", "providers"},
		{"letta/memfs", "testdata/persona.md", memDir + "/system/persona.md", "memfs", "memfs_file"},
		{"letta/memfs", "testdata/reflog", memDir + "/.git/logs/HEAD", "memfs-git", "memfs_reflog"},
		{"letta/memfs", "testdata/gitconfig", memDir + "/.git/config", "memfs-git", "memfs_config"},
		{"letta/memfs", "testdata/push.log", memDir + "/.git/memory-repository-push.log", "memfs-git", "memfs_push"},
	} {
		t.Run(c.name, func(t *testing.T) { golden(t, c.id, c.local, c.orig, c.target, c.name) })
	}
}

// The typed prompt is the only user row; the reminders Letta wraps
// around it are system rows; the resume with -m shows as a model switch.
func TestConversationTypedPromptAndModelSwitch(t *testing.T) {
	s := parsertest.Run(t, byID(t, "letta/conversation"), input(t, "testdata/typical.jsonl", conv1Dir+"/messages.jsonl", "conversations"))
	users := rows(s, timeline.User)
	want := []string{
		"Run the shell command `echo doubleagent-letta-marker && date -u +%Y` and tell me what it printed.",
		"Run the shell command `echo doubleagent-letta-resumed` and tell me what it printed.",
	}
	if len(users) != len(want) {
		t.Fatalf("user rows %d, want %d: %+v", len(users), len(want), users)
	}
	for i, u := range users {
		if u.Text != want[i] || u.SessionID != "local-conv-1" || u.ProjectPath != "/home/examiner4/demo" {
			t.Errorf("user row %d = %q session %q project %q", i, u.Text, u.SessionID, u.ProjectPath)
		}
		if !strings.HasPrefix(u.RecordID, "local-conv-1/") || !strings.HasSuffix(u.RecordID, "#4") {
			t.Errorf("user row %d record id %q, want local-conv-1/<entry>#4 (the fifth block)", i, u.RecordID)
		}
	}
	var reminders, switches int
	for _, e := range rows(s, timeline.System) {
		if strings.HasPrefix(e.Text, "<system-reminder>") {
			reminders++
		}
		if e.Text == "model: mock-coder -> mock-coder-2 provider=openai-compatible" {
			switches++
		}
	}
	if reminders != 8 || switches != 1 {
		t.Errorf("reminder rows %d (want 8), model switch rows %d (want 1)", reminders, switches)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems: %v", s.Problems)
	}
}

func TestConversationDeniedCall(t *testing.T) {
	s := parsertest.Run(t, byID(t, "letta/conversation"), input(t, "testdata/denied.jsonl", conv9Dir+"/messages.jsonl", "conversations"))
	res := rows(s, timeline.ToolResult)
	if len(res) != 1 || res[0].Text != "Tool requires approval (headless mode)" || res[0].IsError != "true" || res[0].ToolName != "Bash" {
		t.Fatalf("denied result: %+v", res)
	}
	use := rows(s, timeline.ToolUse)
	if len(use) != 1 || use[0].ToolUseID != res[0].ToolUseID || use[0].Text != "echo doubleagent-letta-denied > denied.txt" ||
		!strings.Contains(use[0].ToolInput, `"command":"echo doubleagent-letta-denied > denied.txt"`) {
		t.Errorf("denied call: %+v", use)
	}
}

// Quirks of the malformed file, each with its exact value.
func TestConversationQuirks(t *testing.T) {
	s := parsertest.Run(t, byID(t, "letta/conversation"), input(t, "testdata/malformed.jsonl", conv9Dir+"/messages.jsonl", "conversations"))
	var rewritten, reminderOnly, errRow string
	for _, e := range s.Events {
		switch {
		case strings.HasPrefix(e.Text, "message ui-msg-2 rewritten"):
			rewritten = e.Text + " " + e.RecordID
		case e.Text == "<system-reminder>MCP servers with available tools: None</system-reminder>":
			reminderOnly = string(e.TurnType)
		case strings.HasPrefix(e.Text, "error: "):
			errRow = e.Text
		}
	}
	if rewritten != "message ui-msg-2 rewritten: entry d4e5f6a7 replaces the copy at line 3 local-conv-9/d4e5f6a7#replaces" {
		t.Errorf("rewritten row: %q", rewritten)
	}
	if reminderOnly != "system" {
		t.Errorf("a reminder-only user message gave a %q row", reminderOnly)
	}
	if errRow != "error: 500 from the provider" {
		t.Errorf("error row %q", errRow)
	}
	if got := rows(s, timeline.User); len(got) != 1 || got[0].Text != "list the files" {
		t.Errorf("user rows: %+v", got)
	}
	want := []string{
		"line 7: glued_record: 2 complete records on one line with no newline between them; all kept",
		"line 8: malformed JSON line (cut short or corrupt), skipped",
		`line 9: unknown entry type "weird"`,
	}
	if strings.Join(s.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(s.Problems, "\n"), strings.Join(want, "\n"))
	}
	if c := s.SkipCounts(); c["no_evidence:empty_user_message"] != 1 || c["state_only"] != 1 {
		t.Errorf("skips %v", c)
	}
}

// A provider's key is never read into a row; a remote's token is hidden.
func TestSecretsNeverInRows(t *testing.T) {
	for _, c := range []struct{ id, local, orig, target, secret string }{
		{"letta/providers", "testdata/auth.json", backend + "/providers/auth.json", "local-secrets", "sk-doubleagent-test-SECRET"},
		{"letta/memfs", "testdata/gitconfig", memDir + "/.git/config", "memfs-git", "ghp_doubleagentTESTTOKEN"},
	} {
		s := parsertest.Run(t, byID(t, c.id), input(t, c.local, c.orig, c.target))
		if len(s.Events) == 0 {
			t.Errorf("%s: no rows", c.id)
		}
		if out := string(parsertest.Render(s)); strings.Contains(out, c.secret) {
			t.Errorf("%s: secret in output:\n%s", c.id, out)
		}
	}
}

func TestKeyOf(t *testing.T) {
	for in, want := range map[string]string{
		"Y29udmVyc2F0aW9uOmxvY2FsLWNvbnYtMQ":                                          "conversation:local-conv-1",
		"ZGVmYXVsdDphZ2VudC1sb2NhbC05ODNlMDM4ZS1iN2U2LTRiZTEtOGUyMC1mYjhlMTdlNjQwOGM": "default:agent-local-983e038e-b7e6-4be1-8e20-fb8e17e6408c",
		"not base64!": "",
	} {
		if got, _ := keyOf(in); got != want {
			t.Errorf("keyOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// Empty and broken metadata documents: a Skip or one problem, no row.
func TestEmptyAndBrokenDocuments(t *testing.T) {
	dir := t.TempDir()
	empty := dir + "/empty.json"
	broken := dir + "/broken.json"
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte(`{"id": "local-conv-1", "created_at": `), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, orig, target string }{
		{"letta/conversation-meta", conv1Dir + "/conversation.json", "conversation-meta"},
		{"letta/conversation-meta", conv1Dir + "/system-prompt.json", "conversation-meta"},
		{"letta/agent", backend + "/agents/YWdlbnQ.json", "local-agents"},
		{"letta/settings", home + "/.letta/settings.json", "settings"},
	} {
		s := parsertest.Run(t, byID(t, c.id), input(t, empty, c.orig, c.target))
		if len(s.Events) != 0 || len(s.Problems) != 0 || s.SkipCounts()["no_evidence:empty_file"] != 1 {
			t.Errorf("%s empty: rows %d problems %v skips %v", c.id, len(s.Events), s.Problems, s.Skips)
		}
		s = parsertest.Run(t, byID(t, c.id), input(t, broken, c.orig, c.target))
		if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 1: not valid JSON: unexpected end of JSON input" {
			t.Errorf("%s broken: rows %d problems %v", c.id, len(s.Events), s.Problems)
		}
	}
	s := parsertest.Run(t, byID(t, "letta/providers"), input(t, broken, backend+"/providers/auth.json", "local-secrets"))
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 1: not a providers document" {
		t.Errorf("broken providers: %v", s.Problems)
	}
}
