package timeline

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// A session whose rows name no model has "models": [] in sessions.jsonl
// (every field present, as output.md promises), never null.
func TestSessionWithoutModelHasEmptyModels(t *testing.T) {
	a := NewAggregator()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Add(&Event{Host: "h", User: "u", Agent: "codex-cli", SessionID: "s1", TurnType: User, Text: "hi", Time: at, SourceFile: "/f"})
	a.Add(&Event{Host: "h", User: "u", Agent: "codex-cli", SessionID: "s2", TurnType: Assistant, Model: "m1", Text: "yo", Time: at, SourceFile: "/g"})
	ss := a.Sessions()
	if len(ss) != 2 {
		t.Fatalf("%d sessions", len(ss))
	}
	var b bytes.Buffer
	for _, s := range ss {
		if err := AppendJSON(&b, s); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if !strings.Contains(lines[0], `"session_id":"s1"`) || !strings.Contains(lines[0], `"models":[]`) || !strings.Contains(lines[0], `"source_files":["/f"]`) {
		t.Errorf("session without a model: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"models":["m1"]`) {
		t.Errorf("session with a model: %s", lines[1])
	}
	if strings.Contains(b.String(), "null") {
		t.Errorf("null in sessions: %s", b.String())
	}
}

// A row whose time is implausible (year 0, 9999) does not set the
// session's first or last time; the session's events still count it.
func TestSessionSpanSkipsImplausibleTimes(t *testing.T) {
	a := NewAggregator()
	add := func(ts time.Time, basis TimeBasis) {
		a.Add(&Event{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: User, Text: "x", Time: ts, TimeBasis: basis})
	}
	add(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), TimeImplausible)
	add(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), TimeRecorded)
	add(time.Date(2026, 11, 29, 10, 5, 0, 0, time.UTC), TimeRecorded)
	add(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), TimeImplausible)
	ss := a.Sessions()
	if len(ss) != 1 || ss[0].FirstUTC != "2026-11-29T10:00:00.000Z" || ss[0].LastUTC != "2026-11-29T10:05:00.000Z" || ss[0].Events != 4 {
		t.Fatalf("sessions %+v", ss)
	}
}

// A row dated by its file's mtime (a settings file read the day after)
// does not stretch a session its own rows date; a session dated by
// nothing else spans its mtime rows.
func TestSessionSpanLeavesMTimeRows(t *testing.T) {
	a := NewAggregator()
	add := func(sid string, ts time.Time, basis TimeBasis) {
		a.Add(&Event{Host: "h", User: "u", Agent: "claude-code", SessionID: sid, TurnType: System, Text: "x", Time: ts, TimeBasis: basis})
	}
	add("s", time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), TimeFileMTime)
	add("s", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), TimeRecorded)
	add("s", time.Date(2026, 11, 29, 10, 5, 0, 0, time.UTC), TimeInherited)
	add("s", time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), TimeFileMTime)
	add("m", time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), TimeFileMTime)
	add("m", time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC), TimeFileMTime)
	var got []string
	for _, s := range a.Sessions() {
		got = append(got, s.SessionID+" "+s.FirstUTC+" "+s.LastUTC)
	}
	if want := "s 2026-11-29T10:00:00.000Z 2026-11-29T10:05:00.000Z|m 2026-11-30T07:00:00.000Z 2026-11-30T08:00:00.000Z"; strings.Join(got, "|") != want {
		t.Fatalf("sessions %q, want %q", got, want)
	}
}

// A session a parser says existed but is gone (recovered trace) reads
// trace even where its one row is primary and the agent keeps secondary
// sources (which alone would read no); yes and partial outrank it.
func TestRecoveredTrace(t *testing.T) {
	a := NewAggregator()
	a.Recoverable = func(string) bool { return true }
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, id := range []string{"gone", "live", "both"} {
		a.Add(&Event{Host: "h", User: "u", Agent: "opencode", SessionID: id, TurnType: System, Text: "x", Time: at, SourceFile: "/f"})
	}
	a.SetState(SessionState{Key: SessionKey{Host: "h", User: "u", Agent: "opencode", SessionID: "gone"}, Recovered: "trace"})
	a.SetState(SessionState{Key: SessionKey{Host: "h", User: "u", Agent: "opencode", SessionID: "both"}, Recovered: "yes"})
	got := map[string]string{}
	for _, s := range a.Sessions() {
		got[s.SessionID] = s.Recovered
	}
	if got["gone"] != "trace" || got["live"] != "no" || got["both"] != "yes" {
		t.Fatalf("recovered %v", got)
	}
	if !(RecoveredRank("yes") > RecoveredRank("partial") && RecoveredRank("partial") > RecoveredRank("trace") && RecoveredRank("trace") > RecoveredRank("no") && RecoveredRank("no") > RecoveredRank("")) {
		t.Fatal("rank order")
	}
}

