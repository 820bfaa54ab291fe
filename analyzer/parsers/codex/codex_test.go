package codex

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

// input presents a local file as collected from orig (default: under
// ~/.codex/sessions/2026/03/01 with the same base name).
func input(t testing.TB, local, orig, target string) *parser.Input {
	t.Helper()
	if orig == "" {
		orig = "/home/examiner/.codex/sessions/2026/03/01/" + filepath.Base(local)
	}
	return parsertest.Input(t, local, parser.File{Path: orig, Agent: agentName, Target: target}, nil)
}

func runRollout(t testing.TB, local string) *parsertest.Sink {
	t.Helper()
	return parsertest.Run(t, byID(t, "codex-cli/rollout"), input(t, local, "", "sessions"))
}

func golden(t *testing.T, id, local, orig, target string) *parsertest.Sink {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(local), filepath.Ext(local))
	return parsertest.Golden(t, byID(t, id), input(t, local, orig, target), filepath.Join("testdata", name+".golden.jsonl"))
}

// find returns the events matching keep.
func find(s *parsertest.Sink, keep func(e *timeline.Event) bool) []timeline.Event {
	var out []timeline.Event
	for i := range s.Events {
		if keep(&s.Events[i]) {
			out = append(out, s.Events[i])
		}
	}
	return out
}

func ofType(s *parsertest.Sink, tt timeline.TurnType) []timeline.Event {
	return find(s, func(e *timeline.Event) bool { return e.TurnType == tt })
}

func withID(s *parsertest.Sink, tt timeline.TurnType, id string) []timeline.Event {
	return find(s, func(e *timeline.Event) bool { return e.TurnType == tt && e.ToolUseID == id })
}

func withText(s *parsertest.Sink, prefix string) []timeline.Event {
	return find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, prefix) })
}

func TestParsersMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"codex-cli/rollout", "sessions", "/home/u/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-0199.jsonl", true},
		{"codex-cli/rollout", "sessions", "/home/u/.codex/archived_sessions/rollout-2026-01-02T10-00-00-0199.jsonl.zst", true},
		{"codex-cli/rollout", "sessions", "/home/u/.codex/sessions/rollout-2025-04-20-0196.json", true},
		{"codex-cli/rollout", "history", "/home/u/.codex/history.jsonl", false},
		{"codex-cli/history", "history", "/home/u/.codex/history.jsonl", true},
		{"codex-cli/config", "config", "/home/u/.codex/config.toml", true},
		{"codex-cli/config", "config", "/home/u/.codex/rules/default.rules", true},
		{"codex-cli/config", "config", "/home/u/.codex/.codex-global-state.json", false},
		// the desktop app's global state is read now (issue 16), by its own parser
		{"codex-cli/global-state", "config", "/home/u/.codex/.codex-global-state.json", true},
		{"codex-cli/automation", "config", "/home/u/.codex/automations/nightly/automation.toml", true},
		{"codex-cli/state-db", "state-db", "/home/u/.codex/state_5.sqlite", true},
		{"codex-cli/state-db", "state-db", "/home/u/.codex/db-backups/2026-10-01/state_5.sqlite", true},
		{"codex-cli/state-db", "state-db", "/home/u/.codex/logs_2.sqlite", false},
		{"codex-cli/logs-db", "state-db", "/home/u/.codex/logs_2.sqlite", true},
		{"codex-cli/thread-history", "state-db", "/home/u/.codex/thread_history_1.sqlite", true},
		{"codex-cli/thread-history", "state-db", "/home/u/.codex/state_5.sqlite", false},
		{"codex-cli/memory-summary", "memories", "/home/u/.codex/memories/rollout_summaries/x.md", true},
		{"codex-cli/memory-summary", "memories", "/home/u/.codex/memories/raw_memories.md", false},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: agentName, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s.Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}
