package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

func TestRolloutGolden(t *testing.T) {
	for _, c := range []string{
		"empty.jsonl", "malformed.jsonl", "typical.jsonl", "repeated_meta.jsonl",
		"truncated_glued.jsonl", "response_only.jsonl", "item_completed.jsonl",
		"session_id_moved.jsonl", "thread_session_id.jsonl", "legacy.jsonl", "subagent.jsonl",
		"rollout-2026-02-23T13-19-38-019c8a70-0000-7000-8000-000000000003.jsonl",
		"rollout-2025-04-20-0196aaaa-0000-7000-8000-00000000000c.json", "subagent_spawn.jsonl",
	} {
		t.Run(c, func(t *testing.T) {
			golden(t, "codex-cli/rollout", filepath.Join("testdata", c), "", "sessions")
		})
	}
}

func TestRolloutEmpty(t *testing.T) {
	s := runRollout(t, "testdata/empty.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("empty file: %d events, problems %v", len(s.Events), s.Problems)
	}
}

func TestRolloutMalformedGoesOn(t *testing.T) {
	s := runRollout(t, "testdata/malformed.jsonl")
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].Text != "still parsed after bad lines" || u[0].SourceLine != 6 {
		t.Fatalf("user rows after bad lines: %+v", u)
	}
	if len(s.Problems) < 4 {
		t.Fatalf("want a problem per bad line, got %v", s.Problems)
	}
}

func TestRolloutTypical(t *testing.T) {
	s := runRollout(t, "testdata/typical.jsonl")
	const sid = "0199bbbb-0000-7000-8000-000000000002"
	for _, e := range s.Events {
		if e.SessionID != sid {
			t.Fatalf("row with session %q: %+v", e.SessionID, e)
		}
	}
	// user rows: only the typed prompts, once each (events primary, items twins)
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "list the files" || !strings.Contains(u[1].Text, "[local images: /home/examiner/shot.png]") {
		t.Fatalf("user rows: %+v", u)
	}
	if got := u[0].TimeString(); got != "2026-03-02T09:00:01.000Z" {
		t.Fatalf("first prompt time %s", got)
	}
	// injected context is system
	for _, p := range []string{"<user_instructions>", "<environment_context>", "<permissions instructions>", "<turn_aborted>"} {
		if r := withText(s, p); len(r) != 1 || r[0].TurnType != timeline.System {
			t.Fatalf("%s rows: %+v", p, r)
		}
	}
	// one assistant row, one thinking row despite the event twins
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Model != "gpt-5-codex" {
		t.Fatalf("assistant rows: %+v", a)
	}
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "**Listing files**" {
		t.Fatalf("thinking rows: %+v", th)
	}
	// shell argv joined, JSON-form output decoded with its exit code
	if c := withID(s, timeline.ToolUse, "call_shell_1"); len(c) != 1 || c[0].Text != "bash -lc ls -a" || c[0].ToolName != "shell" ||
		c[0].ToolInput != `{"command":["bash","-lc","ls -a"],"workdir":"/home/examiner/demo","timeout_ms":10000}` {
		t.Fatalf("shell call: %+v", c)
	}
	if r := withID(s, timeline.ToolResult, "call_shell_1"); len(r) != 1 || r[0].IsError != "false" || r[0].Text != ".\n..\nREADME.md\nexit code: 0" {
		t.Fatalf("shell result: %+v", r)
	}
	if r := withID(s, timeline.ToolResult, "call_exec_2"); len(r) != 1 || r[0].IsError != "true" || r[0].ToolName != "exec_command" {
		t.Fatalf("exit 1 result: %+v", r)
	}
	if c := withID(s, timeline.ToolUse, "call_patch_3"); len(c) != 1 || c[0].Text != "notes.txt, README.md" {
		t.Fatalf("patch call: %+v", c)
	}
	if d := withID(s, timeline.System, "call_patch_3"); len(d) != 1 || d[0].Text != "permission decision: denied source=user" {
		t.Fatalf("rejected patch decision: %+v", d)
	}
	if r := withID(s, timeline.ToolResult, "call_mcp_4"); len(r) != 1 || r[0].IsError != "true" || r[0].Text != "tool failed" {
		t.Fatalf("success=false result: %+v", r)
	}
	if c := withID(s, timeline.ToolUse, "call_local_5"); len(c) != 1 || c[0].Text != "git status" || c[0].Model != "gpt-5.1-codex-max" {
		t.Fatalf("local shell call: %+v", c)
	}
	for _, want := range []string{
		"model: gpt-5-codex", "model: gpt-5-codex -> gpt-5.1-codex-max",
		"permission mode: approval=on-request sandbox=workspace-write",
		"permission mode: approval=never sandbox=danger-full-access",
		"session origin: local (originator=codex_cli_rs cli_version=0.120.0 source=cli)",
		"turn aborted: interrupted", "compacted: Summary: listed files, patch was rejected.",
	} {
		if len(find(s, func(e *timeline.Event) bool { return e.Text == want && e.TurnType == timeline.System })) != 1 {
			t.Errorf("missing system row %q", want)
		}
	}
	if len(s.States) != 1 || s.States[0].Origin != "local" || s.States[0].Key.SessionID != sid {
		t.Fatalf("session state: %+v", s.States)
	}
}

