// Package clinetask reads the Cline task format, which Cline's VS Code
// extension and CLI 2.x write and its forks copy: a tasks/<id>/ folder with
// ui_messages.json (ClineMessage array), api_conversation_history.json
// (Anthropic MessageParam array) and task_metadata.json, the
// state/taskHistory.json index (HistoryItem array), globalState.json and
// cline_mcp_settings.json settings. Cline, Roo Code (FlavorRoo: Roo, Kilo
// Code before its migration, PearAI's Roo-based agent, MuseCode), Kiro,
// Windsurf and Antigravity call it with their agent name and flavor; each
// agent package keeps its own Spec and paths.
//
// Every JSON array file is decoded element by element from the stream
// (DecodeArray); a cut array gives the elements before the cut and a
// problem.
//
// Sources: cline/cline at 9ee618111d58630fea30b27439216448225458e0
// (src/core/task/tools/utils/ToolResultUtils.ts, src/core/prompts/responses.ts)
// and at 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4
// (apps/vscode/src/core/storage/disk.ts, apps/vscode/src/shared/ExtensionMessage.ts,
// shared/HistoryItem.ts); the evidence, fixtures and real samples are listed
// in analyzer/parsers/cline/doc.go and analyzer/parsers/roocode/doc.go.
package clinetask
