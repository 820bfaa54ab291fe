package cursor

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// carvedRun builds testdata/typical.sql's state.vscdb, runs the parser,
// runs qs on the store (secure_delete off, as Cursor's SQLite build
// leaves it) and runs the parser again.
func carvedRun(t *testing.T, pre []string, qs ...string) (live, after *parsertest.Sink) {
	t.Helper()
	path := parsertest.SQLite(t, "testdata/typical.sql")
	exec := func(qs []string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range append([]string{"PRAGMA secure_delete=off"}, qs...) {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(q, err)
			}
		}
		db.Close()
	}
	exec(pre)
	in := func() *parser.Input {
		return parsertest.Input(t, path, parser.File{Path: dbPath, Rel: ".config/Cursor/User/globalStorage/state.vscdb", Agent: Agent, Target: "state-db", MTime: fileMTime}, nil)
	}
	live = parsertest.Run(t, byID(t, "cursor/state-db"), in())
	exec(qs)
	return live, parsertest.Run(t, byID(t, "cursor/state-db"), in())
}

// otherConv is a second conversation's record, written before the
// delete as any store with more than one conversation has: the deleted
// records' page keeps a live cell, so SQLite leaves their cells as
// freeblocks (a page left empty is reset whole, and the 2-column
// cursorDiskKV records whose first bytes a freeblock header overwrote
// cannot be told from text in its unallocated space).
const otherConv = `INSERT INTO cursorDiskKV VALUES ('composerData:ffffffff-0000-4000-8000-000000000003', '{"composerId":"ffffffff-0000-4000-8000-000000000003","name":"Other","createdAt":1784800000000,"fullConversationHeadersOnly":[]}')`

func convRows(s *parsertest.Sink, sid string) (got, marks []string) {
	for _, e := range s.Events {
		if e.SessionID != sid {
			continue
		}
		if strings.HasSuffix(e.RecordID, "#recovered") {
			marks = append(marks, e.Recovered+"|"+e.Text)
			continue
		}
		got = append(got, strings.Join([]string{e.TimeString(), string(e.TurnType), e.RecordID, e.ToolName, e.Model, e.Text}, "|"))
		marks = append(marks, e.Recovered+"|"+e.Provenance)
	}
	return got, marks
}

// TestCarvedDeletedConversation: a conversation deleted from
// cursorDiskKV as Cursor deletes one (its composerData and bubbleId keys)
// comes back from state.vscdb's freed space with the rows it gave live,
// each marked recovered with where it was found; the session reads
// recovered yes.
func TestCarvedDeletedConversation(t *testing.T) {
	live, s := carvedRun(t, []string{otherConv}, "DELETE FROM cursorDiskKV WHERE key LIKE 'bubbleId:"+liveID+":%'", "DELETE FROM cursorDiskKV WHERE key = 'composerData:"+liveID+"'")
	want, _ := convRows(live, liveID)
	got, marks := convRows(s, liveID)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 8 {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantMarks := []string{
		"yes|recovered record: composerData:aaaaaaaa-0000-4000-8000-000000000001 (freeblock on page 4 at offset 3596)",
		"yes|freeblock on page 4 at offset 3596",
		"yes|recovered record: bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b1 (freeblock on page 4 at offset 3210)",
		"yes|freeblock on page 4 at offset 3210",
		"yes|freeblock on page 4 at offset 3210",
		"yes|recovered record: bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b2 (freeblock on page 4 at offset 2995)",
		"yes|freeblock on page 4 at offset 2995",
		"yes|recovered record: bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b3 (freeblock on page 4 at offset 2431)",
		"yes|freeblock on page 4 at offset 2431",
		"yes|freeblock on page 4 at offset 2431",
		"yes|freeblock on page 4 at offset 2431",
		"yes|recovered record: bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b4 (freeblock on page 4 at offset 2230)",
		"yes|freeblock on page 4 at offset 2230",
	}
	if strings.Join(marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("marks:\n%s", strings.Join(marks, "\n"))
	}
	var states []string
	for _, st := range s.States {
		if st.Key.SessionID == liveID && st.Recovered != "" {
			states = append(states, st.Recovered)
		}
	}
	for _, e := range s.Events {
		if e.SessionID != liveID && (e.Recovered != "" || e.Provenance != "") {
			t.Errorf("a row of another session marked: %+v", e)
		}
	}
	if strings.Join(states, ",") != "partial,partial,partial,partial,yes" || len(s.Problems) != 0 || len(s.Skips) != 1 || s.Skips[0].Reason != "state_only" {
		t.Errorf("states %v problems %v skips %v", states, s.Problems, s.Skips)
	}
}

// TestCarvedDeletedBubble: one bubble deleted from a live conversation
// comes back in place, marked recovered; the session reads partial.
func TestCarvedDeletedBubble(t *testing.T) {
	live, s := carvedRun(t, nil, "DELETE FROM cursorDiskKV WHERE key = 'bubbleId:"+liveID+":b3'")
	want, _ := convRows(live, liveID)
	got, marks := convRows(s, liveID)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 8 {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantMarks := []string{
		"|",
		"|",
		"|",
		"|",
		"yes|recovered record: bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b3 (freeblock on page 4 at offset 2431)",
		"yes|freeblock on page 4 at offset 2431",
		"yes|freeblock on page 4 at offset 2431",
		"yes|freeblock on page 4 at offset 2431",
		"|",
	}
	if strings.Join(marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("marks:\n%s", strings.Join(marks, "\n"))
	}
	var states []string
	for _, st := range s.States {
		if st.Key.SessionID == liveID && st.Recovered != "" {
			states = append(states, st.Recovered)
		}
	}
	for _, e := range s.Events {
		if e.SessionID != liveID && (e.Recovered != "" || e.Provenance != "") {
			t.Errorf("a row of another session marked: %+v", e)
		}
	}
	if strings.Join(states, ",") != "partial" || len(s.Problems) != 0 || len(s.Skips) != 1 || s.Skips[0].Reason != "state_only" {
		t.Errorf("states %v problems %v skips %v", states, s.Problems, s.Skips)
	}
}
