package claudedesktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// appDir is where testdata/appdata is presented: the macOS app-data dir.
const appDir = "/Users/alice/Library/Application Support/Claude"

var mtime = time.Date(2025, 10, 22, 0, 0, 0, 0, time.UTC)

// appFiles maps every file under testdata/appdata (plus extra) to its
// original path under appDir.
func appFiles(t *testing.T, extra parsertest.Files) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	root := filepath.Join("testdata", "appdata")
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files[appDir+"/"+filepath.ToSlash(rel)] = p
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

// appInput presents testdata/appdata/<rel> at appDir/<rel>.
func appInput(t *testing.T, rel, target string, files parsertest.Files) *parser.Input {
	t.Helper()
	if files == nil {
		files = appFiles(t, nil)
	}
	return parsertest.Input(t, filepath.Join("testdata", "appdata", filepath.FromSlash(rel)),
		parser.File{Path: appDir + "/" + rel, Agent: Agent, Target: target, MTime: mtime}, files)
}

const (
	cowork      = "local-agent-mode-sessions/acct-1/org-1/"
	transcript1 = cowork + "local_c0ffee/.claude/projects/-sessions-bold-tesla/cli-1111.jsonl"
	audit1      = cowork + "local_c0ffee/audit.jsonl"
	code        = "claude-code-sessions/acct-1/org-1/"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		p      parser.Parser
		target string
		path   string
		want   bool
	}{
		{Transcript(), "sessions", appDir + "/" + transcript1, true},
		{Transcript(), "sessions", appDir + "/" + cowork + "local_c0ffee/.claude/projects/x/cli-1111/subagents/agent-a1.jsonl", true},
		{Transcript(), "msix-sessions", "C:/Users/bob/AppData/Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/" + transcript1, true},
		{Transcript(), "local-sessions", "C:/Users/bob/AppData/Local/Claude-3p/" + code + "imported-staging/x.jsonl", true},
		{Transcript(), "sessions", appDir + "/" + audit1, false},
		{Transcript(), "sessions", appDir + "/" + cowork + "local_c0ffee/other.jsonl", false},
		{Transcript(), "session-records", appDir + "/" + transcript1, false},
		{Audit(), "sessions", appDir + "/" + audit1, true},
		{Audit(), "local-sessions", "C:/Users/bob/AppData/Local/Claude/" + audit1, true},
		{SessionRecord(), "session-records", appDir + "/" + cowork + "local_c0ffee.json", true},
		{SessionRecord(), "session-files", appDir + "/" + code + "local_code1.json", true},
		{SessionRecord(), "msix-sessions", "C:/Users/bob/AppData/Local/Packages/AnthropicPBC.Claude_x/LocalCache/Roaming/Claude/" + code + "local_code1.json", true},
		{SessionRecord(), "session-files", appDir + "/" + cowork + "local_c0ffee/.claude/local_x.json", false},
		{RemoteSessionSpaces(), "session-files", appDir + "/" + cowork + "remote-session-spaces.json", true},
		{AppState(), "app-state", appDir + "/scheduled-tasks.json", true},
		{AppState(), "msix-app-state", "C:/Users/bob/AppData/Local/Packages/Claude_x/LocalCache/Roaming/Claude/git-worktrees.json", true},
		{AppState(), "app-state", appDir + "/config.json", false},
	}
	for _, c := range cases {
		f := parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := c.p.Match(&f); got != c.want {
			t.Errorf("%s Match(%s %s) = %v, want %v", c.p.ID(), c.target, c.path, got, c.want)
		}
	}
	f := parser.File{Path: appDir + "/" + transcript1, Agent: "claude-code", Target: "sessions"}
	if Transcript().Match(&f) {
		t.Error("matched another agent's file")
	}
}

