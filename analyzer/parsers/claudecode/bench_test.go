package claudecode_test

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
)

// The hot path: claude-code/transcript over the real-agent fixture's
// transcripts (Claude Code 2.1.197), repeated to about 4 MB, and over a
// transcript holding one 8 MB line (a big tool result).

func transcriptFile() parser.File {
	return parser.File{Path: "/home/examiner/.claude/projects/-home-examiner-demo/0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f.jsonl",
		Rel: ".claude/projects/-home-examiner-demo/0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f.jsonl", Agent: "claude-code", Target: "projects",
		Kind: "transcript", Host: "bench", User: "examiner"}
}

func BenchmarkTranscript(b *testing.B) {
	parsertest.Bench(b, parsertest.ByID(b, claudecode.Parsers(), "claude-code/transcript"), transcriptFile(), parsertest.Repeat(b, parsertest.RealAgentFiles(b, ".claude/projects/*/*.jsonl"), 4<<20))
}

func BenchmarkTranscriptLongLine(b *testing.B) {
	data := parsertest.Repeat(b, parsertest.RealAgentFiles(b, ".claude/projects/*/*.jsonl"), 1<<20)
	line := `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_big","type":"tool_result","content":"` +
		strings.Repeat(`output line of a big command \n`, (8<<20)/30) +
		`","is_error":false}]},"uuid":"u-big","timestamp":"2026-11-29T18:00:00.000Z","cwd":"/home/examiner/demo","sessionId":"0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f"}` + "\n"
	data = append(data, line...)
	parsertest.Bench(b, parsertest.ByID(b, claudecode.Parsers(), "claude-code/transcript"), transcriptFile(), data)
}
