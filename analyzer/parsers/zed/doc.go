// Package zed reads the agent panel state of the Zed editor.
//
// Evidence: the formats were learned from zed-industries/zed source:
// crates/agent/src/db.rs at 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b
// (the threads table and its ALTERs, DbThread version "0.3.0",
// save_thread_sync: zstd level 3 of the JSON, data_type "zstd"/"json",
// updated_at as RFC 3339; upgrade_from_agent_1 for the legacy
// SerializedThread), crates/agent/src/thread.rs at
// 000e783fddd704e6a0fa2be12fe41c56c94e820c (Message User/Agent/Resume,
// UserMessageContent Text/Mention/Image, AgentMessageContent
// Text/Thinking/RedactedThinking/ToolUse, tool_results IndexMap keyed by
// tool use id, SubagentContext, ToolCallEventStream::authorize and its
// "Permission to run tool denied by user" error), the ThreadMetadataDb
// sidebar_threads / archived_git_worktrees migrations (and, at
// a84689073d296dfd39987bc7dd478e43ef76d83a, thread_metadata_store.rs: the
// thread_archived_worktrees join, first by session_id, then by the
// sidebar's 16-byte thread_id, and the staged / unstaged / original commit
// hashes of archived_git_worktrees), project's
// trusted_worktrees (ProjectDb), and docs/src/ai/tool-permissions.md
// (agent.tool_permissions). No real Zed files were available (no shared
// sample, no real-agent fixture): every fixture is synthetic, the SQLite
// ones as .sql with the zstd blobs compressed at test time.
//
// # zed/threads (target "threads", threads/threads.db)
//
// One thread per row of threads(id, summary, updated_at, data_type, data
// [, parent_id, folder_paths, folder_paths_order, created_at]); columns
// are read by name, so the first five-column schema reads too. data is
// zstd-compressed JSON when data_type is "zstd", else plain JSON.
// SourceLine is the rowid for every row of the thread; SessionID the id;
// ProjectPath the first of folder_paths (newline-separated PathList).
// Messages have no time: every row takes the row's updated_at (else the
// JSON's), TimeInherited.
//
// Identity: RecordID "<thread>#<word>" for the thread's own rows (name,
// subagent, imported, profile, model, sandbox, summary, draft); a user
// message's rows its own id (UserMessageId; "#<i>" for a mention item);
// an agent message's items "<thread>#m<n>#<i>" (Zed gives agent messages
// no id: the position in the thread is the identity), a tool result
// "<thread>#m<n>#result:<tool_use_id>", a denial "...#decision". A thread
// that gives no row is a skip; an unknown content variant a skipped_record
// problem.
//
// Rows: "session name: <title>", "subagent <id> of <parent>" (parent_id
// or subagent_context, ToolUseID the spawning call; the sub-agent thread's
// rows carry ParentSessionID, its SessionState the parent, and its user
// text, the task the parent's model wrote, is the system row "subagent
// task: <text>", never user), "thread imported from
// a shared link", "agent profile: <profile>", "model: <provider>/<model>"
// (and Model on assistant, thinking and tool_use rows), "sandboxed
// terminal temp dir: <path>" (a scratch directory). User: the Text and
// Image ("[image]") items form the user row; each Mention is a system
// "mention: <Kind> <path or url>\n<content>" row (attached context). Agent:
// Text -> assistant, Thinking -> thinking, RedactedThinking -> thinking
// "[redacted thinking]", ToolUse -> tool_use (ToolInput the input JSON,
// Text the command, path, url, regex, glob or query); tool_results ->
// tool_result rows by tool_use_id (in the calls' order; content a string,
// {"Text"} or an image), IsError from is_error. A result with "Permission
// to run tool denied by user" adds "permission decision: denied
// source=user"; an error naming always_deny / tool_permissions / "blocked
// by" adds "permission decision: denied source=settings". "Resume" is
// "resume: Continue where you left off". detailed_summary gives "thread
// summary: ..", draft_prompt "unsent draft: <text>". A legacy message
// ({role, segments, tool_uses, tool_results, context}) is read per its own
// shape, context as a "context: .." system row. A row whose blob does not
// decompress or is not JSON is a Problem at its rowid.
//
// # zed/db (target "db", db/0-<channel>/db.sqlite)
//
// Each table is optional, columns by name, SourceLine the rowid.
// sidebar_threads: "sidebar thread: <title_override or title> (agent
// <agent_id or zed>[, updated <updated_at>][, archived])" at created_at
// (else updated_at): the only trace Zed keeps of an external agent's
// (claude-code, gemini, codex) thread. trusted_worktrees: "permission
// setting: trusted_worktrees=<path>[ host=<user>@<host>] (from <file>,
// file mtime)". scoped_kv_store: agent_draft_prompts -> "unsent draft:
// <text>" (SessionID the key); created_git_worktrees -> "git worktree
// created: <key> <value>"; other agent/thread/worktree namespaces ->
// "<namespace>: <key>=<value>"; all at the file mtime (another namespace,
// or an empty draft, is a skip). archived_git_worktrees: "archived git
// worktree: <path> repo=<main> branch=<b> commit=<c> original_commit=..
// staged_commit=.. unstaged_commit=.." (at archived_at/created_at when
// present, else file mtime), one row per thread thread_archived_worktrees
// links it to (SessionID that thread's session id, through
// sidebar_threads when the link is a thread_id; "(thread <hex>, not in
// sidebar_threads)" when the sidebar lost it), or one row without a
// session when no thread is linked; each link is a skip, and a link to a
// gone worktree row an orphan_record problem. RecordIDs: "sidebar:<thread_id
// hex or session id>", "kv:<namespace>/<key>",
// "archived-worktree:<id>[#<thread>]", "terminal:<id>".
// sidebar_terminal_threads: "terminal thread: <title> cwd=<dir>" at
// created_at.
//
// # zed/settings (target "settings", settings.json, global_settings.json)
//
// JSON with comments and trailing commas. From "agent" (and the older
// "assistant"): default_model -> "model setting: <provider>/<model> (from
// <file>, file mtime)"; always_allow_tool_actions, default_profile,
// tool_permissions.default/default_mode and per tool default/default_mode
// and each always_allow/always_deny/always_confirm pattern -> "permission
// setting: <key path>=<value> (from <file>, file mtime)". Nothing else is
// read (no API keys).
//
// Only real tables are read (parser.Columns, parser.HasTable): a threads
// VIEW, which could run any query (issue 13: an endless recursive CTE), is
// "not a Zed threads database: none of the tables threads".
//
// Not done, each outside the seed's Files read (the collector gathers
// them): the catalog's prompts/*, conversations/*.zed.json (text threads)
// and logs/*.log targets, cumulative_token_usage, the workspace tables of
// db.sqlite.
package zed
