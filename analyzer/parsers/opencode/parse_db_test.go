package opencode

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func dbInput(t *testing.T, sqlFile, agent, orig string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, parsertest.SQLite(t, sqlFile), parser.File{Path: orig, Agent: agent, Target: "db"}, nil)
}

func TestDB1x(t *testing.T) {
	in := dbInput(t, "testdata/opencode_1x.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db")
	p := byID(t, "opencode/db")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/opencode_1x.golden.jsonl")
	if len(s.Problems) != 1 || s.Problems[0] != "line 0: orphan_record: records of session ses_gone whose session row is gone: kept" {
		t.Fatalf("problems: %v", s.Problems)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "SECRET") {
			t.Fatalf("share secret printed: %+v", e)
		}
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "a prompt of a deleted session" || u[0].SessionID != "ses_gone" || u[0].RecordID != "prt_z1" ||
		u[1].Text != "fix the login bug in @src/auth.ts" || u[1].TimeString() != "2026-01-01T10:00:00.100Z" || u[1].SessionID != "ses_a1" || u[1].RecordID != "prt_01a" {
		t.Fatalf("user rows: %+v", u)
	}
	// the explore subagent's prompt was written by the parent's model
	// (issue 12): a system row of the child session, with its parent
	if st := withText(s, "subagent task: "); len(st) != 1 || st[0].Text != "subagent task: Find where auth is configured" || st[0].TurnType != timeline.System ||
		st[0].SessionID != "ses_b2" || st[0].ParentSessionID != "ses_a1" || st[0].RecordID != "prt_b1a" {
		t.Fatalf("subagent task: %+v", st)
	}
	for _, e := range s.Events {
		if e.SessionID == "ses_b2" && e.ParentSessionID != "ses_a1" {
			t.Errorf("subagent row without its parent: %+v", e)
		}
	}
	if r := withText(s, "Called the Read tool"); len(r) != 1 || r[0].TurnType != timeline.System {
		t.Fatalf("synthetic part must be system: %+v", r)
	}
	if m := withText(s, "model: "); len(m) != 3 || m[0].Text != "model: anthropic/claude-sonnet-4-5" ||
		m[1].Text != "model: anthropic/claude-haiku-4-5" || m[1].SessionID != "ses_b2" || m[2].Text != "model: anthropic/claude-sonnet-4-5 -> openai/gpt-5" {
		t.Fatalf("model rows: %+v", m)
	}
	c, r := withID(s, timeline.ToolUse, "toolu_01"), withID(s, timeline.ToolResult, "toolu_01")
	if len(c) != 1 || c[0].Text != "npm test" || c[0].ToolInput != `{"command":"npm test","description":"Run tests"}` || c[0].Model != "anthropic/claude-sonnet-4-5" ||
		len(r) != 1 || r[0].Text != "1 failing" || r[0].IsError != "false" || r[0].TimeString() != "2026-01-01T10:00:04.000Z" {
		t.Fatalf("bash pair: %+v %+v", c, r)
	}
	if r := withID(s, timeline.ToolResult, "toolu_02"); len(r) != 1 || r[0].IsError != "true" {
		t.Fatalf("rejected result: %+v", r)
	}
	if d := withText(s, "permission decision:"); len(d) != 1 || d[0].Text != "permission decision: denied source=user" || d[0].ToolUseID != "toolu_02" {
		t.Fatalf("decision: %+v", d)
	}
	if sa := withText(s, "subagent ses_"); len(sa) != 1 || sa[0].Text != "subagent ses_b2 of ses_a1" {
		t.Fatalf("subagent rows (once): %+v", sa)
	}
	if c := withID(s, timeline.ToolUse, "toolu_b1"); len(c) != 1 || len(withID(s, timeline.ToolResult, "toolu_b1")) != 0 {
		t.Fatalf("running call has no result: %+v", c)
	}
	sy := withText(s, "session synced:")
	if len(sy) != 2 || sy[1].Text != "session synced: share shr_a1 https://opncd.ai/s/shr_a1" || sy[1].SourceLine != 1 ||
		sy[0].Text != "session synced: share https://opncd.ai/s/shr_b2" || sy[0].SessionID != "ses_b2" || sy[0].ProjectPath != "/home/examiner/src/app" {
		t.Fatalf("synced rows: %+v", sy)
	}
	if len(s.States) != 3 || s.States[0].Synced != "yes" || s.States[0].Key.Agent != "opencode" ||
		s.States[1].Key.SessionID != "ses_b2" || s.States[1].ParentSessionID != "ses_a1" || s.States[2].Synced != "yes" {
		t.Fatalf("states: %+v", s.States)
	}
	ps := withText(s, "permission setting:")
	want := []string{
		"permission setting: edit *=allow (from opencode.db permission, project prj1)",
		"permission setting: bash git push *=ask (from opencode.db permission, project prj1)",
		"permission setting: bash rm *=deny (from session ses_a1)",
	}
	if len(ps) != 3 {
		t.Fatalf("permission rows: %+v", ps)
	}
	for i, w := range want {
		if ps[i].Text != w {
			t.Fatalf("permission row %d: %q want %q", i, ps[i].Text, w)
		}
	}
	if ps[0].ProjectPath != "/home/examiner/src/app" {
		t.Fatalf("project path of rule: %+v", ps[0])
	}
	if a := withText(s, "session archived"); len(a) != 1 || a[0].TimeString() != "2026-01-02T10:00:00.000Z" {
		t.Fatalf("archived: %+v", a)
	}
	if w := withText(s, "scratch directory: "); len(w) != 2 || w[0].Text != "scratch directory: /home/examiner/.local/share/opencode/worktree/prj1/brave-otter (worktree name=brave-otter branch=opencode/brave-otter project_id=prj1)" ||
		w[1].Text != "scratch directory: /home/examiner/.local/share/opencode/worktree/prj1/calm-fox (workspace type=worktree name=calm-fox branch=opencode/calm-fox project_id=prj1)" || w[1].TimeString() != "2026-01-01T10:01:00.000Z" {
		t.Fatalf("worktree: %+v", w)
	}
	if pd := withText(s, "project directory: "); len(pd) != 1 || pd[0].ProjectPath != "/home/examiner/old/app" {
		t.Fatalf("project directory: %+v", pd)
	}
	if cs := withText(s, "compaction summary: "); len(cs) != 1 || cs[0].TurnType != timeline.System {
		t.Fatalf("compaction summary: %+v", cs)
	}
	if er := withText(s, "error: "); len(er) != 1 || er[0].Text != "error: MessageAbortedError: Aborted" {
		t.Fatalf("error rows: %+v", er)
	}
	for _, e := range s.Events {
		if e.Secondary {
			t.Fatalf("opencode.db rows are primary: %+v", e)
		}
	}
}

