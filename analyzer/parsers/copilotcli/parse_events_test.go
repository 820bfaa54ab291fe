package copilotcli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

// sessionInput presents testdata/<caseDir>/<id>/<name> as
// /home/examiner/.copilot/session-state/<id>/<name>, with the session's
// workspace.yaml as a related file when the case has one.
func sessionInput(t *testing.T, caseDir, target, name string) *parser.Input {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join("testdata", caseDir, "*", name))
	if len(matches) != 1 {
		t.Fatalf("testdata/%s/*/%s: %d matches", caseDir, name, len(matches))
	}
	local := matches[0]
	id := filepath.Base(filepath.Dir(local))
	orig := "/home/examiner/.copilot/session-state/" + id
	related := parsertest.Files{}
	if ws := filepath.Join(filepath.Dir(local), "workspace.yaml"); fileExists(ws) {
		related[orig+"/workspace.yaml"] = ws
	}
	f := parser.File{Path: orig + "/" + name, Agent: Agent, Target: target}
	return parsertest.Input(t, local, f, related)
}

func TestEventsGolden(t *testing.T) {
	for _, c := range []string{"typical", "edge", "malformed", "empty"} {
		t.Run(c, func(t *testing.T) {
			in := sessionInput(t, c, "events", "events.jsonl")
			parsertest.Golden(t, byID(t, "copilot-cli/events"), in, filepath.Join("testdata", c+".golden.jsonl"))
		})
	}
}

func find(s *parsertest.Sink, pred func(e *timeline.Event) bool) []timeline.Event {
	var out []timeline.Event
	for i := range s.Events {
		if pred(&s.Events[i]) {
			out = append(out, s.Events[i])
		}
	}
	return out
}

func TestEventsTypical(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-cli/events"), sessionInput(t, "typical", "events", "events.jsonl"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	const sid = "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
	for _, e := range s.Events {
		if e.SessionID != sid || e.ProjectPath != "/home/examiner/demo" {
			t.Fatalf("row %q: session %q project %q", e.Text, e.SessionID, e.ProjectPath)
		}
	}
	users := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User })
	if len(users) != 1 || users[0].Text != "list the files and delete tmp.txt" || !users[0].Time.Equal(parsertest.Time(t, "2026-10-15T09:00:02.100Z")) {
		t.Fatalf("user rows: %+v", users)
	}
	// the call and its result share the id; the denied call is an error
	uses := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolUse })
	res := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolResult })
	if len(uses) != 3 || len(res) != 2 {
		t.Fatalf("tool_use %d tool_result %d", len(uses), len(res))
	}
	byUse := map[string]timeline.Event{}
	for _, u := range uses {
		byUse[u.ToolUseID] = u
	}
	if u := byUse["call_ls"]; u.Text != "ls -la" || u.ToolName != "bash" || u.Model != "claude-sonnet-4.5" ||
		u.ToolInput != `{"command":"ls -la","description":"List files"}` || !u.Time.Equal(parsertest.Time(t, "2026-10-15T09:00:03.100Z")) {
		t.Fatalf("first call: %+v", u)
	}
	if res[0].ToolUseID != "call_ls" || res[0].IsError != "false" || !strings.HasPrefix(res[0].Text, "notes.md\ntmp.txt") {
		t.Fatalf("first result: %+v", res[0])
	}
	if res[1].ToolUseID != "call_rm" || res[1].IsError != "true" || !strings.Contains(res[1].Text, "error: rejected: The user rejected") {
		t.Fatalf("rejected result: %+v", res[1])
	}
	// a requested call that never started is kept at the reply's time
	var never *timeline.Event
	for i := range uses {
		if uses[i].ToolUseID == "call_view" {
			never = &uses[i]
		}
	}
	if never == nil || never.Text != "/home/examiner/demo/notes.md" || !never.Time.Equal(parsertest.Time(t, "2026-10-15T09:00:03.000Z")) || never.SourceLine != 8 {
		t.Fatalf("never-started call: %+v", never)
	}
	// permission request and decision joined on the tool call id
	perms := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "permission ") })
	if len(perms) != 2 || perms[0].Text != "permission request: shell rm tmp.txt (Delete tmp.txt)" || perms[0].ToolUseID != "call_rm" ||
		perms[1].Text != `permission decision: denied-interactively-by-user feedback=do not delete anything` || perms[1].ToolUseID != "call_rm" {
		t.Fatalf("permission rows: %+v", perms)
	}
	want := []string{
		"model: claude-sonnet-4.5",
		"model: claude-sonnet-4.5 -> gpt-5.4",
		"session.info model: Model changed to: gpt-5.4",
		`hook userPromptSubmitted start: {"prompt":"list the files and delete tmp.txt"}`,
		`hook userPromptSubmitted end: success=true output={"decision":"allow"}`,
		"utility model gpt-4.1-mini: duration=310 initiator=session-title inputTokens=120 interactionType=conversation-background outputTokens=8",
		"attachment: file /home/examiner/demo/notes.md notes.md",
		`session.workspace_file_changed: {"operation":"create","path":"plan.md"}`,
	}
	for _, w := range want {
		if len(find(s, func(e *timeline.Event) bool { return e.Text == w && e.TurnType == timeline.System })) != 1 {
			t.Errorf("missing system row %q", w)
		}
	}
	th := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.Thinking })
	if len(th) != 1 || th[0].Text != "The user wants a listing, then a deletion." || th[0].Model != "claude-sonnet-4.5" {
		t.Fatalf("thinking: %+v", th)
	}
	sys := find(s, func(e *timeline.Event) bool {
		return strings.HasPrefix(e.Text, "system.message system: You are the GitHub Copilot CLI")
	})
	if len(sys) != 1 || sys[0].TurnType != timeline.System {
		t.Fatalf("system prompt row: %+v", sys)
	}
}

