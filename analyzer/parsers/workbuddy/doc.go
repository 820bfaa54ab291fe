// Package workbuddy reads WorkBuddy (Tencent's desktop agent of the
// CodeBuddy family): one JSON Lines transcript per session under
// ~/.workbuddy/projects/<project>/<session>.jsonl, a subagent's under
// <project>/<session>/subagents/<agent>.jsonl, and the tool outputs it
// saved aside under <project>/<session>/tool-results/
// (WORKBUDDY_PROJECTS_DIR moves the tree; not followed here).
//
// Evidence: WorkBuddy is closed source with no npm or command-line release
// (npm view workbuddy and @tencent-ai/workbuddy: 404), so the format is
// read from kenn-io/agentsview internal/parser/workbuddy.go,
// workbuddy_provider.go and their tests at 5386007 (the file last changed
// in b85eae5), the only public description, and the fixture is built from
// it. Each line is one item of the OpenAI Agents SDK protocol with id,
// timestamp (epoch milliseconds), sessionId and cwd:
//
//   - type message, role user: its input_text/text parts are the typed
//     prompt (a user row); any other part (an image, a file) is a system
//     row naming it, never user text;
//   - type message, role assistant: output_text/text parts are a reply;
//     providerData.model names the model; providerData.usage (else
//     rawUsage) gives a system row "token usage: <counter> N, ..." after
//     the record's rows, every number under the name it was written with
//     (agentsview 538600744 workbuddy.go maps the same fields);
//   - type reasoning: a thinking row (its content or summary text);
//   - type function_call: a tool call (name, callId, arguments);
//   - type function_call_result: its result (callId, output: a string or a
//     {type: text, text} object; status "incomplete" or an error output
//     sets is_error);
//   - any other type or role is a skipped_record problem, a line that is
//     not JSON a parse problem; nothing is dropped without a count.
//
// Sessions: a main transcript's session is the sessionId of its records
// (else the file name); a subagent's is "<parent session>/<agent>" with the
// parent session from its folder, so two sessions' agent-1.jsonl never
// merge. The cwd names the project folder of the rows from it on.
//
// Times: timestamp is recorded epoch milliseconds (UTC); a record without
// one inherits the time of the record before it (time_basis inherited),
// or has none. A saved tool output's row has the file's mtime.
package workbuddy
