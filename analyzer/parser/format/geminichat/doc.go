// Package geminichat reads the parts of the Gemini chat format that Gemini
// CLI and its fork Qwen Code both write: the @google/genai Part list of a
// chat message (ParseParts, PartsText) and the logs.json prompt log of
// core/logger.ts (ReadLogs, LogEntry). Each agent package keeps its own
// rows: Qwen adds model_switch log entries that Gemini CLI does not write.
//
// Sources: google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2 (packages/core/src/core/logger.ts,
// packages/core/src/services/chatRecordingService.ts) and QwenLM/qwen-code
// at 015346f1d5d7312fddaf84a7ef1f83c7d217d389 (packages/core/src/core/logger.ts);
// the fixtures are analyzer/parsers/gemini/testdata/logs and
// analyzer/parsers/qwen/testdata/logs.
package geminichat
