package zed

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

var fixedMTime = time.Date(2026, 2, 12, 8, 0, 0, 0, time.UTC)

const (
	mainID = "9d1e6a2b-0000-4c1a-8f00-000000000001"
	subID  = "4b7c0d3e-0000-4c1a-8f00-000000000002"
)

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, target, local, rel string) *parser.Input {
	t.Helper()
	f := parser.File{Path: "/home/examiner/" + rel, Rel: rel, Agent: Agent, Target: target, MTime: fixedMTime}
	return parsertest.Input(t, local, f, nil)
}

func golden(t *testing.T, id string, in *parser.Input, g string) *parsertest.Sink {
	t.Helper()
	return parsertest.Golden(t, byID(t, id), in, filepath.Join("testdata", g+".golden.jsonl"))
}

func find(s *parsertest.Sink, pred func(e *timeline.Event) bool) *timeline.Event {
	for i := range s.Events {
		if pred(&s.Events[i]) {
			return &s.Events[i]
		}
	}
	return nil
}

// threadsDB builds testdata/threads.sql and adds the two zstd threads,
// compressed here (no binary database is committed).
func threadsDB(t *testing.T) string {
	t.Helper()
	dbPath := parsertest.SQLite(t, "testdata/threads.sql")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	add := func(rowid int, id, parent, file, folder string) {
		js, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		blob := enc.EncodeAll(js, nil)
		var p any
		if parent != "" {
			p = parent
		}
		_, err = db.Exec(`INSERT INTO threads (rowid, id, parent_id, folder_paths, folder_paths_order, summary, updated_at, data_type, data, created_at) VALUES (?, ?, ?, ?, '0', ?, ?, 'zstd', ?, ?)`,
			rowid, id, p, folder, "title from column", map[string]string{mainID: "2026-02-10T14:30:00.123456+00:00", subID: "2026-02-10T14:25:00+00:00"}[id], blob, "2026-02-10T14:00:00+00:00")
		if err != nil {
			t.Fatal(err)
		}
	}
	add(10, mainID, "", "testdata/thread_main.json", "/home/examiner/zproj\n/home/examiner/lib")
	add(11, subID, mainID, "testdata/thread_sub.json", "/home/examiner/zproj")
	return dbPath
}

func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"zed/threads", "threads", "/h/.local/share/zed/threads/threads.db", true},
		{"zed/db", "db", "/h/.local/share/zed/db/0-stable/db.sqlite", true},
		{"zed/settings", "settings", "/h/.config/zed/settings.json", true},
		{"zed/settings", "settings", "/h/.config/zed/global_settings.json", true},
		{"zed/settings", "settings", "/h/.config/zed/keymap.json", false},
	}
	for _, c := range cases {
		if got := byID(t, c.id).Match(&parser.File{Path: c.path, Agent: Agent, Target: c.target}); got != c.want {
			t.Errorf("%s Match(%s) = %v", c.id, c.path, got)
		}
	}
}

