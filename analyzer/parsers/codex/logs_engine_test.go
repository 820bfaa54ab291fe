package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestEngineFeedbackRequest (issue 25 item 2): the two log rows of one
// feedback/upload request reach the correlate stage as rows of the
// request's one record id and are merged there (the first kept, one
// repeat counted); the same request id logged by another process is
// another request, so both stay and nothing is a conflict. The row's text
// is made from the request id alone, so one identity cannot hold two
// contents here.
func TestEngineFeedbackRequest(t *testing.T) {
	for _, c := range []struct {
		alter    string
		want     []string
		repeated int
	}{
		{"", []string{"2026-05-28T20:26:50.000Z logs_2.sqlite:feedback/upload/pid:42:p1/Integer(12)"}, 1},
		{"UPDATE logs SET process_uuid = 'pid:43:p2' WHERE id = 6", []string{
			"2026-05-28T20:26:50.000Z logs_2.sqlite:feedback/upload/pid:42:p1/Integer(12)",
			"2026-05-28T20:26:51.000Z logs_2.sqlite:feedback/upload/pid:43:p2/Integer(12)"}, 0},
	} {
		db := parsertest.SQLite(t, "testdata/logs_2.sql")
		if c.alter != "" {
			db = parsertest.SQLiteAltered(t, "testdata/logs_2.sql", c.alter)
		}
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		o := runEngine(t, codex.Parsers(), []bundletest.File{{Path: "home/examiner/.codex/logs_2.sqlite", Target: "state-db", Kind: "sqlite", Data: data}})
		var got []string
		for _, r := range o.rows {
			if strings.HasPrefix(r.Text, "session synced: /feedback") {
				got = append(got, r.TimestampUTC+" "+r.RecordID)
			}
		}
		for _, p := range o.problems {
			if p.Kind == "duplicate_id" {
				t.Errorf("%q: problem %s", c.alter, p.Message)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") || o.sum.RepeatedByID != c.repeated {
			t.Errorf("%q: rows\n%s\nrepeated %d", c.alter, strings.Join(got, "\n"), o.sum.RepeatedByID)
		}
	}
}
