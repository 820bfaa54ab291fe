package cline

import (
	"database/sql"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Cline CLI 3.0.65 files of fixtures/roots/real-agents-3 (made by
// scripts/gen-real-fixtures-3.sh): read in place, goldens in
// testdata/real3/.
const (
	real3Root = "../../../fixtures/roots/real-agents-3"
	real3Home = "/home/examiner3"
	real3Data = real3Home + "/.cline/data"
)

type real3Scenario struct {
	Scenario  string `json:"scenario"`
	Variant   string `json:"variant"`
	SessionID string `json:"session_id"`
	Prompt    string `json:"prompt"`
	Command   string `json:"command"`
}

// real3 returns the Cline scenarios of the fixture's expect.json by name
// ("denied-local" for the in-process denial).
func real3(t *testing.T) map[string]real3Scenario {
	t.Helper()
	b, err := os.ReadFile(real3Root + ".expect.json")
	if err != nil {
		t.Fatalf("the in-repo fixture is missing: %v", err)
	}
	var e struct {
		Cline struct {
			Scenarios []real3Scenario `json:"scenarios"`
		} `json:"cline"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	out := map[string]real3Scenario{}
	for _, s := range e.Cline.Scenarios {
		k := s.Scenario
		if s.Variant != "" {
			k = s.Variant
		}
		out[k] = s
	}
	return out
}

// real3Files maps every file under the fixture's .cline/data to its
// original path (for OpenRelated and List).
func real3Files(t *testing.T) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	base := real3Root + "/home/examiner3"
	err := filepath.WalkDir(base+"/.cline", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		files[real3Home+"/"+filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func real3Run(t *testing.T, id, target, orig string) *parsertest.Sink {
	t.Helper()
	files := real3Files(t)
	local, ok := files[orig]
	if !ok {
		t.Fatalf("%s is not in the fixture", orig)
	}
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: mtime}
	p := byID(t, id)
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, orig)
	}
	return parsertest.Run(t, p, parsertest.Input(t, local, f, files))
}

// TestReal3Golden: every Cline file the real runs wrote that a parser
// reads, against its reviewed golden.
func TestReal3Golden(t *testing.T) {
	files := real3Files(t)
	var origs []string
	for o := range files {
		origs = append(origs, o)
	}
	sort.Strings(origs)
	type c struct{ id, target string }
	route := func(o string) (c, bool) {
		rel := strings.TrimPrefix(o, real3Data+"/")
		switch {
		case strings.HasSuffix(rel, ".messages.json"):
			return c{"cline/sdk-messages", "sdk-messages"}, true
		case strings.HasPrefix(rel, "sessions/") && strings.HasSuffix(rel, ".json"):
			return c{"cline/sdk-session", "sdk-sessions"}, true
		case rel == "db/sessions.db":
			return c{"cline/sessions-db", "sdk-db"}, true
		case rel == "db/session-search.db":
			return c{"cline/session-search", "sdk-db"}, true
		case strings.HasPrefix(rel, "db/hub-events-") && strings.HasSuffix(rel, ".db"):
			return c{"cline/hub-events", "sdk-db"}, true
		case rel == "logs/hooks.jsonl":
			return c{"cline/hooks", "hooks-log"}, true
		case rel == "cache/user_input_history.jsonl":
			return c{"cline/input-history", "input-history"}, true
		}
		return c{}, false
	}
	n := 0
	for _, o := range origs {
		r, ok := route(o)
		if !ok {
			continue
		}
		n++
		name := strings.NewReplacer("/", "_", ".", "_").Replace(strings.TrimPrefix(o, real3Data+"/"))
		t.Run(name, func(t *testing.T) {
			f := parser.File{Path: o, Agent: Agent, Target: r.target, MTime: mtime}
			p := byID(t, r.id)
			if !p.Match(&f) {
				t.Fatalf("%s does not match %s", r.id, o)
			}
			s := parsertest.Golden(t, p, parsertest.Input(t, files[o], f, files), "testdata/real3/"+name+".golden.jsonl")
			if len(s.Problems) != 0 {
				t.Errorf("problems: %v", s.Problems)
			}
		})
	}
	if n < 16 {
		t.Fatalf("only %d real files routed", n)
	}
}

func rowsOf(s *parsertest.Sink, session string, turn timeline.TurnType) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.SessionID == session && (turn == "" || e.TurnType == turn) {
			out = append(out, e)
		}
	}
	return out
}

// The basic run, then its TUI resume with the other model: typed prompts
// unwrapped from <user_input>, the full run_commands input, the linked
// result, the model switch, millisecond times, message ids as record ids.
func TestReal3BasicAndResume(t *testing.T) {
	sc := real3(t)
	basic, resume := sc["basic"], sc["resume"]
	if basic.SessionID != resume.SessionID || basic.SessionID == "" {
		t.Fatalf("basic %q and resume %q should share one session", basic.SessionID, resume.SessionID)
	}
	id := basic.SessionID
	s := real3Run(t, "cline/sdk-messages", "sdk-messages", real3Data+"/sessions/"+id+"/"+id+".messages.json")
	users := rowsOf(s, id, timeline.User)
	if len(users) != 2 || users[0].Text != basic.Prompt || users[1].Text != resume.Prompt {
		t.Fatalf("user rows %+v, want the two typed prompts", users)
	}
	for _, u := range users {
		if !strings.HasSuffix(u.RecordID, "#0") || u.ProjectPath != real3Home+"/demo" || u.TimeBasis != timeline.TimeRecorded || u.Time.Nanosecond()%int(1e6) != 0 {
			t.Errorf("user row %+v", u)
		}
	}
	calls := rowsOf(s, id, timeline.ToolUse)
	if len(calls) != 2 || calls[0].Text != basic.Command || calls[0].ToolName != "run_commands" ||
		calls[0].ToolInput != `{"commands":["`+basic.Command+`"]}` || calls[0].Model != "mock-coder" || calls[1].Model != "mock-coder-2" {
		t.Fatalf("calls %+v", calls)
	}
	results := rowsOf(s, id, timeline.ToolResult)
	if len(results) != 2 || results[0].ToolUseID != calls[0].ToolUseID || results[0].IsError != "false" ||
		!strings.HasPrefix(results[0].Text, "doubleagent-cline-marker\n") {
		t.Fatalf("results %+v", results)
	}
	var switches []string
	for _, e := range rowsOf(s, id, timeline.System) {
		if strings.HasPrefix(e.Text, "model: ") {
			switches = append(switches, e.Text)
		}
	}
	if strings.Join(switches, "|") != "model: mock-coder|model: mock-coder -> mock-coder-2" {
		t.Fatalf("model rows %q", switches)
	}
	if !users[1].Time.After(results[0].Time) {
		t.Errorf("the resumed prompt (%s) is not after the first run (%s)", users[1].Time, results[0].Time)
	}
}

// Both denials: an error result and a permission decision naming the
// tool, the source and the reason the SDK recorded.
func TestReal3Denied(t *testing.T) {
	sc := real3(t)
	for name, reason := range map[string]string{
		"denied":       "Tool approval requires an interactive session, but this session is non-interactive.",
		"denied-local": `Tool "run_commands" requires approval in a TTY session`,
	} {
		id := sc[name].SessionID
		s := real3Run(t, "cline/sdk-messages", "sdk-messages", real3Data+"/sessions/"+id+"/"+id+".messages.json")
		res := rowsOf(s, id, timeline.ToolResult)
		if len(res) != 1 || res[0].IsError != "true" || res[0].Text != reason+denialMarker {
			t.Fatalf("%s: results %+v", name, res)
		}
		var d *timeline.Event
		for i, e := range s.Events {
			if strings.HasPrefix(e.Text, "permission decision: ") {
				d = &s.Events[i]
			}
		}
		want := "permission decision: denied tool=run_commands source=approval reason=" + reason
		if d == nil || d.Text != want || d.ToolUseID != res[0].ToolUseID || d.RecordID != res[0].RecordID+"#decision" {
			t.Fatalf("%s: decision %+v, want %q", name, d, want)
		}
	}
}

// The subagent's messages file: its own session, child of the lead's; the
// task the lead's model wrote is a system row, never a user row.
func TestReal3Subagent(t *testing.T) {
	sc := real3(t)
	lead := sc["subagent"].SessionID
	files := real3Files(t)
	var sub string
	for o := range files {
		if strings.HasPrefix(o, real3Data+"/sessions/"+lead+"/agent_") {
			sub = o
		}
	}
	if sub == "" {
		t.Fatal("no subagent messages file")
	}
	s := real3Run(t, "cline/sdk-messages", "sdk-messages", sub)
	wantID := lead + "__" + strings.TrimSuffix(filepath.Base(sub), ".messages.json")
	if len(s.Events) < 3 || s.Events[0].Text != "subagent "+wantID+" of "+lead {
		t.Fatalf("first rows %+v", s.Events)
	}
	for _, e := range s.Events {
		if e.SessionID != wantID || e.ParentSessionID != lead {
			t.Fatalf("row %+v not in the subagent's session", e)
		}
		if e.TurnType == timeline.User {
			t.Fatalf("user row in a subagent: %+v", e)
		}
	}
	if e := s.Events[1]; e.Text != "subagent task: Run the shell command `echo doubleagent-cline-subagent` and tell me what it printed." {
		t.Fatalf("task row %+v", e)
	}
	if len(s.States) != 1 || s.States[0].ParentSessionID != lead {
		t.Fatalf("states %+v", s.States)
	}
}

// sessions.db gives each session the rows of its record file with the
// same record ids and texts; the killed session's end row names the
// stale-session reconciler; the deleted session is gone from it.
func TestReal3SessionsDB(t *testing.T) {
	sc := real3(t)
	db := real3Run(t, "cline/sessions-db", "sdk-db", real3Data+"/db/sessions.db")
	for _, name := range []string{"basic", "denied", "denied-local", "edit", "subagent", "killed"} {
		id := sc[name].SessionID
		rec := real3Run(t, "cline/sdk-session", "sdk-sessions", real3Data+"/sessions/"+id+"/"+id+".json")
		got := map[string]string{}
		for _, e := range rowsOf(db, id, "") {
			got[e.RecordID] = e.Text
		}
		if len(rec.Events) == 0 {
			t.Fatalf("%s: no record rows", name)
		}
		for _, e := range rec.Events {
			if got[e.RecordID] != e.Text {
				t.Errorf("%s: %s: record %q, sessions.db %q", name, e.RecordID, e.Text, got[e.RecordID])
			}
		}
	}
	if r := rowsOf(db, sc["deleted"].SessionID, ""); len(r) != 0 {
		t.Errorf("the deleted session still has sessions.db rows: %+v", r)
	}
	killed := sc["killed"].SessionID
	var end, prompt *timeline.Event
	for i, e := range db.Events {
		if e.SessionID == killed && e.RecordID == killed+"#end" {
			end = &db.Events[i]
		}
		if e.SessionID == killed && e.RecordID == killed+"#prompt" {
			prompt = &db.Events[i]
		}
	}
	if end == nil || !strings.HasPrefix(end.Text, "session ended: status=failed exit_code=1 marker=failed_external_process_exit by=stale_session_reconciler at=") {
		t.Fatalf("killed end row %+v", end)
	}
	if prompt == nil || prompt.TurnType != timeline.User || !prompt.Secondary || prompt.Text != sc["killed"].Prompt {
		t.Fatalf("killed prompt row %+v", prompt)
	}
	var subStart *timeline.Event
	for i, e := range db.Events {
		if e.ParentSessionID == sc["subagent"].SessionID && strings.HasSuffix(e.RecordID, "#start") {
			subStart = &db.Events[i]
		}
	}
	if subStart == nil || !strings.Contains(subStart.Text, " subagent_of="+sc["subagent"].SessionID+" agent=agent_") {
		t.Fatalf("subagent start row %+v", subStart)
	}
}

// The session the user deleted survives in the search index (undated,
// secondary) and in the hub's event log (its messages with their ids);
// what the collected transcripts still hold is accounted as copies.
func TestReal3DeletedSessionRecovered(t *testing.T) {
	sc := real3(t)
	del := sc["deleted"]
	search := real3Run(t, "cline/session-search", "sdk-db", real3Data+"/db/session-search.db")
	rows := rowsOf(search, del.SessionID, "")
	if len(rows) != 5 {
		t.Fatalf("search rows of the deleted session: %+v", rows)
	}
	if rows[1].TurnType != timeline.User || rows[1].Text != del.Prompt || rows[1].RecordID != del.SessionID+"#prompt" {
		t.Fatalf("prompt row %+v", rows[1])
	}
	for _, e := range rows {
		if !e.Secondary {
			t.Fatalf("primary row from the index: %+v", e)
		}
	}
	counts := search.SkipCounts()
	if counts["copy_of_transcript"] == 0 || counts["same_as_indexed_prompt"] != 1 {
		t.Fatalf("skips %v", counts)
	}
	hub := real3Run(t, "cline/hub-events", "sdk-db", real3Data+"/db/hub-events-hub-production.db")
	var user, call, result *timeline.Event
	for i, e := range hub.Events {
		if e.SessionID != del.SessionID {
			continue
		}
		switch e.TurnType {
		case timeline.User:
			user = &hub.Events[i]
		case timeline.ToolUse:
			call = &hub.Events[i]
		case timeline.ToolResult:
			result = &hub.Events[i]
		}
	}
	if user == nil || user.Text != del.Prompt || !user.Secondary || !strings.HasSuffix(user.RecordID, "#0") {
		t.Fatalf("hub user row %+v", user)
	}
	if call == nil || call.Text != del.Command || call.ToolInput != `{"commands":["`+del.Command+`"]}` || result == nil || result.ToolUseID != call.ToolUseID || result.Text != "doubleagent-cline-deleted\n" {
		t.Fatalf("hub call %+v result %+v", call, result)
	}
	hc := hub.SkipCounts()
	if hc["subagent_call"] != 2 || hc["copy_in_run_completed"] == 0 {
		t.Fatalf("hub skips %v", hc)
	}
}

// hooks.jsonl: the subagent's audit lines in its own session (secondary
// copies of its call, result and reply), the reconciler's shutdowns as
// hook audit rows.
func TestReal3Hooks(t *testing.T) {
	sc := real3(t)
	s := real3Run(t, "cline/hooks", "hooks-log", real3Data+"/logs/hooks.jsonl")
	var audits []string
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "hook audit: session_shutdown") {
			audits = append(audits, e.SessionID)
			if !strings.Contains(e.Text, " reason=failed_external_process_exit pid=") || !strings.HasSuffix(e.Text, " source=stale_session_reconciler") {
				t.Errorf("shutdown row %q", e.Text)
			}
		}
	}
	sort.Strings(audits)
	want := []string{sc["basic"].SessionID, sc["killed"].SessionID}
	sort.Strings(want)
	if strings.Join(audits, ",") != strings.Join(want, ",") {
		t.Fatalf("shutdowns in %v, want %v", audits, want)
	}
	lead := sc["subagent"].SessionID
	var call *timeline.Event
	for i, e := range s.Events {
		if e.TurnType == timeline.ToolUse {
			call = &s.Events[i]
		}
	}
	if call == nil || !call.Secondary || call.ParentSessionID != lead || !strings.HasPrefix(call.SessionID, lead+"__agent_") || call.Text != "echo doubleagent-cline-subagent" {
		t.Fatalf("hook call %+v", call)
	}
}

// real3Altered copies a real SDK store (with its -wal) into a temp
// directory, runs stmts on the copy and parses it: the fixture's bytes are
// never touched.
func real3Altered(t *testing.T, id, orig string, stmts ...string) *parsertest.Sink {
	t.Helper()
	files := real3Files(t)
	dir := t.TempDir()
	local := filepath.Join(dir, path.Base(orig))
	for _, suf := range []string{"", "-wal"} {
		b, err := os.ReadFile(files[orig] + suf)
		if suf != "" && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(local+suf, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", local)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range append(stmts, "PRAGMA wal_checkpoint(TRUNCATE)") {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	f := parser.File{Path: orig, Agent: Agent, Target: "sdk-db", MTime: mtime}
	return parsertest.Run(t, byID(t, id), parsertest.Input(t, local, f, files))
}

// TestReal3StoresAltered: the one SQLite policy on copies of the real SDK
// stores. Each has one table: without it the store is "not a ...
// database"; with a required column renamed the problem names it and no
// row is made up. The unaltered copy gives every row the fixture gives.
func TestReal3StoresAltered(t *testing.T) {
	for _, c := range []struct {
		id, file, stmt, problem string
	}{
		{"cline/sessions-db", "sessions.db", "", ""},
		{"cline/sessions-db", "sessions.db", `DROP TABLE sessions`, "line 0: not a Cline SDK sessions database: none of the tables sessions"},
		{"cline/sessions-db", "sessions.db", `ALTER TABLE sessions RENAME COLUMN session_id TO sid`, "line 0: unknown schema: table sessions lacks column(s) session_id: not read; the other tables are read"},
		{"cline/hub-events", "hub-events-hub-production.db", "", ""},
		{"cline/hub-events", "hub-events-hub-production.db", `DROP TABLE hub_events`, "line 0: not a Cline hub events database: none of the tables hub_events"},
		{"cline/hub-events", "hub-events-hub-production.db", `ALTER TABLE hub_events RENAME COLUMN envelope_json TO env`, "line 0: unknown schema: table hub_events lacks column(s) envelope_json: not read; the other tables are read"},
		{"cline/session-search", "session-search.db", "", ""},
		{"cline/session-search", "session-search.db", `DROP TABLE session_search`, "line 0: not a Cline SDK session-search database: none of the tables session_search"},
	} {
		orig := real3Data + "/db/" + c.file
		var stmts []string
		if c.stmt != "" {
			stmts = append(stmts, c.stmt)
		}
		s := real3Altered(t, c.id, orig, stmts...)
		if c.stmt == "" {
			full := real3Run(t, c.id, "sdk-db", orig)
			if len(full.Events) == 0 || len(s.Events) != len(full.Events) || strings.Join(s.Problems, "|") != strings.Join(full.Problems, "|") {
				t.Errorf("%s copy: %d rows %q, fixture %d rows %q", c.file, len(s.Events), s.Problems, len(full.Events), full.Problems)
			}
			continue
		}
		if len(s.Events) != 0 || strings.Join(s.Problems, "|") != c.problem {
			t.Errorf("%s %s: %d rows, problems %q", c.file, c.stmt, len(s.Events), s.Problems)
		}
	}
}
