package codex_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
)

// The hot path: codex-cli/rollout over the real-agent fixture's rollouts
// (Codex CLI 0.171.0), repeated to about 4 MB.

func BenchmarkRollout(b *testing.B) {
	const rel = ".codex/sessions/2026/11/29/rollout-2026-11-29T17-55-31-01a22872-a3eb-72e2-a19b-b41f104f7ead.jsonl"
	f := parser.File{Path: "/home/examiner/" + rel, Rel: rel, Agent: "codex-cli", Target: "sessions", Kind: "transcript", Host: "bench", User: "examiner"}
	parsertest.Bench(b, parsertest.ByID(b, codex.Parsers(), "codex-cli/rollout"), f, parsertest.Repeat(b, parsertest.RealAgentFiles(b, ".codex/sessions/*/*/*/rollout-*.jsonl"), 4<<20))
}
