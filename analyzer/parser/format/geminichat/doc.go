// Package geminichat reads the parts of the Gemini chat format that Gemini
// CLI and its fork Qwen Code both write: the @google/genai Part list of a
// chat message (ParseParts, PartsText) and the logs.json prompt log of
// core/logger.ts (ReadLogs, LogEntry), and the chat files (ParseChat):
// Gemini CLI's tmp/<slug>/chats JSONL op-log and legacy ConversationRecord
// JSON, which Qwen Code wrote too before its own JSONL ChatRecord
// (tmp/<hash>/chats/session-*.json, model messages of type "qwen";
// ChatOptions names the agent, the model's message type and the project
// resolver). Each agent package keeps its own rows: Qwen adds
// model_switch log entries that Gemini CLI does not write. The chat rows,
// record ids, rewinds and accounting are listed in
// analyzer/parsers/gemini/doc.go.
//
// Sources: google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2 (packages/core/src/core/logger.ts,
// packages/core/src/services/chatRecordingService.ts) and QwenLM/qwen-code
// at 015346f1d5d7312fddaf84a7ef1f83c7d217d389 (packages/core/src/core/logger.ts);
// the published @qwen-code/qwen-code 0.1.3 (cli.js ChatRecordingService);
// the fixtures are analyzer/parsers/gemini/testdata and
// analyzer/parsers/qwen/testdata/{logs,legacy}.
package geminichat
