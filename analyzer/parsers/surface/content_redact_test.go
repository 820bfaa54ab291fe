package surface

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestContentRedacted: an entry's content and description (a Kiro CLI
// agent file kept whole, with its MCP server's env and a permission rule)
// pass through the same redaction as its command and arguments: the
// credential-shaped values and the literal under a secret's name are
// [redacted], code naming a token (token: string) stays. Before, the
// agent file's content, token and all, was written into surface.jsonl and
// the timeline row's tool_input.
func TestContentRedacted(t *testing.T) {
	src := `{"name":"ops","description":"deploy with ghp_ABCDEFGHIJKLMNOPQRSTUV",` +
		`"prompt":"interface A { token: string }",` +
		`"mcpServers":{"gh":{"command":"npx","env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"ghp_ABCDEFGHIJKLMNOPQRSTUV","NPM_TOKEN":"npm_doubleagentFIXTUREnotAtoken"}}},` +
		`"toolsSettings":{"execute_bash":{"allowedCommands":["curl -H 'Authorization: Bearer abcdefgh12345678' .*"]}}}`
	local := filepath.Join(t.TempDir(), "ops.json")
	if err := os.WriteFile(local, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	c := tcase{"kiro", "ops.json", home + ".aws/amazonq/cli-agents/ops.json", "cli-agents"}
	f := parser.File{Path: c.path, Agent: c.agent, Target: c.target, MTime: mtime, Host: "h", User: "examiner", Rel: ".aws/amazonq/cli-agents/ops.json"}
	s := parsertest.Run(t, byAgent(t, c.agent), parsertest.Input(t, local, f, nil))
	var agent *Item
	var its []Item
	for _, e := range s.Events {
		var it Item
		if err := json.Unmarshal([]byte(e.ToolInput), &it); err != nil {
			t.Fatal(err)
		}
		its = append(its, it)
	}
	for i := range its {
		if its[i].Kind == KindAgent {
			agent = &its[i]
		}
	}
	if agent == nil {
		t.Fatalf("no agent entry in %+v", its)
	}
	want := `{"name":"ops","description":"deploy with [redacted]",` +
		`"prompt":"interface A { token: string }",` +
		`"mcpServers":{"gh":{"command":"npx","env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"[redacted]","NPM_TOKEN":"[redacted]"}}},` +
		`"toolsSettings":{"execute_bash":{"allowedCommands":["curl -H 'Authorization: Bearer [redacted]' .*"]}}}`
	if agent.Content != want || agent.Desc != "deploy with [redacted]" {
		t.Fatalf("content\n%s\nwant\n%s\ndescription %q", agent.Content, want, agent.Desc)
	}
}

// TestContentRedactedAcrossTheCut: a token that straddles ContentMax is
// masked before the content is cut, so no prefix of it is kept.
func TestContentRedactedAcrossTheCut(t *testing.T) {
	tok := "ghp_ABCDEFGHIJKLMNOPQRSTUV"
	pad := strings.Repeat("a", ContentMax-10)
	c, cut := content([]byte(pad + " " + tok + " tail"))
	if !cut || strings.Contains(c, "ghp_") || c != (pad + " [redacted] tail")[:ContentMax] || len(c) != ContentMax {
		t.Fatalf("cut %v, len %d, tail %q", cut, len(c), c[len(c)-20:])
	}
}