func TestGoldens(t *testing.T) {
	cases := []struct {
		name   string
		p      parser.Parser
		rel    string
		target string
	}{
		{"cowork_transcript", Transcript(), transcript1, "sessions"},
		{"imported_transcript", Transcript(), code + "imported-staging/imp-2222.jsonl", "sessions"},
		{"cowork_audit", Audit(), audit1, "sessions"},
		{"cowork_record", SessionRecord(), cowork + "local_c0ffee.json", "session-records"},
		{"cowork_record_error", SessionRecord(), cowork + "local_dead01.json", "session-records"},
		{"code_record", SessionRecord(), code + "local_code1.json", "session-records"},
		{"remote_session_spaces", RemoteSessionSpaces(), cowork + "remote-session-spaces.json", "session-files"},
		{"scheduled_tasks", AppState(), "scheduled-tasks.json", "app-state"},
		{"git_worktrees", AppState(), "git-worktrees.json", "app-state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parsertest.Golden(t, c.p, appInput(t, c.rel, c.target, nil), "testdata/"+c.name+".golden.jsonl")
		})
	}
}

// edgeInput presents testdata/edge/<name> at a Cowork session path.
func edgeInput(t *testing.T, name, orig, target string) *parser.Input {
	return parsertest.Input(t, filepath.Join("testdata", "edge", name),
		parser.File{Path: appDir + "/" + cowork + orig, Agent: Agent, Target: target, MTime: mtime}, nil)
}

func TestEdgeGoldens(t *testing.T) {
	cases := []struct {
		name, file, orig, target string
		p                        parser.Parser
	}{
		{"empty_audit", "empty_audit.jsonl", "local_edge/audit.jsonl", "sessions", Audit()},
		{"malformed_audit", "malformed_audit.jsonl", "local_edge/audit.jsonl", "sessions", Audit()},
		{"empty_transcript", "empty_audit.jsonl", "local_edge/.claude/projects/p/cli-e.jsonl", "sessions", Transcript()},
		{"malformed_record", "malformed_record.json", "local_bad.json", "session-records", SessionRecord()},
		{"empty_record", "empty_record.json", "local_empty.json", "session-records", SessionRecord()},
		{"malformed_state", "malformed_state.json", "../../../scheduled-tasks.json", "app-state", AppState()},
		{"empty_state", "empty_state.json", "../../../git-worktrees.json", "app-state", AppState()},
		{"malformed_spaces", "malformed_state.json", "remote-session-spaces.json", "session-files", RemoteSessionSpaces()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parsertest.Golden(t, c.p, edgeInput(t, c.file, c.orig, c.target), "testdata/"+c.name+".golden.jsonl")
		})
	}
}

// TestCoworkTranscript checks the reuse of the claude-code reader: agent
// claude-desktop, the host folder as project instead of the VM cwd, the
// tool call paired with its result.
func TestCoworkTranscript(t *testing.T) {
	s := parsertest.Run(t, Transcript(), appInput(t, transcript1, "sessions", nil))
	if len(s.Problems) != 0 {
		t.Fatalf("problems %q", s.Problems)
	}
	var prompt, call, result *timeline.Event
	for i := range s.Events {
		e := &s.Events[i]
		if e.Agent != Agent || e.SessionID != "cli-1111" || e.ProjectPath != "/Users/alice/Reports" {
			t.Errorf("row %d: agent %q session %q project %q", i, e.Agent, e.SessionID, e.ProjectPath)
		}
		switch e.TurnType {
		case timeline.User:
			prompt = e
		case timeline.ToolUse:
			call = e
		case timeline.ToolResult:
			result = e
		}
	}
	if prompt == nil || prompt.Text != "Summarise the quarterly report in my folder" || !prompt.Time.Equal(parsertest.Time(t, "2025-10-19T18:53:21Z")) {
		t.Fatalf("prompt %+v", prompt)
	}
	if call == nil || result == nil || call.ToolUseID != "toolu_1" || result.ToolUseID != "toolu_1" ||
		call.Text != "ls /sessions/bold-tesla/mnt/Reports" || result.Text != "q3.pdf" || result.IsError != "false" || result.ToolName != "Bash" {
		t.Fatalf("call %+v result %+v", call, result)
	}
}

