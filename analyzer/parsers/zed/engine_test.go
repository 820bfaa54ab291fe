package zed

import (
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestDuplicateLinkThroughTheEngine: links.seen drops nothing. A
// thread_archived_worktrees without its primary key holding one link
// twice gives the archived worktree's row twice under one record id (both
// link rows accounted as joined); the engine keeps one row, no problem.
func TestDuplicateLinkThroughTheEngine(t *testing.T) {
	db := parsertest.SQLiteAltered(t, "testdata/state_links.sql",
		`CREATE TABLE links AS SELECT * FROM thread_archived_worktrees`,
		`DROP TABLE thread_archived_worktrees`,
		`ALTER TABLE links RENAME TO thread_archived_worktrees`,
		`INSERT INTO thread_archived_worktrees VALUES (X'00112233445566778899aabbccddeeff', 7)`, "VACUUM")
	const rid = "archived-worktree:7#00112233445566778899aabbccddeeff"
	p := parsertest.Run(t, byID(t, "zed/db"), input(t, "db", db, ".local/share/zed/db/0-stable/db.sqlite"))
	n := 0
	for _, e := range p.Events {
		if e.RecordID == rid {
			n++
		}
	}
	if n != 2 || p.SkipCounts()["state_only:joined into its archived_git_worktrees row"] != 3 {
		t.Fatalf("parser: %d rows of %s, skips %v", n, rid, p.Skips)
	}
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: "/home/examiner/.local/share/zed/db/0-stable/db.sqlite", Target: "db", Kind: "sqlite", Data: data}}))
	n = 0
	for _, r := range o.Rows {
		if r.RecordID == rid {
			n++
		}
	}
	for _, pr := range o.Problems {
		if strings.Contains(pr.Message, rid) {
			t.Errorf("problem %s: %s", pr.Kind, pr.Message)
		}
	}
	if n != 1 {
		t.Fatalf("engine: %d rows of %s, want 1", n, rid)
	}
}
