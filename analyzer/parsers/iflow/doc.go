// Package iflow reads iFlow CLI's session transcripts. iFlow CLI is a
// Gemini CLI fork whose session store is the Claude Code transcript
// format: <iflow dir>/projects/<project>/session-<uuid>.jsonl (the iflow
// dir is ~/.iflow, or IFLOW_HOME), one record a line, each with uuid,
// parentUuid, sessionId ("session-<uuid>", the file's stem), timestamp,
// type user or assistant, isSidechain, userType, message, cwd, gitBranch
// and version.
//
// # iflow/transcript (target "projects", *.jsonl)
//
// Read by parser/format/claudetranscript (see analyzer/parsers/claudecode
// for the rows, record ids and accounting) with two iFlow options:
//
//   - CallIdentity: iFlow writes an assistant turn as streaming snapshots,
//     adjacent assistant records under one parentUuid, milliseconds apart,
//     each with its own uuid and message id, that repeat the tool calls
//     still running. A tool_use row's RecordID is "<call id>#tool_use", so
//     the snapshots' copies of one call are one row in the engine's
//     identity merge (counted as repeats); a call id written again with
//     another input keeps both rows, and the merge reports the conflict.
//     agentsview merges the snapshots in its parser instead (keeping the
//     last per parentUuid); here no record is dropped by the parser.
//   - ResultStatus: a tool result record's content is the function
//     response kept whole ({callId, responseParts: {functionResponse:
//     {response: {output | error}}}, resultDisplay}); its row's text is
//     the output, else the error, else the display text, and
//     toolUseResult.status "error" sets is_error.
//
// isMeta records and isCompactSummary compression records (with
// compressionInfo) are system rows, never user rows, as in Claude Code.
// The session id is the one the records carry ("session-<uuid>").
//
// The control surface (settings.json hooks and MCP servers, IFLOW.md,
// commands, agents, skills, extensions) is read by iflow/surface
// (analyzer/parsers/surface, Gemini CLI's layout under .iflow).
//
// # Evidence
//
//   - Source: iFlow CLI's bundle as kept in The-Sunder-islands/iflow-cli-ce
//     at be765979217c3df0cd841c0fbecdb15fa306799b
//     (modules/app/auth/vUi_iflow-auth.js: the message factory
//     createUserMessage, createAssistantMessage, createToolResultMessage,
//     createCompressionMessage, createMetaMessage; the store's saveMessage
//     appending to projects/<project>/<sessionId>.jsonl;
//     modules/app/auth/pOe_iflow-auth.js: the iflow dir and IFLOW_HOME);
//     tool names from the same bundle's tool classes.
//   - kenn-io/agentsview at 538600744d1b87614d3746d36a0966c1f2ac1cad
//     (internal/parser/iflow.go, iflow_provider.go and the test file
//     testdata/iflow/session-*.jsonl: the snapshot shape and the default
//     directory .iflow/projects).
//   - Not run: npm @iflow-ai/iflow-cli is not served by the registry here
//     (404), so the fixture (testdata/home) is built from the source above
//     (testdata/README.md).
//
// # Not read, and why
//
//   - settings.json, oauth_creds.json, iflow_accounts.json, .env (target
//     "config", secret kind): the API key and OAuth tokens; only the
//     surface parser's named non-secret keys are read.
//   - tmp/ (Gemini CLI's checkpoints and shell history under the project
//     hash): not collected yet.
package iflow
