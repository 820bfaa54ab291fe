package cursor

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	liveID    = "aaaaaaaa-0000-4000-8000-000000000001"
	deletedID = "dddddddd-0000-4000-8000-000000000002"
	dbPath    = "/home/examiner/.config/Cursor/User/globalStorage/state.vscdb"
	trDir     = "/home/examiner/.cursor/projects/home-examiner-proj/agent-transcripts/"
	localTr   = "testdata/home/.cursor/projects/home-examiner-proj/agent-transcripts/"
)

var fileMTime = time.Date(2026, 7, 21, 12, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

// homeTranscripts maps the fixture home's transcripts to their host paths.
func homeTranscripts(ids ...string) parsertest.Files {
	fs := parsertest.Files{}
	for _, id := range ids {
		fs[trDir+id+"/"+id+".jsonl"] = localTr + id + "/" + id + ".jsonl"
	}
	return fs
}

func dbInput(t *testing.T, sqlFile string, related parsertest.Files) *parser.Input {
	t.Helper()
	return parsertest.Input(t, parsertest.SQLite(t, sqlFile), parser.File{
		Path: dbPath, Rel: ".config/Cursor/User/globalStorage/state.vscdb",
		Agent: Agent, Target: "state-db", MTime: fileMTime}, related)
}

func find(s *parsertest.Sink, f func(e timeline.Event) bool) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

func withText(s *parsertest.Sink, prefix string) []timeline.Event {
	return find(s, func(e timeline.Event) bool { return strings.HasPrefix(e.Text, prefix) })
}

func ofType(s *parsertest.Sink, sid string, tt timeline.TurnType) []timeline.Event {
	return find(s, func(e timeline.Event) bool { return e.SessionID == sid && e.TurnType == tt })
}

func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"cursor/state-db", "state-db", dbPath, true},
		{"cursor/state-db", "state-db", dbPath + ".backup", false},
		{"cursor/transcript", "agent-transcripts", trDir + liveID + "/" + liveID + ".jsonl", true},
		{"cursor/ai-tracking", "ai-tracking", "/home/examiner/.cursor/ai-tracking/ai-code-tracking.db", true},
		{"cursor/conversation-search", "conversation-search", "/home/examiner/.config/Cursor/User/globalStorage/conversation-search.db", true},
		{"cursor/cli-config", "cli-config", "/home/examiner/.cursor/cli-config.json", true},
		{"cursor/cli-config", "cli-config", "/home/examiner/.cursor/permissions.json", true},
		{"cursor/cli-config", "cli-config", "/home/examiner/.cursor/mcp.json", false},
		{"cursor/cli-config", "project", "/home/examiner/proj/.cursor/permissions.json", true},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s %s: got %v", c.id, c.path, got)
		}
	}
}