// TestAuditDropsTranscriptTurns checks that the audit log gives only what
// the transcript lacks, all secondary, with its own system rows.
func TestAuditDropsTranscriptTurns(t *testing.T) {
	s := parsertest.Run(t, Audit(), appInput(t, audit1, "sessions", nil))
	var texts []string
	for _, e := range s.Events {
		if !e.Secondary || e.SessionID != "cli-1111" || e.ProjectPath != "/Users/alice/Reports" {
			t.Errorf("row %+v", e)
		}
		if e.Text == "Summarise the quarterly report in my folder" || e.ToolUseID == "toolu_1" && e.TurnType != timeline.System ||
			e.Text == "The folder holds q3.pdf; revenue grew 12%." {
			t.Errorf("turn the transcript has was kept: %+v", e)
		}
		texts = append(texts, string(e.TurnType)+"|"+e.Text)
	}
	for _, w := range []string{
		"system|init: model=claude-opus-4-5-20251101 permissionMode=default cwd=/sessions/bold-tesla claude_code_version=2.1.300 tools=3 mcp_servers=1",
		"system|model: claude-opus-4-5-20251101",
		"system|permission request: Bash ls /sessions/bold-tesla/mnt/Reports",
		"system|permission decision: allow source=user reason=-",
		"system|result: success is_error=false num_turns=2 duration_ms=9000 total_cost_usd=0.0421 stop_reason=end_turn",
		"user|Also check the totals on page 4",
		"thinking|Page 4 has the totals table.",
		"tool_use|/sessions/bold-tesla/mnt/Reports/q3.pdf",
		"system|permission decision: allow source=auto reason=file in an approved folder",
		"tool_result|Total: 4.2M",
		"system|model_refusal_fallback: from_model=claude-opus-4-5-20251101 to_model=claude-sonnet-4-5-20250929",
		"assistant|The total on page 4 is 4.2M.",
		"system|result: error_during_execution is_error=true num_turns=1 errors=tool failed",
	} {
		found := false
		for _, x := range texts {
			if x == w {
				found = true
			}
		}
		if !found {
			t.Errorf("missing row %q in\n%s", w, strings.Join(texts, "\n"))
		}
	}
	// issue 12: what the transcript holds is a counted skip, the rest
	// carries the record's uuid (block index when it has several)
	if got := s.SkipCounts(); got["copy_in_transcript"] != 4 || len(s.Skips) != 4 {
		t.Errorf("skips %v", got)
	}
	ids := map[string]string{}
	for _, e := range s.Events {
		ids[string(e.TurnType)+"|"+e.Text] = e.RecordID
	}
	for k, want := range map[string]string{
		"user|Also check the totals on page 4":             "u9",
		"thinking|Page 4 has the totals table.":            "a9#0",
		"tool_use|/sessions/bold-tesla/mnt/Reports/q3.pdf": "a9#1",
	} {
		if ids[k] != want {
			t.Errorf("%s: record id %q, want %q", k, ids[k], want)
		}
	}
	for _, e := range s.Events {
		if e.TurnType == timeline.ToolResult && (e.ToolUseID != "toolu_9" || e.ToolName != "Read") {
			t.Errorf("result %+v", e)
		}
		if e.Text == "Also check the totals on page 4" && !e.Time.Equal(parsertest.Time(t, "2025-10-19T18:55:00Z")) {
			t.Errorf("time %v", e.Time)
		}
	}
}

// TestAuditSubagent: a message with parent_tool_use_id is a sub-agent's:
// its own session "<session>/<tool use id>" under the parent, opened by
// "subagent <id> of <parent>", the prompt the parent's model wrote a
// "subagent task:" system row (issue 12).
func TestAuditSubagent(t *testing.T) {
	s := parsertest.Run(t, Audit(), edgeInput(t, "malformed_audit.jsonl", "local_edge/audit.jsonl", "sessions"))
	var sub []timeline.Event
	for _, e := range s.Events {
		if e.SessionID == "cli-m/toolu_parent" {
			sub = append(sub, e)
		}
	}
	if len(sub) != 2 || sub[0].Text != "subagent cli-m/toolu_parent of cli-m" || sub[0].RecordID != "cli-m/toolu_parent#subagent" ||
		sub[1].Text != "subagent task: subagent task prompt" || sub[1].TurnType != timeline.System || sub[1].ParentSessionID != "cli-m" || sub[1].RecordID != "m4" {
		t.Fatalf("sub-agent rows: %+v", sub)
	}
	if len(s.States) != 1 || s.States[0].ParentSessionID != "cli-m" || s.States[0].Key.SessionID != "cli-m/toolu_parent" {
		t.Fatalf("states %+v", s.States)
	}
}

