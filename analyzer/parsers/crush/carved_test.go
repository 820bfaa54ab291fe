package crush

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestCarvedDeletedSession: a session deleted as Crush deletes one
// (internal/db/sql: DeleteSessionMessages, then DeleteSession; SQLite's
// default secure_delete off) gives back, from the store's freed space,
// the rows it gave while live: the same record ids, turns, texts, tools
// and times, each record after a row naming where it was found, and the
// session reads recovered yes.
func TestCarvedDeletedSession(t *testing.T) {
	const sid = "5c1e0f5e-0000-4000-8000-000000000001"
	path := parsertest.SQLite(t, "testdata/typical.sql")
	rows := func(s *parsertest.Sink) (got []string, prov []string) {
		for _, e := range s.Events {
			if e.SessionID != sid {
				continue
			}
			if strings.HasSuffix(e.RecordID, "#recovered") {
				prov = append(prov, e.RecordID+"|"+e.Text)
				continue
			}
			got = append(got, strings.Join([]string{e.TimeString(), string(e.TurnType), e.RecordID, e.ToolName, e.ToolUseID, e.Model, e.Text}, "|"))
		}
		return got, prov
	}
	in := func() *parser.Input {
		return parsertest.Input(t, path, parser.File{Path: "/home/examiner/proj/.crush/crush.db", Agent: Agent, Target: "project"}, nil)
	}
	live := parsertest.Run(t, byID(t, "crush/db"), in())
	want, _ := rows(live)
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
	s := parsertest.Run(t, byID(t, "crush/db"), in())
	got, prov := rows(s)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) < 10 {
		t.Errorf("recovered rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProv := []string{
		sid + "#recovered|partially recovered record: " + sid + " (freeblock on page 2 at offset 4010, partial: record header length and the first column's type overwritten by the freeblock header; its size taken from the freeblock's)",
		"m-user-1#recovered|recovered record: m-user-1 (freeblock on page 7 at offset 3816)",
		"m-asst-1#recovered|recovered record: m-asst-1 (freeblock on page 7 at offset 3046)",
		"m-tool-1#recovered|recovered record: m-tool-1 (freeblock on page 7 at offset 2600)",
		"m-tool-2#recovered|recovered record: m-tool-2 (unallocated space of page 7 at offset 2015)",
		"m-asst-2#recovered|recovered record: m-asst-2 (unallocated space of page 7 at offset 1800)",
		"m-user-2#recovered|recovered record: m-user-2 (unallocated space of page 7 at offset 1623)",
		"m-sum-1#recovered|recovered record: m-sum-1 (unallocated space of page 7 at offset 1403)",
	}
	if strings.Join(prov, "\n") != strings.Join(wantProv, "\n") {
		t.Errorf("provenance rows:\n%s", strings.Join(prov, "\n"))
	}
	// each row of a recovered record carries recovered and provenance
	// itself, the words of its record's "recovered record" row; no live
	// row does
	type mark struct{ recovered, provenance string }
	byRecord := map[string]mark{}
	for _, e := range s.Events {
		if base, ok := strings.CutSuffix(e.RecordID, "#recovered"); ok {
			m := mark{"yes", e.Text[strings.Index(e.Text, "(")+1 : len(e.Text)-1]}
			if strings.HasPrefix(e.Text, "partially") {
				m.recovered = "partial"
			}
			byRecord[base] = m
		}
	}
	n, noID := 0, []string{}
	for _, e := range s.Events {
		base, _, _ := strings.Cut(e.RecordID, "#")
		if e.SessionID != sid {
			if e.Recovered != "" || e.Provenance != "" {
				t.Errorf("live row marked recovered: %+v", e)
			}
			continue
		}
		m, ok := byRecord[base]
		if !ok && e.Recovered != "" && e.Provenance != "" {
			// a row whose text depends on the rows before it, with no
			// record id (a model change)
			noID = append(noID, e.Recovered+"|"+e.Provenance+"|"+e.Text)
			continue
		}
		if (mark{e.Recovered, e.Provenance}) != m {
			t.Errorf("row %s: recovered %q provenance %q, want %+v", e.RecordID, e.Recovered, e.Provenance, m)
		}
		n++
	}
	if n+len(noID) != len(got)+len(prov) || strings.Join(noID, "\n") != "yes|freeblock on page 7 at offset 3046|model: anthropic/claude-sonnet-4-5\nyes|unallocated space of page 7 at offset 1800|model: anthropic/claude-sonnet-4-5 -> openai/gpt-5" {
		t.Errorf("%d rows checked, %d rows; without a record id:\n%s", n, len(got)+len(prov), strings.Join(noID, "\n"))
	}
	if m := byRecord[sid]; m.recovered != "partial" || byRecord["m-tool-2"].provenance != "unallocated space of page 7 at offset 2015" {
		t.Errorf("marks %+v", byRecord)
	}
	var states []string
	for _, st := range s.States {
		if st.Recovered != "" {
			states = append(states, st.Key.SessionID+"="+st.Recovered)
		}
	}
	if len(states) != 8 || strings.Count(strings.Join(states, " "), sid+"=yes") != 8 {
		t.Errorf("states %v", states)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems %v", s.Problems)
	}
}