func TestStateDBTypical(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/typical.sql", homeTranscripts(liveID, deletedID)), "testdata/typical.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	// The live conversation, from the database.
	u := ofType(s, liveID, timeline.User)
	if len(u) != 1 || u[0].Text != "list the go files" || u[0].ProjectPath != "/home/examiner/proj" ||
		!u[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:11:05Z")) || u[0].Secondary || u[0].SourceFile != dbPath {
		t.Fatalf("user rows: %+v", u)
	}
	th := ofType(s, liveID, timeline.Thinking)
	if len(th) != 1 || th[0].Text != "The user wants the Go files; ls will do." || th[0].Model != "gpt-5" {
		t.Fatalf("thinking: %+v", th)
	}
	tu := ofType(s, liveID, timeline.ToolUse)
	if len(tu) != 1 || tu[0].ToolName != "run_terminal_cmd" || tu[0].ToolUseID != "toolu_01RunLs" || tu[0].Text != "ls *.go" ||
		tu[0].ToolInput != `{"command":"ls *.go","is_background":false,"explanation":"list Go files"}` || tu[0].Model != "gpt-5" {
		t.Fatalf("tool_use: %+v", tu)
	}
	tr := ofType(s, liveID, timeline.ToolResult)
	if len(tr) != 1 || tr[0].ToolUseID != "toolu_01RunLs" || tr[0].Text != "main.go\n\nexit code: 0" || tr[0].IsError != "false" {
		t.Fatalf("tool_result: %+v", tr)
	}
	pd := withText(s, "permission decision:")
	if len(pd) != 1 || pd[0].Text != "permission decision: Run source=user" || pd[0].ToolUseID != "toolu_01RunLs" || pd[0].SessionID != liveID {
		t.Fatalf("decision: %+v", pd)
	}
	a := ofType(s, liveID, timeline.Assistant)
	if len(a) != 1 || a[0].Text != "There is one Go file: main.go." || a[0].Model != "gpt-5" {
		t.Fatalf("assistant: %+v", a)
	}
	if m := withText(s, "model:"); len(m) != 1 || m[0].Text != "model: gpt-5" || m[0].SessionID != liveID {
		t.Fatalf("model rows: %+v", m)
	}
	// Record ids: "<composer>:<bubble>#<k>", derived rows "#<word>".
	if tu[0].RecordID != liveID+":b3#0" || tr[0].RecordID != liveID+":b3#1" || pd[0].RecordID != liveID+":b3#decision" || u[0].RecordID != liveID+":b1#0" {
		t.Fatalf("record ids: %q %q %q %q", tu[0].RecordID, tr[0].RecordID, pd[0].RecordID, u[0].RecordID)
	}
	// No transcript row comes from this parser: transcripts are
	// cursor/transcript's (issue 12: a row's parser names the parser that
	// read its file).
	for _, e := range s.Events {
		if e.Secondary || e.SourceFile != dbPath {
			t.Fatalf("row of another file: %+v", e)
		}
	}
	// The deleted conversation: what its header says; nothing else of it
	// survives, so it reads recovered trace.
	del := withText(s, "conversation deleted")
	if len(del) != 1 || del[0].SessionID != deletedID || del[0].TimeBasis != timeline.TimeInherited || del[0].RecordID != deletedID+"#deleted" ||
		!del[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:40:00Z")) || del[0].ProjectPath != "/home/examiner/proj" {
		t.Fatalf("deleted row: %+v", del)
	}
	if n := withText(s, "session name: Delete the temp dir"); len(n) != 1 || n[0].SessionID != deletedID {
		t.Fatalf("deleted name: %+v", n)
	}
	if len(s.States) != 2 || s.States[0].Key.SessionID != liveID || s.States[0].Origin != "local" || s.States[0].Recovered != "" ||
		s.States[1].Key.SessionID != deletedID || s.States[1].Key.Agent != Agent || s.States[1].Recovered != "trace" || s.States[1].Origin != "local" {
		t.Fatalf("session states: %+v", s.States)
	}
	if sk := s.SkipCounts(); len(sk) != 1 || sk["state_only"] != 1 {
		t.Fatalf("skips: %v", sk)
	}
	// Settings: rows per entry at the file's mtime; secrets never printed.
	ps := withText(s, "permission setting:")
	want := []string{
		"permission setting: composerState.useYoloMode=true (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"permission setting: composerState.yoloCommandAllowlist=git status (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"permission setting: composerState.yoloCommandAllowlist=ls (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"permission setting: composerState.yoloCommandDenylist=rm (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"permission setting: composerState.yoloDeleteFileDisabled=true (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
	}
	if len(ps) != len(want) {
		t.Fatalf("settings: %+v", ps)
	}
	for i, w := range want {
		if ps[i].Text != w || ps[i].TimeBasis != timeline.TimeFileMTime || !ps[i].Time.Equal(fileMTime) {
			t.Errorf("setting %d: %+v", i, ps[i])
		}
	}
	ml := withText(s, "model last used:")
	if len(ml) != 2 || ml[0].Text != "model last used: claude-4.5-sonnet (chat)" || ml[1].Text != "model last used: gpt-5 (cmd-k, composer)" {
		t.Fatalf("model last used: %+v", ml)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "SECRET") || strings.Contains(e.ToolInput, "SECRET") {
			t.Fatalf("secret printed: %+v", e)
		}
	}
}

func TestStateDBEmpty(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/empty.sql", nil), "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
}

func TestStateDBMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/malformed.sql", nil), "testdata/malformed.golden.jsonl")
	if len(s.Problems) != 3 {
		t.Fatalf("problems: %v", s.Problems)
	}
	// The composer whose composerData is broken still gives its bubbles,
	// and is not reported deleted.
	if u := ofType(s, "bbbbbbbb-0000-4000-8000-000000000003", timeline.User); len(u) != 1 || u[0].Text != "still here" {
		t.Fatalf("bubbles of a broken composer: %+v", s.Events)
	}
	if d := withText(s, "conversation deleted"); len(d) != 0 {
		t.Fatalf("broken composer reported deleted: %+v", d)
	}
	if u := ofType(s, "cccccccc-0000-4000-8000-000000000004", timeline.Assistant); len(u) != 1 || u[0].Text != "good bubble after a bad one" {
		t.Fatalf("good bubble after a bad one: %+v", s.Events)
	}
}

