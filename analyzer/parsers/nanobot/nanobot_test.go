package nanobot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 8, 5, 12, 0, 0, 0, time.UTC)

const wsDir = "/home/ex/.nanobot/sessions/5f1c0a2b"

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, orig, target, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	rel := strings.TrimPrefix(orig, "/home/ex/")
	in := parsertest.Input(t, local, parser.File{Path: orig, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, related)
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		sec := ""
		if e.Secondary {
			sec = " secondary"
		}
		fmt.Fprintf(&b, "%d %s %s %s id=%s rec=%s in=%s err=%s p=%s t=%s/%s%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.ProjectPath, e.TimeString(), e.ToRow().TimeBasis, sec, e.Text)
	}
	return b.String()
}

// TestSession: every row kind of a session file, host-local times as
// local-as-utc, the workspace from the sibling .workspace, relay state.
func TestSession(t *testing.T) {
	orig := wsDir + "/dGVsZWdyYW06NDI0Mg.jsonl"
	s := run(t, "nanobot/session", "testdata/session.jsonl", orig, "sessions", "session", parsertest.Files{wsDir + "/.workspace": "testdata/workspace"})
	want := `1 telegram:4242 system  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:00:00.000Z/local-as-utc: "session: telegram:4242; title: Disk cleanup; relayed through telegram chat 4242"
1 telegram:4242 system  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:00:00.000Z/local-as-utc: "model preset: fast"
3 telegram:4242 user  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:00:01.250Z/local-as-utc: "free some disk space"
4 telegram:4242 thinking  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:00:03.000Z/local-as-utc: "The pip cache is large."
4 telegram:4242 tool_use exec id=call_nb1 rec=call_nb1 in={"command":"rm -rf ~/.cache/pip"} err= p=/home/ex/projects/site t=2026-08-05T09:00:03.000Z/local-as-utc: "rm -rf ~/.cache/pip"
5 telegram:4242 tool_result exec id=call_nb1 rec=call_nb1#output in= err=false p=/home/ex/projects/site t=2026-08-05T09:00:04.000Z/local-as-utc: "Exit code: 0"
6 telegram:4242 assistant  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:00:05.000Z/local-as-utc: "Freed 2 GB."
7 telegram:4242 system  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:01:00.000Z/local-as-utc: "subagent result (task t-7): Subagent finished: 3 files checked."
8 telegram:4242 system  id= rec= in= err= p=/home/ex/projects/site t=2026-08-05T09:01:20.000Z/local-as-utc: "automation prompt: Send the daily report"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != "telegram:4242" || s.States[0].Relayed != "yes" {
		t.Fatalf("states: %+v", s.States)
	}
	if c := s.SkipCounts(); c["state_only"] != 1 || c["no_evidence:empty_assistant"] != 1 || len(c) != 2 {
		t.Fatalf("skips: %v", c)
	}
	wantP := "line 10: skipped_record: message without a known role: wizard\nline 11: malformed JSON line (cut short or corrupt), skipped"
	if strings.Join(s.Problems, "\n") != wantP {
		t.Fatalf("problems:\n%s", strings.Join(s.Problems, "\n"))
	}
}

// TestLegacySession: a flat legacy sessions/<safe key>.jsonl without a
// key in its metadata line; a recorded offset is a recorded time.
func TestLegacySession(t *testing.T) {
	s := run(t, "nanobot/session", "testdata/legacy.jsonl", "/home/ex/.nanobot/sessions/cli_direct.jsonl", "sessions", "legacy", nil)
	want := `3 cli_direct assistant  id= rec= in= err= p= t=2025-11-02T17:00:02.000Z/: "Hi!"
1 cli_direct system  id= rec= in= err= p= t=2025-11-02T18:00:00.000Z/local-as-utc: "session: cli_direct"
2 cli_direct user  id= rec= in= err= p= t=2025-11-02T18:00:01.000Z/local-as-utc: "hello"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Relayed != "no" {
		t.Fatalf("states: %+v", s.States)
	}
}

// TestMigrationConflict: an archived conflict copy keeps its rows and
// says what it is; the key comes from the stem before the first dot.
func TestMigrationConflict(t *testing.T) {
	s := run(t, "nanobot/session", "testdata/legacy.jsonl", "/home/ex/.nanobot/sessions/5f1c0a2b/.migration-conflicts/dGVsZWdyYW06NDI0Mg.older.0123456789ab.deadbeef.jsonl", "sessions", "conflict", nil)
	if len(s.Events) != 3 || s.Events[1].Text != "session: telegram:4242 (an older copy archived as a migration conflict); relayed through telegram chat 4242" || s.Events[2].SessionID != "telegram:4242" {
		t.Fatalf("rows:\n%s", rows(s))
	}
}

