package claudedesktop_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudedesktop"
)

// The hot paths: a Cowork session transcript and its audit log from
// testdata/appdata, each repeated to about 4 MB.

const benchCowork = "local-agent-mode-sessions/acct-1/org-1/local_c0ffee/"
const benchApp = "/Users/alice/Library/Application Support/Claude/"

func BenchmarkTranscript(b *testing.B) {
	const rel = benchCowork + ".claude/projects/-sessions-bold-tesla/cli-1111.jsonl"
	f := parser.File{Path: benchApp + rel, Agent: claudedesktop.Agent, Target: "sessions", Kind: "transcript", Host: "bench", User: "alice"}
	parsertest.Bench(b, claudedesktop.Transcript(), f, parsertest.Repeat(b, []string{"testdata/appdata/" + rel}, 4<<20))
}

func BenchmarkAudit(b *testing.B) {
	const rel = benchCowork + "audit.jsonl"
	f := parser.File{Path: benchApp + rel, Agent: claudedesktop.Agent, Target: "sessions", Kind: "transcript", Host: "bench", User: "alice"}
	parsertest.Bench(b, claudedesktop.Audit(), f, parsertest.Repeat(b, []string{"testdata/appdata/" + rel}, 4<<20))
}
