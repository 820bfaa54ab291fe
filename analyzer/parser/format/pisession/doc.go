// Package pisession reads the pi session format: the JSONL session tree
// (SessionHeader then SessionEntry lines: messages, model and thinking
// changes, branch and compaction summaries, custom entries) that pi writes
// and that Letta Code (its local backend's conversations) and OpenClaw
// (agent transcripts and its agent database's messages) write too. An agent
// package reads a file with NewSession and its own Options (agent name,
// contract checks, id qualification, custom-entry and user-origin hooks);
// pi's own Spec and paths stay in analyzer/parsers/pi.
//
// Sources: badlogic/pi-mono at 83378aad7e74a0e2bb8f37c007a9685fb4609d8a
// (packages/coding-agent/src/core/session-manager.ts, core/messages.ts,
// packages/ai/src/types.ts); little-coder's detection from
// itayinbarr/little-coder at 5bd4959e48165185bfd8ce13a263f936efe8a18c.
// The evidence and fixtures are listed in analyzer/parsers/pi/doc.go,
// letta/doc.go and openclaw/doc.go.
package pisession