func TestDB2x(t *testing.T) {
	in := dbInput(t, "testdata/opencode_2x.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db")
	s := parsertest.Golden(t, byID(t, "opencode/db"), in, "testdata/opencode_2x.golden.jsonl")
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], `session_message type "mystery"`) {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "hello from 1.x" || u[0].SessionID != "ses_old" || u[1].Text != "rename module foo to bar" || u[1].SessionID != "ses_new" {
		t.Fatalf("user rows: %+v", u)
	}
	c, r := withID(s, timeline.ToolUse, "toolu_21"), withID(s, timeline.ToolResult, "toolu_21")
	if len(c) != 1 || c[0].Text != "git mv foo.ts bar.ts" || c[0].Model != "anthropic/claude-opus-4-1" || c[0].TimeString() != "2026-02-02T02:40:02.100Z" ||
		len(r) != 1 || r[0].Text != "renamed" || r[0].IsError != "false" || r[0].TimeString() != "2026-02-02T02:40:03.000Z" {
		t.Fatalf("pair: %+v %+v", c, r)
	}
	if r := withID(s, timeline.ToolResult, "toolu_22"); len(r) != 1 || r[0].IsError != "true" || r[0].Text != "File has been modified since it was last read" {
		t.Fatalf("error result: %+v", r)
	}
	if m := withText(s, "model: "); len(m) != 2 || m[1].Text != "model: anthropic/claude-opus-4-1 -> openai/gpt-5" {
		t.Fatalf("model rows: %+v", m)
	}
	if sh := withID(s, timeline.ToolUse, "sh_1"); len(sh) != 1 || sh[0].Text != "ls" || sh[0].ToolName != "shell" {
		t.Fatalf("shell: %+v", sh)
	}
	for _, w := range []string{"compaction (auto): Renamed foo to bar.", "agent switched: plan", "attachment: foo.ts (text/plain)",
		"permission setting: webfetch *=deny (from session ses_new)", "The user ran a shell command."} {
		if x := withText(s, w); len(x) != 1 || x[0].TurnType != timeline.System {
			t.Fatalf("%q: %+v", w, x)
		}
	}
}

