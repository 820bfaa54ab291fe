package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const thOrig = "/home/examiner/.codex/thread_history_1.sqlite"

func threadHistoryInput(t *testing.T, local string, related parsertest.Files) *parser.Input {
	return parsertest.Input(t, local, parser.File{Path: thOrig, Agent: agentName, Target: "state-db"}, related)
}

// rowsAt renders rows as "<time> <session tail> <turn type> <tool> <text>
// | <record id> secondary=<bool>".
func rowsAt(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		sid := e.SessionID
		if len(sid) > 4 {
			sid = sid[len(sid)-4:]
		}
		out = append(out, strings.Join([]string{e.TimeString(), sid, string(e.TurnType), e.ToolName, e.Text, "|", e.RecordID, "secondary=" + map[bool]string{true: "true", false: "false"}[e.Secondary]}, " "))
	}
	return out
}

func sameRows(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A thread whose rollout is collected gives rows only for the items the
// rollout lacks; a thread whose rollout was deleted is recovered whole.
func TestThreadHistory(t *testing.T) {
	p := byID(t, "codex-cli/thread-history")
	rollout := "/home/examiner/.codex/sessions/2026/05/28/rollout-2026-05-28T20-26-40-019e0000-0000-7000-8000-0000000000e1.jsonl"
	s := parsertest.Golden(t, p, threadHistoryInput(t, parsertest.SQLite(t, "testdata/thread_history_1.sql"), parsertest.Files{rollout: "testdata/thread_history_rollout.jsonl"}), "testdata/thread_history_1.golden.jsonl")
	sameRows(t, rowsAt(s), []string{
		"2026-05-28T20:26:41.000Z 00e1 assistant  The repo is clean. | 019e0000-0000-7000-8000-0000000000e1/msg-not-in-rollout secondary=true",
		`2026-05-28T20:28:20.000Z 00e2 system  turn record: status=failed started=2026-05-28T20:28:20.000Z completed=2026-05-28T20:28:25.000Z duration_ms=5000 turn=turn-lost error={"message":"stream disconnected"} | 019e0000-0000-7000-8000-0000000000e2/turn-lost#turn secondary=true`,
		"2026-05-28T20:28:20.100Z 00e2 user  delete the old logs\n[image /home/examiner/shot.png] | 019e0000-0000-7000-8000-0000000000e2/u-lost secondary=true",
		"2026-05-28T20:28:20.200Z 00e2 thinking  Deleting logs/ | 019e0000-0000-7000-8000-0000000000e2/rs-lost secondary=true",
		`2026-05-28T20:28:20.300Z 00e2 tool_use command_execution rm -rf logs/ && echo "done" | 019e0000-0000-7000-8000-0000000000e2/call-rm secondary=true`,
		"2026-05-28T20:28:20.300Z 00e2 tool_result command_execution status: declined | 019e0000-0000-7000-8000-0000000000e2/call-rm#output secondary=true",
		"2026-05-28T20:28:20.300Z 00e2 system command_execution permission decision: denied source=user | 019e0000-0000-7000-8000-0000000000e2/call-rm#decision secondary=true",
		"2026-05-28T20:28:20.400Z 00e2 tool_use file_change /home/examiner/demo/NOTES.md | 019e0000-0000-7000-8000-0000000000e2/call-patch secondary=true",
		"2026-05-28T20:28:20.400Z 00e2 tool_result file_change status: completed | 019e0000-0000-7000-8000-0000000000e2/call-patch#output secondary=true",
		`2026-05-28T20:28:20.500Z 00e2 tool_use mcp__docs__search {"q":"logs"} | 019e0000-0000-7000-8000-0000000000e2/call-mcp secondary=true`,
		`2026-05-28T20:28:20.500Z 00e2 tool_result mcp__docs__search {"message":"timeout"} | 019e0000-0000-7000-8000-0000000000e2/call-mcp#output secondary=true`,
		"2026-05-28T20:28:20.600Z 00e2 system  thread item hookPrompt | 019e0000-0000-7000-8000-0000000000e2/x-1 secondary=true",
	})
	if sk := s.SkipCounts(); len(sk) != 1 || sk["duplicate:rollout"] != 3 {
		t.Fatalf("skips: %v (want the held turn, prompt and call)", sk)
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 10: thread item bad: item_json:") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func realCodexHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join("..", "..", "..", "fixtures", "roots", "real-agents", "home", "examiner", ".codex")
	if _, err := os.Stat(home); err != nil {
		t.Fatalf("real-agent fixture: %v", err)
	}
	return home
}

// realDB copies a store of the real-agent fixture with its sidecars (it is
// kept as Codex wrote it).
func realDB(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(realCodexHome(t), name)
	tmp := filepath.Join(t.TempDir(), name)
	for _, suf := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(src + suf)
		if err != nil {
			continue
		}
		if err := os.WriteFile(tmp+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// The thread_history_1.sqlite Codex 0.171.0 wrote in the real-agent
// fixture: with its rollouts collected, every turn and item is one the
// rollouts hold (21 skips, no row); without them, the basic run's thread
// is recovered from it.
func TestThreadHistoryRealAgentFixture(t *testing.T) {
	p := byID(t, "codex-cli/thread-history")
	db := realDB(t, "thread_history_1.sqlite")
	related := parsertest.Files{}
	files, _ := filepath.Glob(filepath.Join(realCodexHome(t), "sessions", "*", "*", "*", "rollout-*.jsonl"))
	for _, f := range files {
		related["/home/examiner/.codex/sessions/2026/11/29/"+filepath.Base(f)] = f
	}
	if len(related) != 5 {
		t.Fatalf("%d rollouts in the fixture, want 5", len(related))
	}
	s := parsertest.Run(t, p, threadHistoryInput(t, db, related))
	if len(s.Events) != 0 || len(s.Problems) != 0 || s.SkipCounts()["duplicate:rollout"] != 21 {
		t.Fatalf("with rollouts: %d rows, problems %v, skips %v", len(s.Events), s.Problems, s.SkipCounts())
	}

	s = parsertest.Run(t, p, threadHistoryInput(t, db, nil))
	if len(s.Problems) != 0 || len(s.Skips) != 0 || len(s.Events) != 25 {
		t.Fatalf("without rollouts: %d rows, problems %v, skips %v", len(s.Events), s.Problems, s.Skips)
	}
	var basic []string
	for _, r := range rowsAt(s) {
		if strings.Contains(r, " 88f1 ") && strings.Contains(r, "2026-11-29T18:27:07") {
			basic = append(basic, r)
		}
	}
	const th = "01a2288f-92ff-7ac0-9eed-633c131c88f1"
	sameRows(t, basic, []string{
		"2026-11-29T18:27:07.000Z 88f1 system  turn record: status=completed started=2026-11-29T18:27:07.000Z completed=2026-11-29T18:27:07.000Z duration_ms=168 turn=01a2288f-9319-7b53-aca0-042a7c23e160 | " + th + "/01a2288f-9319-7b53-aca0-042a7c23e160#turn secondary=true",
		"2026-11-29T18:27:07.747Z 88f1 user  Run the shell command `echo doubleagent-codex-marker && date -u +%Y` and tell me what it printed. | " + th + "/01a2288f-9362-72d0-8caf-b220e35091be secondary=true",
		"2026-11-29T18:27:07.817Z 88f1 tool_use command_execution echo doubleagent-codex-marker && date -u +%Y | " + th + "/call_mockbb6a4d455d535da65514d483 secondary=true",
		"2026-11-29T18:27:07.817Z 88f1 tool_result command_execution doubleagent-codex-marker\n2026\nexit code: 0 | " + th + "/call_mockbb6a4d455d535da65514d483#output secondary=true",
		"2026-11-29T18:27:07.838Z 88f1 assistant  The command printed:\n\nChunk ID: dd233c\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 8\nOutput:\ndoubleagent-codex-marker\n2026\n\nDone. | " + th + "/msg_mock6565d8338effdc70bbd26333 secondary=true",
	})
}

// TestThreadHistoryCommandDiffersFromRollout: the red-team trial edited a
// rollout's command after the fact; the projection's item under the same
// call id ran another command, so it is not the same record: its rows
// stay, with a duplicate_id problem naming both commands.
func TestThreadHistoryCommandDiffersFromRollout(t *testing.T) {
	p := byID(t, "codex-cli/thread-history")
	db := realDB(t, "thread_history_1.sqlite")
	related := parsertest.Files{}
	files, _ := filepath.Glob(filepath.Join(realCodexHome(t), "sessions", "*", "*", "*", "rollout-*.jsonl"))
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, []byte("echo doubleagent-codex-marker"), []byte("echo harmless-innocent"))
		local := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(local, b, 0o644); err != nil {
			t.Fatal(err)
		}
		related["/home/examiner/.codex/sessions/2026/11/29/"+filepath.Base(f)] = local
	}
	s := parsertest.Run(t, p, threadHistoryInput(t, db, related))
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], `duplicate_id: call call_mockbb6a4d455d535da65514d483: thread history holds the command "/bin/bash -lc 'echo doubleagent-codex-marker && date -u +%Y'", its rollout "echo harmless-innocent && date -u +%Y": both kept`) {
		t.Fatalf("problems: %v", s.Problems)
	}
	var cmds []string
	for _, e := range s.Events {
		if e.TurnType == "tool_use" {
			cmds = append(cmds, e.Text)
		}
	}
	if len(cmds) != 1 || !strings.Contains(cmds[0], "echo doubleagent-codex-marker") || s.SkipCounts()["duplicate:rollout"] != 20 {
		t.Fatalf("rows %v, skips %v", cmds, s.SkipCounts())
	}
}

