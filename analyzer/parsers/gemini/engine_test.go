package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// These run the gemini-cli parsers through the engine, so routing by
// catalog target, the identity merge and session states are checked on
// the output an examiner reads.

type engineOut struct {
	sum      *analyze.Summary
	rows     []timeline.Row
	sessions []timeline.Session
	problems []analyze.Problem
}

func runEngine(t *testing.T, files []bundletest.File) engineOut {
	t.Helper()
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, files))
	return engineOut{sum: o.Sum, rows: o.Rows, sessions: o.Sessions, problems: o.Problems}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 16 (gemini-cli): a project's .gemini/settings.json and
// .gemini/policies/*.toml reach the analyzer with target "project"
// (collected as project artifacts); the settings parser reads them, with
// that project as project_path. A command's TOML in the same .gemini/
// tree is not a policy.
func TestEngineProjectSettings(t *testing.T) {
	mt := time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)
	o := runEngine(t, []bundletest.File{
		{Path: "/srv/app/.gemini/settings.json", Target: "project", Kind: "settings", Data: readFile(t, "testdata/settings/project-settings.json"), MTime: mt},
		{Path: "/srv/app/.gemini/policies/team.toml", Target: "project", Kind: "settings", Data: readFile(t, "testdata/settings/project-policy.toml"), MTime: mt},
		{Path: "/srv/app/.gemini/commands/deploy.toml", Target: "project", Kind: "settings", Data: readFile(t, "testdata/settings/auto-saved.toml"), MTime: mt},
	})
	var got []string
	for _, r := range o.rows {
		if r.ProjectPath != "/srv/app" || r.TimestampUTC != "2026-10-11T09:00:00.000Z" || r.TimeBasis != "file-mtime" || r.Parser != "gemini-cli/settings" {
			t.Fatalf("row %+v", r)
		}
		got = append(got, r.Text)
	}
	want := []string{
		`permission setting: policy rule[0]=toolName=run_shell_command commandPrefix=git push decision=deny priority=500 denyMessage=no pushes from the agent (from /srv/app/.gemini/policies/team.toml, file mtime)`,
		`permission setting: policy rule[1]=toolName=["web_fetch","google_web_search"] decision=ask_user priority=100 modes=["default","autoEdit"] (from /srv/app/.gemini/policies/team.toml, file mtime)`,
		`permission setting: policy safety_checker[0]=toolName=write_file priority=10 checker={"name":"allowed-path","type":"in-process"} (from /srv/app/.gemini/policies/team.toml, file mtime)`,
		"permission setting: general.defaultApprovalMode=yolo (from /srv/app/.gemini/settings.json, file mtime)",
		"permission setting: tools.allowed=run_shell_command(npm test) (from /srv/app/.gemini/settings.json, file mtime)",
		"permission setting: tools.sandbox=false (from /srv/app/.gemini/settings.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(o.problems) != 0 {
		t.Fatalf("problems %+v", o.problems)
	}
}

// Issue 12, gemini-cli PR 15720: through the engine, the rewound prompt
// and the "rm -rf build/" call and result stay in the timeline with the
// rewind row after them, and both typed prompts count as user turns.
func TestEngineRewind(t *testing.T) {
	o := runEngine(t, []bundletest.File{{Path: slugDir + "/chats/session-2026-05-01T10-00-s-rewind.jsonl", Target: "chats",
		Data: readFile(t, "testdata/rewind.jsonl")}})
	var got []string
	for _, r := range o.rows {
		got = append(got, fmt.Sprintf("%s %s %s", r.TurnType, r.Text, r.RecordID))
	}
	want := []string{
		"user clean the build s-rewind:u1",
		"system model: gemini-2.5-pro s-rewind:g1#model",
		"tool_use rm -rf build/ s-rewind:run_shell_command-1777629602000-ab12",
		"tool_result Command: rm -rf build/\nExit Code: 0 s-rewind:run_shell_command-1777629602000-ab12#result",
		"assistant The build directory is gone. s-rewind:g2",
		"system rewound by /rewind at 2026-05-01T10:00:04.000Z: 4 record(s) s-rewind:u1#rewound",
		"user list the files instead s-rewind:u3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(o.sessions) != 1 || o.sessions[0].UserTurns != 2 || o.sessions[0].ToolCalls != 1 || len(o.problems) != 0 {
		t.Fatalf("sessions %+v problems %+v", o.sessions, o.problems)
	}
}

