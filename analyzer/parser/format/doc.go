// Package format is the home of the file formats that more than one agent
// writes. An agent's own package (analyzer/parsers/<agent>) holds its Specs,
// its paths and what only that agent writes; a format that forks share
// lives in a package below this one, named for the format, not for an
// agent:
//
//	clinetask        Cline task folders and settings (cline, roo-code and its
//	                 Roo flavor, kiro, pearai, windsurf, antigravity, musecode)
//	geminichat       Gemini chat parts, chat files and logs.json (gemini-cli,
//	                 qwen-code)
//	pisession        pi session JSONL (pi, letta, openclaw)
//	continuesession  Continue sessions/<id>.json and its index (continue, pearai)
//	copilottools     the Copilot runtime's tool table (copilot-cli, copilot-desktop)
//	claudetranscript Claude Code transcripts (claude-code, claude-desktop, iflow,
//	                 openclaude, qoder)
//	codexhome        the Codex home: rollouts, history, config, state, thread
//	                 history, logs and memories (codex-cli, open-interpreter)
//	kimiwire         Kimi wire.jsonl sessions (kimi-cli, kimi-work)
//	vscodestate      the VS Code state database, state.vscdb, and the
//	                 extension state and sign-ins in it (vscode, cursor,
//	                 trae, cody, pearai, roo-code, tabby, twinny)
//
// Agent packages import these and the parser contract, never each other:
// analyzer/parsers/structure_test.go fails on any import of one agent
// package by another, with no exceptions. A format package names its sources in its
// doc.go; the agents' doc.go files name the evidence it was checked on.
package format
