package claudecode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Tests for the cases of issues 12 (trust) and 16 (depth), each on the
// smallest input that reproduces the public report it names.

// brief renders rows as "L<line> <turn type> <session>[<parent] <record
// id>[ replayed] <text>", the fields these cases turn on.
func brief(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		sess := short(e.SessionID)
		if e.ParentSessionID != "" {
			sess += "<" + short(e.ParentSessionID)
		}
		rp := ""
		if e.Replayed {
			rp = " replayed"
		}
		out = append(out, fmt.Sprintf("L%d %s %s %s%s %s", e.SourceLine, e.TurnType, sess, orDash(e.RecordID), rp, e.Text))
	}
	return out
}

// short abbreviates the test session uuids.
func short(s string) string {
	switch s {
	case testSession:
		return "S"
	case "22222222-aaaa-4bbb-8ccc-000000000002":
		return "N"
	}
	return s
}

func wantRows(t *testing.T, s *parsertest.Sink, want ...string) {
	t.Helper()
	got := brief(s)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func wantProblems(t *testing.T, s *parsertest.Sink, want ...string) {
	t.Helper()
	if strings.Join(s.Problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(s.Problems, "\n"), strings.Join(want, "\n"))
	}
}

// Issue 12: a second record reusing a uuid with other content within one
// file ("a planted earlier record can hide a later real one") is no
// longer dropped: both rows carry the uuid, and the engine keeps both and
// reports duplicate_id (TestEngineReusedUUID).
func TestReusedUUIDKeepsBothRecords(t *testing.T) {
	s := golden(t, "reused_uuid")
	wantRows(t, s,
		"L1 user S u1 list the files",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 assistant S a1 Here they are.",
		"L3 user S u1 delete the logs",
		"L4 tool_use S a2 rm -rf logs/",
	)
}

// claude-code #49876, #76059: a 4 KB run of NULs between records (the
// block a crash preallocated). parser.Lines reports it as nul_run; the
// record written right after the run is kept, with its tool call.
func TestNULRun4KKeepsNextRecord(t *testing.T) {
	s := golden(t, "nul_run_4k")
	wantProblems(t, s, "line 2: nul_run: 4096 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)")
	wantRows(t, s,
		"L1 user S u1 first prompt",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 tool_use S a1 rm -rf build/",
		"L3 tool_result S u2 ",
	)
	if c := s.Events[2]; c.ToolUseID != "toolu_rm" || c.ToolName != "Bash" || c.TimeString() != "2026-10-11T10:00:01.000Z" {
		t.Fatalf("call after the NUL run %+v", c)
	}
}

// claude-code #24663: after a streaming fallback the assistant message is
// an object of thousands of numeric keys, one character each, with an
// empty content. The characters are reassembled in key order: as the API
// message they spell (line 2), or as the reply's text (line 3); each
// reassembly is a problem row, nothing is dropped.
func TestNumericKeyMessageReassembled(t *testing.T) {
	s := golden(t, "numeric_keys")
	wantRows(t, s,
		"L1 user S u1 remove the build folder",
		"L2 system S a2#model model: claude-opus-4-6",
		"L2 assistant S a2 Removed build/.",
		"L3 assistant S a3 Done.",
	)
	wantProblems(t, s,
		"line 2: message written as an object of 112 numeric keys (claude-code #24663): reassembled in key order as the API message it spells",
		"line 3: message written as an object of 5 numeric keys (claude-code #24663): its characters reassembled in key order as the text",
	)
	if m := s.Events[2].Model; m != "claude-opus-4-6" {
		t.Fatalf("model of the reassembled reply %q", m)
	}
}

