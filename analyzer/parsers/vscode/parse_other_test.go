package vscode

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2025, 11, 5, 10, 0, 0, 0, time.UTC)

const userDir = "/home/examiner/.config/Code/User"

func runAt(t *testing.T, id, local, orig, target string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: mtime}
	return parsertest.Run(t, byID(t, id), parsertest.Input(t, local, f, related))
}

func goldenAt(t *testing.T, id, local, orig, target, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: mtime}
	return parsertest.Golden(t, byID(t, id), parsertest.Input(t, local, f, related), filepath.Join("testdata", golden+".golden.jsonl"))
}

func TestStateDBGlobal(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state_global.sql")
	s := goldenAt(t, "vscode/state-db", db, userDir+"/globalStorage/state.vscdb", "state-db", "state_global", nil)
	if strings.Join(s.Problems, "|") != `line 9: ItemTable "chat/autoconfirm-post" is not valid JSON: invalid character 'o' in literal null (expecting 'u')|line 5: skipped_record: userSelectedRepositories: entry without a repository name` {
		t.Fatalf("problems: %v", s.Problems)
	}
	p := find(s, timeline.System, "permission setting: chat/autoconfirm=copilot_runInTerminal (from "+userDir+"/globalStorage/state.vscdb, file mtime)")
	if len(p) != 1 || !p[0].Time.Equal(mtime) || p[0].TimeBasis != timeline.TimeFileMTime || p[0].SourceLine != 2 {
		t.Fatalf("approval row: %+v", p)
	}
	if len(find(s, timeline.System, "permission setting: chat/servers/autoconfirm-post=mcp.config.usrlocal.playwright")) != 1 {
		t.Fatal("server approval missing")
	}
	if len(find(s, timeline.System, `permission setting: chat/autoconfirm-combination=copilot_readFile:{"filePath":"/etc/hosts"}`)) != 1 {
		t.Fatal("string-encoded approval list not read")
	}
	sy := find(s, timeline.System, "session synced: GitHub cloud agent task task-2222")
	if len(sy) != 1 || sy[0].SessionID != "task-2222" || sy[0].TimeString() != "2025-11-06T03:33:20.000Z" || !strings.Contains(sy[0].Text, "application=github.com") {
		t.Fatalf("owned task: %+v", sy)
	}
	if o := find(s, timeline.System, "session origin: remote GitHub cloud agent"); len(o) != 2 {
		t.Fatalf("origin rows: %d", len(o))
	}
	if len(s.States) != 2 || s.States[0].Synced != "yes" || s.States[0].Origin != "remote" || s.States[0].Key.SessionID != "task-1111" {
		t.Fatalf("states: %+v", s.States)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "gho_") {
			t.Fatal("secret printed")
		}
	}
	// Issue 16: the GitHub account's usage records and the repositories
	// picked for cloud agent tasks.
	want := []string{
		"2025-11-06T20:13:20.000Z| source host: github account octocat",
		"2025-11-06T20:13:20.000Z| github account octocat used by GitHub Copilot Chat (github.copilot-chat) scopes=read:user,repo,workflow",
		"2025-11-06T18:50:00.000Z| github account octocat used by GitHub (vscode.github)",
		"2025-11-05T10:00:00.000Z|file-mtime permission setting: github account octocat access for github.copilot-chat=allowed (from state.vscdb, file mtime)",
		"2025-11-06T17:26:40.000Z| source host repository: acme/api picked for a cloud agent task (from state.vscdb userSelectedRepositories)",
	}
	var got []string
	for _, e := range s.Events {
		if strings.Contains(e.Text, "github account") || strings.Contains(e.Text, "source host repository") {
			got = append(got, e.TimeString()+"|"+string(e.TimeBasis)+" "+e.Text)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("account and repository rows:\n%s", strings.Join(got, "\n"))
	}
	if sk := s.SkipCounts(); len(sk) != 0 {
		t.Fatalf("skips: %v", sk)
	}
	if k := find(s, timeline.System, "source host repository"); len(k) != 1 || k[0].RecordID != "userSelectedRepositories:acme/api" {
		t.Fatalf("repository row: %+v", k)
	}
}

