package findings

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// BenchmarkRun: the rules and detectors over a timeline of 20,000 rows of
// a typical mix (calls, 4 KiB results, replies, system rows).
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	var buf bytes.Buffer
	result := strings.Repeat("output line of a build log with some words in it\n", 80)
	for i := 0; i < 5000; i++ {
		for _, r := range []timeline.Row{
			{TurnType: "tool_use", Action: "execute", ToolName: "Bash", Text: "go test ./... && git status", ToolInput: `{"command":"go test ./... && git status"}`, SessionID: "s"},
			{TurnType: "tool_result", Action: "execute", ToolName: "Bash", Text: result, SessionID: "s"},
			{TurnType: "assistant", Text: "The tests pass; here is what changed in the parser and why.", SessionID: "s"},
			{TurnType: "system", Text: "attachment environment: {\"snapshot\":{\"workingDirectory\":\"/home/u/p\"}}", SessionID: "s"},
		} {
			r.Host, r.User, r.Agent = "h", "u", "claude-code"
			_ = timeline.AppendJSON(&buf, r)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, analyze.TimelineJSONL), buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRows: the rules and detectors over the same mix handed over in
// memory (Runner.Row), as the engine's output pass does: no decoding.
func BenchmarkRows(b *testing.B) {
	result := strings.Repeat("output line of a build log with some words in it\n", 80)
	var rows []timeline.Row
	n := 0
	for i := 0; i < 5000; i++ {
		for _, r := range []timeline.Row{
			{TurnType: "tool_use", Action: "execute", ToolName: "Bash", Text: "go test ./... && git status", ToolInput: `{"command":"go test ./... && git status"}`, SessionID: "s"},
			{TurnType: "tool_result", Action: "execute", ToolName: "Bash", Text: result, SessionID: "s"},
			{TurnType: "assistant", Text: "The tests pass; here is what changed in the parser and why.", SessionID: "s"},
			{TurnType: "system", Text: "attachment environment: {\"snapshot\":{\"workingDirectory\":\"/home/u/p\"}}", SessionID: "s"},
		} {
			r.Host, r.User, r.Agent = "h", "u", "claude-code"
			n += len(r.Text) + len(r.ToolInput)
			rows = append(rows, r)
		}
	}
	b.SetBytes(int64(n))
	dir := b.TempDir()
	for b.Loop() {
		u, err := New(Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		for i := range rows {
			if err := u.Row(int64(i+1), &rows[i]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := u.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}
