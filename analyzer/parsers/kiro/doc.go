// Package kiro parses Kiro CLI (formerly Amazon Q Developer CLI): its
// SQLite store, its 2.x session files, prompt history, agent
// configurations and delegated background tasks.
//
// Validated against: aws/amazon-q-developer-cli source at 15cc8f3c
// (2026-04-23; crates/chat-cli/src/database/{mod.rs,sqlite_migrations/},
// cli/chat/{conversation,message,checkpoint,parser,mod}.rs,
// cli/chat/tools/delegate.rs, cli/agent/mod.rs, util/paths.rs), and
// rustyline 15.0.0 (the workspace's pinned version) for the prompt history
// file; synthetic fixtures built from those shapes (SQLite from the
// migrations' SQL text). No real install: the CLI is a Rust binary not on
// a registry reachable here.
//
// Files:
//
//   - kiro/cli-db: data.sqlite3 under amazon-q/ or kiro-cli/ in the user
//     data directory. conversations(key = the working directory, value =
//     ConversationState JSON, serde's externally tagged enums): each
//     conversation gives "conversation <id> of <cwd> [model=<id>]" (session
//     = conversation_id, project = the key), then each HistoryEntry: a
//     model change "model: <a> -> <b>" (request_metadata.model_id), the
//     user prompt (UserMessageContent Prompt) at the message's timestamp,
//     tool results (ToolUseResults, CancelledToolUses) at the entry's
//     request start, with is_error from status Error, the assistant text
//     and each tool use (full args JSON) at the stream end. "Tool use was
//     cancelled by the user" adds "permission decision: denied source=user
//     (tool use cancelled)"; the input the CLI sends itself when a call
//     matches the agent's denied list ("Tool use with <tool> was rejected
//     because the arguments supplied were forbidden") is "permission
//     decision: denied source=deniedlist tool=<tool>", never a user row.
//     RecordID "<request message_id>#user|#assistant|#result-<n>|..." and
//     the tool use id. What happened stays: entries before
//     valid_history_range (compacted away) are rows followed by
//     "compacted: <n> earlier entries no longer sent to the model"; the
//     /compact summary is "conversation summary (/compact): ..."; each
//     checkpoint is "checkpoint <tag>: <description> (tool <name>)" and
//     the entries of its history_snapshot the conversation no longer holds
//     (restored away) are rows followed by "the entry above: from
//     checkpoint <tag>'s history snapshot, ..."; tangent mode's
//     main_history likewise; the unsent next_message is a user row
//     followed by "the prompt above: not yet sent". An entry in several of
//     these is written each time under the same record ids (the correlate
//     stage keeps one row where the copies agree and names a conflict
//     where not); a copy of an entry of the history gets no note, and
//     its model change is not written again. conversations_v2
//     (migration 008_multiple_conversations_per_path, aws/amazon-q-
//     developer-cli at 33494e8; the table agentsview 5386007 reads,
//     internal/parser/kiro_sqlite.go): several conversations per working
//     directory, primary key (key, conversation_id), created_at and
//     updated_at in epoch ms. Each row is read as the old table's value
//     (session = the row's conversation_id; a value naming another id is
//     a problem and read under the row's), then "conversation <id> of
//     <key> saved (conversations_v2 created_at ..., updated_at ...)" at
//     updated_at. The migration copied the old table into it and left
//     the old rows: both copies go through under the same record ids and
//     the correlate stage keeps one where they agree (one id under two
//     keys: two header rows and a duplicate_id problem). Source lines are
//     rowids of the table each row came from. chat_readline_history
//     (Optional: migration 008_chat_readline_history_table of
//     aws/amazon-q-developer-cli at 93a6879, a build line the release at
//     01b940e does not carry): each line as the prompt editor took it,
//     with its directory and epoch ms, a secondary user row with no
//     session (paired within a minute with the conversation's prompt).
//     The legacy history table (Fig-era shell
//     integration: command, shell, cwd, start_time in epoch seconds,
//     exit_code, before and after migration 003) gives "shell command
//     (legacy shell history): <command> (shell= hostname= exit_code=
//     duration=)". state and auth_kv (tokens, profiles) are never read.
//
//   - kiro/prompt-history: .aws/amazonq/.cli_bash_history (rustyline file
//     history, "#V2" header and backslash escapes): each prompt a user row,
//     secondary, with no time, session or project (window 0).
//
//   - kiro/agents: .aws/amazonq/cli-agents/*.json and a project's
//     .amazonq/cli-agents/*.json (Agent, camelCase): allowedTools and every
//     toolsSettings leaf (allowedCommands, deniedCommands, allowedPaths,
//     deniedServices, autoAllowReadonly, ...) as "permission setting:
//     <key>=<value> (from <file>, file mtime)" (clinetask.ParseSettingsKeys);
//     a project's .amazonq/.subagents/<agent>.json (AgentExecution, the
//     delegate tool's background task) as a subagent session
//     "delegate:<agent>:<launched_at>": "subagent <agent> launched by the
//     delegate tool: status=<s> pid=<n>", "subagent task: <task>" (a
//     system row: the model wrote it), its output and summary as assistant
//     rows at completed_at, "subagent finished: exit code <n>". The parent
//     conversation is not recorded in the file.
//
//   - kiro/sessions: Kiro CLI 2.x's own store, .kiro/sessions/cli/<id>.jsonl
//     and <id>.json. The CLI is closed source (no real install here);
//     the shapes are the ones kenn-io/agentsview 5386007 reads
//     (internal/parser/kiro.go, kiro_provider.go, types.go: default dir
//     .kiro/sessions/cli) and third-party readers of kiro-cli 2.x files
//     describe; Dicklesworthstone/coding_agent_session_search 2a1fc6f has
//     no Kiro connector (its users ask for one). The fixture is built
//     from those shapes. <id>.jsonl, one {"version":"v1","kind",
//     "data":{message_id, content:[{kind, data}], meta:{timestamp}}} a
//     line: Prompt text blocks are the user row at meta.timestamp (epoch
//     seconds, fractional) with RecordID "<message_id>#prompt", other
//     blocks (images) "prompt attachment: <n> <kind> block(s)" (never the
//     bytes); AssistantMessage text, thinking and toolUse ({toolUseId,
//     name, input}: full input) blocks; ToolResults toolResult
//     ({toolUseId, content, status}: is_error from status error/success)
//     with the call's tool name; Clear "conversation cleared (/clear)",
//     the rows before it kept. Only Prompt records carry a time: the
//     others get the turn's prompt time, TimeInherited. A record kind not
//     known is a skipped_record problem, an empty one a counted skip. The
//     session is <id>.json's session_id (else the file name), the project
//     its cwd. <id>.json: "session <id> of <cwd>: <title> model=<id>
//     (created_at, updated_at)" at created_at and one "turn <n>
//     metadata: <key>=<value> ..." row per session_state.
//     conversation_metadata.user_turn_metadatas entry (tokens, requests,
//     duration, message ids) at its end_timestamp. The store's other
//     files, named by Dicklesworthstone/coding_agent_session_search at
//     28b3191 (src/connectors/kiro.rs, which skips both): <id>.lock a
//     counted skip (state_only:session-lock); sess_<id>.history, whose
//     content no source shows, read as rustyline file history (the CLI's
//     prompt history format) when it opens with rustyline's "#V2"
//     header, each line a secondary user row of session <id> with no
//     time, else one skipped_record problem, unread (v2; before v2
//     neither file reached the parser). The Kiro IDE's own store under
//     .kiro/sessions/<workspace hash>/<session id>/ (where the IDE moved
//     its sessions from globalStorage/kiro.kiroagent/workspace-sessions;
//     agentsview 5386007 reads only the old place, cass 28b3191 only
//     cli/): v3 reads session.json ({id, title, description, agentMode,
//     status, modelId, autopilot, workspacePaths, createdAt,
//     lastModifiedAt}: one system row at createdAt, the status named "at
//     its last write" since an interrupted session keeps in_progress) and
//     messages.jsonl ({id, timestamp, payload: {type, ...}} a line, each
//     a row at its timestamp, RecordID "kiro-ide:<id>"): user {content,
//     images, documents} a user row and a system row counting the
//     attachments; assistant {content, operationType Say|Reasoning,
//     reasoningSignature, executionId} fragments joined while the
//     execution and kind stay the same (the later ones a Skip
//     "joined:assistant_fragment"), Reasoning (or a signature with no
//     operationType) a thinking row; tool_call {toolCallId, toolName,
//     actionType, kind, status, title, args} a tool_use row with the
//     arguments; tool_result {toolCallId, success, durationMs, content}
//     a tool_result row, is_error from success; pending_interaction
//     {interactionType, toolCallId, question, options} and
//     interaction_resolved {toolCallId, outcome, selectedOption} system
//     rows "permission asked/answered"; session_metadata {key, value},
//     session_event {category, context}, usage_summary, sub_agent_start
//     and sub_agent_complete, turn_end with a stopReason other than
//     end_turn, and tombstone {kind} (a clear or compaction: the rows
//     before it stay) system rows; turn_start and a normal turn_end
//     counted skips; another type a skipped_record problem. The shapes
//     are those of a third-party reader of the store found in the code
//     index (a Node "SessionStore" module, written against Kiro IDE
//     1.0.242 / kiro-agent 1.0.428 as its author observed them; the index
//     names neither its repository nor its commit: file id 59193365899),
//     matched by a second one (a status monitor README, file id
//     57926206984: session.json status values in_progress, failed,
//     completed, waiting_on_user, idle; turn_end stopReason end_turn or
//     error); the Kiro IDE is closed source and was not run here, and the
//     IDE's tool names are in no source (the fixture uses the CLI's
//     "shell"). Synthetic fixture. Any other file under .kiro/sessions
//     (snapshots/, file copies for restore) is one skipped_record problem
//     naming it. A prompt's attachment rows come out one per block kind
//     in the order the record first holds each.
//
//   - kiro/ide: the Kiro IDE's globalStorage/kiro.kiroagent (closed
//     source; the shapes kenn-io/agentsview 5386007 reads,
//     internal/parser/kiro_ide.go and its test; synthetic fixture).
//     <workspace hash>/<hash>.chat ({executionId, actionId, chat: [{role
//     human|bot|tool, content}], metadata {modelId, workflow, workflowId,
//     startTime, endTime in epoch ms}}): a header row at startTime, each
//     message at it (inherited): a human turn that opens with the system
//     prompt or rules ("# System Prompt", "# Identity", "<identity>",
//     "## Included Rules", "You are operating in a workspace") a system
//     row, never a user row, else the typed prompt without its
//     <kiro-ide-message> wrapper; bot the reply with the model; tool its
//     output; the end at endTime. workspace-sessions/<base64 workspace>/
//     sessions.json (sessionId, title, dateCreated, workspaceDirectory)
//     one row per session; <session>.json's history (message role,
//     content, id; promptLogs completions when an assistant message is
//     empty; executionId) at the listed dateCreated (inherited: the
//     history records no times), an execution named by a row.
//     <sha256(workspace)[:32]>/414d1636299d2b9e4ce7e17fb11f63e9/<file>
//     ({executionId, actions: [{actionId, actionType, input, output}]}),
//     session "exec:<executionId>", no times: say is the agent's text,
//     every other action (replace, create, readCode, ...) a tool call
//     with its full input and its output as the result. Other files of
//     the folder are a counted skip, unread.
//
// Not read yet: /save exports (a ConversationState JSON written wherever
// the user names: no catalog path reaches them), the conversation
// transcript strings (a human-readable copy of the history), and the Kiro
// IDE's .kiro/sessions/<workspace>/ folders: no source or real install
// shows their format (collected).
package kiro
