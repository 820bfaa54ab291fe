// Package antigravity parses Google Antigravity's local state: the CLI
// (agy), the desktop app 2.x, the separately installed IDE and the app's
// migration backup, each a data directory under ~/.gemini
// (antigravity-cli, antigravity, antigravity-ide, antigravity-backup).
//
// Validated against: no source (Antigravity is closed source) and no
// install here (no release on a registry reachable here). The formats are
// taken from public reports of real installs: the agentgrep backend notes
// for agy 1.0.10 (history.jsonl keys; conversations/<id>.db with a steps
// table of idx, step_type, status, metadata, task_details, step_payload
// and step_format; brain transcript lines of step_index, source, type,
// status, created_at, content), google-antigravity/antigravity-cli issues
// 672 and 909 (protobuf conversation databases, JSONL transcripts under
// brain/), and the transcript fixtures in public reader code (the
// USER_REQUEST, ADDITIONAL_METADATA and USER_SETTINGS_CHANGE blocks of
// USER_INPUT, PLANNER_RESPONSE thinking and tool_calls, CHECKPOINT,
// SYSTEM_MESSAGE); synthetic fixtures built from those shapes, and
// protobuf blobs built with protowire at test time. The seed's
// descriptors (extracted from the shipped agy binary) are not available
// here, so the protobuf is decoded without a schema.
//
// Files:
//
//   - antigravity/conversations: conversations/<id>.db under each data
//     directory (WAL sidecars copied with it). Session = the file's id;
//     "conversation <id> (database, data_dir=<dir>)" first, then one system
//     row per steps row, "step <idx> type=<step_type> status=<status>
//     (decoded without a schema)" followed by the text fields of
//     step_payload, task_details and metadata as "<field path>=<text>"
//     (parser.WireStrings over google.golang.org/protobuf/encoding/
//     protowire); a permissions blob gives "permission grants of step
//     <idx> (decoded without a schema): ...". Undated (time_basis none):
//     without the schema no field is known to be a time. No row is taken
//     for a prompt, a reply or a tool call on a guess: those come from the
//     brain mirror. RecordID "<id>:<idx>#db". conversation_summaries.db
//     (and a conversation database without a steps table): one system row
//     per row of every table, text columns and decoded blobs, session from
//     a UUID-valued conversation or id column.
//   - antigravity/brain-logs: brain/<id>/.system_generated/logs/
//     transcript_full.jsonl, else its chunks/transcript_full/*.jsonl, else
//     the shortened transcript.jsonl, else its chunks: every line of a copy
//     that a better one supersedes is skipped as "copy_of:<better>". Rows
//     are secondary (window 600 s, the seed's), session the directory's
//     id, no project, time the step's created_at. USER_INPUT: the
//     <USER_REQUEST> block is the user row (untagged content is the user
//     row whole); a USER_SETTINGS_CHANGE of `Model Selection` is "model:
//     <from> -> <to>" (Model set, carried onto later rows); other blocks
//     (ADDITIONAL_METADATA, ...) are system rows. PLANNER_RESPONSE (and
//     NOTIFY_USER, GENERATE_RESPONSE): thinking, assistant (content a
//     string or an object's text), each tool call a tool_use row with its
//     args JSON. Other steps of source MODEL (RUN_COMMAND, VIEW_FILE, ...)
//     are tool_result rows named after the step type, is_error from the
//     status. CHECKPOINT is "compaction checkpoint: ..."; SYSTEM steps
//     (CONVERSATION_HISTORY, EPHEMERAL_MESSAGE, KNOWLEDGE_ARTIFACTS,
//     SYSTEM_MESSAGE: injected text, never user) are "step <type>
//     (system): ...". RecordID "<id>:<step_index>#<n>" (the same in every
//     copy). A conversation whose database is gone is still in the
//     timeline through its mirror (sessions read recovered).
//   - antigravity/history: antigravity-cli/history.jsonl: each entry's
//     display is a user row (secondary, 600 s) at its timestamp (epoch
//     ms), project = workspace, session = conversationId (written by CLI
//     1.3.x); an entry's type is a system row "prompt history entry type:
//     <type>".
//   - antigravity/permissions: .gemini/config/config.json,
//     config/projects/*.json, config/sidecars/*/sidecar.json and
//     antigravity-cli/settings.json: every leaf whose key path names an
//     allow or deny list, a grant or access, trust, sandbox, migration,
//     auto-run or approval, or a mode or policy, is "permission setting:
//     <key>=<value> (from <file>, file mtime)" (one row per list entry);
//     secret-looking keys print [redacted] and other keys are not read.
//
// Not read: mcp_config.json and the plugin token.json files (token.json is
// secret kind), the brain directory's steps/, messages/ and tasks/ files,
// annotations/*.pbtxt and artifacts, implicit/*.pb, the cache/ files
// (last_conversations.json, conversation_metadata.json), the app's FTS5
// search table, and the IDE's state.vscdb. Not decoded: the protobuf
// fields' meaning (turn types, times, tool names and arguments of the
// database steps, the grant's action, target and scope), which needs the
// step descriptors the seed extracted from the agy binary; with them the
// conversations parser can emit typed rows and the brain rows pair with
// them.
package antigravity