// TestTraceSessions: a session whose every row comes from a parser that
// only names sessions reads trace; one transcript row makes it no (the
// agent keeps secondary sources); a carved state (yes) outranks trace.
func TestTraceSessions(t *testing.T) {
	a := NewAggregator()
	a.Recoverable = func(string) bool { return true }
	a.Trace = func(p string) bool { return p == "x/history" || p == "x/registry" }
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	a.Add(&Event{Agent: "x", SessionID: "gone", Parser: "x/history", TurnType: User, Text: "p", Secondary: true, Time: t0, SourceFile: "h"})
	a.Add(&Event{Agent: "x", SessionID: "gone", Parser: "x/registry", TurnType: System, Time: t0.Add(time.Second), SourceFile: "r"})
	a.Add(&Event{Agent: "x", SessionID: "live", Parser: "x/history", TurnType: User, Text: "p", Secondary: true, Time: t0, SourceFile: "h"})
	a.Add(&Event{Agent: "x", SessionID: "live", Parser: "x/transcript", TurnType: User, Text: "p", Time: t0, SourceFile: "t"})
	a.Add(&Event{Agent: "x", SessionID: "carved", Parser: "x/history", TurnType: User, Text: "q", Secondary: true, Time: t0, SourceFile: "h"})
	a.SetState(SessionState{Key: SessionKey{Agent: "x", SessionID: "carved"}, Recovered: "yes"})
	got := map[string]string{}
	for _, s := range a.Sessions() {
		got[s.SessionID] = s.Recovered
	}
	if got["gone"] != "trace" || got["live"] != "partial" || got["carved"] != "yes" || len(got) != 3 {
		t.Errorf("recovered: %v", got)
	}
}

// TestTraceStateGivesWayToTurns: a parser's trace state (its store kept
// only a trace: a log line, a header) holds while the session's other rows
// are system rows or rows of parsers that only name sessions; a turn of
// another parser (a transcript, a legacy store) makes it yes, the session
// recovered from that file.
func TestTraceStateGivesWayToTurns(t *testing.T) {
	a := NewAggregator()
	a.Recoverable = func(string) bool { return true }
	a.Trace = func(p string) bool { return p == "x/history" }
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, id := range []string{"header", "prompted", "transcript"} {
		a.Add(&Event{Agent: "x", SessionID: id, Parser: "x/db", TurnType: System, Text: "session existed", Time: t0, SourceFile: "db"})
		a.SetState(SessionState{Key: SessionKey{Agent: "x", SessionID: id}, Recovered: "trace"})
	}
	a.Add(&Event{Agent: "x", SessionID: "header", Parser: "x/db", TurnType: System, Text: "conversation deleted", Time: t0, SourceFile: "db"})
	a.Add(&Event{Agent: "x", SessionID: "prompted", Parser: "x/history", TurnType: User, Text: "p", Secondary: true, Time: t0, SourceFile: "h"})
	a.Add(&Event{Agent: "x", SessionID: "transcript", Parser: "x/transcript", TurnType: Assistant, Text: "a", Time: t0, SourceFile: "t"})
	got := map[string]string{}
	for _, s := range a.Sessions() {
		got[s.SessionID] = s.Recovered
	}
	if got["header"] != "trace" || got["prompted"] != "trace" || got["transcript"] != "yes" || len(got) != 3 {
		t.Errorf("recovered: %v", got)
	}
}

