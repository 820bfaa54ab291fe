// Package format is the home of the file formats that more than one agent
// writes. An agent's own package (analyzer/parsers/<agent>) holds what only
// that agent writes; a format that forks share (Cline's task folder, which
// Roo Code, Kiro, PearAI, Windsurf, Antigravity and MuseCode also write;
// Gemini CLI's chat files, which Qwen Code writes; pi's session files, which
// Letta and OpenClaw write; Continue's session files, which PearAI writes)
// lives in a package below this one named for the format, not for an agent:
//
//	parser/format/clinetask      Cline task folder (ui_messages.json, api_conversation_history.json, task index, settings)



//
// Agent packages import these and the parser contract, never each other:
// analyzer/parsers/structure_test.go fails on an import of one agent
// package by another. A format package names its sources in its doc.go.
package format
