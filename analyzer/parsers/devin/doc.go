// Package devin parses the local Devin CLI's store (Cognition's Devin):
// cli/sessions.db and cli/transcripts/<session>.json under its data
// directory.
//
// Validated against: no public source and no package (npm devin and
// @devin-ai/cli are 404): the layout kenn-io/agentsview at 5386007 reads
// (internal/parser/devin.go: the sessions and message_nodes columns, the
// transcript's steps; devin_test.go: their shapes; types.go: the data
// directories Library/Application Support/devin and .local/share/devin,
// and DEVIN_DIR). Dicklesworthstone/coding_agent_session_search at
// 2a1fc6f has no Devin connector (issues #328, #385, #423 and #449 ask for
// one, the local sessions.db and the cloud export; #449, closed
// 2026-09-22, says cass v0.8.0 reads the local store at
// ~/.local/share/devin/cli/sessions.db and will not read the cloud
// sessions, which "only exist behind an API key"). The fixtures are
// synthetic, built from those shapes.
//
// Folders: the data directory is the platform's (dirs-style): Linux
// ~/.local/share/devin, macOS ~/Library/Application Support/devin,
// Windows %APPDATA%\devin (AppData/Roaming/devin). The Windows one is
// named by two sources, no longer a guess: docs.devin.ai's CLI
// configuration page (the user config at %APPDATA%\devin\config.json,
// beside ~/.config/devin/config.json elsewhere) and
// AlexanderWagnerDev/agent-nexus v0.1.12's release notes (its Devin
// adapter reads %APPDATA%\devin\cli\sessions.db on Windows,
// $XDG_DATA_HOME/devin/cli/sessions.db elsewhere, a store Devin Desktop
// shares). No real Windows install was seen.
//
// Not read: the Devin cloud (app.devin.ai) sessions. They live behind the
// REST API (v1 GET /v1/sessions, v3 .../sessions/{devin_id}/messages:
// items of created_at, event_id, message, source); neither the CLI nor
// the desktop app writes them to disk, no export file or folder of
// theirs is documented or named by any peer (cass #449 was declined for
// that reason; agentsview 5386007 reads only cli/), so there is no
// catalog path to collect and nothing to parse. A saved API response
// wherever a user put it is outside every catalog glob.
//
// Files:
//
//   - devin/sessions-db: sessions.db. sessions, one system row each at
//     created_at (epoch seconds): "devin session <id>; title ...; working
//     directory ...; model ...; last activity ...", a hidden session kept
//     with "hidden in the app, kept in the store". message_nodes, each at
//     its created_at with RecordID "node-<node_id>#...": chat_message is an
//     OpenAI-style message: role user the typed prompt, assistant or
//     agent the reply (content a string or Claude-style blocks: text,
//     thinking, tool_use, tool_result), thinking, tool_calls (function
//     name and full arguments), role tool the result of tool_call_id with
//     the call's name; system and any other role a system row named by
//     its role. A node whose parent_node_id is not the session's node
//     before it is a branch (an edit or a retry): both branches are kept
//     and a row says where it branches. A node of a session with no row
//     is an orphan_record problem (kept).
//   - devin/transcripts: transcripts/<session>.json, a trajectory (steps
//     with source user|agent|system, timestamp, message, tool_use,
//     tool_result, model_name, extra.generation_model, metrics; the
//     agent's model and final_metrics). The same turns the message nodes
//     hold, so its rows are secondary (paired with the nodes' rows within
//     a minute, written marked secondary where they pair with none); a
//     step's metrics and the final metrics are rows of their own. A step
//     with no timestamp inherits the one before it. A step of an unknown
//     source is a skipped_record problem.
//
// Streaming (transcript.go): a transcript is never decoded whole. The
// first pass reads the document token by token (encoding/json Decoder
// Token and More), decoding one step at a time, keeping the header
// members (agent, working_directory, cwd, final_metrics, updated_at,
// wherever they stand, matched as encoding/json matches keys) and the
// steps while they come to no more than holdBudget (32 MB). A document
// cut short (a copy taken while the CLI was writing it) or broken once
// its steps array is begun keeps every complete step before the cut,
// each its rows as the whole file gives them, and the header members read
// before it, with one problem: "Devin transcript cut short (...) inside
// its steps array: the <n> complete step(s) before the cut are read, the
// step being written and the rest of the file are not" (or "after its
// steps array: its <n> step(s) are read, the members after the cut are
// not"); the second pass stops at the same step (v3). One that fails
// before its steps array, or with a header member of the wrong type,
// gives the problem decoding it whole gave and no rows; data after the
// value is parser.DataAfterJSON's problem; of two steps
// members the last is read and each earlier one's steps are a
// skipped_record problem (v2). Steps held are
// written from memory; a transcript with more is read a second time, one
// step at a time, and a file that changes between the passes keeps the
// rows read and says the rest was not read. Memory is bounded by the
// budget and the largest step. Measured on a generated 210 MB transcript
// (144,176 steps, 384,471 rows; a program calling the parser with a
// counting sink, /usr/bin/time -v, 2 loaded cores, 2026-12-02): decoded
// whole, peak RSS 747 MB and 2.9 s; streamed with the budget, 53 MB and
// 4.4 s (the second read costs the time); with no budget, 23 MB and 5.4
// s. The whole run (doubleagent timeline on that file as a loose tree):
// 464 MB and 21.4 s before, 208 MB and 11.9 s after, its output files
// byte-identical. BenchmarkTranscript (about 4 MB, held): 126 ms/op and 61 MB/op
// whole, 114 ms/op and 45 MB/op streamed.
package devin