func TestThreads(t *testing.T) {
	s := golden(t, "zed/threads", input(t, "threads", threadsDB(t), ".local/share/zed/threads/threads.db"), "threads")
	updated := parsertest.Time(t, "2026-02-10T14:30:00.123456Z")

	u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User && e.SessionID == mainID })
	if u == nil || u.Text != "The build fails, see \n please fix it" || !u.Time.Equal(updated) || u.TimeBasis != timeline.TimeInherited {
		t.Fatalf("user = %+v", u)
	}
	if u.ProjectPath != "/home/examiner/zproj" || u.SourceLine != 10 {
		t.Errorf("project %q line %d", u.ProjectPath, u.SourceLine)
	}
	if m := find(s, func(e *timeline.Event) bool {
		return strings.HasPrefix(e.Text, "mention: File /home/examiner/zproj/build.sh")
	}); m == nil || m.TurnType != timeline.System {
		t.Errorf("mention must be a system row: %+v", m)
	}
	if th := find(s, func(e *timeline.Event) bool { return e.Text == "The target name is misspelled." }); th == nil || th.TurnType != timeline.Thinking || th.Model != "zed.dev/claude-sonnet-4" {
		t.Errorf("thinking = %+v", th)
	}
	use := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolUse && e.ToolUseID == "toolu_01" })
	if use == nil || use.Text != "make -n all" || use.ToolName != "terminal" || use.ToolInput != `{"command":"make -n all","cd":"zproj"}` {
		t.Errorf("tool_use = %+v", use)
	}
	res := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolResult && e.ToolUseID == "toolu_01" })
	if res == nil || res.Text != "make all\ncc -o app main.c\n" || res.IsError != "false" || res.ToolName != "terminal" {
		t.Errorf("tool_result = %+v", res)
	}
	if e := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolUse && e.ToolUseID == "toolu_02" }); e == nil || e.Text != "zproj/build.sh" {
		t.Errorf("edit_file use = %+v", e)
	}
	// results follow their calls' order, not the map's
	var order []string
	for _, e := range s.Events {
		if e.TurnType == timeline.ToolResult && e.SessionID == mainID {
			order = append(order, e.ToolUseID)
		}
	}
	if strings.Join(order, ",") != "toolu_01,toolu_02,toolu_03" {
		t.Errorf("result order = %v", order)
	}
	deny := find(s, func(e *timeline.Event) bool { return e.Text == "permission decision: denied source=user" })
	if deny == nil || deny.ToolUseID != "toolu_03" || deny.SessionID != mainID {
		t.Errorf("denied = %+v", deny)
	}
	if d := find(s, func(e *timeline.Event) bool { return e.Text == "unsent draft: also check the README" }); d == nil || d.SessionID != mainID {
		t.Errorf("draft = %+v", d)
	}
	if find(s, func(e *timeline.Event) bool { return e.Text == "resume: Continue where you left off" }) == nil {
		t.Error("no resume row")
	}
	if find(s, func(e *timeline.Event) bool { return e.Text == "[redacted thinking]" }) == nil {
		t.Error("no redacted thinking row")
	}
	// the sub-agent thread
	if sa := find(s, func(e *timeline.Event) bool { return e.Text == "subagent "+subID+" of "+mainID }); sa == nil || sa.ToolUseID != "toolu_00" {
		t.Errorf("subagent = %+v", sa)
	}
	if d := find(s, func(e *timeline.Event) bool { return e.Text == "permission decision: denied source=settings" }); d == nil || d.ToolUseID != "toolu_s1" || d.SessionID != subID {
		t.Errorf("settings denial = %+v", d)
	}
	// the task the parent thread's model wrote is the sub-agent's first
	// message: a system row, never user (issue 12); every row of the
	// sub-agent's thread carries its parent
	if st := find(s, func(e *timeline.Event) bool { return e.SessionID == subID && e.TurnType == timeline.User }); st != nil {
		t.Errorf("sub-agent task as a user row: %+v", st)
	}
	if st := find(s, func(e *timeline.Event) bool { return e.Text == "subagent task: Run the test suite and report failures" }); st == nil ||
		st.TurnType != timeline.System || st.SessionID != subID || st.ParentSessionID != mainID || st.RecordID != "u-sub" {
		t.Errorf("subagent task = %+v", st)
	}
	for _, e := range s.Events {
		if (e.SessionID == subID) != (e.ParentSessionID == mainID) {
			t.Errorf("parent session: %+v", e)
		}
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != subID || s.States[0].ParentSessionID != mainID {
		t.Errorf("states: %+v", s.States)
	}
	// the legacy plain-JSON thread
	lu := find(s, func(e *timeline.Event) bool {
		return e.SessionID == "legacy-thread-0001" && e.TurnType == timeline.User
	})
	if lu == nil || lu.Text != "what does main.rs do?" || !lu.Time.Equal(parsertest.Time(t, "2025-06-01T08:00:00Z")) {
		t.Errorf("legacy user = %+v", lu)
	}
	lr := find(s, func(e *timeline.Event) bool { return e.ToolUseID == "tu_legacy" && e.TurnType == timeline.ToolResult })
	if lr == nil || lr.ToolName != "read_file" || lr.Text != "fn main() {}" {
		t.Errorf("legacy result = %+v", lr)
	}
	if len(s.Problems) != 2 {
		t.Errorf("problems = %v (want the broken zstd and broken JSON rows)", s.Problems)
	}
}

