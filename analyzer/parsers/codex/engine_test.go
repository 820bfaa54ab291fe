package codex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// These run the codex-cli parsers through the engine, so the identity
// merge of a fork's replayed prefix and the session states are checked on
// the timeline an examiner reads.

const (
	forkParent = "019df3b7-c400-7000-8000-000000000001"
	forkChild  = "019df3d3-3b40-7000-8000-000000000002"
	sessDir    = "/home/examiner/.codex/sessions/2026/05/04/"
)

type engineOut struct {
	sum      *analyze.Summary
	rows     []timeline.Row
	sessions []timeline.Session
	problems []analyze.Problem
}

func runEngine(t *testing.T, ps []parser.Parser, files []bundletest.File) engineOut {
	t.Helper()
	for i := range files {
		if files[i].Target == "" {
			files[i].Target = "sessions"
		}
	}
	o := analyzetest.Run(t, ps, analyzetest.Bundle(t, "codex-cli", files))
	return engineOut{sum: o.Sum, rows: o.Rows, sessions: o.Sessions, problems: o.Problems}
}

func short(s string) string {
	if len(s) == 36 {
		return s[len(s)-4:]
	}
	return s
}

// render gives each row as "<time> <session> <turn type> <text> (<file
// base>:<line>) <record id> parent=<parent>".
func render(o engineOut) []string {
	var out []string
	for _, r := range o.rows {
		file := filepath.Base(r.SourceFile)
		if len(file) > 12 {
			file = file[len(file)-10:]
		}
		out = append(out, fmt.Sprintf("%s %s %s %s (%s:%d) %s parent=%s", r.TimestampUTC, short(r.SessionID), r.TurnType, r.Text, file, r.SourceLine, r.RecordID, short(r.ParentSessID)))
	}
	return out
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fork", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s row %d:\n got: %s\nwant: %s", what, i, g, w)
		}
	}
}

func session(o engineOut, id string) timeline.Session {
	for _, s := range o.sessions {
		if s.SessionID == id {
			return s
		}
	}
	return timeline.Session{}
}