func TestEventsEdge(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-cli/events"), sessionInput(t, "edge", "events", "events.jsonl"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	const root, subID = "0b9e8d7c-6a5f-4e3d-9c2b-1a0f9e8d7c6b", "7d3f5c1e-2b4a-4e6f-9a8b-0c1d2e3f4a5b"
	// issue 12: a sub-agent's rows are in its own session (agentId), child
	// of the file's; its lifecycle events without an agentId stay in the
	// parent (1.0.98 shape).
	sub := find(s, func(e *timeline.Event) bool {
		return strings.HasPrefix(e.Text, "subagent ") && !strings.HasPrefix(e.Text, "subagent task: ")
	})
	if len(sub) != 5 ||
		!strings.HasPrefix(sub[0].Text, "subagent call_task of "+root+": started explore") || sub[0].SessionID != root || sub[0].ToolUseID != "call_task" ||
		sub[1].Text != "subagent "+subID+" of "+root || sub[1].SessionID != subID || sub[1].ParentSessionID != root || sub[1].RecordID != subID+"#subagent" || sub[1].SourceLine != 6 ||
		!strings.HasPrefix(sub[2].Text, "subagent call_task of "+root+": completed explore") || sub[2].SessionID != root ||
		sub[3].Text != "subagent "+root+"/call_task2 of "+root || sub[3].SessionID != root+"/call_task2" ||
		!strings.Contains(sub[4].Text, "error: model refused") || sub[4].SessionID != root {
		t.Fatalf("subagent rows: %+v", sub)
	}
	// the prompt the parent model wrote is a system row in the sub-agent's session, never user
	task := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "subagent task: ") })
	if len(task) != 1 || task[0].Text != "subagent task: Find TODOs" || task[0].TurnType != timeline.System ||
		task[0].SessionID != subID || task[0].ParentSessionID != root || task[0].RecordID != "a05b" {
		t.Fatalf("task rows: %+v", task)
	}
	if len(find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User && e.SessionID == subID })) != 0 {
		t.Fatal("a user row in the sub-agent's session")
	}
	if len(s.States) != 2 || s.States[0].Key.SessionID != subID || s.States[0].ParentSessionID != root ||
		s.States[1].Key.SessionID != root+"/call_task2" || s.States[1].ParentSessionID != root {
		t.Fatalf("states: %+v", s.States)
	}
	// the subagent's own call keeps its model and session
	g := find(s, func(e *timeline.Event) bool { return e.ToolUseID == "call_grep" })
	if len(g) != 2 || g[0].Model != "claude-haiku-4.5" || g[0].Text != "TODO" || g[0].SessionID != subID || g[1].SessionID != subID ||
		g[0].RecordID != "a07" || g[1].RecordID != "a08" {
		t.Fatalf("grep rows: %+v", g)
	}
	// the parent's model is not the sub-agent's
	if fin := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "session.resume: ") }); len(fin) != 1 || fin[0].Model != "gpt-5.4" {
		t.Fatalf("resume row: %+v", fin)
	}
	// what happened stays: a rewind written to the log and a /clear
	for _, w := range []string{
		"rewound by /rewind at 2026-10-16T11:00:05.000Z: 3 event(s) removed from event a19",
		"context cleared by /clear at 2026-10-16T11:00:06.000Z",
	} {
		if len(find(s, func(e *timeline.Event) bool { return e.Text == w && e.SessionID == root })) != 1 {
			t.Errorf("missing row %q", w)
		}
	}
	// unknown event types are kept with their type name
	if len(find(s, func(e *timeline.Event) bool { return e.Text == `session.brand_new_event: {"foo":"bar","n":2}` })) != 1 {
		t.Error("unknown event type dropped")
	}
	// injected skill text is system, and its missing time is inherited
	sk := find(s, func(e *timeline.Event) bool { return strings.Contains(e.Text, "pdf instructions") })
	if len(sk) != 1 || sk[0].TurnType != timeline.System || sk[0].TimeBasis != timeline.TimeInherited ||
		!sk[0].Time.Equal(parsertest.Time(t, "2026-10-16T10:00:06Z")) {
		t.Fatalf("skill row: %+v", sk)
	}
	// the resume moves the project path
	fetch := find(s, func(e *timeline.Event) bool { return e.ToolUseID == "call_fetch" })
	if len(fetch) != 3 || fetch[2].ProjectPath != "/home/examiner/proj2" || fetch[2].Text != "https://example.com/x" {
		t.Fatalf("fetch rows: %+v", fetch)
	}
	if fetch[1].Text != `permission decision: approved-for-session approval={"kind":"url"}` {
		t.Fatalf("decision: %q", fetch[1].Text)
	}
	if len(find(s, func(e *timeline.Event) bool { return e.Text == "permission mode: default -> allow-all" })) != 1 {
		t.Error("permission mode row missing")
	}
	tr := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "session.truncation: ") })
	if len(tr) != 1 {
		t.Fatal("truncation row missing")
	}
}