func TestDBNextIsSecondary(t *testing.T) {
	in := dbInput(t, "testdata/opencode_2x.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode-next.db")
	p := byID(t, "opencode/db")
	if !p.Match(&in.File) {
		t.Fatal("opencode-next.db must match")
	}
	s := parsertest.Run(t, p, in)
	if len(s.Events) == 0 {
		t.Fatal("no rows")
	}
	for _, e := range s.Events {
		if !e.Secondary {
			t.Fatalf("not secondary: %+v", e)
		}
	}
}

func TestDBKilo(t *testing.T) {
	for _, name := range []string{"kilo.db", "opencode-stable.db"} {
		in := dbInput(t, "testdata/opencode_1x.sql", agentKilo, "/home/examiner/.local/share/kilo/"+name)
		p := byID(t, "kilo-code/db")
		if p.Agent() != agentKilo || !p.Match(&in.File) || byID(t, "opencode/db").Match(&in.File) {
			t.Fatalf("%s: kilo-code/db must match, opencode/db not", name)
		}
		s := parsertest.Golden(t, p, in, "testdata/kilo_"+strings.TrimSuffix(name, ".db")+".golden.jsonl")
		if len(s.States) != 3 || s.States[0].Key.Agent != agentKilo || s.States[1].ParentSessionID != "ses_a1" || len(ofType(s, timeline.User)) != 2 {
			t.Fatalf("%s: %+v", name, s.States)
		}
	}
}

// TestDBMiMoCode: MiMoCode's mimocode.db is OpenCode's store (agentsview
// 5386007 mimoFmt): read by mimocode/db, not opencode/db.
func TestDBMiMoCode(t *testing.T) {
	in := dbInput(t, "testdata/opencode_1x.sql", agentMiMo, "/home/examiner/.local/share/mimocode/mimocode.db")
	p := byID(t, "mimocode/db")
	if !p.Match(&in.File) || byID(t, "opencode/db").Match(&in.File) || byID(t, "kilo-code/db").Match(&in.File) {
		t.Fatal("mimocode/db must match, opencode/db and kilo-code/db not")
	}
	s := parsertest.Golden(t, p, in, "testdata/mimocode_db.golden.jsonl")
	if len(s.States) != 3 || s.States[0].Key.Agent != agentMiMo || s.States[1].ParentSessionID != "ses_a1" || len(ofType(s, timeline.User)) != 2 {
		t.Fatalf("%+v", s.States)
	}
}

func TestDBMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "opencode/db"), dbInput(t, "testdata/malformed.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db"), "testdata/malformed.golden.jsonl")
	if len(s.Problems) != 2 || len(ofType(s, timeline.User)) != 1 {
		t.Fatalf("%v %+v", s.Problems, s.Events)
	}
}

func TestDBEmpty(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "opencode/db"), dbInput(t, "testdata/empty.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db"), "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("%v %+v", s.Problems, s.Events)
	}
}