// claude-code #43764: a subagent known only from the agent_progress
// records of its parent's transcript (no subagent file). Its rows come
// from the copies, in the subagent's own session with the parent as
// parent_session_id, the parent model's prompt a "subagent task:" system
// row; they are marked replayed, so the subagent's file, when collected,
// wins the identity merge (TestEngineProgressCopiesAndSubagentFile). A
// bash_progress record is a counted skip.
func TestAgentProgressWithoutSubagentFile(t *testing.T) {
	s := golden(t, "progress_subagent")
	const ag = "a1b2c3d4e5f60718"
	wantRows(t, s,
		"L1 user S u1 find the TODOs with a subagent",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 tool_use S a1 find TODOs",
		"L3 system "+ag+"<S "+ag+"#subagent replayed subagent "+ag+" of "+testSession,
		"L3 system "+ag+"<S s1 replayed subagent task: Search the repo for TODO",
		"L4 system "+ag+"<S s2#model replayed model: claude-haiku-4-5",
		"L4 tool_use "+ag+"<S s2 replayed TODO",
		"L5 tool_result "+ag+"<S s3 replayed a.go:3: // TODO fix",
		"L7 tool_result S u2 Found one TODO in a.go",
		"L8 assistant S a2 There is one TODO, in a.go.",
	)
	if r := s.Events[7]; r.ToolName != "Grep" || r.ToolUseID != "toolu_grep" || r.TimeString() != "2026-10-11T10:00:04.000Z" {
		t.Fatalf("subagent result from its copy %+v", r)
	}
	if got := s.SkipCounts(); len(got) != 1 || got["copy:progress/bash_progress"] != 1 {
		t.Fatalf("skips %v", got)
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != ag || s.States[0].ParentSessionID != testSession {
		t.Fatalf("states %+v", s.States)
	}
}

// The subagent's own file gives the same record ids, not replayed: the
// identity merge keeps these and drops the progress copies.
func TestSubagentFileMatchesProgressCopies(t *testing.T) {
	const ag = "a1b2c3d4e5f60718"
	in := transcriptInput(t, "testdata/progress_subagent_file.jsonl", testProject+testSession+"/subagents/agent-"+ag+".jsonl", nil)
	s := parsertest.Golden(t, Transcript(), in, "testdata/progress_subagent_file.golden.jsonl")
	wantRows(t, s,
		"L1 system "+ag+"<S "+ag+"#subagent subagent "+ag+" of "+testSession,
		"L1 system "+ag+"<S s1 subagent task: Search the repo for TODO",
		"L2 system "+ag+"<S s2#model model: claude-haiku-4-5",
		"L2 tool_use "+ag+"<S s2 TODO",
		"L3 tool_result "+ag+"<S s3 a.go:3: // TODO fix",
	)
}

// Issue 16: the server form of Remote Control. The session it spawned
// (entrypoint sdk-cli, with a bridge session) reads "session origin:
// remote (Remote Control, entrypoint sdk-cli)"; the bridge_status line
// gives "session synced: remote control bridge <id> url <url>"; each
// bridge-session record "remote control: bridge session <id or none>
// lastSequenceNum=<n>"; the environment attachment "scratch directory:";
// a /loop firing "scheduled task fired: <taskId> cron=<cron>"; the
// daemon's handover "session continued in: <id>", and the new session is
// forked from this one.
func TestRemoteControlSession(t *testing.T) {
	s := golden(t, "remote_control")
	wantRows(t, s,
		"L1 system S - session mode: normal",
		"L2 system S - remote control: bridge session cse_01W9MQGReWS44CBjcm2YqFrL lastSequenceNum=0",
		"L3 system S u1#surface session surface: sdk-cli",
		"L3 system S u1#origin session origin: remote (Remote Control, entrypoint sdk-cli)",
		"L3 user S u1 check the build every five minutes",
		"L3 system S u1#trigger prompt trigger: promptSource=queued turnOrigin=remote",
		"L4 system S e1#scratch scratch directory: /tmp/claude/-home-examiner-demo/"+testSession+"/scratchpad",
		`L4 system S e1 attachment environment: {"snapshot":{"workingDirectory":"/home/examiner/demo","platform":"linux","scratchpadDirectory":"/tmp/claude/-home-examiner-demo/`+testSession+`/scratchpad"}}`,
		"L5 system S b1 session synced: remote control bridge cse_01W9MQGReWS44CBjcm2YqFrL url https://claude.ai/code/session_01W9MQGReWS44CBjcm2YqFrL",
		"L6 system S f1 scheduled task fired: task-1 cron=*/5 * * * * (Running scheduled task (Oct 11 10:05am))",
		"L7 system S u2 check the build",
		"L8 system S a1#model model: claude-opus-4-6",
		"L8 assistant S a1 The build is green.",
		"L9 system S - remote control: bridge session none lastSequenceNum=42",
		"L10 system S - session continued in: 22222222-aaaa-4bbb-8ccc-000000000002",
	)
	if b := s.Events[1]; b.TimeBasis != timeline.TimeInherited || b.TimeString() != "2026-10-11T10:00:00.000Z" {
		t.Fatalf("bridge-session row time %+v", b)
	}
	if len(s.States) != 2 ||
		s.States[0] != (timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: testSession}, Synced: "yes", Origin: "remote"}) ||
		s.States[1] != (timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: "22222222-aaaa-4bbb-8ccc-000000000002"},
			ParentSessionID: testSession, ForkedFrom: testSession}) {
		t.Fatalf("states %+v", s.States)
	}
	if len(s.Skips) != 0 {
		t.Fatalf("skips %v", s.Skips)
	}
}

// Issue 16: a cloud session brought in with --teleport: "session origin:
// remote (teleport, remoteSourced)" from its teleported-from record, or
// from remoteSourced on its records; origin remote.
func TestTeleportedSession(t *testing.T) {
	s := golden(t, "teleport")
	wantRows(t, s,
		"L1 system S - session origin: remote (teleport, remoteSourced) remoteSessionId=session_01TELEPORT",
		"L2 system S u1#surface session surface: cli",
		"L2 user S u1 fix the flaky test",
		"L3 system S a1#model model: claude-opus-4-6",
		"L3 assistant S a1 Fixed on the web.",
		"L4 user S u2 now run it locally",
	)
	if len(s.States) != 1 || s.States[0].Origin != "remote" {
		t.Fatalf("states %+v", s.States)
	}
	s = golden(t, "remote_sourced")
	wantRows(t, s,
		"L1 system S u1#surface session surface: cli",
		"L1 system S u1#origin session origin: remote (teleport, remoteSourced)",
		"L1 user S u1 fix the flaky test",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 assistant S a1 Fixed on the web.",
	)
	if len(s.States) != 1 || s.States[0].Origin != "remote" {
		t.Fatalf("states %+v", s.States)
	}
}