// TestAuditWithoutTranscript keeps every turn when no transcript was
// collected.
func TestAuditWithoutTranscript(t *testing.T) {
	files := appFiles(t, nil)
	delete(files, appDir+"/"+transcript1)
	s := parsertest.Run(t, Audit(), appInput(t, audit1, "sessions", files))
	n := 0
	for _, e := range s.Events {
		if e.Text == "Summarise the quarterly report in my folder" && e.TurnType == timeline.User {
			n++
		}
		if e.ToolUseID == "toolu_1" && e.TurnType == timeline.ToolUse {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("want the prompt and the call from the audit log, got %d", n)
	}
}

func TestCoworkRecord(t *testing.T) {
	s := parsertest.Run(t, SessionRecord(), appInput(t, cowork+"local_c0ffee.json", "session-records", nil))
	first := s.Events[0]
	if first.Text != "session record: local_c0ffee cowork title=Quarterly report summary cli_session=cli-1111 folders=/Users/alice/Reports;/Users/alice/Shared cwd=/sessions/bold-tesla model=claude-opus-4-5-20251101 archived=false permission_mode=default effort=high" ||
		!first.Time.Equal(parsertest.Time(t, "2025-10-19T18:53:20Z")) || first.SessionID != "cli-1111" || first.ProjectPath != "/Users/alice/Reports" {
		t.Fatalf("record row %+v", first)
	}
	var grants []string
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "permission grant: ") {
			grants = append(grants, strings.TrimPrefix(e.Text, "permission grant: "))
			if !e.Time.Equal(parsertest.Time(t, "2025-10-19T19:03:20Z")) {
				t.Errorf("grant at %v, want lastActivityAt", e.Time)
			}
		}
		if e.TurnType == timeline.User {
			t.Errorf("prompt the audit log has was emitted: %+v", e)
		}
	}
	want := "approvedToolNames=Bash|webFetchAllowedUrls=https://example.com/q3|egressAllowedDomains=api.example.com|userApprovedFileAccessPaths=/Users/alice/Reports/q3.pdf|enabledMcpTools=srv-1:search|fileDeleteApprovedMounts=/Users/alice/Reports"
	if got := strings.Join(grants, "|"); got != want {
		t.Errorf("grants\n got %s\nwant %s", got, want)
	}
}

func TestCoworkRecordPromptAndError(t *testing.T) {
	s := parsertest.Run(t, SessionRecord(), appInput(t, cowork+"local_dead01.json", "session-records", nil))
	var prompt, errRow *timeline.Event
	for i := range s.Events {
		switch {
		case s.Events[i].TurnType == timeline.User:
			prompt = &s.Events[i]
		case strings.HasPrefix(s.Events[i].Text, "session error: "):
			errRow = &s.Events[i]
		}
	}
	if prompt == nil || prompt.Text != "Draft a letter to the landlord" || !prompt.Secondary || prompt.TimeBasis != timeline.TimeNone || prompt.SessionID != "local_dead01" {
		t.Fatalf("prompt %+v", prompt)
	}
	if errRow == nil || errRow.Text != "session error: vm_start_failed: The workspace VM did not start" || !errRow.Time.Equal(parsertest.Time(t, "2025-10-20T08:01:00Z")) {
		t.Fatalf("error %+v", errRow)
	}
}

