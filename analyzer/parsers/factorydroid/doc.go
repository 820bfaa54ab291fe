// Package factorydroid parses Factory's droid CLI (catalog agent
// factory-droid).
//
// Evidence read, all under ~/.factory:
//
//   - sessions/<cwd-slug>/<uuid>.jsonl: a session_start line (id, title,
//     owner, cwd, version; no time: the row inherits the first dated
//     record's), then "message" records {id, parentId, timestamp, message
//     {role, content[], modelId, reasoningEffort}} and agent_turn_outcome
//     records (inherit the previous record's time). User text blocks are
//     user rows, except the message droid injects before the prompt (id
//     "context-<prompt id>", every block a <system-reminder>: tool list,
//     subagents, system info, date, workspace snapshot), which gives system
//     rows. Assistant text, thinking and tool_use blocks (full input as
//     tool_input); tool_result blocks with is_error. A result starting
//     "Exec ended early: insufficient permission" (the autonomy level or
//     settings.json commandDenylist refused the call) also gives a
//     "permission decision: reject (...)" row; the closing text droid exec
//     then writes as an assistant message without modelId is a system row
//     "droid: ...", not the model's. The first modelId gives "model: <id>",
//     each change "model: <old> -> <new>" (a resume with --model). RecordID
//     is the message id, "#<n>" per block when a message has several,
//     "#model", "#decision", "#outcome", "#session" for derived rows. A
//     record kind this release did not write becomes a system row with its
//     JSON.
//   - sessions/<cwd-slug>/<uuid>.settings.json and the .bak droid keeps of
//     the previous write: model, reasoning effort, interaction mode,
//     autonomy level and mode, provider lock, token usage (file mtime).
//   - settings.json (kind secret: customModels carry API keys): command
//     allow/deny/block lists, autonomy and model defaults, each custom
//     model's display name, model, provider and base URL; apiKey only as
//     "(set, not shown)".
//   - state/history.json: the TUI's prompt history, [{command, timestamp,
//     type, mode}] (OH.addCommand in the binary): secondary user rows with
//     no session, paired within a minute; written only by the interactive
//     TUI, so its fixture is synthetic.
//   - cache/session-discovery-index.json: a secondary system row for each
//     indexed session whose transcript was not collected (title, message
//     count, path, created time).
//   - droids/*.md: custom droid (subagent) definitions from the front
//     matter; state/*.json: background processes, background tasks and task
//     invocations, a row per entry; logs/droid-log-single.log: ERROR records
//     with the session id of their context (other levels counted as
//     skipped).
//
// Validated against: droid 0.225.2 (npm @factory/cli-linux-x64 0.225.2,
// the binary the @factory/cli shim runs; source not public) run against the
// loopback mock in bring-your-own-key mode, fixtures/roots/real-agents-5
// (basic, resume with custom:Mock-Coder-0 -> custom:Mock-Coder-2-0, edit
// with Create, commandDenylist denial). `droid exec -s <id>` fetches the
// session from api.factory.ai first; pointed (FACTORY_API_BASE_URL) at the
// mock, which answers 404, it resumes from the local file. The prompt
// history and state shapes come from the binary's embedded code.
package factorydroid
