// Package copilottools holds the tool vocabulary of GitHub's Copilot agent
// runtime, which Copilot CLI and Copilot Desktop both record (the tool
// names of tool.execution_start events and of the desktop's data.db): the
// map from a tool name to the one action vocabulary
// (analyzer/docs/actions.md).
//
// Source: github/copilot-sdk at cc0438d66e3e68c333537cb935d9425d4e4ed8d5
// (session-events.schema.json) and the real events.jsonl samples listed in
// analyzer/parsers/copilotcli/doc.go.
package copilottools
