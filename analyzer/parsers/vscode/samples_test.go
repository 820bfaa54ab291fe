package vscode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sample parses a real "Export Chat" file (the chatSessions .json shape
// without sessionId and creationDate) presented as a chatSessions file.
func sample(t *testing.T, name string) *parsertest.Sink {
	t.Helper()
	dir := parsertest.SharedSamples(t, "vscode-copilot/copilot-chat-analyzer")
	f := parser.File{Path: wsDir + "/chatSessions/" + name, Agent: Agent, Target: "chat-sessions"}
	s := parsertest.Run(t, byID(t, "vscode/chat-session"), parsertest.Input(t, filepath.Join(dir, name), f, nil))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	if os.Getenv("VSCODE_DUMP") != "" {
		os.Stdout.Write(parsertest.Render(s))
	}
	return s
}

func pair(t *testing.T, s *parsertest.Sink, id string) (use, res timeline.Event) {
	t.Helper()
	var nu, nr int
	for _, e := range s.Events {
		if e.ToolUseID != id {
			continue
		}
		switch e.TurnType {
		case timeline.ToolUse:
			use = e
			nu++
		case timeline.ToolResult:
			res = e
			nr++
		}
	}
	if nu != 1 || nr != 1 {
		t.Fatalf("tool %s: %d uses, %d results", id, nu, nr)
	}
	return use, res
}

func TestSampleExportChatSmall(t *testing.T) {
	s := sample(t, "parse-export-chat-json.chat.json")
	u := find(s, timeline.User, "")
	if len(u) != 1 || u[0].Text != "Найди информацию о снежных барсах в интернете" || u[0].TimeString() != "2025-10-01T21:12:41.760Z" {
		t.Fatalf("first prompt: %+v", u)
	}
	if m := find(s, timeline.System, "model: "); len(m) != 1 || m[0].Text != "model: copilot/claude-sonnet-4" {
		t.Fatalf("model rows: %+v", m)
	}
	// No toolCallRounds in this export: calls come from the tool parts.
	use, res := pair(t, s, "f68c1772-b4f0-431a-9b77-f0c421818017")
	if use.ToolName != "vscode_fetchWebPage_internal" || use.Model != "copilot/claude-sonnet-4" || res.IsError != "false" ||
		!strings.HasPrefix(res.Text, "https://ru.wikipedia.org/wiki/Снежный_барс\nhttps://www.wwf.ru/species/snow-leopard/") {
		t.Fatalf("fetch pair: %+v %+v", use, res)
	}
	if d := find(s, timeline.System, "permission decision: standing-approval source=profile"); len(d) != 1 || d[0].ToolUseID != use.ToolUseID {
		t.Fatalf("decision: %+v", d)
	}
	if n := count(s, timeline.Assistant); n != 2 {
		t.Fatalf("assistant rows: %d", n)
	}
}

func TestSampleExportChatAgentMode(t *testing.T) {
	s := sample(t, "chat-example.chat.json")
	u := find(s, timeline.User, "")
	if len(u) != 4 || u[0].TimeString() != "2025-10-01T18:39:48.690Z" || !strings.HasPrefix(u[0].Text, "\n/create-todo Сформулируй todo-лист") || u[1].Text != "Продолжить" {
		t.Fatalf("prompts: %d %+v", len(u), u[0])
	}
	if m := find(s, timeline.System, "model: "); len(m) != 1 || m[0].Text != "model: copilot/gemini-2.5-pro" {
		t.Fatalf("model rows: %+v", m)
	}
	// Model-side call ids from toolCallRounds, results from toolCallResults.
	use, res := pair(t, s, "call_MHxPQlIzVzNWYVZ2OHVHd3llQXE__vscode-1759343909137")
	if use.ToolName != "mcp_playwright_browser_navigate" || use.Text != "https://www.google.com/search?q=Щетка-утюжок+с+коротким+жестким+ворсом&gl=ru&hl=ru" ||
		res.IsError != "false" || !strings.Contains(res.Text, "await page.goto('https://www.google.com/search?q=Щетка-утюжок") {
		t.Fatalf("first call: %+v %+v", use, res)
	}
	_, res = pair(t, s, "call_MHx3eGxJaXMzOE4wV3NkMnNEUkM__vscode-1759343909142")
	if res.IsError != "true" || !strings.Contains(res.Text, "TimeoutError: page._snapshotForAI: Timeout 3000ms exceeded.") {
		t.Fatalf("failed call: %+v", res)
	}
	_, res = pair(t, s, "call_MHxzSGwzQTFBd3ExSld4RWZGMU4__vscode-1759343909149")
	if res.IsError != "true" || !strings.HasPrefix(res.Text, "Error calling tool 'update_entry_fields': 400") {
		t.Fatalf("MCP error: %+v", res)
	}
	// The canceled last request has no rounds: its calls come from the parts.
	use, _ = pair(t, s, "e63c5a91-6a98-4aef-bb9a-52664322f10e")
	if use.TimeString() != "2025-10-01T18:50:19.594Z" || use.TimeBasis != timeline.TimeInherited {
		t.Fatalf("part call: %+v", use)
	}
	if n := count(s, timeline.ToolUse); n != 18 {
		t.Fatalf("tool_use rows: %d", n)
	}
	if n := count(s, timeline.ToolResult); n != 18 {
		t.Fatalf("tool_result rows: %d", n)
	}
	if e := find(s, timeline.System, "request error: Sorry, your request failed."); len(e) != 1 || !strings.Contains(e[0].Text, "Server error. Stream terminated (code failed)") {
		t.Fatalf("error row: %+v", e)
	}
	if c := find(s, timeline.System, "request canceled"); len(c) != 1 || c[0].SourceLine != 4 {
		t.Fatalf("cancel row: %+v", c)
	}
	if p := find(s, timeline.System, "progress: Summarized conversation history"); len(p) != 5 {
		t.Fatalf("compaction progress rows: %d", len(p))
	}
}