func TestDBPermission118(t *testing.T) {
	s := parsertest.Run(t, byID(t, "opencode/db"), dbInput(t, "testdata/permission_118.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db"))
	if len(s.Events) != 1 || s.Events[0].Text != "permission setting: bash=git status * (from opencode.db permission, project prj1)" || s.Events[0].ProjectPath != "/home/examiner/demo" || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// TestDBOrphanParts: part rows whose message row is gone (opencode #13654,
// #13818) are kept as rows from what the part records (role unknown: a
// text part is a system row, never user or assistant), with an
// orphan_record problem per lost message; a message whose parts are all
// gone gives a row saying so; a session known only from parts is read.
func TestDBOrphanParts(t *testing.T) {
	in := dbInput(t, "testdata/orphan_parts.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db")
	s := parsertest.Golden(t, byID(t, "opencode/db"), in, "testdata/orphan_parts.golden.jsonl")
	type row struct {
		sess, rid string
		tt        timeline.TurnType
		text      string
	}
	var got []row
	for _, e := range s.Events {
		got = append(got, row{e.SessionID, e.RecordID, e.TurnType, e.Text})
	}
	want := []row{
		{"ses_o1", "ses_o1#title", timeline.System, "session title: Clean the build"},
		{"ses_o1", "prt_u1", timeline.User, "clean the build directory"},
		{"ses_o1", "prt_g1", timeline.System, "text of a message whose record is gone (role unknown): I will remove build/."},
		{"ses_o1", "prt_g2", timeline.ToolUse, "rm -rf build/"},
		{"ses_o1", "prt_g2#result", timeline.ToolResult, ""},
		{"ses_o1", "msg_u2#noparts", timeline.System, "message without parts: role=user (its part rows are gone)"},
		{"ses_x", "prt_x1", timeline.ToolUse, "/etc/hosts"},
		{"ses_x", "prt_x1#result", timeline.ToolResult, "127.0.0.1 localhost"},
	}
	if len(got) != len(want) {
		t.Fatalf("rows:\n%+v\nwant\n%+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if c := withID(s, timeline.ToolUse, "toolu_rm"); len(c) != 1 || c[0].TimeString() != "2026-01-01T10:00:01.200Z" || c[0].SourceLine != 3 {
		t.Errorf("orphaned call: %+v", c)
	}
	var orphans []string
	for _, p := range s.Problems {
		if strings.Contains(p, parser.KindOrphanRecord+":") {
			orphans = append(orphans, p)
		}
	}
	wantP := []string{
		"line 2: orphan_record: 3 part(s) of message msg_gone in session ses_o1 whose message row is gone (opencode #13654, #13818): kept, role unknown",
		"line 0: orphan_record: records of session ses_x whose session row is gone: kept",
		"line 5: orphan_record: 1 part(s) of message msg_x in session ses_x whose message row is gone (opencode #13654, #13818): kept, role unknown",
	}
	if strings.Join(orphans, "\n") != strings.Join(wantP, "\n") {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(orphans, "\n"), strings.Join(wantP, "\n"))
	}
	if sk := s.SkipCounts(); len(sk) != 2 || sk["no_evidence:step-finish"] != 1 || sk["state_only:message"] != 1 {
		t.Errorf("skips: %v", s.Skips)
	}
}

// TestDBRemovedParts: what happened stays. A part OpenCode removed (its
// row gone) still gives its rows from its last message.part.updated event
// in the sync log, followed by "part removed from message <id>"; a removed
// part the log holds nothing of gives that row alone.
func TestDBRemovedParts(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "opencode/db"), dbInput(t, "testdata/removed_parts.sql", agentOpenCode, "/home/examiner/.local/share/opencode/opencode.db"), "testdata/removed_parts.golden.jsonl")
	type row struct {
		rid, tt, text, at string
		line              int64
	}
	var got []row
	for _, e := range s.Events {
		got = append(got, row{e.RecordID, string(e.TurnType), e.Text, e.TimeString() + " " + string(e.TimeBasis), e.SourceLine})
	}
	want := []row{
		{"ses_r#title", "system", "session title: Revert", "2026-01-01T10:00:00.000Z ", 1},
		{"", "system", "model: p/m", "2026-01-01T10:00:01.000Z ", 1},
		{"prt_keep", "assistant", "kept reply", "2026-01-01T10:00:01.000Z ", 1},
		{"prt_gone", "tool_use", "rm -rf dist", "2026-01-01T10:00:02.000Z ", 2},
		{"prt_gone#result", "tool_result", "", "2026-01-01T10:00:03.000Z ", 2},
		{"prt_gone#removed", "system", "part removed from message msg_a", "2026-01-01T10:00:03.000Z inherited", 3},
		{"prt_never_seen#removed", "system", "part removed from message msg_a (the sync log holds none of its content)", " none", 4},
	}
	if len(got) != len(want) {
		t.Fatalf("rows:\n%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if sk := s.SkipCounts(); sk["no_evidence:event message.part.updated.1"] != 1 {
		t.Errorf("skips: %v", s.Skips)
	}
}