// Issue 16: the VS Code extension's session reads "session origin: local
// (VS Code extension)", origin local; its prompts (promptSource sdk) get
// a prompt trigger row.
func TestVSCodeSession(t *testing.T) {
	s := golden(t, "vscode")
	wantRows(t, s,
		"L1 system S u1#surface session surface: claude-vscode",
		"L1 system S u1#origin session origin: local (VS Code extension)",
		"L1 user S u1 explain this function",
		"L1 system S u1#trigger prompt trigger: promptSource=sdk turnOrigin=-",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 assistant S a1 It parses the flags.",
	)
	if len(s.States) != 1 || s.States[0].Origin != "local" || s.States[0].Synced != "" {
		t.Fatalf("states %+v", s.States)
	}
}

// Issue 16: bridge-pointer.json and a session's ccr-tip.json, the server
// form of Remote Control.
func TestRemoteControlServerFiles(t *testing.T) {
	mtime := parsertest.Time(t, "2026-10-26T09:00:00Z")
	run := func(local, orig string) *parsertest.Sink {
		in := parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "project-files", MTime: mtime}, nil)
		if !Remote().Match(&in.File) {
			t.Fatalf("remote parser does not match %s", orig)
		}
		return parsertest.Golden(t, Remote(), in, strings.TrimSuffix(local, ".json")+".golden.jsonl")
	}
	s := run("testdata/bridge-pointer.json", testProject+"bridge-pointer.json")
	if len(s.Events) != 1 || s.Events[0].Text != "remote control: environment env_01ENVIRONMENT session session_01W9MQGReWS44CBjcm2YqFrL source=repl (from bridge-pointer.json, file mtime)" ||
		s.Events[0].TimeBasis != timeline.TimeFileMTime || !s.Events[0].Time.Equal(mtime) || s.Events[0].SessionID != "" {
		t.Fatalf("bridge pointer %+v", s.Events)
	}
	s = run("testdata/ccr-tip.json", testProject+testSession+".ccr-tip.json")
	if len(s.Events) != 1 || s.Events[0].Text != "session synced: remote event 0190aaaa-0000-7000-8000-000000000042 at 2026-10-26T08:59:58.123Z (from ccr-tip.json)" ||
		s.Events[0].TimeBasis != timeline.TimeRecorded || s.Events[0].TimeString() != "2026-10-26T08:59:58.123Z" || s.Events[0].SessionID != testSession {
		t.Fatalf("ccr tip %+v", s.Events)
	}
	if len(s.States) != 1 || s.States[0].Synced != "yes" || s.States[0].Key.SessionID != testSession {
		t.Fatalf("states %+v", s.States)
	}
	for _, name := range []string{testProject + testSession + "/tool-results/t.txt", testProject + testSession + "/subagents/agent-a1.meta.json"} {
		if Remote().Match(&parser.File{Path: name, Agent: Agent, Target: "project-files"}) {
			t.Fatalf("remote parser matches %s", name)
		}
	}
}

// What happened stays: a prompt chained to a record that already had a
// prompt after it (/rewind, or a resume at an earlier message) leaves the
// abandoned branch, with its rm -rf, as rows, and a system row says so.
func TestRewoundBranchStays(t *testing.T) {
	s := golden(t, "rewound")
	wantRows(t, s,
		"L1 user S u1 look at the logs",
		"L2 system S a1#model model: claude-opus-4-6",
		"L2 assistant S a1 There are 3 logs.",
		"L3 user S u2 delete them",
		"L4 tool_use S a2 rm -rf logs/",
		"L5 tool_result S u3 ",
		"L6 user S u4 only list them",
		"L6 system S u4#rewound rewound: this prompt continues from record a1; the records written after that one stay, as an abandoned branch",
	)
}

// An api-request-blob (or any skipped record type) counts as a copy only
// when it is a valid record: one whose large message is no JSON inside
// balanced brackets (line 2), or a shape with a trailing comma (line 4),
// is a bad-line problem naming the line; the valid blob on line 3 is the
// one copy counted.
func TestInvalidSkippedRecordIsAProblem(t *testing.T) {
	s := golden(t, "api_request_blob_invalid")
	wantRows(t, s, "L1 user S u1 hello")
	wantProblems(t, s,
		"line 2: malformed JSON line (cut short or corrupt), skipped: invalid character 't' after object key:value pair",
		"line 4: malformed JSON line (cut short or corrupt), skipped: invalid character '}' looking for beginning of object key string",
	)
	if got := s.SkipCounts(); len(got) != 1 || got["copy:api-request-blob"] != 1 {
		t.Fatalf("skips %v", got)
	}
}