// Issue 12: the real Gemini CLI 0.61.0 subagent run through the engine:
// the subagent's session names its parent, the parent model's prompt to
// it is no user turn, and the parent's typed prompt is its only one.
func TestEngineRealSubagent(t *testing.T) {
	dir := realHome(t)
	_, scenarios := realScenarios(t, dir)
	var parent string
	for _, sc := range scenarios {
		if sc.Scenario == "subagent" {
			parent = sc.SessionID
		}
	}
	if parent == "" {
		t.Fatal("no subagent scenario")
	}
	main := sessionFile(t, dir, parent)
	subs, _ := filepath.Glob(filepath.Join(dir, ".gemini", "tmp", "*", "chats", parent, "*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("subagent files %v", subs)
	}
	var files []bundletest.File
	for _, p := range []string{main, subs[0], filepath.Join(dir, ".gemini", "tmp", "demo", ".project_root")} {
		rel, _ := filepath.Rel(dir, p)
		target := "chats"
		if strings.HasSuffix(p, ".project_root") {
			target = "project-root"
		}
		files = append(files, bundletest.File{Path: "/home/examiner/" + filepath.ToSlash(rel), Target: target, Data: readFile(t, p)})
	}
	o := runEngine(t, files)
	sub := strings.TrimSuffix(filepath.Base(subs[0]), ".jsonl")
	var got []string
	for _, s := range o.sessions {
		got = append(got, fmt.Sprintf("%s parent=%s user_turns=%d tool_calls=%d", s.SessionID, s.ParentSessionID, s.UserTurns, s.ToolCalls))
	}
	want := []string{
		parent + " parent= user_turns=1 tool_calls=1",
		sub + " parent=" + parent + " user_turns=0 tool_calls=2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sessions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if o.sum.DuplicateIDs != 0 || len(o.problems) != 0 {
		t.Fatalf("duplicate ids %d problems %+v", o.sum.DuplicateIDs, o.problems)
	}
}

// Issue 12 (one event once): resuming a legacy .json session migrates it
// to a .jsonl copy (ChatRecordingService.initialize appends the metadata
// and every message, then the new turns); with both files collected each
// record is written once, by its session-scoped record id, and the new
// prompt once.
func TestEngineLegacyMigrationOnce(t *testing.T) {
	o := runEngine(t, []bundletest.File{
		{Path: slugDir + "/chats/session-2026-07-01T08-00-s-migrat.json", Target: "chats", Data: readFile(t, "testdata/migrate_legacy.json")},
		{Path: slugDir + "/chats/session-2026-07-01T08-00-s-migrat.jsonl", Target: "chats", Data: readFile(t, "testdata/migrate_legacy.jsonl")},
	})
	var got []string
	for _, r := range o.rows {
		got = append(got, fmt.Sprintf("%s %s %s (%s:%d)", r.TurnType, r.Text, r.RecordID, filepath.Ext(r.SourceFile), r.SourceLine))
	}
	want := []string{
		"user delete the cache s-migrate:m1 (.json:1)",
		"system model: gemini-2.5-pro s-migrate:m2#model (.json:2)",
		"assistant Done. s-migrate:m2 (.json:2)",
		"tool_use rm -rf .cache s-migrate:run_shell_command-1 (.json:2)",
		"tool_result ok s-migrate:run_shell_command-1#result (.json:2)",
		"system info: Request cancelled. s-migrate:m3 (.json:3)",
		"user and the logs s-migrate:m4 (.jsonl:6)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if o.sum.RepeatedByID != 6 || o.sum.DuplicateIDs != 0 || len(o.problems) != 0 {
		t.Fatalf("repeated by id %d, duplicate ids %d, problems %+v", o.sum.RepeatedByID, o.sum.DuplicateIDs, o.problems)
	}
	if len(o.sessions) != 1 || o.sessions[0].UserTurns != 2 || o.sessions[0].ToolCalls != 1 {
		t.Fatalf("sessions %+v", o.sessions)
	}
}

// Issue 25 (copies are the correlate stage's): the $set batch of
// oplog_replay.jsonl (line 5) re-dates m1 and repeats m2's last copy,
// and reuses m2's id for a user message. Through the engine the copies
// that say the same are written once, as the first-hand rows with their
// own times and lines, and counted as repeated by id; the reused id is a
// row and one duplicate_id problem naming every place of m2.
func TestEngineHistorySyncCopies(t *testing.T) {
	p := slugDir + "/chats/session-2026-02-01T00-00-s-replay.jsonl"
	o := runEngine(t, []bundletest.File{
		{Path: p, Target: "chats", Data: readFile(t, "testdata/oplog_replay.jsonl")},
		{Path: slugDir + "/.project_root", Target: "chats", Data: readFile(t, "testdata/project_root")},
	})
	var got []string
	for _, r := range o.rows {
		if r.RecordID == "s-replay:m1" || r.RecordID == "s-replay:m2" {
			got = append(got, fmt.Sprintf("%d %s %s %s", r.SourceLine, r.TimestampUTC, r.TurnType, r.Text))
		}
	}
	want := []string{
		"3 2026-02-01T00:00:02.000Z user first prompt",
		"3 2026-02-01T00:00:03.000Z assistant draft answer",
		"4 2026-02-01T00:00:03.000Z assistant final answer",
		"5 2026-02-01T00:00:09.000Z user same id reused in a batch",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	var dup []string
	for _, pr := range o.problems {
		if strings.Contains(pr.Message, `"s-replay:m2"`) {
			dup = append(dup, pr.Kind+": "+pr.Message)
		}
	}
	if w := `duplicate_id: record id "s-replay:m2" has 3 different contents: assistant "draft answer" (at ` + p + `:3), assistant "final answer" (at ` + p + `:4) and user "same id reused in a batch" (at ` + p + `:5): all kept`; strings.Join(dup, "\n") != w {
		t.Fatalf("problems:\n%s", strings.Join(dup, "\n"))
	}
	if o.sum.RepeatedByID != 2 {
		t.Fatalf("repeated by id %d, want 2 (m1 and m2's final answer from the batch)", o.sum.RepeatedByID)
	}
}