// The file name carries local time (13-19-38 at UTC+1); rows take the
// records' UTC times.
func TestRolloutLocalTimeFileName(t *testing.T) {
	s := runRollout(t, "testdata/rollout-2026-02-23T13-19-38-019c8a70-0000-7000-8000-000000000003.jsonl")
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].TimeString() != "2026-02-23T12:19:42.563Z" || u[0].TimeBasis != timeline.TimeRecorded {
		t.Fatalf("user row: %+v", u)
	}
	for _, e := range s.Events {
		if e.Time.Hour() == 13 {
			t.Fatalf("a row took the file name's local hour: %+v", e)
		}
	}
}

func TestRolloutRepeatedSessionMeta(t *testing.T) {
	s := runRollout(t, "testdata/repeated_meta.jsonl")
	if o := withText(s, "session origin:"); len(o) != 1 || !strings.Contains(o[0].Text, "cli_version=0.110.0") {
		t.Fatalf("origin rows: %+v", o)
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[1].Text != "resumed run" || u[1].SessionID != "0199cccc-0000-7000-8000-000000000004" {
		t.Fatalf("user rows: %+v", u)
	}
}

func TestRolloutTruncatedGlued(t *testing.T) {
	s := runRollout(t, "testdata/truncated_glued.jsonl")
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "thinking hard" || th[0].SourceLine != 3 {
		t.Fatalf("glued record not recovered: %+v", th)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Text != "done" {
		t.Fatalf("assistant rows: %+v", a)
	}
	if len(s.Problems) != 3 || !strings.HasPrefix(s.Problems[0], "line 3:") || s.Problems[1] != "line 5: nul_run: 3 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)" || !strings.HasPrefix(s.Problems[2], "line 6:") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

// Codex 0.153 moved prompts to response items only: the file still has a
// user row, and AGENTS.md / skill blocks stay system.
func TestRolloutResponseItemsOnly(t *testing.T) {
	s := runRollout(t, "testdata/response_only.jsonl")
	if u := ofType(s, timeline.User); len(u) != 1 || u[0].Text != "hi" {
		t.Fatalf("user rows: %+v", u)
	}
	if sys := withText(s, "# AGENTS.md"); len(sys) != 1 || sys[0].TurnType != timeline.System {
		t.Fatalf("AGENTS.md rows: %+v", sys)
	}
	if sys := withText(s, "<skill>"); len(sys) != 1 || sys[0].TurnType != timeline.System {
		t.Fatalf("skill rows: %+v", sys)
	}
}

// The 0.148+ item_completed{item} form, without response-item twins.
func TestRolloutItemCompleted(t *testing.T) {
	s := runRollout(t, "testdata/item_completed.jsonl")
	if u := ofType(s, timeline.User); len(u) != 1 || u[0].Text != "run the tests" {
		t.Fatalf("user rows: %+v", u)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Text != "hi" || a[0].Model != "gpt-5.2-codex" {
		t.Fatalf("assistant rows: %+v", a)
	}
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "Deciding on a test command" {
		t.Fatalf("thinking rows: %+v", th)
	}
	c := withID(s, timeline.ToolUse, "call_ce_1")
	r := withID(s, timeline.ToolResult, "call_ce_1")
	if len(c) != 1 || c[0].Text != "/bin/bash -lc go test ./..." || len(r) != 1 || r[0].IsError != "true" || r[0].Text != "FAIL\nexit code: 1" {
		t.Fatalf("command pair: %+v %+v", c, r)
	}
	if d := withID(s, timeline.System, "call_ce_2"); len(d) != 1 || d[0].Text != "permission decision: denied source=user" {
		t.Fatalf("declined command: %+v", d)
	}
	if p := withText(s, "permission mode: approval=untrusted sandbox=read-only"); len(p) != 1 {
		t.Fatalf("string sandbox policy: %+v", p)
	}
}

func TestRolloutSessionIDMoved(t *testing.T) {
	for file, want := range map[string]string{
		"testdata/session_id_moved.jsonl":  "0199abab-0000-7000-8000-000000000008",
		"testdata/thread_session_id.jsonl": "0199acac-0000-7000-8000-000000000009",
	} {
		s := runRollout(t, file)
		u := ofType(s, timeline.User)
		if len(u) != 1 || u[0].SessionID != want {
			t.Fatalf("%s: user rows %+v", file, u)
		}
	}
}

func TestRolloutLegacy(t *testing.T) {
	s := runRollout(t, "testdata/legacy.jsonl")
	start := parsertest.Time(t, "2025-06-01T12:00:00Z")
	for _, e := range s.Events {
		if !e.Time.Equal(start) || e.SessionID != "0197aaaa-0000-7000-8000-00000000000a" {
			t.Fatalf("row not at session start: %+v", e)
		}
		if e.SourceLine != 1 && e.TimeBasis != timeline.TimeInherited {
			t.Fatalf("legacy item without inherited basis: %+v", e)
		}
	}
	if u := ofType(s, timeline.User); len(u) != 1 || u[0].Text != "fix the build" {
		t.Fatalf("user rows: %+v", u)
	}
	if r := withID(s, timeline.ToolResult, "call_legacy_1"); len(r) != 1 || r[0].Text != "ok\nexit code: 0" || r[0].ToolName != "shell" {
		t.Fatalf("legacy result: %+v", r)
	}
}

// A spawned subagent's rows carry its own session and its parent; the
// prompt its parent's model wrote is "subagent task: ...", never a user row
// (issue 12). A forked spawn names its parent as forked_from as well.
func TestRolloutSubagent(t *testing.T) {
	const child, parent = "0199adad-0000-7000-8000-00000000000b", "0199adad-0000-7000-8000-0000000000aa"
	s := runRollout(t, "testdata/subagent.jsonl")
	want := []string{
		"system session origin: local (originator=codex_cli_rs cli_version=0.160.0 source=subagent:thread_spawn) " + child + "/session_meta#origin",
		"system subagent " + child + " of " + parent + " " + child + "/session_meta#subagent",
		"system session forked from: " + parent + " " + child + "/session_meta#forked",
		"system subagent task: explore the repo " + child + "/response_item.message:0",
	}
	if got := rowsOf(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Events {
		if e.SessionID != child || e.ParentSessionID != parent || e.Replayed {
			t.Fatalf("row session/parent: %+v", e)
		}
	}
	if len(s.States) != 1 || s.States[0].ParentSessionID != parent || s.States[0].ForkedFrom != parent {
		t.Fatalf("states: %+v", s.States)
	}
	if len(ofType(s, timeline.User)) != 0 {
		t.Fatal("a subagent task counted as a user row")
	}
}

// A spawned subagent's rollout repeats its parent's session_meta (Codex
// 0.142-0.145, chattymin/PokeTokenBar #137): that copy is the parent's
// record, replayed; the lines after it are the subagent's own.
func TestRolloutSubagentCopiesParentMeta(t *testing.T) {
	const child, parent = "0199aeae-0000-7000-8000-00000000000d", "0199aeae-0000-7000-8000-0000000000aa"
	s := runRollout(t, "testdata/subagent_spawn.jsonl")
	want := []string{
		"system session origin: local (originator=codex_cli_rs cli_version=0.145.0 source=cli) " + parent + "/session_meta#origin",
		"system session origin: local (originator=codex_cli_rs cli_version=0.145.0 source=subagent:thread_spawn) " + child + "/session_meta#origin",
		"system subagent " + child + " of " + parent + " " + child + "/session_meta#subagent",
		"system subagent task: find every TODO in src/ " + child + "/response_item.message:0",
		"tool_use grep -rn TODO src/ " + child + "/call_sub_1",
		"tool_result src/a.go:3: TODO " + child + "/call_sub_1#output",
		"assistant One TODO, in src/a.go. " + child + "/response_item.message:1",
	}
	if got := rowsOf(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	copyRow := s.Events[0] // rows in time order: the copy takes the parent's start
	if copyRow.SessionID != parent || !copyRow.Replayed || copyRow.TimeString() != "2026-03-09T03:55:00.000Z" || copyRow.TimeBasis != timeline.TimeInherited || copyRow.ParentSessionID != "" {
		t.Fatalf("parent meta copy: %+v", copyRow)
	}
	for _, e := range s.Events[1:] {
		if e.SessionID != child || e.ParentSessionID != parent || e.Replayed {
			t.Fatalf("subagent row: %+v", e)
		}
	}
}

// rowsOf renders rows as "<turn type> <text> <record id>".
func rowsOf(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, string(e.TurnType)+" "+e.Text+" "+e.RecordID)
	}
	return out
}

func TestRolloutTypeScriptJSON(t *testing.T) {
	s := runRollout(t, "testdata/rollout-2025-04-20-0196aaaa-0000-7000-8000-00000000000c.json")
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].SessionID != "0196aaaa-0000-7000-8000-00000000000c" || u[0].SourceLine != 1 || u[0].TimeBasis != timeline.TimeInherited {
		t.Fatalf("user rows: %+v", u)
	}
	if r := withID(s, timeline.ToolResult, "call_ts_1"); len(r) != 1 || r[0].SourceLine != 3 {
		t.Fatalf("result: %+v", r)
	}
}

// A .jsonl.zst rollout gives the same rows as the plain file.
func TestRolloutZstd(t *testing.T) {
	plain, err := os.ReadFile("testdata/typical.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write(plain)
	w.Close()
	local := filepath.Join(t.TempDir(), "rollout-2026-03-02T10-00-00-0199bbbb-0000-7000-8000-000000000002.jsonl.zst")
	if err := os.WriteFile(local, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	z := parsertest.Run(t, byID(t, "codex-cli/rollout"), input(t, local, "/home/examiner/.codex/archived_sessions/"+filepath.Base(local), "sessions"))
	p := runRollout(t, "testdata/typical.jsonl")
	if len(z.Events) != len(p.Events) || len(z.Events) == 0 {
		t.Fatalf("zst gave %d rows, plain %d", len(z.Events), len(p.Events))
	}
	for i := range z.Events {
		a, b := z.Events[i], p.Events[i]
		a.SourceFile, b.SourceFile = "", ""
		if a != b {
			t.Fatalf("row %d differs:\n zst %+v\nplain %+v", i, a, b)
		}
	}
}

// sessionRows renders rows as "<session tail> <replayed> <turn type>
// <text> <time> <basis>".
func sessionRows(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		sid := e.SessionID
		if len(sid) > 4 {
			sid = sid[len(sid)-4:]
		}
		out = append(out, strings.Join([]string{sid, map[bool]string{true: "replayed", false: "own"}[e.Replayed], string(e.TurnType), e.Text, e.TimeString(), string(e.TimeBasis)}, " "))
	}
	return out
}

// A fork of a fork (openai/codex #21025): S replays P, whose replay of G
// comes first; each prompt lands in the session it was typed in, at its
// turn's time, and only S's own prompt counts in S.
func TestRolloutNestedFork(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "codex-cli/rollout"), input(t, "testdata/fork/nested_fork.jsonl", "", "sessions"), "testdata/fork/nested_fork.golden.jsonl")
	var prompts []string
	for _, r := range sessionRows(s) {
		if strings.Contains(r, " user ") {
			prompts = append(prompts, r)
		}
	}
	want := []string{
		"0a01 replayed user prompt typed in G 2026-06-01T08:00:05.000Z inherited",
		"0a02 replayed user prompt typed in P 2026-06-01T09:00:05.000Z inherited",
		"0a03 own user prompt typed in S 2026-06-01T10:00:05.000Z ",
	}
	if strings.Join(prompts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("prompts:\n%s", strings.Join(prompts, "\n"))
	}
	for _, e := range s.Events {
		if e.TurnType == timeline.User && e.SessionID == "019e8269-4e80-7000-8000-000000000a02" && e.ParentSessionID != "019e8232-6000-7000-8000-000000000a01" {
			t.Fatalf("P's replayed row without its own parent: %+v", e)
		}
	}
}

// A fork written before turn ids: the replay is the burst the fork wrote
// at its creation; the first record more than 2 s later is the fork's own.
func TestRolloutForkWithoutTurnIDs(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "codex-cli/rollout"), input(t, "testdata/fork/old_fork.jsonl", "", "sessions"), "testdata/fork/old_fork.golden.jsonl")
	var turns []string
	for _, r := range sessionRows(s) {
		if !strings.Contains(r, " system ") {
			turns = append(turns, r)
		}
	}
	want := []string{
		"00b1 replayed user parent prompt 2026-06-02T09:00:00.000Z inherited",
		"00b1 replayed assistant parent reply 2026-06-02T09:00:00.000Z inherited",
		"00b2 own user fork prompt 2026-06-02T10:01:30.000Z ",
		"00b2 own assistant fork reply 2026-06-02T10:01:31.000Z ",
	}
	if strings.Join(turns, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(turns, "\n"))
	}
}
