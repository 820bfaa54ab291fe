package goose

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestCarvedDeletedSession: a session removed as goose removes one (its
// messages, then its sessions row, by id; SQLite's default secure_delete
// off) gives back, from sessions.db's freed space, the rows it gave while
// live: the same record ids, turns, texts, tools and times, each marked
// recovered with where its record was found, after a row naming the
// record; the session reads recovered yes, the other sessions are as
// they were.
func TestCarvedDeletedSession(t *testing.T) {
	const sid = "20260302_1"
	path := parsertest.SQLite(t, "testdata/sessions.sql")
	in := func() *parser.Input {
		return parsertest.Input(t, path, parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"}, nil)
	}
	rows := func(s *parsertest.Sink, of func(string) bool) (got, marks []string) {
		for _, e := range s.Events {
			if !of(e.SessionID) {
				continue
			}
			if strings.HasPrefix(e.Text, "recovered record: ") || strings.HasPrefix(e.Text, "partially recovered record: ") {
				marks = append(marks, e.Recovered+"|"+e.RecordID+"|"+e.Text)
				continue
			}
			got = append(got, strings.Join([]string{e.TimeString(), string(e.TurnType), e.RecordID, e.ToolName, e.ToolUseID, e.Model, e.ProjectPath, e.Text}, "|"))
			marks = append(marks, e.Recovered+"|"+e.Provenance)
		}
		return got, marks
	}
	deleted := func(id string) bool { return id == sid }
	kept := func(id string) bool { return id != sid }
	live := parsertest.Run(t, byID(t, "goose/sessions-db"), in())
	want, _ := rows(live, deleted)
	wantKept, _ := rows(live, kept)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA secure_delete=off", "DELETE FROM messages WHERE session_id = '" + sid + "'", "DELETE FROM sessions WHERE id = '" + sid + "'"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := parsertest.Run(t, byID(t, "goose/sessions-db"), in())
	got, marks := rows(s, deleted)
	gotKept, keptMarks := rows(s, kept)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 17 {
		t.Errorf("recovered rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the session record survived whole; each message lost its rowid
	// (messages.id) to the freeblock header: partial, its message_id kept
	wantMarks := []string{
		"yes|20260302_1#recovered|recovered record: session 20260302_1 (freeblock on page 3 at offset 3914)",
		"yes|freeblock on page 3 at offset 3914",
		"yes|freeblock on page 3 at offset 3914",
		"partial|msg_1#recovered|partially recovered record: message msg_1 (freeblock on page 5 at offset 3955, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 3955, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_2#recovered|partially recovered record: message msg_2 (freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 3467, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_3#recovered|partially recovered record: message msg_3 (freeblock on page 5 at offset 3199, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 3199, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_4#recovered|partially recovered record: message msg_4 (freeblock on page 5 at offset 2651, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 2651, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 2651, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 2651, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_5#recovered|partially recovered record: message msg_5 (freeblock on page 5 at offset 2489, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 2489, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_6#recovered|partially recovered record: message msg_6 (freeblock on page 5 at offset 2329, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 2329, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_7#recovered|partially recovered record: message msg_7 (freeblock on page 5 at offset 2147, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 2147, partial: rowid (id) overwritten by the freeblock header",
		"partial|msg_8#recovered|partially recovered record: message msg_8 (freeblock on page 5 at offset 1943, partial: rowid (id) overwritten by the freeblock header)",
		"partial|freeblock on page 5 at offset 1943, partial: rowid (id) overwritten by the freeblock header",
		"partial|freeblock on page 5 at offset 1943, partial: rowid (id) overwritten by the freeblock header",
	}
	if strings.Join(marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("marks:\n%s", strings.Join(marks, "\n"))
	}
	if strings.Join(gotKept, "\n") != strings.Join(wantKept, "\n") || len(wantKept) == 0 || strings.Trim(strings.Join(keptMarks, ""), "|") != "" {
		t.Errorf("kept sessions' rows:\n%s\nwant:\n%s\nmarks %v", strings.Join(gotKept, "\n"), strings.Join(wantKept, "\n"), keptMarks)
	}
	var states []string
	for _, st := range s.States {
		if st.Key.SessionID == sid && st.Recovered != "" {
			states = append(states, st.Recovered)
		}
	}
	// the live store's one bad message (line 11, another session) is the
	// only problem; the AUTOINCREMENT counter's old record a skip
	if strings.Join(states, ",") != "yes,yes,yes,yes,yes,yes,yes,yes,yes" || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 11: content_json is not a JSON array") ||
		len(s.Skips) != 1 || s.Skips[0].Reason != "no_evidence:recovered sqlite_sequence record" {
		t.Errorf("states %v problems %v skips %v", states, s.Problems, s.Skips)
	}
}