func TestEventsMalformed(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-cli/events"), sessionInput(t, "malformed", "events", "events.jsonl"))
	want := []string{
		"line 2: malformed JSON line (cut short or corrupt), skipped",
		"line 3: glued_record: cut record glued to the next record on one line; kept 1 complete record(s)",
		"line 4: not an event record (no type)",
		"line 5: nul_run: 4 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)",
		"line 7: malformed JSON line (cut short or corrupt), skipped",
	}
	if strings.Join(s.Problems, "|") != strings.Join(want, "|") {
		t.Fatalf("problems: %q", s.Problems)
	}
	texts := map[string]bool{}
	for _, e := range s.Events {
		texts[e.Text] = true
	}
	if !texts["after the glue"] || !texts["after NULs"] {
		t.Fatalf("glued or NUL-padded record lost: %v", texts)
	}
	o := find(s, func(e *timeline.Event) bool { return e.ToolUseID == "orphan" })
	if len(o) != 1 || o[0].ToolName != "bash" || o[0].IsError != "true" {
		t.Fatalf("orphan result: %+v", o)
	}
}

// TestEventsRecordIDs: every row carries its event's id; rows derived from
// one event are "<id>#<word>"; an assistant.message whose only content is
// calls that started is a counted skip.
func TestEventsRecordIDs(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-cli/events"), sessionInput(t, "typical", "events", "events.jsonl"))
	got := map[string]string{}
	for _, e := range s.Events {
		got[string(e.TurnType)+" "+e.Text] = e.RecordID
	}
	for k, want := range map[string]string{
		"user list the files and delete tmp.txt":                        "e06",
		"thinking The user wants a listing, then a deletion.":           "e08#reasoning",
		"assistant I'll list the files first.":                          "e08",
		"tool_use ls -la":                                               "e09",
		"tool_use /home/examiner/demo/notes.md":                         "e08#tool1",
		"system attachment: file /home/examiner/demo/notes.md notes.md": "e06#attachment0",
	} {
		if got[k] != want {
			t.Errorf("%s: record id %q, want %q", k, got[k], want)
		}
	}
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 11, Reason: "no_evidence:assistant.message_without_text"}) {
		t.Fatalf("skips: %+v", s.Skips)
	}
	for _, e := range s.Events {
		if e.RecordID == "" {
			t.Errorf("row without a record id: %q", e.Text)
		}
	}
}

