// Package pearai parses PearAI, a VS Code fork whose chat is a Continue
// fork (pearai-submodule) and whose agent is a Roo Code 3.15 fork
// (pearai-roo-cline). The transcripts are read by the Continue session
// format (parser/format/continuesession) and the Cline task format
// (parser/format/clinetask) with PearAI's paths.
//
// Validated against: trypear/pearai-submodule source at 03800f80
// (2025-05-18; core/index.d.ts PersistedSessionInfo, core/util/history.ts,
// core/util/devdata.ts, core/llm/index.ts tokens_generated,
// gui/src/components/gui/StepContainer.tsx chat feedback) and
// trypear/PearAI-Roo-Code at 6e1e0c65 (2025-05-18; package.json name
// pearai-roo-cline, src/core/webview/ClineProvider.ts global state);
// synthetic fixtures. No real install: PearAI ships as an editor build,
// not on a registry reachable here.
//
// Files:
//
//   - pearai/sessions: .pearai/sessions/<sessionId>.json through
//     continuesession.ParseSessionFile: history as in the continue package,
//     then PearAI's perplexityHistory (the Perplexity integration's chat,
//     same ChatHistoryItem shape) after a system row "perplexity history:
//     ...", its SourceLine following history's. Every row takes the
//     session's sessions.json dateCreated (time_basis inherited); a
//     sessions.json entry whose file is gone is a system row (deleted
//     session).
//   - pearai/ui-messages, pearai/api-history: <editor>/User/globalStorage/
//     pearai.pearai-roo-cline/tasks/<id>/ through the cline reader,
//     clinetask.FlavorRoo (XML tool calls of api_conversation_history.json,
//     read whole without ui_messages.json, else only for the permission
//     decisions).
//   - the pearai.pearai-roo-cline row of PearAI's User/globalStorage/
//     state.vscdb (through vscodestate.VSCodeState by the pearai/extension-state
//     parser): each taskHistory entry whose task folder was not collected
//     is "task <id> is listed in state.vscdb but its folder is gone:
//     <task>" at its ts (clinetask.IndexEntry; an entry with its folder gives
//     no row of its own), and each auto-approval key (clinetask.RooPermKey) one
//     "permission setting: <key>=<value> (from state.vscdb, file mtime)"
//     row per value.
//   - pearai/dev-data: .pearai/dev_data/chat.jsonl, written when the user
//     rates a reply ({...PromptLog, feedback, sessionId}): the prompt as
//     sent (a system row "chat request prompt (as sent to <model>):"), the
//     reply (assistant) and "reply rated: thumbs up|down", secondary, no
//     time (window 0, pairing on session and text);
//     tokens_generated.jsonl: "model used: <model> provider=<p>
//     prompt_tokens=<n> generated_tokens=<n>" with Model, no time.
//
// Not read yet: the PearAI output channel log (<editor>/logs/.../
// output_logging_*/<n>-PearAI.log, collected as target output-log): its
// lines are free text whose writer calls were not reviewed; the project of
// a Roo task from taskHistory's workspace in the sibling state.vscdb (a
// JSON parser cannot open another file as a database; the cline reader's
// own project sources apply); the Continue-era config.json and .env are
// secret kind and never read.
package pearai
