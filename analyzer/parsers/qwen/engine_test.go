package qwen

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

func readJSONL(t *testing.T, p string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			fn(sc.Bytes())
		}
	}
}

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
	dir := t.TempDir()
	bpath := filepath.Join(dir, "b.tar.zst")
	if err := os.WriteFile(bpath, bundletest.Build(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sum, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{bpath}, OutDir: out, Parsers: Parsers(), Jobs: 1, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	readJSONL(t, filepath.Join(out, analyze.TimelineJSONL), func(b []byte) {
		var r timeline.Row
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s (%s)", r.SessionID, r.TurnType, r.Text, r.RecordID, filepath.Base(r.SourceFile)))
	})
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
	readJSONL(t, filepath.Join(out, analyze.SessionsJSONL), func(b []byte) {
		var s timeline.Session
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, fmt.Sprintf("%s user_turns=%d forked_from=%s parent=%s relayed=%s", s.SessionID, s.UserTurns, s.ForkedFrom, s.ParentSessionID, s.Relayed))
	})
	if strings.Join(sessions, "\n") != "s-origin user_turns=1 forked_from= parent= relayed=\ns-fork user_turns=1 forked_from=s-origin parent=s-origin relayed=no" {
		t.Fatalf("sessions:\n%s", strings.Join(sessions, "\n"))
	}
	if sum.RepeatedByID != 3 || sum.DuplicateIDs != 0 || sum.Problems != 0 {
		t.Fatalf("repeated by id %d, duplicate ids %d, problems %d", sum.RepeatedByID, sum.DuplicateIDs, sum.Problems)
	}
}