func TestCodeRecord(t *testing.T) {
	s := parsertest.Run(t, SessionRecord(), appInput(t, code+"local_code1.json", "session-records", nil))
	texts := map[string]timeline.Event{}
	for _, e := range s.Events {
		texts[e.Text] = e
	}
	head := "session record: local_code1 code-tab title=Refactor parser cli_session=cli-3333 cwd=/Users/alice/src/parser model=claude-sonnet-4-5-20250929 archived=true remote_control=true bridges=2 spawned_remotely=true steered_remotely=true permission_mode=acceptEdits effort=medium"
	if e, ok := texts[head]; !ok || e.ProjectPath != "/Users/alice/src/parser" || e.SessionID != "cli-3333" {
		t.Fatalf("no record row %q in %v", head, keys(texts))
	}
	if e, ok := texts["remote control live at update quit"]; !ok || !e.Time.Equal(parsertest.Time(t, "2025-10-20T09:36:40Z")) {
		t.Errorf("update-quit row %+v", e)
	}
	for _, w := range []string{
		"permission grant: alwaysAllowedReasons=file:/Users/alice/src/parser/go.mod",
		"permission grant: sessionPermissionUpdates=addRules behavior=allow destination=session rules=Bash(go test:*)",
		"permission grant: sessionPermissionUpdates=addDirectories destination=session directories=/Users/alice/lib",
		"permission grant: sessionPermissionUpdates=setMode mode=acceptEdits destination=session",
		`permission grant: sessionPermissionUpdates={"odd":1}`,
		"permission grant: chromePermissionMode=ask",
		"permission grant: chromeAllowedDomains=docs.example.com",
		"permission grant: cuAllowedApps=com.apple.Terminal (Terminal) tier=full grantedAt=2025-10-20T09:03:20.000Z",
		"permission grant: cuAllowedApps=Finder",
		"permission grant: cuGrantFlags.clipboardRead=true",
		"permission grant: cuGrantFlags.clipboardWrite=false",
		"permission grant: cuFlagsGrantedAt=2025-10-20T09:03:20.000Z",
		"Refactor the parser into two files",
	} {
		if _, ok := texts[w]; !ok {
			t.Errorf("missing %q", w)
		}
	}
	// With the claude-code transcript of cli-3333 collected, no prompt row.
	files := appFiles(t, parsertest.Files{"/Users/alice/.claude/projects/-Users-alice-src-parser/cli-3333.jsonl": "testdata/edge/empty_audit.jsonl"})
	s = parsertest.Run(t, SessionRecord(), appInput(t, code+"local_code1.json", "session-records", files))
	for _, e := range s.Events {
		if e.TurnType == timeline.User {
			t.Errorf("prompt emitted although the transcript was collected: %+v", e)
		}
	}
}

func keys(m map[string]timeline.Event) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestRemoteSessionSpaces(t *testing.T) {
	s := parsertest.Run(t, RemoteSessionSpaces(), appInput(t, cowork+"remote-session-spaces.json", "session-files", nil))
	var got []string
	for _, e := range s.Events {
		got = append(got, e.SessionID+" "+e.Text)
		if !e.Time.Equal(mtime) || e.TimeBasis != timeline.TimeFileMTime {
			t.Errorf("time %v %q", e.Time, e.TimeBasis)
		}
	}
	want := []string{
		"remote-sess-1 permission setting: entries.remote-sess-1.folders=/Users/alice/Reports (from remote-session-spaces.json, file mtime)",
		"remote-sess-1 permission setting: entries.remote-sess-1.folders=/Users/alice/Shared (from remote-session-spaces.json, file mtime)",
		"remote-sess-2 permission setting: entries.remote-sess-2.folders=/Users/alice/Projects/site (from remote-session-spaces.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

func TestScheduledTasks(t *testing.T) {
	s := parsertest.Run(t, AppState(), appInput(t, "scheduled-tasks.json", "app-state", nil))
	if len(s.Events) != 2 || len(s.Problems) != 1 {
		t.Fatalf("rows %d problems %q", len(s.Events), s.Problems)
	}
	a := s.Events[0]
	if a.Text != "scheduled task: task-1 name=Morning digest schedule=0 8 * * 1-5 enabled=true last_run=2025-10-19T08:00:00.000Z prompt=Summarise new mail permission_mode=default model=claude-sonnet-4-5-20250929" ||
		!a.Time.Equal(parsertest.Time(t, "2025-10-18T15:06:40Z")) || a.ProjectPath != "/Users/alice/Mail" || a.SourceLine != 1 {
		t.Errorf("task-1 %+v", a)
	}
	b := s.Events[1]
	if !strings.HasSuffix(b.Text, "permission_mode=bypassPermissions model=-") || b.TimeBasis != timeline.TimeFileMTime || b.SourceLine != 2 {
		t.Errorf("task-2 %+v", b)
	}
}
