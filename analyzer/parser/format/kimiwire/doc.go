// Package kimiwire reads the Kimi wire format: a kimi-code session's
// wire.jsonl (a metadata header, then {timestamp, message: {type,
// payload}} records: TurnBegin, SteerInput, ContentPart, ToolCall,
// ToolResult, approvals, questions, SubagentEvent, hooks, compaction,
// retries, notifications) with its subagents' own wires beside it. Kimi
// CLI writes it under ~/.kimi/sessions/<work dir md5>/<session>/ with
// subagents/<agent>/wire.jsonl (analyzer/parsers/kimicli); the kimi-desktop
// app's daimon runtime (Kimi Work) writes the same files under
// sessions/<workspace>/conv-<id>/ with agents/<agent>/wire.jsonl
// (analyzer/parsers/kimiwork). Parse takes Options naming the subagent
// folder; Actions is Kimi CLI's tool table.
//
// ParseCode reads the newer Kimi Code journal (MoonshotAI/kimi-code,
// ~/.kimi-code/sessions/<workDirKey>/<session>/agents/<agent>/wire.jsonl:
// a metadata line, then top-level {type, ...payload, time} records such as
// turn.prompt, context.append_loop_event, usage.record, config.update);
// CodeActions is Kimi Code's tool table.
//
// Rows, accounting and sources (MoonshotAI/kimi-cli at 4a550ef) are listed
// in analyzer/parsers/kimicli/doc.go.
package kimiwire
