// Package flowise reads Flowise's SQLite store, ~/.flowise/database.sqlite
// (DATABASE_PATH moves it), written by TypeORM from the SQLite migrations.
//
// # flowise/database (target "database")
//
// Tables read by column name, so stores from before a migration read alike:
//
//   - chat_flow: a system row "chatflow: <name> (<type>)" at createdDate,
//     saying deployed and public; flowData (the graph, which names
//     credentials by id only) is not read into a row.
//   - chat_message in rowid order, SessionID the chatId (the conversation;
//     sessionId when chatId is empty), RecordID the message id.
//     userMessage of chatType INTERNAL (the Flowise UI) or EXTERNAL (the
//     embedded chat and the prediction API) is a user row; of EVALUATION,
//     MCP, SCHEDULED or WEBHOOK it is a system row "prompt from a <type>
//     run (not typed by a person)". apiMessage gives a thinking row from
//     reasonContent ("<id>#thinking"); per agentReasoning entry (IAgentReasoning:
//     multi-agent and sequential flows) an assistant row "agent <name>:
//     <message>" per message, its usedTools, and a system row "agent <name>
//     hands over to <next>: <instructions>"; per usedTools entry (IUsedTool)
//     a tool_use row (ToolInput the toolInput, secret-shaped values
//     redacted) and a tool_result row (toolOutput; IsError when error is
//     set, its text appended), both at the message's time since Flowise
//     records one time per message ("<id>#tool<n>", "...:result"); the reply
//     as an assistant row; a human-in-the-loop action as "permission
//     request: <button labels>". fileUploads give "upload: <name> (<type>
//     <mime>, content not read)": the data (a data: URL) is never read. A
//     message whose chat_flow row is gone is kept with an orphan_record
//     problem; an empty apiMessage is a Skip "no_evidence:empty_message";
//     unreadable usedTools, agentReasoning or fileUploads JSON is a parse
//     problem naming the message, the rest of the row kept.
//   - chat_message_feedback: "feedback on message <id>: <rating>: <text>".
//   - execution (Agentflow V2): a system row per run "agentflow execution
//     <id> of <flow>: <state>, stopped <time>" and, per node of
//     executionData (IAgentflowExecutedData), "node <label> (<name>):
//     <status>"; a Tool node gives its selectedTool call with
//     toolInputArgs and the output content; an Agent node its usedTools
//     and, like an LLM node, its output as an assistant row; a Human Input
//     node its decision "human input: <proceed|reject|feedback>". SessionID
//     is the execution's sessionId. All rows of one execution carry its
//     createdDate (nodes record no time of their own).
//
// TypeORM writes datetime columns as UTC "YYYY-MM-DD HH:MM:SS.SSS"
// (parser.SQLTime). The credential table (encryptedData), apikey, user,
// variable, lead and document store tables are never queried: the
// credential table and ~/.flowise/encryption.key (which the catalog does
// not collect) are the stored provider keys.
//
// # Validated against
//
// Source: FlowiseAI/Flowise @ababf4c8ebc0 (2026-07-24, 3.x):
// packages/server/src/database/migrations/sqlite/*.ts (Init through
// AddExecutionEntity and the later column additions), database/entities/
// ChatMessage.ts, Execution.ts, packages/components/src/Interface.ts
// (IUsedTool, IAgentReasoning, IAction, IFileUpload), packages/server/src/
// utils/buildAgentflow.ts and nodes/agentflow/{Agent,Tool,HumanInput}
// (executionData), packages/server/src/utils/config.ts (logs at $LOG_PATH
// or the install's node_modules/flowise/logs). Synthetic fixture
// (testdata/database.sql, the migrations' final DDL); no real store.
//
// # Not read yet
//
// sourceDocuments, fileAnnotations, artifacts, followUpPrompts and
// leadEmail of chat_message; the upsert_history and evaluation tables;
// the server logs (collected).
package flowise