func TestWebUI(t *testing.T) {
	s := run(t, "nanobot/webui", "testdata/webui.jsonl", "/home/ex/.nanobot/webui/websocket_abc123.jsonl", "webui", "webui", nil)
	want := `1 websocket:abc123 user  id= rec= in= err= p= t=2026-08-06T09:00:00.000Z/ secondary: "summarise README.md\n[media: /home/ex/projects/site/shot.png]"
2 websocket:abc123 thinking  id= rec= in= err= p= t=2026-08-06T09:00:01.000Z/ secondary: "Read the file first."
3 websocket:abc123 system  id= rec= in= err= p= t=2026-08-06T09:00:02.000Z/ secondary: "file edited: README.md edit_file"
4 websocket:abc123 assistant  id= rec= in= err= p= t=2026-08-06T09:00:03.000Z/ secondary: "README describes the site."
6 websocket:abc123 system  id= rec= in= err= p= t=2026-08-06T09:01:40.000Z/ secondary: "session forked here (WebUI fork marker)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 1 || s.Skips[0].Reason != "no_evidence:turn_end" || len(s.Problems) != 1 {
		t.Fatalf("skips %v problems %v", s.Skips, s.Problems)
	}
	sp := byID(t, "nanobot/webui").(parser.Specced).Spec()
	if sp.Secondary == nil || sp.Secondary.Window != 15*time.Hour {
		t.Fatalf("secondary: %+v", sp.Secondary)
	}
	// a rotated segment names its session by its folder
	r := parsertest.Run(t, byID(t, "nanobot/webui"), parsertest.Input(t, "testdata/webui.jsonl", parser.File{Path: "/home/ex/.nanobot/webui/websocket_abc123.segments/000001.jsonl", Agent: agentName, Target: "webui"}, nil))
	if len(r.Events) != 5 || r.Events[0].SessionID != "websocket:abc123" {
		t.Fatalf("segment: %s", rows(r))
	}
}

// TestWebUIIndex: a listed session whose file is gone says so.
func TestWebUIIndex(t *testing.T) {
	related := parsertest.Files{wsDir + "/dGVsZWdyYW06NDI0Mg.jsonl": "testdata/session.jsonl"}
	s := run(t, "nanobot/webui-index", "testdata/webui_index.json", wsDir+"/.webui_session_index.json", "webui-index", "webui_index", related)
	want := `2 websocket:gone1 system  id= rec= in= err= p= t=2026-08-04T20:10:00.000Z/local-as-utc secondary: "session listed in the WebUI sidebar: websocket:gone1; title: Deleted chat; preview: delete my ssh keys (its session file is not among the collected files: deleted?)"
1 telegram:4242 system  id= rec= in= err= p= t=2026-08-05T09:01:30.500Z/local-as-utc secondary: "session listed in the WebUI sidebar: telegram:4242; title: Disk cleanup; preview: Freed 2 GB."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 3: skipped_record: index row without a key" {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestMemoryHistory(t *testing.T) {
	s := run(t, "nanobot/memory-history", "testdata/memory_history.jsonl", "/home/ex/.nanobot/workspace/memory/history.jsonl", "memory-history", "memory_history", nil)
	want := `1 telegram:4242 system  id= rec=memory:1 in= err= p= t=2026-08-05T09:30:00.000Z/local-as-utc: "memory summary (recorded to the minute): User asked to free disk space; pip cache removed."
2  system  id= rec=memory:2 in= err= p= t=2026-08-05T10:00:00.000Z/local-as-utc: "memory summary (recorded to the minute): "
`
	if got := rows(s); got != want || len(s.Problems) != 1 {
		t.Fatalf("rows:\n%s problems %v", got, s.Problems)
	}
}

