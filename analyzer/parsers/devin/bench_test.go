package devin

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// BenchmarkTranscript: devin/transcripts over the fixture transcript's
// steps (synthetic, testdata/transcripts/sess-1.json) repeated to about
// 4 MB in one document, the header first.
func BenchmarkTranscript(b *testing.B) {
	src, err := os.ReadFile("testdata/transcripts/sess-1.json")
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]json.RawMessage
	var steps []json.RawMessage
	if err := json.Unmarshal(src, &doc); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(doc["steps"], &steps); err != nil || len(steps) == 0 {
		b.Fatal("fixture steps", err)
	}
	var buf bytes.Buffer
	buf.WriteString(`{"agent":{"model_name":"swe-1.5"},"working_directory":"/home/alice/app","updated_at":"2026-11-25T09:48:20Z","final_metrics":{"total_prompt_tokens":3000},"steps":[`)
	for i := 0; buf.Len() < 4<<20; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(steps[i%len(steps)])
	}
	buf.WriteString("]}\n")
	f := parser.File{Path: root + "transcripts/sess-1.json", Target: "transcripts", Agent: Agent, MTime: mtime}
	parsertest.Bench(b, byID(b, "devin/transcripts"), f, buf.Bytes())
}