func TestStateDBChunkedHeaders(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/chunked.sql", nil), "testdata/chunked.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	var texts []string
	for _, e := range s.Events {
		if e.TurnType == timeline.User || e.TurnType == timeline.Assistant {
			texts = append(texts, e.Text)
		}
	}
	if strings.Join(texts, "|") != "first prompt|first reply|second prompt|second reply" {
		t.Fatalf("chunk order: %q", texts)
	}
}

func TestStateDBPrompts(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/prompts.sql", nil), "testdata/prompts.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	const sid = "eeeeeeee-0000-4000-8000-000000000005"
	pd := withText(s, "permission decision:")
	if len(pd) != 2 || pd[0].Text != "permission decision: Always run source=user" || pd[0].ToolUseID != "call_always" ||
		pd[1].Text != "permission decision: Skip source=user" || pd[1].ToolUseID != "call_skip" {
		t.Fatalf("decisions: %+v", pd)
	}
	pp := withText(s, "permission prompt pending:")
	if len(pp) != 1 || pp[0].Text != "permission prompt pending: git push" || pp[0].ToolUseID != "call_pending" {
		t.Fatalf("pending: %+v", pp)
	}
	sk := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.ToolResult && e.ToolUseID == "call_skip" })
	if len(sk) != 1 || sk[0].IsError != "true" {
		t.Fatalf("skipped result: %+v", sk)
	}
	if r := find(s, func(e timeline.Event) bool { return e.ToolUseID == "call_pending" && e.TurnType == timeline.ToolResult }); len(r) != 0 {
		t.Fatalf("pending call has a result: %+v", r)
	}
	if m := withText(s, "model:"); len(m) != 2 || m[0].Text != "model: gpt-5" || m[1].Text != "model: gpt-5 -> claude-4.5-sonnet" {
		t.Fatalf("models: %+v", m)
	}
	if a := withText(s, "conversation archived"); len(a) != 1 || a[0].SessionID != sid {
		t.Fatalf("archived: %+v", a)
	}
	if d := withText(s, "unsent draft:"); len(d) != 1 || d[0].Text != "unsent draft: and then push" {
		t.Fatalf("draft: %+v", d)
	}
	// A subagent composer is its own session linked to its parent; the
	// parent model's prompt to it is a system row, never user.
	const sub = "ffffffff-0000-4000-8000-000000000006"
	if sa := withText(s, "subagent ffffffff"); len(sa) != 1 || sa[0].Text != "subagent "+sub+" of "+sid || sa[0].SessionID != sub || sa[0].ParentSessionID != sid {
		t.Fatalf("subagent: %+v", sa)
	}
	if sp := withText(s, "subagent task:"); len(sp) != 1 || sp[0].SessionID != sub || sp[0].ParentSessionID != sid || sp[0].TurnType != timeline.System ||
		sp[0].Text != "subagent task: find the failing test" || sp[0].RecordID != sub+":f1#0" {
		t.Fatalf("subagent task: %+v", sp)
	}
	if u := ofType(s, sub, timeline.User); len(u) != 0 {
		t.Fatalf("subagent user rows: %+v", u)
	}
	var subState *timeline.SessionState
	for i := range s.States {
		if s.States[i].Key.SessionID == sub {
			subState = &s.States[i]
		}
	}
	if subState == nil || subState.ParentSessionID != sid {
		t.Fatalf("subagent state: %+v", s.States)
	}
	// _v 3 composer with the conversation inline and no times on bubbles.
	v3 := ofType(s, "99999999-0000-4000-8000-000000000007", timeline.User)
	if len(v3) != 1 || v3[0].Text != "old style prompt" || v3[0].TimeBasis != timeline.TimeInherited ||
		!v3[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:00:00Z")) {
		t.Fatalf("v3: %+v", v3)
	}
}

