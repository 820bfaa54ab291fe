// Package letta parses Letta Code's local backend (--backend local): the
// agents, conversations and memory it keeps under
// ~/.letta/lc-local-backend, and its settings files.
//
// Validated against: a real install of @letta-ai/letta-code 0.32.18
// (Linux x64, Node 24.22.3, December 2026) run offline
// against a loopback model (fixtures/roots/real-agents-4, written by
// scripts/gen-real-fixtures-4.sh), read beside letta-ai/letta-code at
// 1f4d3e3ea (0.30.29, August 2026): src/backend/local/local-store.ts
// (conversation folders keyed by base64url of "conversation:<id>" or
// "default:<agent id>", manifest.json LocalTranscriptManifest,
// messages.jsonl session entries, append-only replacement snapshots,
// forkConversation, the .pre-pi-backup-<time> copy a transcript
// migration leaves), src/backend/local/local-message.ts,
// local-types.ts (LocalAgentRecord), local-provider-auth-store.ts
// (providers/auth.json), src/utils/secrets-store.ts
// (secrets/local-agent-secrets.json), src/permissions/loader.ts and
// types.ts (the permission files and rules) and src/agent/agent-tags.ts
// (role:subagent).
//
// Parsers:
//
//   - letta/conversation: conversations/<key>/messages.jsonl. Letta writes
//     pi session entries (manifest message_format
//     "pi-session-entry-jsonl"), read through pi's exported session
//     reader (pisession.NewSession with Contract, QualifyIDs and a Harness
//     classifier), so every row carries RecordID "<conversation
//     id>/<entry id>[#<block>]": the entry ids are 8 hex digits, unique
//     only within one file. The header's id is the session id (the
//     folder's decoded key when the header is missing) and its cwd the
//     project path. A user message's <system-reminder> blocks (device,
//     agent and permission-mode reminders Letta adds to the first prompt
//     of a connection) are system rows; the typed block is the user row.
//     Each assistant message's model gives "model: <model>" and on a
//     change "model: <old> -> <new> provider=<provider>" (a resume with
//     -m writes no model_change entry). A tool result is the agent's own:
//     a denied call is "Tool requires approval (headless mode)" with
//     is_error true. A message id written again (a replacement snapshot)
//     keeps both entries and adds "message <id> rewritten: ...".
//   - letta/conversation-meta: conversation.json ("conversation <id> of
//     agent <agent> created; last message ...; <n> message(s) in
//     context" at created_at, "conversation <id> archived at ..." and
//     "conversation summary: ..."), manifest.json (a row only for a
//     migrated transcript, naming its backup) and system-prompt.json
//     ("system prompt compiled (<n> chars, memory revision <sha>)" with
//     the core memory text in context, at compiledAt). An agent's
//     default conversation is session "default:<agent id>".
//   - letta/agent: agents/<key>.json, one row at the file's mtime: id,
//     name, model, tags ("local subagent" for role:subagent), hidden,
//     and the system prompt's length (not its vendor text).
//   - letta/settings: ~/.letta/settings.json, ~/.config/letta/settings.json
//     and a project's .letta/settings.json and settings.local.json (file
//     mtime; project rows carry the project path): each permissions entry
//     ("permission setting: allow|deny|ask|alwaysAsk|additionalDirectories
//     <rule>", "permission setting: mode=<mode>"), each sessionsByServer
//     entry ("last session on the local backend <dir>: ..." or "session
//     synced: server <url> ..."), lastSession, and each agents[] entry
//     (server, system prompt preset, memory filesystem). No other key is
//     read.
//   - letta/providers: providers/auth.json (a secret file: only the named
//     keys name, provider_type, provider_category, base_url, created_at,
//     updated_at are read, never auth): "model provider connected: <name>
//     type=<type> base_url=<url>".
//   - letta/memfs: memfs/<agent>/memory/: each memory file one row at its
//     mtime with its text (up to 1 MiB); in its git repository
//     (collected, .git included) the reflogs logs/HEAD and
//     logs/refs/heads/* (one row per line at its commit time,
//     RecordID "memfs:<agent>@<sha>#<action>", so the two logs' rows of
//     one commit merge), config (a remote url, such as the
//     letta.memoryRepository.url the post-commit hook pushes memory to)
//     and memory-repository-push.log (one row per push). Objects, refs,
//     hooks and the index are collected for git tools and give no row.
//
// Not done: the cloud backend's files (.letta/transcripts/, sessions.jsonl,
// runs/, crons.json, channels/, listener-state/) that 0.32.18's local
// backend did not write: their parsers wait for a real install; the
// legacy messages.jsonl.pre-pi-backup-* copies are collected, not parsed
// (their pre-pi UI-message format was not read); subagents are named
// from their agent record (role:subagent) but not yet linked to the
// parent conversation's Task call; secrets/local-agent-secrets.json is
// collected as a secret and never read.
package letta
