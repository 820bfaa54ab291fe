// Package openclaude reads OpenClaude's session transcripts. OpenClaude
// (Gitlawb/openclaude, npm @gitlawb/openclaude) is a fork of Claude Code
// that talks to any OpenAI-compatible, Gemini or local model and keeps
// Claude Code's storage under ~/.openclaude (OPENCLAUDE_CONFIG_DIR moves
// it) and ~/.openclaude.json: projects/<sanitized cwd>/<session>.jsonl and
// <session>/subagents/agent-<id>.jsonl, the same records Claude Code
// writes.
//
// # openclaude/transcript (target "projects", *.jsonl)
//
// Read by parser/format/claudetranscript with Claude Code's options and
// tool table (see analyzer/parsers/claudecode for the rows, record ids,
// forks, subagents and accounting), the session states under agent
// openclaude. Records the fork adds and the reader does not name (such as
// ai-title) are system rows with their members, never dropped.
//
// # Evidence
//
//   - Source: Gitlawb/openclaude at 421f45992c440420775ff28e3a8a060869195034
//     (0.29.1): src/utils/envUtils.ts (resolveClaudeConfigHomeDir:
//     ~/.openclaude, OPENCLAUDE_CONFIG_DIR; getProjectsDir), src/utils/
//     sessionStorage.ts (the transcript and subagent paths), src/utils/env.ts
//     (.openclaude.json), src/utils/secureStorage/plainTextStorage.ts
//     (.credentials.json), src/history.ts (history.jsonl).
//   - kenn-io/agentsview at 538600744d1b87614d3746d36a0966c1f2ac1cad
//     (internal/parser/openclaude.go: the default .openclaude/projects, the
//     Claude Code record shapes, ai-title and custom-title records).
//   - Not run: npm @gitlawb/openclaude is not served by the registry here
//     (404); the fixture (testdata/home) is built from the source above.
//
// # Not read, and why
//
//   - history.jsonl (target "history"): collected; Claude Code's reader of
//     it lives in the claude-code package and is not shared as a format yet.
//     settings.json, .openclaude.json MCP servers, agents, commands, skills,
//     rules, CLAUDE.md and hooks are the control surface (openclaude/surface
//     in analyzer/parsers/surface).
//   - .openclaude.json, .credentials.json and .openclaude-profile.json
//     (target "config", secret kind): OAuth tokens and provider API keys.
package openclaude