// A fork rollout (session_meta.forked_from_id, openai/codex #21025)
// replays its parent's lines re-stamped to the fork time. The parent's
// prompt, call and result are written once, in the parent; the fork
// counts only the prompt typed in it and names its parent.
func TestForkReplayWrittenOnceInParent(t *testing.T) {
	parentName := "rollout-2026-05-04T18-00-00-" + forkParent + ".jsonl"
	childName := "rollout-2026-05-04T18-30-00-" + forkChild + ".jsonl"
	parentFile := bundletest.File{Path: sessDir + parentName, Data: fixture(t, parentName)}
	childFile := bundletest.File{Path: sessDir + childName, Data: fixture(t, childName)}

	const (
		P = forkParent
		S = forkChild
	)
	childOwn := []string{
		"2026-05-04T16:30:00.000Z 0002 system session origin: local (originator=codex_cli_rs cli_version=0.171.0 source=cli) (0002.jsonl:1) " + S + "/session_meta#origin parent=0001",
		"2026-05-04T16:30:00.000Z 0002 system session forked from: " + P + " (0002.jsonl:1) " + S + "/session_meta#forked parent=0001",
		"2026-05-04T16:31:00.001Z 0002 system turn trigger: composer (0002.jsonl:11) " + S + "/019df3d4-25a0-7aaa-8000-000000000022#trigger parent=0001",
		"2026-05-04T16:31:00.201Z 0002 system model: gpt-5.5 (0002.jsonl:12) " + S + "/turn_context:0#model parent=0001",
		"2026-05-04T16:31:00.201Z 0002 system permission mode: approval=on-request sandbox=workspace-write (0002.jsonl:12) " + S + "/turn_context:0#permission parent=0001",
		"2026-05-04T16:31:00.601Z 0002 user now count them (0002.jsonl:14) " + S + "/019df3d4-2794-7bbb-8000-000000000022 parent=0001",
		"2026-05-04T16:31:01.001Z 0002 tool_use ls | wc -l (0002.jsonl:15) " + S + "/call_fork_2 parent=0001",
		"2026-05-04T16:31:01.201Z 0002 tool_result Process exited with code 0\nOutput:\n2\n (0002.jsonl:16) " + S + "/call_fork_2#output parent=0001",
		"2026-05-04T16:31:01.401Z 0002 assistant Two. (0002.jsonl:17) " + S + "/msg_reply_2 parent=0001",
	}

	t.Run("with the parent's file", func(t *testing.T) {
		o := runEngine(t, codex.Parsers(), []bundletest.File{parentFile, childFile})
		want := []string{
			"2026-05-04T16:00:00.000Z 0001 system session origin: local (originator=codex_cli_rs cli_version=0.171.0 source=cli) (0001.jsonl:1) " + P + "/session_meta#origin parent=",
			"2026-05-04T16:00:01.000Z 0001 system turn trigger: composer (0001.jsonl:2) " + P + "/019df3b7-c7e8-7aaa-8000-000000000011#trigger parent=",
			"2026-05-04T16:00:01.200Z 0001 system model: gpt-5.5 (0001.jsonl:3) " + P + "/turn_context:0#model parent=",
			"2026-05-04T16:00:01.200Z 0001 system permission mode: approval=on-request sandbox=workspace-write (0001.jsonl:3) " + P + "/turn_context:0#permission parent=",
			"2026-05-04T16:00:01.600Z 0001 user list the files (0001.jsonl:5) " + P + "/019df3b7-c9dc-7bbb-8000-000000000011 parent=",
			"2026-05-04T16:00:02.000Z 0001 tool_use ls (0001.jsonl:6) " + P + "/call_fork_1 parent=",
			"2026-05-04T16:00:02.200Z 0001 tool_result Process exited with code 0\nOutput:\na.txt\nb.txt\n (0001.jsonl:7) " + P + "/call_fork_1#output parent=",
			"2026-05-04T16:00:02.400Z 0001 assistant There are two files. (0001.jsonl:8) " + P + "/msg_reply_1 parent=",
		}
		sameLines(t, "timeline", render(o), append(want, childOwn...))
		if o.sum.RepeatedByID != 8 {
			t.Errorf("repeated by id %d, want the 8 replayed rows", o.sum.RepeatedByID)
		}
		p, s := session(o, P), session(o, S)
		if p.UserTurns != 1 || s.UserTurns != 1 || s.ForkedFrom != P || s.ParentSessionID != P || p.ForkedFrom != "" {
			t.Errorf("sessions: parent %+v\nfork %+v", p, s)
		}
		if len(o.problems) != 0 {
			t.Errorf("problems: %+v", o.problems)
		}
	})

	t.Run("without the parent's file", func(t *testing.T) {
		// The replayed copies stand for the parent's records, in the
		// parent's session, at the replayed turn's time (its turn id's
		// UUIDv7 time), not the fork's copy time.
		o := runEngine(t, codex.Parsers(), []bundletest.File{childFile})
		want := []string{
			"2026-05-04T16:00:00.000Z 0001 system session origin: local (originator=codex_cli_rs cli_version=0.171.0 source=cli) (0002.jsonl:2) " + P + "/session_meta#origin parent=",
			"2026-05-04T16:00:01.000Z 0001 system turn trigger: composer (0002.jsonl:3) " + P + "/019df3b7-c7e8-7aaa-8000-000000000011#trigger parent=",
			"2026-05-04T16:00:01.000Z 0001 system model: gpt-5.5 (0002.jsonl:4) " + P + "/turn_context:0#model parent=",
			"2026-05-04T16:00:01.000Z 0001 system permission mode: approval=on-request sandbox=workspace-write (0002.jsonl:4) " + P + "/turn_context:0#permission parent=",
			"2026-05-04T16:00:01.000Z 0001 user list the files (0002.jsonl:6) " + P + "/019df3b7-c9dc-7bbb-8000-000000000011 parent=",
			"2026-05-04T16:00:01.000Z 0001 tool_use ls (0002.jsonl:7) " + P + "/call_fork_1 parent=",
			"2026-05-04T16:00:01.000Z 0001 tool_result Process exited with code 0\nOutput:\na.txt\nb.txt\n (0002.jsonl:8) " + P + "/call_fork_1#output parent=",
			"2026-05-04T16:00:01.000Z 0001 assistant There are two files. (0002.jsonl:9) " + P + "/msg_reply_1 parent=",
		}
		sameLines(t, "timeline", render(o), append(want, childOwn...))
		for _, r := range o.rows[:len(want)] {
			if r.TimeBasis != "inherited" {
				t.Errorf("replayed row without the inherited basis: %+v", r)
			}
		}
		p, s := session(o, P), session(o, S)
		if p.UserTurns != 1 || s.UserTurns != 1 || s.ForkedFrom != P {
			t.Errorf("sessions: parent %+v\nfork %+v", p, s)
		}
	})
}

// db-backups/*/state_5.sqlite (issue 16) is read as a secondary source
// like the live database: a backup that repeats it adds no row, whether
// the row carries a record id (merged by identity) or not (merged by full
// value), and a thread known only from the databases (its rollout gone)
// reads recovered trace: the state DB names threads, it is not their store.
func TestStateDBBackupAddsNothing(t *testing.T) {
	db, err := os.ReadFile(parsertest.SQLite(t, "testdata/state_5.sql"))
	if err != nil {
		t.Fatal(err)
	}
	live := bundletest.File{Path: "/home/examiner/.codex/state_5.sqlite", Target: "state-db", Kind: "sqlite", Data: db}
	backup := bundletest.File{Path: "/home/examiner/.codex/db-backups/2026-03-09T00-00-00/state_5.sqlite", Target: "state-db", Kind: "sqlite", Data: db}
	one := runEngine(t, codex.Parsers(), []bundletest.File{live})
	both := runEngine(t, codex.Parsers(), []bundletest.File{live, backup})
	a, b := render(one), render(both)
	if len(a) == 0 {
		t.Fatal("no rows from state_5.sqlite")
	}
	sameLines(t, "live and backup", b, a)
	for _, r := range both.rows {
		if r.Secondary != "true" || filepath.Base(r.SourceFile) != "state_5.sqlite" {
			t.Errorf("row: %+v", r)
		}
	}
	if s := session(both, "0199bbbb-0000-7000-8000-000000000002"); s.Recovered != "trace" || s.UserTurns != 1 {
		t.Errorf("session known only from the databases: %+v", s)
	}
}

