package goose_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/goose"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// These run the goose parsers through the engine, so the secondary
// sources' pairing (the legacy JSONL beside sessions.db, the llm_request
// logs within 600 s) is checked on the timeline an examiner reads.

const (
	home    = "/home/examiner"
	sessDir = home + "/.local/share/goose/sessions/"
	logDir  = home + "/.local/state/goose/logs/"
)

type engineOut struct {
	sum      *analyze.Summary
	rows     []timeline.Row
	sessions []timeline.Session
}

func runEngine(t *testing.T, files []bundletest.File) engineOut {
	t.Helper()
	for i := range files {
		if files[i].MTime.IsZero() {
			files[i].MTime = time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)
		}
	}
	o := analyzetest.Run(t, goose.Parsers(), analyzetest.Bundle(t, goose.Agent, files))
	return engineOut{sum: o.Sum, rows: o.Rows, sessions: o.Sessions}
}

func rows(o engineOut) []string {
	var out []string
	for _, r := range o.rows {
		out = append(out, fmt.Sprintf("%s %s %s (%s secondary=%s)", r.TurnType, r.Text, filepath.Base(r.SourceFile), r.TimeBasis, r.Secondary))
	}
	return out
}

func dbFile(t *testing.T, sql string) []byte {
	t.Helper()
	b, err := os.ReadFile(parsertest.SQLite(t, sql))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s:\n%q\nwant\n%q", what, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s %d: %q\nwant %q", what, i, got[i], want[i])
		}
	}
}

// TestEngineLegacyExtraTurn (issue 12): a goose sessions JSONL holding a
// turn that sessions.db lacks. The timeline writes each turn once (the
// database's), keeps the extra turn from the file (secondary, the file as
// its source), and the session reads recovered "partial".
func TestEngineLegacyExtraTurn(t *testing.T) {
	o := runEngine(t, []bundletest.File{
		{Path: sessDir + "sessions.db", Target: "sessions-db", Kind: "sqlite", Data: dbFile(t, "testdata/legacy_extra.sql")},
		{Path: sessDir + "20260401_090000.jsonl", Target: "sessions", Data: read(t, "testdata/20260401_090000.jsonl")},
	})
	equal(t, "rows", rows(o), []string{
		"system session name: cleanup sessions.db ( secondary=)",
		"system permission mode: auto sessions.db ( secondary=)",
		"user tidy the repo sessions.db ( secondary=)",
		"assistant Done. sessions.db ( secondary=)",
		"tool_use git clean -fdx 20260401_090000.jsonl ( secondary=true)",
		"tool_result Removing build/ 20260401_090000.jsonl ( secondary=true)",
	})
	if o.sum.SecondaryPaired != 3 {
		t.Errorf("secondary rows paired: %d, want 3 (the name, the prompt and the reply)", o.sum.SecondaryPaired)
	}
	if len(o.sessions) != 1 || o.sessions[0].SessionID != "20260401_090000" || o.sessions[0].Recovered != "partial" || o.sessions[0].UserTurns != 1 {
		t.Fatalf("sessions: %+v", o.sessions)
	}
}

// TestEngineLLMRequestWindow: an llm_request log's prompt pairs with the
// transcript's prompt of the same session when the file was written within
// 600 s of it (the seed's window), and stays as a secondary row otherwise.
func TestEngineLLMRequestWindow(t *testing.T) {
	prompt := time.Unix(1775034000, 0).UTC() // the database's "tidy the repo"
	req := func(session string) []byte {
		return []byte(`{"model_config":{"model_name":"gpt-4o"},"session_id":"` + session + `","input":{"messages":[{"role":"user","content":"tidy the repo"}]}}` + "\n" +
			`{"data":{"choices":[]},"usage":null}` + "\n")
	}
	o := runEngine(t, []bundletest.File{
		{Path: sessDir + "sessions.db", Target: "sessions-db", Kind: "sqlite", Data: dbFile(t, "testdata/legacy_extra.sql")},
		{Path: logDir + "llm_request.0.jsonl", Target: "llm-requests", Kind: "log", Data: req("20260401_090000"), MTime: prompt.Add(599 * time.Second)},
		{Path: logDir + "llm_request.1.jsonl", Target: "llm-requests", Kind: "log", Data: req("20260401_090000"), MTime: prompt.Add(601 * time.Second)},
	})
	var users []string
	for _, r := range o.rows {
		if r.TurnType == "user" {
			users = append(users, fmt.Sprintf("%s %s (%s secondary=%s)", r.TimestampUTC, filepath.Base(r.SourceFile), r.TimeBasis, r.Secondary))
		}
	}
	equal(t, "user rows", users, []string{
		"2026-04-01T09:00:00.000Z sessions.db ( secondary=)",
		"2026-04-01T09:10:01.000Z llm_request.1.jsonl (file-mtime secondary=true)",
	})
	if o.sum.SecondaryPaired != 1 {
		t.Errorf("secondary rows paired: %d, want 1", o.sum.SecondaryPaired)
	}
}
