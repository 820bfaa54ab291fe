// Package qoder reads Qoder's session transcripts. Qoder CLI (npm
// @qoder-ai/qodercli) and the Qoder IDE's embedded CLI write Claude Code's
// transcript format: <config dir>/projects/<cwd with every
// non-alphanumeric as "-">/<session>.jsonl, subagents under
// <session>/subagents/agent-<id>.jsonl with an agent-<id>.meta.json beside
// them. The config dir is ~/.qoder (QODER_CONFIG_DIR moves it; .qoderwork
// is Qoder Work's); the IDE keeps its copy under the app config folder's
// Qoder/SharedClientCache/cli/projects.
//
// # qoder/transcript (targets "projects", "ide-projects"; *.jsonl)
//
// Read by parser/format/claudetranscript with Claude Code's options and
// tool table (the bundle's tools are Claude Code's: Read, Write, Edit,
// NotebookEdit, WebFetch, WebSearch, TodoWrite, Agent); see
// analyzer/parsers/claudecode for the rows, record ids, subagents and
// accounting. Record types the reader does not name (custom-title,
// ai-title) are system rows with their members.
//
// # qoder/meta (targets "session-meta", "ide-session-meta")
//
// <session>-session.json {title, parent_session_id, fork_from,
// working_dir} (the shape agentsview reads): a system row "session
// metadata (<file>): title, working dir, forked from, parent session" in
// session <session>, ParentSessionID fork_from (else parent_session_id),
// the project the working dir. subagents/agent-<id>.meta.json {agentType,
// description, toolUseId} (Claude Code's subagent meta, which the bundle
// writes): "subagent metadata (<file>): type, task, started by tool call"
// in session <id> (the transcript reader's subagent session), parent the
// session folder, ToolUseID the starting call. Both at the file's mtime
// (the files record no time). A member not named here is listed ("other
// members: ..."), a file that is not a JSON object a problem, an empty
// one a Skip "no_evidence:empty_meta".
//
// # Evidence
//
//   - The shipped bundle of @qoder-ai/qodercli 1.1.52 (bundle/qodercli.js,
//     installed here with --ignore-scripts): the projects path and its
//     cwd encoding, the subagent paths and .meta.json, the record types
//     (user, assistant, system, attachment, progress, summary,
//     custom-title, ai-title) and the tool names.
//   - kenn-io/agentsview at 538600744d1b87614d3746d36a0966c1f2ac1cad
//     (internal/parser/qoder.go, qoder_paths.go, qoder_provider.go: the Claude Code parser on
//     these files, <session>-session.json {title, parent_session_id,
//     fork_from, working_dir}, the IDE's SharedClientCache paths).
//   - Not run: the CLI answers "Not logged in · Please run /login" without a
//     Qoder account, and has no offline model mode; the fixture
//     (testdata/home) is built from the bundle.
//
// # Not read, and why
//
//   - mcp-oauth-tokens.json, .auth/ (target "config", secret kind): the
//     login and OAuth tokens. settings.json, .qoder.json MCP servers,
//     agents, commands, skills, AGENTS.md and hooks are the control surface
//     (qoder/surface in analyzer/parsers/surface), named keys only.
package qoder