func TestCLIHistory(t *testing.T) {
	s := run(t, "nanobot/cli-history", "testdata/cli_history", "/home/ex/.nanobot/history/cli_history", "cli-history", "cli_history", nil)
	want := `2  user  id= rec= in= err= p= t=2026-08-05T08:55:10.123Z/local-as-utc secondary: "deploy the site"
5  user  id= rec= in= err= p= t=2026-08-05T08:56:00.000Z/local-as-utc secondary: "write a haiku\nabout disks"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 8: skipped_record: not a prompt history line" {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestRuns(t *testing.T) {
	s := run(t, "nanobot/runs", "testdata/cron_run.json", "/home/ex/.nanobot/workspace/cron/runs/cron-j1-1786006880.json", "runs", "cron_run", nil)
	want := `1 telegram:4242 system  id= rec=run:cron-j1-1786006880 in= err= p= t=2026-08-06T09:01:25.000Z/ secondary: "automation run cron-j1-1786006880: cron job \"daily report\" status=ok; prompt: Send the daily report"
1 telegram:4242 assistant  id= rec=run:cron-j1-1786006880#response in= err= p= t=2026-08-06T09:01:25.000Z/ secondary: "Report sent."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	r := run(t, "nanobot/runs", "testdata/trigger_run.json", "/home/ex/.nanobot/workspace/triggers/runs/d1.json", "runs", "trigger_run", nil)
	want = `1 cli:direct system  id= rec=run:d1 in= err= p= t=2026-08-06T07:06:45.000Z/ secondary: "automation run d1: trigger \"ci-hook\" from cli status=error error=agent busy; prompt: build failed on main"
`
	if got := rows(r); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestConfig: the permission keys only; provider keys and bot tokens
// never reach a row.
func TestConfig(t *testing.T) {
	s := run(t, "nanobot/config", "testdata/config.json", "/home/ex/.nanobot/config.json", "config", "config", nil)
	want := `5 <nil> permission setting: tools.restrictToWorkspace=false (from .nanobot/config.json, file mtime)
6 <nil> permission setting: tools.exec.enable=true (from .nanobot/config.json, file mtime)
6 <nil> permission setting: tools.exec.sandbox= (from .nanobot/config.json, file mtime)
6 <nil> permission setting: tools.exec.allowPatterns=git * (from .nanobot/config.json, file mtime)
6 <nil> permission setting: tools.exec.denyPatterns=rm -rf /* (from .nanobot/config.json, file mtime)
6 <nil> permission setting: tools.exec.denyPatterns=curl * | sh (from .nanobot/config.json, file mtime)
9 <nil> permission setting: channels.telegram.allowFrom=4242 (from .nanobot/config.json, file mtime)
9 <nil> permission setting: channels.telegram.allowFrom=* (from .nanobot/config.json, file mtime)
`
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %v %s\n", e.SourceLine, nil, e.Text)
		if e.TurnType != timeline.System || e.ToRow().TimeBasis != "file-mtime" {
			t.Fatalf("row: %+v", e)
		}
	}
	if b.String() != want {
		t.Fatalf("rows:\n%s", b.String())
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"sk-or", "ABC-telegram", "claude-opus"} {
		if strings.Contains(out, secret) {
			t.Fatalf("%s reached the output", secret)
		}
	}
}

func TestPairing(t *testing.T) {
	s := run(t, "nanobot/pairing", "testdata/pairing.json", "/home/ex/.nanobot/pairing.json", "pairing", "pairing", nil)
	want := `2  system  id= rec= in= err= p= t=2026-08-05T12:00:00.000Z/file-mtime: "permission setting: approved sender 777 on discord (from .nanobot/pairing.json, file mtime)"
2  system  id= rec= in= err= p= t=2026-08-05T12:00:00.000Z/file-mtime: "permission setting: approved sender 888 on discord (from .nanobot/pairing.json, file mtime)"
2  system  id= rec= in= err= p= t=2026-08-05T12:00:00.000Z/file-mtime: "permission setting: approved sender 4242 on telegram (from .nanobot/pairing.json, file mtime)"
`
	pend := `3  system  id= rec= in= err= p= t=2026-08-06T07:06:40.500Z/: "permission setting: pending pairing request from sender +15550100 on whatsapp, expires 2026-08-06T08:06:40Z (from .nanobot/pairing.json)"
`
	if got := rows(s); got != want+pend {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestLocalTime(t *testing.T) {
	for in, want := range map[string]string{
		"2026-08-05T09:00:00.123456":  "2026-08-05T09:00:00.123Z local-as-utc",
		"2026-08-05 09:30":            "2026-08-05T09:30:00.000Z local-as-utc",
		"2026-08-05T09:00:00.5+02:00": "2026-08-05T07:00:00.500Z ",
		"yesterday":                   " none",
	} {
		tm, b, _ := localTime(in)
		e := timeline.Event{Time: tm, TimeBasis: b}
		if got := e.TimeString() + " " + e.ToRow().TimeBasis; got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