func TestThreadsV1Schema(t *testing.T) {
	s := golden(t, "zed/threads", input(t, "threads", parsertest.SQLite(t, "testdata/threads_v1.sql"), ".local/share/zed/threads/threads.db"), "threads_v1")
	if a := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.Assistant }); a == nil || a.Text != "Hello!" || a.SessionID != "v1-thread" {
		t.Errorf("assistant = %+v", a)
	}
	if len(s.Problems) != 1 {
		t.Errorf("problems = %v", s.Problems)
	}
}

func TestThreadsEmptyAndMalformed(t *testing.T) {
	s := golden(t, "zed/threads", input(t, "threads", parsertest.SQLite(t, "testdata/empty.sql"), ".local/share/zed/threads/threads.db"), "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Errorf("empty: %s", parsertest.Render(s))
	}
	s = golden(t, "zed/threads", input(t, "threads", parsertest.SQLite(t, "testdata/not_threads.sql"), ".local/share/zed/threads/threads.db"), "not_threads")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: not a Zed threads database: none of the tables threads" {
		t.Errorf("no table: %s", parsertest.Render(s))
	}
	// a file that is not SQLite at all
	s = golden(t, "zed/threads", input(t, "threads", "testdata/bad_settings.json", ".local/share/zed/threads/threads.db"), "not_sqlite")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Errorf("not sqlite: %s", parsertest.Render(s))
	}
}

func TestStateDB(t *testing.T) {
	s := golden(t, "zed/db", input(t, "db", parsertest.SQLite(t, "testdata/state.sql"), ".local/share/zed/db/0-stable/db.sqlite"), "state")
	want := map[string]bool{
		"sidebar thread: Fix build script (agent zed, updated 2026-02-10T14:30:00.123456+00:00)":                                         true,
		"sidebar thread: My refactor (agent claude-code, archived)":                                                                      true,
		"permission setting: trusted_worktrees=/home/examiner/zproj (from .local/share/zed/db/0-stable/db.sqlite, file mtime)":           true,
		"permission setting: trusted_worktrees=/srv/app host=deploy@build-box (from .local/share/zed/db/0-stable/db.sqlite, file mtime)": true,
		"unsent draft: rm -rf / was a joke, [file:///home/examiner/notes.md]":                                                            true,
		`git worktree created: /home/examiner/zproj-wt-1 {"main_repo":"/home/examiner/zproj","branch":"zed/agent-1"}`:                    true,
		"archived git worktree: /home/examiner/zproj-wt-0 repo=/home/examiner/zproj branch=zed/agent-0 commit=abc1234":                   true,
		"terminal thread: deploy shell cwd=/home/examiner/zproj":                                                                         true,
	}
	if len(s.Events) != len(want) {
		t.Errorf("rows = %d, want %d:\n%s", len(s.Events), len(want), parsertest.Render(s))
	}
	for _, e := range s.Events {
		if !want[e.Text] {
			t.Errorf("unexpected row %q", e.Text)
		}
	}
	sb := find(s, func(e *timeline.Event) bool { return e.SessionID == "acp-claude-77" })
	if sb == nil || !sb.Time.Equal(parsertest.Time(t, "2026-02-11T09:00:00Z")) || sb.ProjectPath != "/home/examiner/other" {
		t.Errorf("sidebar = %+v", sb)
	}
	d := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "unsent draft:") })
	if d.SessionID != mainID || d.TimeBasis != timeline.TimeFileMTime {
		t.Errorf("draft = %+v", d)
	}
}