// TestStateDBItems: the editor-level records of issue 16 (cloud agents,
// their repositories and MCP authorisations, the GitHub sign-in, plugin
// MCP servers and installed plugins) and the agentKv:blob:* messages of a
// deleted composer; no secret value is read.
func TestStateDBItems(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/state-db"), dbInput(t, "testdata/items.sql", nil), "testdata/items.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	rows := func(sid string) []string {
		var out []string
		for _, e := range s.Events {
			if e.SessionID == sid {
				out = append(out, e.Time.Format("15:04:05")+" "+string(e.TurnType)+" "+e.Text+" ["+e.RecordID+"]")
			}
		}
		return out
	}
	want := map[string][]string{
		"bc-1111": {
			"10:00:00 system session origin: remote cursor cloud agent [cloud-agent:bc-1111#origin]",
			"10:00:00 system session synced: cursor cloud agent bc-1111 (from state.vscdb cloudAgentRepository.agents.team-7) [cloud-agent:bc-1111#synced]",
			"10:00:00 system source host: github.com/acme/api branch cursor/fix-flaky [cloud-agent:bc-1111#source]",
			"10:00:00 system model: claude-4.5-sonnet [cloud-agent:bc-1111#model]",
			"10:00:00 system session name: Fix the flaky test [bc-1111#name]",
			"10:10:00 system cloud agent: Fix the flaky test status=1 archived [cloud-agent:bc-1111#status]",
		},
		"bc-2222": {
			"10:16:40 system session origin: remote cursor cloud agent [cloud-agent:bc-2222#origin]",
			"10:16:40 system session synced: cursor cloud agent bc-2222 (from state.vscdb cloudAgentRepository.agents.team-7) [cloud-agent:bc-2222#synced]",
			"10:16:40 system cloud agent: Bump deps status=FINISHED [cloud-agent:bc-2222#status]",
			"10:15:00 system permission decision: approved mcp server google-calendar source=user (cloud agent MCP authorisation) [mcpAuthResolution:bc-2222:google-calendar#decision]",
		},
		"d0d0d0d0-0000-4000-8000-00000000000e": {
			"10:33:20 system session name: Drop the table [d0d0d0d0-0000-4000-8000-00000000000e#name]",
			"10:40:00 system conversation deleted [d0d0d0d0-0000-4000-8000-00000000000e#deleted]",
			"00:00:00 system injected context: <user_info>conversation d0d0d0d0-0000-4000-8000-00000000000e</user_info> [agentKv:blob:1a2b#0]",
			"00:00:00 user drop the users table [agentKv:blob:1a2b#1]",
			"00:00:00 thinking A destructive query; do it. [agentKv:blob:3c4d#0]",
			"00:00:00 assistant Dropping it. [agentKv:blob:3c4d#1]",
			"00:00:00 tool_use psql -c \"DROP TABLE users\" [agentKv:blob:3c4d#2]",
		},
	}
	for sid, w := range want {
		got := rows(sid)
		sort.Strings(got)
		sort.Strings(w)
		if strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s:\n%s", sid, strings.Join(got, "\n"))
		}
	}
	var editor []string
	for _, e := range s.Events {
		if e.SessionID == "" {
			editor = append(editor, e.Time.Format("2006-01-02T15:04:05")+" "+string(e.TimeBasis)+" "+e.ProjectPath+" "+e.Text)
		}
	}
	wantEditor := []string{
		"2026-07-21T09:43:20   source host: github account alice",
		"2026-07-21T09:43:20   source host: github-enterprise account bob",
		"2026-07-21T09:43:20   github-enterprise account bob used by XY (x.y)",
		"2026-07-21T09:43:20   github account alice used by Cursor Retrieval (anysphere.cursor-retrieval) scopes=repo,read:user",
		"2026-07-21T12:00:00 file-mtime  permission setting: github account alice access for anysphere.cursor-retrieval=allowed (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"2026-07-21T12:00:00 file-mtime  permission setting: github account alice access for evil.ext=denied (from .config/Cursor/User/globalStorage/state.vscdb, file mtime)",
		"2026-07-21T12:00:00 file-mtime  source host repository: acme/api (cloud agent environment, from .config/Cursor/User/globalStorage/state.vscdb cloudEnvironmentTemplate.githubRepos, file mtime)",
		"2026-07-21T12:00:00 file-mtime  source host repository: acme/web (cloud agent environment, from .config/Cursor/User/globalStorage/state.vscdb cloudEnvironmentTemplate.githubRepos, file mtime)",
		"2026-07-21T10:13:20   mcp server: [plugin-google-calendar-google-calendar] url=https://calendar.mcp.example/mcp (OAuth tokens stored)",
		"2026-07-21T12:00:00 file-mtime  mcp server: [plugin-linear-linear] url=https://mcp.linear.example/sse (OAuth tokens stored, file mtime)",
		"2026-07-21T12:00:00 file-mtime /home/examiner/proj plugin installed: plugin-aws (team no-team, scope file:///home/examiner/proj, file mtime)",
		"2026-07-21T12:00:00 file-mtime  plugin installed: 677 sources=user (team no-team, scope no-workspace, file mtime)",
	}
	sort.Strings(editor)
	sort.Strings(wantEditor)
	if strings.Join(editor, "\n") != strings.Join(wantEditor, "\n") {
		t.Errorf("editor rows:\n%s", strings.Join(editor, "\n"))
	}
	// Cloud agents are remote and synced; a cloud agent's composer is not
	// made local; the deleted composer reads recovered yes.
	st := map[string]timeline.SessionState{}
	for _, x := range s.States {
		if o := st[x.Key.SessionID]; o.Origin != "" && x.Origin != "" && o.Origin != x.Origin {
			t.Fatalf("conflicting origins for %s: %+v %+v", x.Key.SessionID, o, x)
		}
		m := st[x.Key.SessionID]
		m.Key = x.Key
		m.Origin = firstNonEmpty(m.Origin, x.Origin)
		m.Synced = firstNonEmpty(m.Synced, x.Synced)
		m.Recovered = firstNonEmpty(m.Recovered, x.Recovered)
		st[x.Key.SessionID] = m
	}
	if st["bc-1111"].Origin != "remote" || st["bc-1111"].Synced != "yes" || st["bc-2222"].Origin != "remote" ||
		st["d0d0d0d0-0000-4000-8000-00000000000e"].Recovered != "yes" {
		t.Fatalf("states: %+v", st)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "SECRET") || strings.Contains(e.Text, "another conversation") {
			t.Fatalf("secret or another conversation's blob printed: %+v", e)
		}
	}
	if sk := s.SkipCounts(); sk["state_only"] != 1 {
		t.Fatalf("skips: %v", sk)
	}
}