// The schema policy (issue 25): a thread history without thread_turns is
// one problem naming it and every thread_items row is still there; one
// whose thread_items lacks item_id (renamed: a key column cannot be
// dropped) names table and column and every
// thread_turns row is still there; a file with neither table is "not a
// Codex thread history database".
func TestThreadHistorySchema(t *testing.T) {
	p := byID(t, "codex-cli/thread-history")
	rollout := "/home/examiner/.codex/sessions/2026/05/28/rollout-2026-05-28T20-26-40-019e0000-0000-7000-8000-0000000000e1.jsonl"
	related := parsertest.Files{rollout: "testdata/thread_history_rollout.jsonl"}
	run := func(stmts ...string) *parsertest.Sink {
		return parsertest.Run(t, p, threadHistoryInput(t, parsertest.SQLiteAltered(t, "testdata/thread_history_1.sql", stmts...), related))
	}
	full := run()
	const bad = "line 10: thread item bad: item_json: invalid character 'n' looking for beginning of object key string"
	if strings.Join(full.Problems, "\n") != bad {
		t.Fatalf("full store problems: %q", full.Problems)
	}
	keep := func(turns bool) []string {
		var out []string
		for i, r := range rowsAt(full) {
			if strings.HasSuffix(full.Events[i].RecordID, "#turn") == turns {
				out = append(out, r)
			}
		}
		return out
	}
	s := run(`DROP TABLE thread_turns`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: table thread_turns missing: its rows cannot be read; the other tables are read\n"+bad {
		t.Fatalf("problems:\n%s", got)
	}
	if items := keep(false); len(items) != len(full.Events)-1 {
		t.Fatalf("%d item rows of %d", len(items), len(full.Events))
	}
	sameRows(t, rowsAt(s), keep(false))
	s = run(`ALTER TABLE thread_items RENAME COLUMN item_id TO item_key`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: unknown schema: table thread_items lacks column(s) item_id: not read; the other tables are read" {
		t.Fatalf("problems:\n%s", got)
	}
	sameRows(t, rowsAt(s), keep(true))
	s = run(`DROP TABLE thread_turns`, `DROP TABLE thread_items`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: empty_store: empty store: a SQLite database of 5 page(s) holding no table (never written, or every table dropped), where a Codex thread history database should be: nothing to read" || len(s.Events) != 0 {
		t.Fatalf("%d rows, problems:\n%s", len(s.Events), got)
	}
}
