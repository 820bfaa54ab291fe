package qwen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// Issue 12 (forks are not doubled): a /branch fork copies the origin's
// records verbatim (same uuids, forkedFrom) under its own sessionId. With
// both files collected each copied record is written once, in the origin;
// the fork's session names the origin in forked_from and counts only the
// prompt typed in it.
func TestEngineBranchOnce(t *testing.T) {
	var files []bundletest.File
	for _, c := range []struct{ local, path string }{
		{"testdata/chats/origin.jsonl", chatsDir + "/s-origin.jsonl"},
		{"testdata/chats/branch.jsonl", chatsDir + "/s-fork.jsonl"},
	} {
		b, err := os.ReadFile(c.local)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, bundletest.File{Path: c.path, Agent: Agent, Target: "chats", User: "examiner", Data: b,
			MTime: time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC)})
	}
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, files))
	sum := o.Sum
	var got []string
	for _, r := range o.Rows {
		got = append(got, fmt.Sprintf("%s %s %s %s (%s)", r.SessionID, r.TurnType, r.Text, r.RecordID, filepath.Base(r.SourceFile)))
	}
	want := []string{
		"s-origin user write a parser o1 (s-origin.jsonl)",
		"s-origin system model: qwen3-coder-plus o2#model (s-origin.jsonl)",
		"s-origin assistant Here is one. o2 (s-origin.jsonl)",
		"s-fork system session source: standalone task-42 f1 (s-fork.jsonl)",
		"s-fork user now in Go f2 (s-fork.jsonl)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	var sessions []string
	for _, s := range o.Sessions {
		sessions = append(sessions, fmt.Sprintf("%s user_turns=%d forked_from=%s parent=%s relayed=%s", s.SessionID, s.UserTurns, s.ForkedFrom, s.ParentSessionID, s.Relayed))
	}
	if strings.Join(sessions, "\n") != "s-origin user_turns=1 forked_from= parent= relayed=\ns-fork user_turns=1 forked_from=s-origin parent=s-origin relayed=no" {
		t.Fatalf("sessions:\n%s", strings.Join(sessions, "\n"))
	}
	if sum.RepeatedByID != 3 || sum.DuplicateIDs != 0 || sum.Problems != 0 {
		t.Fatalf("repeated by id %d, duplicate ids %d, problems %d", sum.RepeatedByID, sum.DuplicateIDs, sum.Problems)
	}
}