// TestHistoryTraceOfGoneRollout: a history.jsonl line names a session
// whose rollout is gone: sessions.jsonl lists it as recovered trace, with
// the prompt's time, one user turn and the history file.
func TestHistoryTraceOfGoneRollout(t *testing.T) {
	const sid = "0199cccc-0000-7000-8000-000000000009"
	hist := bundletest.File{Path: "/home/examiner/.codex/history.jsonl", Target: "history",
		Data: []byte(`{"session_id":"` + sid + `","ts":1772442000,"text":"delete the audit log"}` + "\n")}
	o := runEngine(t, codex.Parsers(), []bundletest.File{hist})
	s := session(o, sid)
	if s.Recovered != "trace" || s.UserTurns != 1 || s.Events != 1 || s.FirstUTC != "2026-03-02T09:00:00.000Z" ||
		len(s.SourceFiles) != 1 || s.SourceFiles[0] != hist.Path {
		t.Errorf("session named only by history.jsonl: %+v", s)
	}
}

// TestSessionIndexTraceOfGoneRollout: session_index.jsonl names two
// threads. The one whose rollout is gone (and that history.jsonl names
// too) is a sessions.jsonl entry with recovered trace, its span from the
// prompt to the rename, the prompt, and both files; the one whose rollout
// survives reads no, its index line paired with the rollout's
// thread_name_updated event (one row, the rollout's).
func TestSessionIndexTraceOfGoneRollout(t *testing.T) {
	const gone, live = "0199dddd-0000-7000-8000-000000000001", "019c8a70-0000-7000-8000-000000000004"
	idx := bundletest.File{Path: "/home/examiner/.codex/session_index.jsonl", Target: "session-index",
		Data: []byte(`{"id":"` + gone + `","thread_name":"wipe the audit trail","updated_at":"2026-03-02T09:00:05Z"}` + "\n" +
			`{"id":"` + live + `","thread_name":"what time","updated_at":"2026-02-23T12:19:50Z"}` + "\n")}
	hist := bundletest.File{Path: "/home/examiner/.codex/history.jsonl", Target: "history",
		Data: []byte(`{"session_id":"` + gone + `","ts":1772442000,"text":"delete the audit log"}` + "\n")}
	roll := bundletest.File{Path: sessDir + "rollout-2026-02-23T13-19-38-" + live + ".jsonl",
		Data: []byte(`{"timestamp":"2026-02-23T12:19:42.561Z","type":"session_meta","payload":{"id":"` + live + `","timestamp":"2026-02-23T12:19:38.535Z","cwd":"/home/examiner/demo","originator":"codex_cli_rs","cli_version":"0.171.0","source":"cli"}}` + "\n" +
			`{"timestamp":"2026-02-23T12:19:42.563Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"what time is it?"}]}}` + "\n" +
			`{"timestamp":"2026-02-23T12:19:50.100Z","type":"event_msg","payload":{"type":"thread_name_updated","thread_id":"` + live + `","thread_name":"what time"}}` + "\n")}
	o := runEngine(t, codex.Parsers(), []bundletest.File{idx, hist, roll})
	s := session(o, gone)
	if s.Recovered != "trace" || s.UserTurns != 1 || s.Events != 2 || s.FirstUTC != "2026-03-02T09:00:00.000Z" ||
		s.LastUTC != "2026-03-02T09:00:05.000Z" || strings.Join(s.SourceFiles, " ") != hist.Path+" "+idx.Path {
		t.Errorf("session named only by session_index.jsonl and history.jsonl: %+v", s)
	}
	l := session(o, live)
	if l.Recovered != "no" || strings.Join(l.SourceFiles, " ") != roll.Path {
		t.Errorf("session with its rollout: %+v", l)
	}
	var names []string
	for _, r := range o.rows {
		if strings.HasPrefix(r.Text, "thread name: ") {
			names = append(names, short(r.SessionID)+" "+r.TimestampUTC+" "+r.Text+" "+filepath.Base(r.SourceFile))
		}
	}
	if want := "0004 2026-02-23T12:19:50.100Z thread name: what time rollout-2026-02-23T13-19-38-" + live + ".jsonl|" +
		"0001 2026-03-02T09:00:05.000Z thread name: wipe the audit trail session_index.jsonl"; strings.Join(names, "|") != want {
		t.Errorf("thread name rows:\n%s\nwant\n%s", strings.Join(names, "|"), want)
	}
}
