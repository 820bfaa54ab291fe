// Package windsurf parses what Windsurf (Codeium's VS Code fork, whose
// agent is Cascade) leaves on disk, as far as the hook transcripts and the
// protobuf wire decoding reach. The turn structure of Cascade's .pb files
// is unknown: no schema is published, so nothing read from them is a user,
// assistant or tool row.
//
// Parsers (IDs "windsurf/<format>"):
//
//   - cascade-pb: ~/.codeium/windsurf{,-next}/cascade/<uuid>.pb, Cascade's
//     own history. The file is read as the protobuf wire format without a
//     schema (wire.go: the field walk and its error messages are ours, the
//     varints and fixed values are read with protowire): varint, 64-bit,
//     length-delimited and 32-bit fields; group wire types 3 and 4 are
//     reported as unsupported. A length-delimited payload is read as a
//     nested message when it parses completely with field numbers up to
//     65535 (and is not wholly printable text, which a short string like
//     "hi" would also be: field 13 = 105), else as text when it is valid
//     UTF-8 with at least 90% printable characters, else as opaque bytes.
//     Session id: the file's uuid. Rows, all system:
//     "cascade protobuf: <n> fields decoded, <k> strings, <t> timestamps,
//     <u> undecoded bytes" at the file's mtime (n counts fields at every
//     depth, k every text field, u the bytes after the point where
//     decoding stopped); then, in file order, one "pb field <path>: <text>"
//     per text field of four characters or more, path the field numbers
//     from the top (1.3.2; repeated fields share a path). Such a row's time
//     is the nearest (by field position; the earlier on a tie) timestamp in
//     the same enclosing message, with time basis inherited: a
//     google.protobuf.Timestamp-shaped submessage {1: seconds, 2: nanos <
//     1e9} and nothing else, or a varint that reads as epoch seconds or
//     milliseconds, both within 2015-01-01..2036-01-01. With none there the
//     row has no time (basis none): a time in a parent or child message is
//     not borrowed. source_line is the 1-based byte offset of the text
//     field's tag (a .pb has no lines), so the bytes are at offset
//     source_line-1. No turn type is guessed from field numbers.
//
//     What does not decode is a problem "cascade .pb not decodable as
//     protobuf wire format at byte <offset>: <why>" (offset 0-based), and
//     nothing is invented: a file that opens with zstd, gzip, snappy
//     framing, xz or lz4 frame magic is named as compressed and not
//     decoded (not decompressed either); a file that fails with a byte
//     entropy of 7.5 bits/byte or more (encrypted or compressed data; newer
//     builds encrypt these files, community notes say with AES-GCM and a
//     key in the language server) has whatever parsed before the failure
//     discarded as chance. A lower-entropy file that stops (a truncated
//     write) keeps the rows decoded before the failure. An empty file is
//     an empty message (zero counts, no problem).
//
//   - hook-transcript: ~/.windsurf/transcripts/<trajectory_id>.jsonl,
//     written by the post_cascade_response_with_transcript hook (the full
//     conversation from its start, rewritten after each response; the
//     directory is capped at 100 files, oldest pruned). Session id: the
//     trajectory_id (file name). Each line is a step {type, status,
//     <type>: {...}}, streamed with parser.Lines. user_input gives a user
//     row (user_response, what the person typed) and, for rules_applied,
//     "rules applied: <kind>=<rule>, ...; ..." (system). planner_response
//     gives a thinking row (thinking, when present) and an assistant row
//     (response). The tool steps code_action, view_file, run_command,
//     find, grep_search, list_directory, list_resources and mcp_tool give a
//     tool_use row (ToolName the step type; Text the command line, query,
//     pattern or path, for mcp_tool "<server>/<tool_name>"; ToolInput the
//     step's object without its output keys, for mcp_tool its arguments)
//     and, once the status is final (done; error, failed, cancelled,
//     rejected), a tool_result row (Text the output, stdout, stderr,
//     result or error and "exit code <n>", else "status: <status>";
//     IsError true for a failed status or an error value). The transcript
//     records no call id; the call and its outcome are one step, so both
//     rows carry ToolUseID "line:<n>". Any other step type (or a known one
//     without its text) is a system row "step <type> (status <status>):
//     <its object as compact JSON>". The documented steps carry no time:
//     rows have none (basis none) unless a step has timestamp or
//     created_at, which later steps without one inherit. A line that is
//     not JSON, a cut line glued to the next (the glued step is kept), a
//     step without type: problems, and the parse goes on. Last, one
//     "cascade hook transcript: <n> steps, <u> user inputs (file mtime:
//     written after the latest response)" at the file's mtime (the hook
//     rewrites the file after each response: the mtime is when the latest
//     one completed). Record ids: "<trajectory_id>:<line>#<k>", the k-th
//     row of the step on that line (the transcript keeps no ids and is
//     rewritten from its start, so a step keeps its line); the summary row
//     has none, its counts changing with each rewrite.
//
//   - mcp-config: ~/.codeium/windsurf/mcp_config.json, read by
//     clinetask.ParseMCPSettings: "permission setting:
//     mcpServers.<name>.<key>=<value> (from mcp_config.json, file mtime)"
//     for disabled, disabledTools (one row per tool) and alwaysAllow. env,
//     headers and serverUrl are never read (they hold keys).
//
// Not read, with the reason (the engine's inventory lists them): memories,
// workflows and global rules (the user's and Cascade's notes and
// instructions, not a record of what ran); the Windsurf, Windsurf - Next
// and Devin editors' own state.vscdb keys (no public shape for Cascade's
// records there: cctop's reader guesses four ItemTable keys and says
// itself they could be wrong; the editor extensions' rows of those
// databases are read by windsurf/extension-state), workspace.json,
// settings.json and logs, the remote and portable state databases; the
// Devin CLI's config (no public shape) and credentials (secret).
//
// Evidence: no Windsurf install was run here and no real sample exists in
// shared/agent-samples. The transcript shape is the Windsurf docs' Cascade
// Hooks page (docs.windsurf.com/windsurf/cascade/hooks,
// post_cascade_response_with_transcript: the example lines user_input,
// planner_response, code_action; "the exact structure of each step may
// change"); the other tool step types are those git-ai maps to tool calls
// (git-ai-project/git-ai src/commands/checkpoint_agent/transcript_readers.rs
// at 117c0e0783abbfa33ecfd5b4ca5deec18037c54a); mcp_tool {tool_name,
// arguments, result} is from a third-party hook consumer's tests. The
// field names inside those tool steps other than code_action's are not
// documented: the parser reads any of several plausible keys and keeps
// the whole object in ToolInput. The .pb decoder follows the wire format
// of protobuf.dev/programming-guides/encoding and is tested on its byte
// examples and on messages assembled at test time; it was not run on a
// real Cascade file.
package windsurf