func TestSettings(t *testing.T) {
	s := golden(t, "zed/settings", input(t, "settings", "testdata/settings.json", ".config/zed/settings.json"), "settings")
	want := []string{
		"model setting: zed.dev/claude-sonnet-4 (from .config/zed/settings.json, file mtime)",
		"permission setting: agent.always_allow_tool_actions=false (from .config/zed/settings.json, file mtime)",
		"permission setting: agent.tool_permissions.default=confirm (from .config/zed/settings.json, file mtime)",
		"permission setting: agent.tool_permissions.tools.mcp:github:create_issue.default_mode=allow (from .config/zed/settings.json, file mtime)",
		"permission setting: agent.tool_permissions.tools.terminal.default=confirm (from .config/zed/settings.json, file mtime)",
		`permission setting: agent.tool_permissions.tools.terminal.always_allow=^cargo\s+(build|test) (from .config/zed/settings.json, file mtime)`,
		`permission setting: agent.tool_permissions.tools.terminal.always_deny=rm\s+-rf (from .config/zed/settings.json, file mtime)`,
	}
	got := map[string]bool{}
	for _, e := range s.Events {
		got[e.Text] = true
		if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(fixedMTime) {
			t.Errorf("time of %q = %v %q", e.Text, e.Time, e.TimeBasis)
		}
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing %q\n%s", w, parsertest.Render(s))
		}
	}
	if len(s.Events) != len(want) {
		t.Errorf("rows = %d, want %d", len(s.Events), len(want))
	}
	s = golden(t, "zed/settings", input(t, "settings", "testdata/bad_settings.json", ".config/zed/settings.json"), "settings_bad")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Errorf("bad: %s", parsertest.Render(s))
	}
	s = golden(t, "zed/settings", input(t, "settings", "testdata/empty_settings.json", ".config/zed/settings.json"), "settings_empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Errorf("empty: %s", parsertest.Render(s))
	}
}

// TestThreadsView (issue 13): a store whose threads is a VIEW over an
// endless recursive CTE is not read in place of the table (only real
// tables are): one problem row, and the parse ends.
func TestThreadsView(t *testing.T) {
	s := golden(t, "zed/threads", input(t, "threads", parsertest.SQLite(t, "testdata/threads_view.sql"), ".local/share/zed/threads/threads.db"), "threads_view")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: not a Zed threads database: none of the tables threads" {
		t.Fatalf("%s", parsertest.Render(s))
	}
}

