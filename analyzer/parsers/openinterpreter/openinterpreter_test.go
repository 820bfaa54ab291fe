package openinterpreter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

var mtime = time.Date(2026, 8, 10, 10, 0, 0, 0, time.UTC)

func golden(t *testing.T, id, local, orig, target string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Agent: agentName, Target: target, MTime: mtime}, nil)
	name := strings.TrimSuffix(filepath.Base(local), filepath.Ext(local))
	return parsertest.Golden(t, byID(t, id), in, filepath.Join("testdata", name+".golden.jsonl"))
}

// TestMatch: the fork's parsers match its own files, never Codex's.
func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"open-interpreter/rollout", "sessions", "/home/u/.openinterpreter/sessions/2026/08/10/rollout-x.jsonl.zst", true},
		{"open-interpreter/history", "history", "/home/u/.openinterpreter/history.jsonl", true},
		{"open-interpreter/state-db", "state-db", "/home/u/.openinterpreter/state_5.sqlite", true},
		{"open-interpreter/state-db", "state-db", "/home/u/.openinterpreter/logs_2.sqlite", false},
		{"open-interpreter/state-db", "state-db", "/home/u/.openinterpreter/db-backups/2026-08-01/state_5.sqlite", true},
		{"open-interpreter/thread-history", "state-db", "/home/u/.openinterpreter/thread_history_1.sqlite", true},
		{"open-interpreter/logs-db", "state-db", "/home/u/.openinterpreter/logs_2.sqlite", true},
		{"open-interpreter/memory-summary", "memories", "/home/u/.openinterpreter/memories/rollout_summaries/a.md", true},
		{"open-interpreter/config", "config", "/home/u/.openinterpreter/rules/default.rules", true},
		{"open-interpreter/imports", "imports", "/home/u/.openinterpreter/external_agent_session_imports.json", true},
		{"open-interpreter/legacy-conversation", "legacy-conversations", "/home/u/.config/open-interpreter/conversations/a.json", true},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: agentName, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s %s: %v", c.id, c.path, got)
		}
		f.Agent = "codex-cli"
		if byID(t, c.id).Match(f) {
			t.Errorf("%s matches a codex-cli file", c.id)
		}
	}
}

