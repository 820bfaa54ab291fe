package gemini_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/gemini"
)

// The hot path: gemini-cli/chat over the real-agent fixture's chat
// recordings (Gemini CLI 0.61.0), each repeated to about 4 MB.

func BenchmarkChat(b *testing.B) {
	const rel = ".gemini/tmp/demo/chats/session-2026-11-29T17-55-4d839425.jsonl"
	f := parser.File{Path: "/home/examiner/" + rel, Rel: rel, Agent: "gemini-cli", Target: "chats", Kind: "transcript", Host: "bench", User: "examiner"}
	parsertest.Bench(b, parsertest.ByID(b, gemini.Parsers(), "gemini-cli/chat"), f, parsertest.Repeat(b, parsertest.RealAgentFiles(b, ".gemini/tmp/*/chats/session-*.jsonl"), 4<<20))
}