// TestArchivedWorktreeJoin: thread_archived_worktrees links an archived
// worktree to the threads whose worktree it was, by the sidebar's 16-byte
// thread_id (resolved to the thread's session id) or, in its first form,
// by session_id; the archived worktree row is then the thread's, and a
// link whose worktree row is gone is an orphan_record.
func TestArchivedWorktreeJoin(t *testing.T) {
	s := golden(t, "zed/db", input(t, "db", parsertest.SQLite(t, "testdata/state_links.sql"), ".local/share/zed/db/0-stable/db.sqlite"), "state_links")
	type r struct{ sess, rid, text string }
	var got []r
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "archived git worktree: ") {
			got = append(got, r{e.SessionID, e.RecordID, e.Text})
		}
	}
	const wt = "archived git worktree: /home/examiner/zproj-wt-2 repo=/home/examiner/zproj branch=zed/agent-2 original_commit=1111111 staged_commit=2222222 unstaged_commit=3333333"
	want := []r{
		{mainID, "archived-worktree:7#00112233445566778899aabbccddeeff", wt},
		{"", "archived-worktree:7#ffeeddccbbaa99887766554433221100", wt + " (thread ffeeddccbbaa99887766554433221100, not in sidebar_threads)"},
		{"", "archived-worktree:8", "archived git worktree: /home/examiner/zproj-wt-3 repo=/home/examiner/zproj"},
	}
	if len(got) != len(want) {
		t.Fatalf("rows: %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 3: orphan_record: thread_archived_worktrees links archived worktree 9, whose archived_git_worktrees row is gone" {
		t.Errorf("problems: %v", s.Problems)
	}
	if sk := s.SkipCounts(); sk["state_only:joined into its archived_git_worktrees row"] != 2 {
		t.Errorf("skips: %v", s.Skips)
	}
	old := parsertest.Run(t, byID(t, "zed/db"), input(t, "db", parsertest.SQLite(t, "testdata/state_links_v1.sql"), ".local/share/zed/db/0-stable/db.sqlite"))
	if len(old.Events) != 1 || old.Events[0].SessionID != mainID || old.Events[0].RecordID != "archived-worktree:1#"+mainID {
		t.Fatalf("session_id links: %s", parsertest.Render(old))
	}
}

// TestThreadsAltered: the one SQLite policy on threads.db, one table: a
// threads table lacking data is named with the column and nothing is
// read; without the table the store is "not a Zed threads database".
func TestThreadsAltered(t *testing.T) {
	for _, c := range []struct{ alter, problem string }{
		{`ALTER TABLE threads DROP COLUMN data`, "line 0: unknown schema: table threads lacks column(s) data: not read; the other tables are read"},
		{`DROP TABLE threads`, "line 0: empty_store: empty store: a SQLite database of 3 page(s) holding no table (never written, or every table dropped), where a Zed threads database should be: nothing to read"},
	} {
		s := parsertest.Run(t, byID(t, "zed/threads"), input(t, "threads", parsertest.SQLiteAltered(t, "testdata/threads.sql", c.alter), ".local/share/zed/threads/threads.db"))
		if len(s.Events) != 0 || strings.Join(s.Problems, "|") != c.problem {
			t.Errorf("%s: %s", c.alter, parsertest.Render(s))
		}
	}
}

// TestStateDBAltered: the one SQLite policy on db.sqlite. Its tables are
// Optional (each comes with a later Zed), so a dropped one is no problem
// and every other table's row is there; a table lacking the column its
// rows are read by is named and every other table's row is there; a
// db.sqlite with none of them is one problem.
func TestStateDBAltered(t *testing.T) {
	const rel = ".local/share/zed/db/0-stable/db.sqlite"
	full := parsertest.Run(t, byID(t, "zed/db"), input(t, "db", parsertest.SQLite(t, "testdata/state.sql"), rel))
	if len(full.Events) != 8 {
		t.Fatalf("full store: %s", parsertest.Render(full))
	}
	for _, c := range []struct{ alter, problem, dropped string }{
		{`DROP TABLE trusted_worktrees`, "", "permission setting: trusted_worktrees="},
		{`ALTER TABLE sidebar_terminal_threads RENAME COLUMN terminal_id TO tid`, "line 0: unknown schema: table sidebar_terminal_threads lacks column(s) terminal_id: not read; the other tables are read", "terminal thread:"},
		{`ALTER TABLE scoped_kv_store RENAME COLUMN namespace TO ns`, "line 0: unknown schema: table scoped_kv_store lacks column(s) namespace: not read; the other tables are read", "unsent draft:|git worktree created:"},
	} {
		s := parsertest.Run(t, byID(t, "zed/db"), input(t, "db", parsertest.SQLiteAltered(t, "testdata/state.sql", c.alter), rel))
		var want, got []string
		for _, e := range full.Events {
			drop := false
			for _, p := range strings.Split(c.dropped, "|") {
				drop = drop || strings.HasPrefix(e.Text, p)
			}
			if !drop {
				want = append(want, e.RecordID+" "+e.Text)
			}
		}
		for _, e := range s.Events {
			got = append(got, e.RecordID+" "+e.Text)
		}
		if strings.Join(s.Problems, "|") != c.problem || strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == len(full.Events) {
			t.Errorf("%s: problems %q rows\n%s\nwant\n%s", c.alter, s.Problems, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	s := parsertest.Run(t, byID(t, "zed/db"), input(t, "db", parsertest.SQLite(t, "testdata/not_threads.sql"), rel))
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 0: not a Zed agent-state database: none of the tables archived_git_worktrees, scoped_kv_store, sidebar_terminal_threads, sidebar_threads, thread_archived_worktrees, trusted_worktrees" {
		t.Errorf("no agent table: %s", parsertest.Render(s))
	}
}
