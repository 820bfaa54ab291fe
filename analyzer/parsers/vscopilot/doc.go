// Package vscopilot reads GitHub Copilot in Visual Studio (the Windows
// IDE; catalog agent visualstudio-copilot): the OpenTelemetry traces its
// agent mode writes, one OTLP JSON document a line, to
// %TEMP%\VSGitHubCopilotLogs\traces\<time>_<id>_VSGitHubCopilot_traces.jsonl
// (~/Library/Caches/... and ~/.cache/... on the retired macOS build and
// Linux).
//
// Evidence: Visual Studio is closed source, Windows only, with no package
// to run here; the paths and span shapes are from kenn-io/agentsview
// internal/parser/types.go, visualstudio_copilot.go and
// visualstudio_copilot_test.go at 5386007 (visualstudio_copilot.go last
// changed in b85eae5), and the fixture is built from them. A line is
// {"resourceSpans":[{"scopeSpans":[{"spans":[span...]}]}]}; a span has
// traceId, spanId, name, startTimeUnixNano and attributes [{key, value:
// {stringValue|intValue|boolValue|doubleValue}}]:
//
//   - gen_ai.conversation.id is the session (a 36-character id is read
//     lower case, as Visual Studio 2026 spells one id both ways); a span
//     without one is a skipped_record problem;
//   - a chat span (gen_ai.operation.name chat, or a name "chat <model>"):
//     the last user message of gen_ai.input.messages is the prompt, a
//     user row with RecordID "<copilot_chat.root_request_id>#prompt"
//     (every step of a turn repeats it: each repeat is a row of that id,
//     merged by the correlate stage, and a step whose prompt differs is
//     kept and a duplicate_id problem); its
//     gen_ai.output.messages give assistant rows (text parts) and tool_use
//     rows (tool_call parts: id, name, arguments); the model is
//     gen_ai.response.model, else gen_ai.request.model; its
//     gen_ai.usage.input_tokens and output_tokens a system row "token
//     usage: input N, output N" (RecordID <span>#usage; the counters
//     agentsview 538600744 visualstudio_copilot.go reads);
//   - an execute_tool span (gen_ai.tool.name, gen_ai.tool.call.id,
//     .arguments, .result): a tool_use row (RecordID the call id, as the
//     chat span's tool_call part names it: the correlate stage keeps one
//     of the two) and the tool_result row;
//   - an invoke_agent span: a system row naming the agent mode
//     (copilot_chat.mode) and model;
//   - any other span is a skip "no_evidence:span"; a line that is not JSON
//     is a problem.
//
// The prompt is the last user message as Copilot sent it to the model:
// Visual Studio may have added context to it (the traces do not separate
// it), so the user row is what the trace holds, not proven keystrokes.
// Times: the span's startTimeUnixNano (UTC). Not read: Visual Studio 2026's
// copilot-chat/<x>/sessions/<id> files, whose location under a home
// agentsview does not name.
package vscopilot
