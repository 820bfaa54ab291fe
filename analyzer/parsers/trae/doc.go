// Package trae reads Trae, ByteDance's AI IDE (a VS Code fork; the
// international, CN and SOLO CN builds keep their profiles in "Trae",
// "Trae CN" and "TRAE SOLO CN" under the per-user application config
// folder on every OS).
//
// Evidence: Trae is closed source and desktop only, so the format is read
// from kenn-io/agentsview internal/parser/trae_provider.go and
// trae_layout.go at 5386007, and the fixtures are built from it:
//
//   - User/{globalStorage,workspaceStorage/<hash>}/state.vscdb, read through
//     the shared VS Code state reader (vscodestate.VSCodeState): the ItemTable
//     row "memento/icube-ai-agent-storage" holds {"list": [session]}, a
//     session {sessionId, createdAt, updatedAt, model, messages}, a message
//     {role, content, agentTaskContent, timestamp (epoch seconds or
//     milliseconds, or RFC 3339), model, turnIndex}. Each session gives a
//     system row; a user message a user row (the chat input: Trae keeps no
//     injected context in this list); an assistant message an assistant row
//     from content, or from agentTaskContent (its content, text or proposal,
//     or a plan's items) when content is empty. Other roles, empty
//     messages, sessions without an id and other members of the row are
//     counted. The other extensions' rows of these databases are read by
//     the shared extension-state parser (trae/extension-state).
//   - ModularData/ai-agent/database.db: the modern builds' agent store. It
//     is not a SQLite file (its header is ciphertext; agentsview reports
//     the layout "unsupported" for it), so it gives one "encrypted, not
//     read" row naming it and its size at the file mtime; a plain SQLite
//     file there is counted as a schema not known here.
//
// Tool calls, tool results and permission decisions are not in the plain
// store: in the modern builds they are in the encrypted one.
//
// Times: a message's timestamp is recorded; without one its row inherits
// the session's createdAt (time_basis inherited), or has none.
package trae