func TestStateDBWorkspace(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/state_workspace.sql")
	s := goldenAt(t, "vscode/state-db", db, wsDir+"/state.vscdb", "state-db", "state_workspace",
		parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json"})
	if len(s.Events) != 1 || s.Events[0].ProjectPath != "/home/examiner/my demo" || !strings.Contains(s.Events[0].Text, "chat/autoconfirm=copilot_replaceString") {
		t.Fatalf("workspace approval: %+v", s.Events)
	}
	s = runAt(t, "vscode/state-db", "testdata/not_sqlite.vscdb", wsDir+"/state.vscdb", "state-db", nil)
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("not a database: %v", s.Problems)
	}
}

func TestSettings(t *testing.T) {
	s := goldenAt(t, "vscode/settings", "testdata/settings.json", userDir+"/settings.json", "settings", "settings", nil)
	var got []string
	for _, e := range s.Events {
		got = append(got, strings.TrimSuffix(strings.TrimPrefix(e.Text, "permission setting: "), " (from "+userDir+"/settings.json, file mtime)"))
		if e.TimeBasis != timeline.TimeFileMTime {
			t.Fatalf("time basis %q", e.TimeBasis)
		}
	}
	want := []string{
		"chat.mcp.autoApproveToken=[redacted]",
		"chat.permissions.default=autopilot",
		"chat.tools.global.autoApprove=true",
		"chat.tools.terminal.autoApprove./^git (status|log)/=true",
		"chat.tools.terminal.autoApprove.rm=false",
		"chat.tools.urls.autoApprove[]=https://example.com/*",
		"github.copilot.chat.defaultModel=gpt-5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("settings rows:\n%s", strings.Join(got, "\n"))
	}
	s = runAt(t, "vscode/settings", "testdata/malformed.json", userDir+"/profiles/p1/settings.json", "settings", nil)
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("malformed settings: %v", s.Problems)
	}
}

func TestCloudSessions(t *testing.T) {
	s := goldenAt(t, "vscode/cloud-sessions", "testdata/cloudSessions.json", userDir+"/globalStorage/github.copilot-chat/cloudSessions.json", "cloud-sessions", "cloudSessions", nil)
	if len(s.Events) != 1 || s.Events[0].SessionID != "7f1d2c3b-aaaa-4bbb-8ccc-000000000001" ||
		!strings.HasPrefix(s.Events[0].Text, "session synced: cloud session cs-42 task ct-99 (from ") || !s.Events[0].Time.Equal(mtime) {
		t.Fatalf("synced row: %+v", s.Events)
	}
	if len(s.States) != 1 || s.States[0].Synced != "yes" || len(s.Problems) != 1 {
		t.Fatalf("states %+v problems %v", s.States, s.Problems)
	}
	s = runAt(t, "vscode/cloud-sessions", "testdata/empty.jsonl", userDir+"/globalStorage/github.copilot-chat/cloudSessions.json", "cloud-sessions", nil)
	if len(s.Problems) != 1 {
		t.Fatalf("empty: %v", s.Problems)
	}
}

func TestChatEditing(t *testing.T) {
	s := goldenAt(t, "vscode/chat-editing", "testdata/editing_v2.json", wsDir+"/chatEditingSessions/7f1d2c3b-aaaa-4bbb-8ccc-000000000001/state.json", "chat-editing", "editing_v2",
		parsertest.Files{wsDir + "/workspace.json": "testdata/workspace.json"})
	if len(s.Events) != 2 {
		t.Fatalf("rows: %+v", s.Events)
	}
	e := s.Events[0]
	if e.Text != "chat edited file: /home/examiner/my demo/main.go state=accepted request=request_1 model=copilot/gpt-5" || !e.Secondary ||
		e.SessionID != "7f1d2c3b-aaaa-4bbb-8ccc-000000000001" || e.ProjectPath != "/home/examiner/my demo" || !e.Time.Equal(mtime) {
		t.Fatalf("accepted row: %+v", e)
	}
	if s.Events[1].Text != "chat edited file: /home/examiner/my demo/util.go state=rejected request=request_1" {
		t.Fatalf("rejected row: %+v", s.Events[1])
	}
	s = goldenAt(t, "vscode/chat-editing", "testdata/editing_v5.json", wsDir+"/chatEditingSessions/abcd-5/state.json", "chat-editing", "editing_v5", nil)
	if len(s.Events) != 1 || s.Events[0].Text != "chat edited file: /home/examiner/demo/app.py request=req-9 (baseline kept)" || s.Events[0].SessionID != "abcd-5" {
		t.Fatalf("v5 row: %+v", s.Events)
	}
	if strings.Contains(string(parsertest.Render(s)), "secret content") {
		t.Fatal("file content printed")
	}
}