// TestDBAltered: the one SQLite policy. Without part (a table every store
// has) the one problem names it, no part row is left and every other row
// is still there; a permission table lacking project_id is named and the
// rows are exactly the others; a SQLite file with none of the tables is
// one "not an OpenCode database" problem.
func TestDBAltered(t *testing.T) {
	const orig = "/home/examiner/.local/share/opencode/opencode.db"
	altered := func(stmt string) *parsertest.Sink {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/opencode_1x.sql", stmt), parser.File{Path: orig, Agent: agentOpenCode, Target: "db"}, nil)
		return parsertest.Run(t, byID(t, "opencode/db"), in)
	}
	full := parsertest.Run(t, byID(t, "opencode/db"), dbInput(t, "testdata/opencode_1x.sql", agentOpenCode, orig))
	key := func(e timeline.Event) string { return e.RecordID + " " + string(e.TurnType) + " " + e.Text }
	s := altered(`DROP TABLE part`)
	if len(s.Problems) == 0 || s.Problems[0] != "line 0: table part missing: its rows cannot be read; the other tables are read" {
		t.Fatalf("no part: problems %q", s.Problems)
	}
	have := map[string]bool{}
	for _, e := range s.Events {
		if strings.HasPrefix(e.RecordID, "prt_") {
			t.Fatalf("a part row without the part table: %+v", e)
		}
		have[key(e)] = true
	}
	n := 0
	for _, e := range full.Events {
		if !strings.HasPrefix(e.RecordID, "prt_") && e.RecordID != "" {
			n++
			if !have[key(e)] {
				t.Errorf("no part: row %q is gone", key(e))
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d rows checked", n)
	}
	s = altered(`ALTER TABLE permission RENAME COLUMN project_id TO pid`)
	if len(s.Problems) == 0 || s.Problems[0] != "line 0: unknown schema: table permission lacks column(s) project_id: not read; the other tables are read" {
		t.Fatalf("permission without project_id: problems %q", s.Problems)
	}
	var want, got []string
	for _, e := range full.Events {
		if !strings.HasPrefix(e.RecordID, "permission:") {
			want = append(want, key(e))
		}
	}
	for _, e := range s.Events {
		got = append(got, key(e))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == len(full.Events) {
		t.Fatalf("permission without project_id: rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	o := parsertest.Run(t, byID(t, "opencode/db"), dbInput(t, "testdata/other.sql", agentOpenCode, orig))
	if len(o.Events) != 0 || strings.Join(o.Problems, "|") != "line 0: not an OpenCode database: none of the tables event, message, model_usage, part, permission, project, project_directory, session, session_message, session_share, session_v2, workspace, worktree" {
		t.Fatalf("not a store: %v %q", len(o.Events), o.Problems)
	}
}