// TestLegacyFlatTranscript: the pre-1.0 session-state/<id>.jsonl is read
// with the events vocabulary (issue 16); with no cwd in the events and no
// workspace.yaml, the project comes from the sidebar-sessions-state file
// that lists the session.
func TestLegacyFlatTranscript(t *testing.T) {
	const id = "3c4d5e6f-0000-4000-8000-000000000001"
	p := byID(t, "copilot-cli/legacy-session")
	orig := "/home/examiner/.copilot/session-state/" + id + ".jsonl"
	for path, want := range map[string]bool{
		orig: true,
		"/home/examiner/.copilot/session-state/" + id + "/events.jsonl": false,
		"/home/examiner/.copilot/session-state/" + id + "/other.jsonl":  false,
	} {
		if got := p.Match(&parser.File{Path: path, Agent: Agent, Target: "events"}); got != want {
			t.Errorf("match %s = %v, want %v", path, got, want)
		}
	}
	f := parser.File{Path: orig, Agent: Agent, Target: "events"}
	in := parsertest.Input(t, "testdata/legacy/"+id+".jsonl", f, parsertest.Files{
		"/home/examiner/.copilot/sidebar-sessions-state/0f5e.json": "testdata/sidebar/0f5e.json",
		"/home/examiner/.copilot/sidebar-sessions-state/bad.json":  "testdata/sidebar/bad.json",
	})
	s := parsertest.Golden(t, p, in, "testdata/legacy.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	var rm, user bool
	for _, e := range s.Events {
		if e.SessionID != id || e.ProjectPath != "/home/examiner/oldproj" {
			t.Fatalf("row %q: session %q project %q", e.Text, e.SessionID, e.ProjectPath)
		}
		rm = rm || (e.TurnType == timeline.ToolUse && e.Text == "rm -rf build/" && e.RecordID == "l04")
		user = user || (e.TurnType == timeline.User && e.Text == "remove the build directory")
	}
	if !rm || !user {
		t.Fatal("the prompt or the rm call is missing")
	}
	// without the sidebar file the rows have no project
	s = parsertest.Run(t, p, parsertest.Input(t, "testdata/legacy/"+id+".jsonl", f, nil))
	if s.Events[0].ProjectPath != "" {
		t.Fatalf("project %q", s.Events[0].ProjectPath)
	}
}

// TestSidebar: sidebar-sessions-state files give no rows; each listed
// session is accounted for, a file without a cwd or with an entry naming
// no session is a problem.
func TestSidebar(t *testing.T) {
	p := byID(t, "copilot-cli/sidebar")
	f := parser.File{Path: "/home/examiner/.copilot/sidebar-sessions-state/0f5e.json", Agent: Agent, Target: "sidebar"}
	s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/sidebar/0f5e.json", f, nil), "testdata/sidebar.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 || len(s.Skips) != 2 || s.SkipCounts()["project_join"] != 2 {
		t.Fatalf("rows %d problems %v skips %+v", len(s.Events), s.Problems, s.Skips)
	}
	f.Path = "/home/examiner/.copilot/sidebar-sessions-state/bad.json"
	s = parsertest.Golden(t, p, parsertest.Input(t, "testdata/sidebar/bad.json", f, nil), "testdata/sidebar_bad.golden.jsonl")
	want := "line 0: no cwd: the sessions listed cannot be joined to a project|line 2: sessionIds entry 2 names no session"
	if strings.Join(s.Problems, "|") != want || len(s.Skips) != 2 {
		t.Fatalf("problems %q skips %+v", s.Problems, s.Skips)
	}
}

func TestEventsSessionIDFromPath(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-cli/events"), sessionInput(t, "malformed", "events", "events.jsonl"))
	for _, e := range s.Events {
		if e.SessionID != "11111111-2222-3333-4444-555555555555" {
			t.Fatalf("session id %q", e.SessionID)
		}
	}
}

func TestWorkspace(t *testing.T) {
	p := byID(t, "copilot-cli/workspace")
	t.Run("typical", func(t *testing.T) {
		in := sessionInput(t, "typical", "workspace", "workspace.yaml")
		s := parsertest.Golden(t, p, in, filepath.Join("testdata", "workspace_typical.golden.jsonl"))
		// issue 16: a workspace.yaml without the sync keys is a session kept on this host: synced "no"
		if len(s.Events) != 1 || len(s.States) != 1 || s.States[0].Synced != "no" || s.States[0].Key.SessionID != "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f" ||
			s.Events[0].RecordID != "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f#workspace" ||
			s.Events[0].Text != `session metadata: name="list the files and delete tmp.txt" client=github/cli cwd=/home/examiner/demo user_named=false summary_count=0 updated_at=2026-10-15T09:02:00.000Z` {
			t.Fatalf("rows: %+v states %+v", s.Events, s.States)
		}
	})
	t.Run("synced", func(t *testing.T) {
		f := parser.File{Path: "C:/Users/examiner/.copilot/session-state/22222222-3333-4444-5555-666666666666/workspace.yaml", Agent: Agent, Target: "workspace",
			MTime: parsertest.Time(t, "2026-10-17T07:31:00Z")}
		s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/workspace/synced.yaml", f, nil), "testdata/workspace_synced.golden.jsonl")
		if len(s.Events) != 2 || len(s.States) != 1 || s.States[0].Synced != "yes" || s.States[0].Key.SessionID != "22222222-3333-4444-5555-666666666666" {
			t.Fatalf("rows %+v states %+v", s.Events, s.States)
		}
		sync := s.Events[1]
		if sync.Text != "session synced: remote session a1b2c3d4-mc task 98765 last event evt-42 remote_steerable=true (from workspace.yaml, file mtime)" ||
			sync.TimeBasis != timeline.TimeFileMTime || !sync.Time.Equal(f.MTime) {
			t.Fatalf("sync row: %+v", sync)
		}
		if !strings.Contains(s.Events[0].Text, `name="Fix the flaky test\nin CI" client=github/autopilot cwd=C:\Users\examiner\repo`) {
			t.Fatalf("metadata row: %q", s.Events[0].Text)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		f := parser.File{Path: "/home/examiner/.copilot/session-state/x/workspace.yaml", Agent: Agent, Target: "workspace"}
		s := parsertest.Run(t, p, parsertest.Input(t, "testdata/workspace/garbage.yaml", f, nil))
		if len(s.Events) != 0 || len(s.Problems) != 1 {
			t.Fatalf("rows %+v problems %v", s.Events, s.Problems)
		}
	})
}
