// Package amp parses what Sourcegraph's Amp CLI keeps on the host (catalog
// agent amp). Amp keeps its threads on ampcode.com: the local files are a
// prompt history, logs, the terminal tool's shell history and settings.
//
//   - ~/.local/share/amp/history.jsonl: {"text", "cwd"} per submitted
//     prompt (the previous prompt repeated is not appended; trimmed to a
//     byte budget from the front): secondary user rows with the cwd as
//     project_path and no time or thread (time_basis none).
//   - ~/.cache/amp/logs/threads/<T-id>.log and cli.log: LogTape JSON Lines
//     with the properties flattened into each record ({"@timestamp",
//     "level", "message", "logger", "threadId", ...}); every record is a
//     system row "log LEVEL logger: message (key=value ...)" for the
//     properties that name a tool, server, error, status or directory, in
//     the thread the threadId property or the file name gives.
//   - ~/.cache/amp/terminal/<thread>/history: one shell command a line of
//     the terminal tool, system rows "terminal command: ..." with no time.
//   - ~/.config/amp/settings.json(c): amp.permissions entries,
//     amp.dangerouslyAllowAll, amp.commands.allowlist, amp.tools.disable
//     (permission setting rows), MCP servers by name and command or URL
//     only, the other amp.* keys; nothing whose name says token, key,
//     secret, header or env.
//
// Validated against: the JavaScript embedded (UTF-16, in the .bun section)
// in the @ampcode/cli 0.0.1790142911-g7618fb linux-x64 binary (npm
// @sourcegraph/amp, now a shim depending on @ampcode/cli): the history
// class (TGH: {text, cwd}, history.jsonl under the data dir), the LogTape
// setup (a9t/L9t: a file sink and a per-thread sink writing
// logs/threads/<threadId>.log through getJsonLinesFormatter with
// properties "flatten") and the settings schema. The CLI was installed
// with --ignore-scripts and never run: it needs ampcode.com for every
// thread, so every fixture here is synthetic, built from those shapes.
package amp
