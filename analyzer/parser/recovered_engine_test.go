package parser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// recRow is one row a test file states (recovered rows through
// parser.RecoveredSink's fields, as a carving parser gives them).
type recRow struct {
	ID, Type, Text, Recovered, Provenance string
}

func recParser() parser.Parser {
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	return parser.New(parser.Spec{ID: "claude-code/test-carved", Agent: "claude-code", Version: 1, Targets: []string{"projects"}},
		func(ctx context.Context, in *parser.Input, out parser.Sink) error {
			rc, err := in.Open()
			if err != nil {
				return err
			}
			defer rc.Close()
			return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
				var r recRow
				if err := json.Unmarshal(line, &r); err != nil {
					return err
				}
				out.Event(timeline.Event{Time: at, SessionID: "S", TurnType: timeline.TurnType(r.Type), Text: r.Text, RecordID: r.ID, SourceLine: n,
					Recovered: r.Recovered, Provenance: r.Provenance})
				return nil
			})
		})
}

func recFile(path string, rows ...recRow) bundletest.File {
	var b strings.Builder
	for _, r := range rows {
		j, _ := json.Marshal(r)
		b.Write(j)
		b.WriteByte('\n')
	}
	return bundletest.File{Path: path, Target: "projects", Data: []byte(b.String())}
}

// TestRecoveredRowsNeverMergeIntoLiveByValue: a recovered row merges
// into a live row only when their record ids match with the same content,
// and then the live row is the one kept although the recovered row's file
// sorts first; the same text under another id, a row without an id equal
// to a live one in every value, and another content under a live id are
// each their own row (the last with a duplicate_id problem). The session
// reads partial, with its count of recovered rows.
func TestRecoveredRowsNeverMergeIntoLiveByValue(t *testing.T) {
	const fb = "freeblock on page 2 at offset 100"
	carved := recFile("/home/examiner/.claude/projects/p/a-carved.jsonl",
		recRow{ID: "r1", Type: "user", Text: "deploy", Recovered: "yes", Provenance: fb},
		recRow{ID: "r9", Type: "user", Text: "deploy", Recovered: "yes", Provenance: fb},
		recRow{Type: "system", Text: "model: m", Recovered: "yes", Provenance: fb},
		recRow{ID: "r2", Type: "user", Text: "rm -rf /srv", Recovered: "partial", Provenance: "freelist page 9 at offset 812"})
	live := recFile("/home/examiner/.claude/projects/p/b-live.jsonl",
		recRow{ID: "r1", Type: "user", Text: "deploy"},
		recRow{Type: "system", Text: "model: m"},
		recRow{ID: "r2", Type: "user", Text: "ls"})
	o := analyzetest.Run(t, []parser.Parser{recParser()}, analyzetest.Bundle(t, "claude-code", []bundletest.File{carved, live}))
	var got []string
	for _, r := range o.Rows {
		got = append(got, strings.Join([]string{r.RecordID, r.Text, r.SourceFile[strings.LastIndexByte(r.SourceFile, '/')+1:], r.Recovered, r.Provenance}, "|"))
	}
	want := []string{
		"r9|deploy|a-carved.jsonl|yes|" + fb,
		"|model: m|a-carved.jsonl|yes|" + fb,
		"r2|rm -rf /srv|a-carved.jsonl|partial|freelist page 9 at offset 812",
		"r1|deploy|b-live.jsonl||",
		"|model: m|b-live.jsonl||",
		"r2|ls|b-live.jsonl||",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(o.Problems) != 1 || o.Problems[0].Kind != parser.KindDuplicateID || !strings.Contains(o.Problems[0].Message, `record id "r2" has 2 different contents`) {
		t.Errorf("problems %+v", o.Problems)
	}
	if len(o.Sessions) != 1 || o.Sessions[0].Recovered != "partial" || o.Sessions[0].RecoveredRows != 3 {
		t.Errorf("sessions %+v", o.Sessions)
	}
}
