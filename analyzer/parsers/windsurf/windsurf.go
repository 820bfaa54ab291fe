package windsurf

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
)

// Agent is the catalog name of Windsurf.
const Agent = "windsurf"

// Parsers returns the Windsurf parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "windsurf/cascade-pb", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"cascade"}, Names: []string{"*.pb"},
			Doc: "~/.codeium/windsurf/cascade/<uuid>.pb decoded as schemaless protobuf wire format: a summary row and one system row per text field (no turn structure; encrypted or compressed files are a problem)",
		}, parseCascadePB),
		parser.New(parser.Spec{
			ID: "windsurf/hook-transcript", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"hook-transcripts"}, Names: []string{"*.jsonl"},
			Doc: "~/.windsurf/transcripts/<trajectory_id>.jsonl written by the post_cascade_response_with_transcript hook (user_input, planner_response, tool steps)",
		}, parseHookTranscript),
		parser.New(parser.Spec{
			ID: "windsurf/mcp-config", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"mcp-config"}, Names: []string{"mcp_config.json"},
			Doc: "~/.codeium/windsurf/mcp_config.json MCP server disabled/disabledTools/alwaysAllow as permission setting rows (file mtime)",
		}, parseMCPConfig),
	}
}

// parseMCPConfig reads mcp_config.json ({"mcpServers": {name: {command,
// args, env, serverUrl, headers, disabled, disabledTools}}}) with the
// shared MCP settings reader: only disabled, disabledTools and alwaysAllow
// are read, never env or headers (where keys live).
func parseMCPConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return clinetask.ParseMCPSettings(ctx, in, out, "alwaysAllow")
}
