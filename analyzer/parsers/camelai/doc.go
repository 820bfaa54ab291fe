// Package camelai reads CAMEL-AI's chat_history.json, the file its
// JsonStorage (the default storage of ChatHistoryMemory) writes in the
// working directory of the program that ran the agents: a project file
// (catalog ProjectFiles), not a file under the home.
//
// # camel-ai/chat-history (target "project")
//
// Despite its name the file is JSON lines, one MemoryRecord.to_dict() a
// line, appended: {uuid, message: {__class__ (BaseMessage or
// FunctionCallingMessage), role_name, role_type, the message's meta_dict
// members, content, func_name, args, result, tool_call_id, mask_output},
// role_at_backend, extra_info, timestamp (Unix seconds, a float),
// agent_id}. RecordID is the uuid, SessionID the agent_id, ProjectPath
// the file's folder. role_at_backend:
//
//   - system, developer: a system row naming the role.
//   - user: a user row only when the role name is a person's ("User",
//     "Human": make_user_message in CAMEL's examples and CLI); any other
//     name is a role-playing agent's generated instruction, a system row
//     "input from <role name> (...not known to be typed by a person)".
//   - assistant: the reply as an assistant row; a FunctionCallingMessage's
//     func_name and args a tool_use row (ToolUseID the tool_call_id).
//   - function, tool: the result as a tool_result row by call id.
//
// A record with no timestamp is undated (time_basis none). A record with
// no message, an unknown role_at_backend, and a function result with
// neither a name nor a call id are skipped_record problems; a record with
// no text a Skip "no_evidence:empty_message".
//
// # Validated against
//
// camel-ai/camel @13dc7a7 (camel/storages/key_value_storages/json.py
// JsonStorage and CamelJSONEncoder; camel/memories/records.py
// MemoryRecord.to_dict; camel/messages/base.py and func_message.py
// to_dict; camel/types/enums.py OpenAIBackendRole). kenn-io/agentsview
// @538600744 has no CAMEL parser. Synthetic fixture
// (testdata/proj/chat_history.json): CAMEL is a Python library that
// writes the file only when a program asks for JsonStorage, not run here.
//
// # Not read yet
//
// A JsonStorage given another path writes any file name: only
// chat_history.json is collected. ~/.camel (skills, the Gmail token, a
// secret) and ~/.config/camel stay collected, not parsed.
package camelai
