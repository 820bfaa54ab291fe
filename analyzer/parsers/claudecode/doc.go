// Package claudecode reads the files Claude Code (Anthropic's CLI agent,
// closed source) leaves under ~/.claude (or a .claude-<name> home moved with
// CLAUDE_CONFIG_DIR) and ~/.claude.json.
//
// # Parsers
//
// claude-code/transcript (target "projects", *.jsonl): the session
// transcripts .claude/projects/<slug>/<session>.jsonl and the subagent
// transcripts in all three layouts: records with isSidechain inline in the
// session file (2.0.13), agent-<id>.jsonl beside the session file (2.0.x),
// and <session>/subagents/agent-<id>.jsonl including the compaction runs
// agent-acompact-<hex>.jsonl (2.1.x). One JSON record a line; rows:
//
//   - user: a string or text blocks a person typed → user; an image or
//     document block → user "[image <media type>]". Injected text is system:
//     isMeta, isCompactSummary, isVisibleInTranscriptOnly records, and text
//     starting with <command-name>, <local-command-stdout>, <system-reminder>,
//     <bash-stdout>, the "Caveat: The messages below..." note, "[Request
//     interrupted by user...]" and the other wrappers in injectedPrefixes.
//     Everything a sidechain user record says (the parent agent's prompt to
//     the subagent) is system too: no person typed it.
//   - tool_result blocks → tool_result rows (ToolUseID, ToolName from the
//     call, IsError from is_error, the result text; blocks inside a result
//     are joined, images as "[image <type>]"). From toolUseResult, when the
//     line holds one result: "[interrupted]" and "[exit code N]" are
//     appended when recorded; a string toolUseResult is used when the
//     content is empty. A <persisted-output> stub is replaced by the file it
//     names ("Full output saved to: <path>", else toolUseResult.
//     persistedOutputPath), read through Input.OpenRelated at its original
//     path, else at <slug>/<session>/tool-results/<base>; if neither was
//     collected the stub stays.
//   - permissionDecision on a tool-result line → a system row right after
//     the results, "permission decision: <decision> source=<source>
//     reason=<reasonType>" with the first result's ToolUseID; a refusal
//     with toolDenialKind and no decision → "permission decision: reject
//     (interrupted) toolDenialKind=<kind>". The decision's key names were
//     not seen in a sample: a string, or an object with decision (or
//     behavior/type), source and reasonType (or reason.type) is accepted;
//     a missing part prints "-".
//   - permissionMode on a user record or a permission-mode record →
//     "permission mode: <mode>" first, "permission mode: <old> -> <new>" on
//     each change (per file), before the prompt row.
//   - assistant: text → assistant (whitespace-only blocks dropped),
//     thinking → thinking, redacted_thinking → thinking "[redacted
//     thinking]", tool_use/server_tool_use → tool_use (Text the most
//     identifying argument: command, file_path, url, pattern, query, path,
//     description, ...; ToolInput the compact arguments), a *_tool_result
//     block → tool_result. Model is message.model. One API message split
//     over several lines sharing message.id gives each block once; a line
//     written twice (same uuid) is read once. "model: <id>" precedes the
//     first reply and "model: <old> -> <new>" each change (with
//     requested=<requestedModel> when that differs), tracked per file and,
//     in a main file, separately for inline sidechains. Synthetic replies
//     (model "<synthetic>") are system; isApiErrorMessage ones read
//     "api error: <text>".
//   - system records → "<subtype>: <content> <details>": compact_boundary
//     adds trigger= and preTokens=, api_error error= retryAttempt=n/max
//     retryInMs=, stop_hook_summary hooks=<commands>.
//   - summary → "summary: <text>"; queue-operation → "queue-operation
//     <operation>[: <content>]"; attachment → "attachment <type>: <names or
//     content>"; progress of kind hook_progress → "hook <hookName>:
//     <command>" (agent_progress, bash_progress and mcp_progress are not
//     rows: the subagent's own file holds the same records); the first
//     entrypoint of a file → "session surface: <entrypoint>"; a typed prompt
//     carrying promptSource (other than "user") or turnOrigin → "prompt
//     trigger: promptSource=<p> turnOrigin=<o>" after it. Any other record
//     type (custom-title, pr-link, tag, ...) → "<type>: key=value ..." of
//     its own keys.
//   - not rows: file-history-snapshot (backup bookkeeping repeated at every
//     prompt) and last-prompt (a copy of a prompt already emitted).
//
// Session id: the record's sessionId, else the folder <session> of a
// subagents/ file, else the file name. Subagent rows carry the PARENT
// session's id (it is what their records say), so a session groups its
// subagents; a subagent file opens with "subagent <agentId> of <session>"
// and an inline sidechain with "subagent <agentId or root uuid> of
// <session>" at its root record. ProjectPath is the record's cwd (the slug
// cannot be reversed). A record without a time (summary, custom-title)
// takes the previous record's time, or the next one's at the top of a file,
// with TimeBasis inherited; TimeNone when the file has no time at all.
//
// Quirks handled, each with a test on the smallest input: split messages,
// a repeated line, a truncated last line and a cut line mid-file (a
// Problem, the parse goes on), a cut record glued to the next one
// (parser.SplitGlued keeps the whole one), NUL runs (parser.Lines drops
// them), a lone UTF-16 surrogate (decoded as U+FFFD), the detached
// compaction branch (rows are emitted in file order, never by walking
// parentUuid, so nothing is lost), the three subagent layouts, and an
// 831 KB line (agentlogs/images.jsonl).
//
// claude-code/history (target "history"): .claude/history.jsonl, one user
// row per typed prompt with Secondary=true: display with each "[Pasted text
// #N +M lines]" replaced by pastedContents[N].content, or by
// .claude/paste-cache/<contentHash>.txt when collected; time from timestamp
// (epoch ms); project; sessionId when recorded.
//
// claude-code/settings (targets "settings" and "claude-json"): one system
// row per entry at the file's mtime (TimeBasis file-mtime):
// "permission setting: <key>=<value> (from <file>, file mtime)" for
// permissions.allow, deny, ask, additionalDirectories, defaultMode and
// disableBypassPermissionsMode in settings.json / settings.local.json (a
// project's file gets that project as ProjectPath), "retention setting:
// cleanupPeriodDays=<n> ..." and "model setting: <alias> ..."; from
// .claude.json (and .claude.json.backup) projects.<path>.allowedTools,
// hasTrustDialogAccepted and hasClaudeMdExternalIncludesApproved with the
// project as ProjectPath. The files are decoded into structs holding only
// those keys: env, apiKeyHelper, oauthAccount and the rest are never read.
//
// claude-code/sessions (target "sessions"): .claude/sessions/<pid>.json, one
// row at startedAt, "claude-code process <pid> <kind> status=<status>
// entrypoint=<entrypoint> bridge=<bridgeSessionId or none>
// host_session=<hostSessionId or none>"; with a bridgeSessionId also
// "session synced: remote control bridge <id> url - (from <path>, file
// mtime)" and a SessionState Synced=yes. The <pid>.<sha>.key sibling is
// never read.
//
// # Evidence
//
//   - Claude Code 2.1.197 (@anthropic-ai/claude-code) run here against a
//     scripted loopback model: fixtures/roots/real-agents (scenarios basic,
//     resume, edit, denied, subagent in the <session>/subagents layout,
//     api-error, killed, and sessions/<pid>.json); TestRealAgentTranscripts
//     checks every scenario of real-agents.expect.json.
//   - Real transcripts copied byte for byte in shared/agent-samples/
//     claude-code (SOURCES.md): marot/spotter 035dfd363ef902015abb5d8c30eaa1c6af2b5b6d
//     and 53a088d2335599db2a99d1099be22152d1785d6f (2.1.38, 2.1.39),
//     tomjnsn/agentlogs 27921c03abfc8a4c88331cdddab81ce5ef09fb90 and
//     ee4e21fe0030f66dc338726d24abefa474f1139f (2.0.13 to 2.1.3).
//   - The <persisted-output> stub wording and the tool-results/<tool use
//     id>.txt location: anthropics/claude-code issue 23948.
//   - Row wordings: shared/seeds/agents-catalog.md (claude-code). The
//     permissionDecision, permission-mode record, requestedModel, settings
//     and sessions/<pid>.json key names come from that seed's notes and are
//     checked only against synthetic fixtures here.
//
// # Not done
//
// Rows the seed lists that no input here shows: session continued in:,
// remote control: bridge session / environment rows (bridge-pointer.json,
// ccr-tip.json), session origin:, scheduled task fired:, scratch directory:,
// source host: github, remote control: machine id / spawn mode, cloud:
// hasRemoteEnvironment.
package claudecode
