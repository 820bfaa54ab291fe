// Package autogenstudio reads AutoGen Studio's SQLite store,
// ~/.autogenstudio/autogen04<nnn>.db (the file name carries the version),
// written through SQLModel.
//
// # autogen-studio/database (target "database")
//
//   - team: "team <id>: <component label> (<provider>)"; the component's
//     config (model clients with their api_key) is not read into a row.
//   - session: "session: <name> (team <id> <label>)", SessionID the id.
//   - run: "run <id>: <status>, task from <source>: <task>, stopped:
//     <team_result.task_result.stop_reason> after <duration> s, error:
//     <error_message>" (redacted). run.messages (a copy of the message
//     rows) is not read.
//   - message in rowid order, config an autogen_agentchat message
//     model_dump(), RecordID "message:<id>": a TextMessage or
//     MultiModalMessage from source "user" is a user row (the task or the
//     reply typed in the Studio; images named, never read), from an agent
//     an assistant row "<agent>: <text>"; ThoughtEvent a thinking row;
//     ToolCallRequestEvent a tool_use row per FunctionCall (ToolUseID the
//     call id, ToolInput the arguments, redacted) and ToolCallExecutionEvent
//     a tool_result row per FunctionExecutionResult (paired by call_id,
//     IsError is_error); ToolCallSummaryMessage an assistant row;
//     HandoffMessage, StopMessage and UserInputRequestedEvent system rows;
//     models_usage a system row "model usage of <agent>: <n> prompt, <n>
//     completion tokens". A message whose session row is gone is kept with
//     an orphan_record problem; unreadable config is a parse problem; an
//     empty message a Skip "no_evidence:empty_message".
//
// Times: created_at is written with datetime.now(), host-local time with
// no zone, so every row is local-as-utc. The settings table (environment
// variables, API keys among them) and the gallery are never read.
//
// # Validated against
//
// Source, through the code index: microsoft/autogen
// python/packages/autogen-studio/autogenstudio/datamodel/db.py @5de4319
// (Team, Message, Session, Run, Settings); autogen_agentchat message
// types. Synthetic fixture (testdata/autogen.sql); AutoGen Studio was not
// run here.
//
// # Not read yet
//
// message_meta, run.messages, the gallery table, files/ (uploads) and
// configs/.
package autogenstudio
