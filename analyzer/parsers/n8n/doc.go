// Package n8n reads n8n's SQLite store, ~/.n8n/database.sqlite, and the
// computer-use gateway's log, ~/.n8n-local-gateway/log.
//
// # n8n/database (targets "database" and "volume")
//
// ~/.n8n/database.sqlite, and database.sqlite at the top of a Docker or
// Podman volume *n8n_data / *n8n-data (the image mounts it as /home/node/.n8n).
//
// Tables read by column name:
//
//   - workflow_entity: id and name only, to name executions (nodes can
//     hold parameters typed into a node; they are never read).
//   - execution_entity in rowid order: a system row "execution <id> of
//     workflow <name> (<id>) (<mode>): <status>, stopped <time>" at
//     startedAt (createdAt when it never started), saying "a retry of
//     execution <n>" and "deleted <time> (soft-deleted: kept until
//     pruned)" from deletedAt; with no execution_data row it says its data
//     is gone. RecordID "execution:<id>".
//   - execution_data.data, IRunExecutionData serialised with npm flatted
//     (an array of values referenced by index; unflatten in flatted.go; the
//     older plain JSON object reads too): each ITaskData of
//     resultData.runData in startTime order (epoch ms, UTC), its node's
//     type from workflowData.nodes. A Chat Trigger's chatInput is a user row
//     (what the person typed in the chat), and its sessionId becomes the
//     SessionID of every row of the execution ("execution:<id>" otherwise);
//     an AI tool sub-node (an ai_tool connection) gives a tool_use row
//     (ToolName the node type's last part, ToolInput the inputOverride
//     item, Text "<node name> <input>") and a tool_result row (the
//     response; IsError and the error message when the run failed); a
//     model sub-node (ai_languageModel) a system row "model call: <node>
//     (<type>): <status>" (its prompt and completion are not copied: the
//     agent's tool rows and reply carry the conversation); an AI Agent node
//     its output as an assistant row; every other node "node <name>
//     (<type>): <status>: <error>". RecordID "execution:<id>#<node>#<run>".
//     Unreadable data is a parse problem naming the execution, whose
//     system row is kept.
//   - chat_hub_sessions: "chat: <title> (provider, model, agentName)";
//     chat_hub_messages in rowid order, SessionID the session id: human as
//     user, ai as assistant (Model the model), tool as tool_result, system
//     and generic as system rows; a retry or an edit (retryOfMessageId,
//     revisionOfMessageId) keeps both messages and adds "message <id> is a
//     retry of / an edit of message <id> (both kept)"; a status other than
//     success is "message <id> status: <status>"; attachments (IBinaryData)
//     give "attachment: <fileName> (<mimeType>, <fileSize>, content not
//     read)": the base64 data is never read. A message whose session row is
//     gone is kept with an orphan_record problem; an empty message with
//     nothing else is a Skip "no_evidence:empty_message".
//
// credentials_entity (the encrypted credentials) is never queried, and
// ~/.n8n/config (the encryption key) is not collected. Times are TypeORM's
// UTC "YYYY-MM-DD HH:MM:SS.SSS" (parser.SQLTime).
//
// # n8n/gateway-log (target "gateway-log")
//
// packages/@n8n/computer-use/src/logger.ts writeToFile: "[<ISO time>]
// [<LEVEL>] <message> <meta JSON>". printToolCall's meta {tool, args} is a
// tool_use row with the full arguments (secret-shaped values redacted);
// printToolResult's {tool, durationMs, error} a tool_result row paired
// with the oldest unanswered call of the same tool (the log keeps no call
// id and no session: the rows have none); printConnected a system row
// "computer-use gateway connected to <url>"; disconnects, shutdowns and
// authentication failures system rows. Other status lines are a Skip
// "no_evidence:gateway_status"; a line not in the format is a parse
// problem.
//
// # Validated against
//
// Source, read through the code index (the repository is too large to
// fetch whole): n8n-io/n8n packages/@n8n/db/src/entities/execution-entity.ts
// @b1d4cbd, execution-data.ts @14e1012, packages/cli/src/modules/chat-hub/
// chat-hub-session.entity.ts @7fff6db, chat-hub-message.entity.ts @96eebe9,
// packages/@n8n/computer-use/src/logger.ts (the research's 0e1c754).
// Synthetic fixtures (testdata/database.sql with flatted data written as
// flatted does; testdata/gateway.log); no real store: the n8n release was
// not run here.
//
// # Not read yet
//
// The event log (n8nEventLog*.log) and crash.journal, the gateway's
// settings.json, execution_metadata and execution_annotations, the model
// sub-nodes' prompts and completions, binary data files.
package n8n