// TestUnrecordedSecondaryTurn (issue 30): a prompt-history row that the
// agent never writes to its transcript (a typed "/exit") stays a row but is
// no turn the transcript lost: a live session with it and its transcript
// reads no, and user_turns still counts it. A typed prompt the transcript
// lacks still makes it partial; a session only the history names, with
// its "/exit", is still a trace; another parser's "/exit" (not declared
// unrecorded) still counts.
func TestUnrecordedSecondaryTurn(t *testing.T) {
	a := NewAggregator()
	a.Recoverable = func(string) bool { return true }
	a.Trace = func(p string) bool { return p == "x/history" }
	a.Unrecorded = func(p, text string) bool { return p == "x/history" && strings.TrimSpace(text) == "/exit" }
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, id := range []string{"kept", "lost", "gone"} {
		a.Add(&Event{Agent: "x", SessionID: id, Parser: "x/history", TurnType: User, Text: " /exit\n", Secondary: true, Time: t0.Add(time.Minute), SourceFile: "h"})
	}
	for _, id := range []string{"kept", "lost", "other"} {
		a.Add(&Event{Agent: "x", SessionID: id, Parser: "x/transcript", TurnType: User, Text: "p", Time: t0, SourceFile: "t"})
	}
	a.Add(&Event{Agent: "x", SessionID: "lost", Parser: "x/history", TurnType: User, Text: "q", Secondary: true, Time: t0.Add(time.Second), SourceFile: "h"})
	a.Add(&Event{Agent: "x", SessionID: "gone", Parser: "x/history", TurnType: User, Text: "p", Secondary: true, Time: t0, SourceFile: "h"})
	a.Add(&Event{Agent: "x", SessionID: "other", Parser: "x/prompts", TurnType: User, Text: "/exit", Secondary: true, Time: t0.Add(time.Minute), SourceFile: "o"})
	var got []string
	for _, s := range a.Sessions() {
		got = append(got, fmt.Sprintf("%s=%s/%d", s.SessionID, s.Recovered, s.UserTurns))
	}
	if want := "gone=trace/2 kept=no/2 lost=partial/3 other=partial/2"; strings.Join(got, " ") != want {
		t.Errorf("sessions %q, want %q", strings.Join(got, " "), want)
	}
}

// TestAggregatorKeepsCopies: what a session keeps of its rows (its names,
// project path, bundle id, models, source files, parents) are strings of
// its own, so a row decoded from a run (its short strings in one
// allocation) is not kept reachable by its session; source files past
// smallSet are still listed once each, sorted, and models in order of
// first use.
func TestAggregatorKeepsCopies(t *testing.T) {
	a := NewAggregator()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var evs []Event
	for i := 0; i < 3*smallSet; i++ {
		evs = append(evs, Event{Host: "h", User: "u", Agent: "a", SessionID: "s", ProjectPath: "/p", BundleID: "b", TurnType: Assistant,
			Model: fmt.Sprint("m", 2-i%3), SourceFile: fmt.Sprintf("/f%02d", (i*7)%(2*smallSet)), ParentSessionID: "parent", Time: t0.Add(time.Duration(i) * time.Second)})
	}
	for i := range evs {
		a.Add(&evs[i])
	}
	ss := a.Sessions()
	if len(ss) != 1 {
		t.Fatalf("%d sessions", len(ss))
	}
	s := ss[0]
	same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
	e := &evs[0]
	if same(s.Host, e.Host) || same(s.SessionID, e.SessionID) || same(s.ProjectPath, e.ProjectPath) || same(s.BundleID, e.BundleID) || same(s.Models[0], evs[0].Model) {
		t.Errorf("the session shares its strings with its first row")
	}
	for k := range a.m {
		if same(k.SessionID, e.SessionID) {
			t.Errorf("the aggregator's key shares the row's session id")
		}
	}
	var want []string
	for i := 0; i < 2*smallSet; i++ {
		want = append(want, fmt.Sprintf("/f%02d", i))
	}
	if fmt.Sprint(s.SourceFiles) != fmt.Sprint(want) || fmt.Sprint(s.Models) != "[m2 m1 m0]" || s.Events != 3*smallSet {
		t.Errorf("source files %q, models %q, events %d", s.SourceFiles, s.Models, s.Events)
	}
	a.RowParents(func(k SessionKey, seen []ParentSeen, more int) {
		if len(seen) != 1 || seen[0].Value != "parent" || same(seen[0].Value, e.ParentSessionID) || seen[0].SourceFile != "/f00" || more != 0 {
			t.Errorf("parents %+v (%d more)", seen, more)
		}
	})
}