// TestRollout: Codex's reader under the fork's name: the session state
// carries open-interpreter, and every row kind of a turn is there.
func TestRollout(t *testing.T) {
	s := golden(t, "open-interpreter/rollout", "testdata/rollout-2026-08-10T09-00-00-0198aaaa-0000-7000-8000-0000000000a1.jsonl",
		"/home/examiner/.openinterpreter/sessions/2026/08/10/rollout-2026-08-10T09-00-00-0198aaaa-0000-7000-8000-0000000000a1.jsonl", "sessions")
	if sk := s.SkipCounts(); len(sk) != 2 || sk["duplicate:user_message"] != 1 || sk["no_evidence:event_msg/token_count"] != 1 {
		t.Fatalf("skips: %v", sk)
	}
	if len(s.States) != 1 || s.States[0].Key.Agent != agentName || s.States[0].Origin != "local" {
		t.Fatalf("states: %+v", s.States)
	}
	want := map[timeline.TurnType]string{
		timeline.User:       "delete the build folder",
		timeline.Thinking:   "Remove build/ with rm.",
		timeline.ToolUse:    "rm -rf build",
		timeline.Assistant:  "Deleted build/.",
		timeline.ToolResult: "Process exited with code 0\nOutput:\n",
	}
	got := map[timeline.TurnType]string{}
	for _, e := range s.Events {
		if e.Agent != agentName || e.SessionID != "0198aaaa-0000-7000-8000-0000000000a1" || e.ProjectPath != "/home/examiner/site" {
			t.Fatalf("row: %+v", e)
		}
		if e.TurnType == timeline.ToolResult && e.RecordID != "0198aaaa-0000-7000-8000-0000000000a1/call_oi1#output" {
			t.Fatalf("result: %+v", e)
		}
		if e.TurnType != timeline.System {
			if _, dup := got[e.TurnType]; dup {
				t.Fatalf("two %s rows", e.TurnType)
			}
			got[e.TurnType] = e.Text
		}
		if e.TurnType == timeline.ToolUse && (e.ToolUseID != "call_oi1" || e.ToolInput != `{"cmd":"rm -rf build","workdir":"/home/examiner/site"}` || e.RecordID != "0198aaaa-0000-7000-8000-0000000000a1/call_oi1") {
			t.Fatalf("call: %+v", e)
		}
	}
	for k, v := range want {
		if !strings.HasPrefix(got[k], v) {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

// The desktop app's files are Codex's alone: the fork has no parser for
// them.
func TestNoDesktopParsers(t *testing.T) {
	for _, p := range Parsers() {
		if strings.HasSuffix(p.ID(), "/global-state") || strings.HasSuffix(p.ID(), "/automation") {
			t.Errorf("%s: the ChatGPT desktop app keeps its files under ~/.codex only", p.ID())
		}
	}
}

// thread_history_1.sqlite, logs_2.sqlite and memories/rollout_summaries
// (the seed's Open Interpreter section, "as for Codex"): Codex's readers
// under the fork's name, the rollout looked up under .openinterpreter.
func TestCodexStoresOnForkPaths(t *testing.T) {
	rollout := "/home/examiner/.openinterpreter/sessions/2026/05/28/rollout-2026-05-28T20-26-40-019e0000-0000-7000-8000-0000000000e1.jsonl"
	in := parsertest.Input(t, parsertest.SQLite(t, "../codex/testdata/thread_history_1.sql"),
		parser.File{Path: "/home/examiner/.openinterpreter/thread_history_1.sqlite", Agent: agentName, Target: "state-db"},
		parsertest.Files{rollout: "../codex/testdata/thread_history_rollout.jsonl"})
	s := parsertest.Golden(t, byID(t, "open-interpreter/thread-history"), in, "testdata/thread_history_1.golden.jsonl")
	if len(s.Events) != 12 || s.SkipCounts()["duplicate:rollout"] != 3 || s.Events[0].Agent != agentName || !s.Events[0].Secondary {
		t.Fatalf("thread history: %d rows, skips %v, first %+v", len(s.Events), s.SkipCounts(), s.Events[0])
	}

	in = parsertest.Input(t, parsertest.SQLite(t, "../codex/testdata/logs_2.sql"), parser.File{Path: "/home/examiner/.openinterpreter/logs_2.sqlite", Agent: agentName, Target: "state-db"}, nil)
	s = parsertest.Golden(t, byID(t, "open-interpreter/logs-db"), in, "testdata/logs_2.golden.jsonl")
	// the request's two log rows are two rows of one record id (merged by
	// the correlate stage: codex TestEngineFeedbackRequest)
	if len(s.Events) != 5 || s.Events[3].Text != "session synced: /feedback report sent to Sentry (feedback/upload request Integer(12))" || s.Events[3].Agent != agentName ||
		s.Events[4].RecordID != s.Events[3].RecordID || s.Events[4].Text != s.Events[3].Text || len(s.States) != 2 || s.States[0].Synced != "yes" || s.States[1] != s.States[0] {
		t.Fatalf("logs: %+v %+v", s.Events, s.States)
	}

	md := "/home/examiner/.openinterpreter/memories/rollout_summaries/2026-03-14T09-22-15-aB3x-fix_auth_token_refresh.md"
	in = parsertest.Input(t, "../codex/testdata/memories/rollout_summaries/2026-03-14T09-22-15-aB3x-fix_auth_token_refresh.md", parser.File{Path: md, Agent: agentName, Target: "memories"}, nil)
	s = parsertest.Golden(t, byID(t, "open-interpreter/memory-summary"), in, "testdata/memory_summary.golden.jsonl")
	if len(s.Events) != 1 || !strings.HasPrefix(s.Events[0].Text, "memory summary: # Task 1: Fix auth token refresh") || s.Events[0].SessionID != "019e0000-0000-7000-8000-0000000000e1" {
		t.Fatalf("memory summary: %+v", s.Events)
	}
}

func TestHistory(t *testing.T) {
	s := golden(t, "open-interpreter/history", "testdata/history.jsonl", "/home/examiner/.openinterpreter/history.jsonl", "history")
	if len(s.Events) != 1 || !s.Events[0].Secondary || s.Events[0].TimeString() != "2026-08-10T09:00:01.000Z" || s.Events[0].Text != "delete the build folder" {
		t.Fatalf("rows: %+v", s.Events)
	}
	sp := byID(t, "open-interpreter/history").(parser.Specced).Spec()
	if sp.Secondary == nil || sp.Secondary.Window != 10*time.Minute {
		t.Fatalf("history secondary: %+v", sp.Secondary)
	}
}

// TestConfig: config rows name the file relative to .openinterpreter.
func TestConfig(t *testing.T) {
	s := golden(t, "open-interpreter/config", "testdata/config.toml", "/home/examiner/.openinterpreter/config.toml", "config")
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
	}
	want := []string{
		"model setting: gpt-5.2 (from config.toml, file mtime)",
		"permission setting: approval_policy=never (from config.toml, file mtime)",
		"permission setting: sandbox_mode=danger-full-access (from config.toml, file mtime)",
		`permission setting: projects."/home/examiner/site".trust_level=trusted (from config.toml, file mtime)`,
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(texts, "\n"))
	}
	r := golden(t, "open-interpreter/config", "testdata/rules/default.rules", "/home/examiner/.openinterpreter/rules/default.rules", "config")
	if len(r.Events) != 1 || r.Events[0].Text != `permission setting: rule=prefix_rule(pattern=["rm", "-rf"], decision="allow") (from rules/default.rules, file mtime)` {
		t.Fatalf("rules: %+v", r.Events)
	}
}

func TestStateDB(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state_5.sql")
	in := parsertest.Input(t, db, parser.File{Path: "/home/examiner/.openinterpreter/state_5.sqlite", Agent: agentName, Target: "state-db"}, nil)
	s := parsertest.Golden(t, byID(t, "open-interpreter/state-db"), in, "testdata/state_5.golden.jsonl")
	var user *timeline.Event
	for i := range s.Events {
		if s.Events[i].TurnType == timeline.User {
			user = &s.Events[i]
		}
	}
	if user == nil || !user.Secondary || user.Text != "delete the build folder" || user.TimeString() != "2026-08-10T09:00:00.000Z" || user.SourceLine != 1 {
		t.Fatalf("first prompt: %+v", s.Events)
	}
}

func TestImports(t *testing.T) {
	s := golden(t, "open-interpreter/imports", "testdata/external_agent_session_imports.json", "/home/examiner/.openinterpreter/external_agent_session_imports.json", "imports")
	if len(s.Events) != 2 {
		t.Fatalf("rows: %+v", s.Events)
	}
	e := s.Events[0]
	if e.SessionID != "0198aaaa-0000-7000-8000-0000000000b2" || e.TurnType != timeline.System || e.TimeString() != "2026-08-10T10:00:00.000Z" ||
		e.Text != "session imported from Claude Code: /home/examiner/.claude/projects/-home-examiner-site/5b0c6a1e-2d7f-4c1e-9a55-0f1e2d3c4b5a.jsonl (content sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, source modified 2026-08-09T18:26:40Z); the imported thread's record times are the import time" {
		t.Fatalf("first: %+v", e)
	}
	if !strings.HasPrefix(s.Events[1].Text, "session imported from Cursor: ") || !strings.Contains(s.Events[1].Text, "content sha256 not recorded)") {
		t.Fatalf("second: %q", s.Events[1].Text)
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 3: skipped_record: import record without source_path or imported_thread_id" {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestLegacyConversation(t *testing.T) {
	local := "testdata/List_the_files_in__August_09_2024_14-05-09.json"
	s := golden(t, "open-interpreter/legacy-conversation", local, "/home/examiner/.config/open-interpreter/conversations/"+filepath.Base(local), "legacy-conversations")
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%d %s %s %q id=%s in=%s t=%s/%s", e.SourceLine, e.TurnType, e.ToolName, e.Text, e.ToolUseID, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis))
	}
	want := []string{
		`0 system  "conversation started (time from the file name, host local time); its messages record no time" id= in= t=2024-08-09T14:05:09.000Z/local-as-utc`,
		`1 user  "List the files in /tmp" id= in= t=/none`,
		`2 assistant  "I'll list them." id= in= t=/none`,
		`3 tool_use execute "ls /tmp" id=3 in={"code":"ls /tmp","language":"shell"} t=/none`,
		`4 system  "permission decision: ask source=confirmation ({\"type\":\"code\",\"format\":\"shell\",\"content\":\"ls /tmp\"})" id=3 in= t=/none`,
		`5 tool_result execute "a.txt\nb.txt" id=3 in= t=/none`,
		`6 system  "computer image (base64.png, 12 characters, not shown)" id= in= t=/none`,
		`7 assistant  "Two files." id= in= t=/none`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 8: skipped_record: not an LMC message") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestLegacyMalformed(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty.json": "", "bad.json": "{\"role\":", "obj.json": `{"messages":[]}`} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		s := parsertest.Run(t, byID(t, "open-interpreter/legacy-conversation"), parsertest.Input(t, p, parser.File{Path: "/home/u/.config/open-interpreter/conversations/" + name, Agent: agentName, Target: "legacy-conversations"}, nil))
		if len(s.Events) != 0 {
			t.Fatalf("%s: rows %+v", name, s.Events)
		}
		if (name == "empty.json") != (len(s.Problems) == 0) {
			t.Fatalf("%s: problems %v", name, s.Problems)
		}
	}
}
