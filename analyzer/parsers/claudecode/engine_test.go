package claudecode_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// These run the claude-code parsers through the engine, so the identity
// merge, the duplicate_id report and session states are checked on the
// timeline an examiner reads.

const (
	proj    = "/home/examiner/.claude/projects/-home-examiner-demo/"
	sessS   = "11111111-aaaa-4bbb-8ccc-000000000001"
	agentID = "a1b2c3d4e5f60718"
)

type engineOut struct {
	sum      *analyze.Summary
	rows     []timeline.Row
	sessions []timeline.Session
	problems []analyze.Problem
}

// runEngine collects files into a bundle and analyzes it with the
// claude-code parsers.
func runEngine(t *testing.T, files []bundletest.File) engineOut {
	t.Helper()
	for i := range files {
		if files[i].Target == "" {
			files[i].Target = "projects"
		}
	}
	o := analyzetest.Run(t, claudecode.Parsers(), analyzetest.Bundle(t, claudecode.Agent, files))
	return engineOut{sum: o.Sum, rows: o.Rows, sessions: o.Sessions, problems: o.Problems}
}

// conv renders the non-system rows as "<session> <turn type> <text>
// (<file base>:<line>)", the conversation an examiner reads.
func conv(o engineOut) []string {
	var out []string
	for _, r := range o.rows {
		if r.TurnType == "system" {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %s (%s:%d)", shortID(r.SessionID), r.TurnType, r.Text, filepath.Base(r.SourceFile), r.SourceLine))
	}
	return out
}

func shortID(s string) string {
	if len(s) == 36 {
		return s[:8]
	}
	return s
}

func line(sid string, m map[string]any) string {
	base := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/examiner/demo",
		"sessionId": sid, "version": "2.1.310", "gitBranch": "main"}
	for k, v := range m {
		base[k] = v
	}
	if sid == "" {
		delete(base, "sessionId")
	}
	b, _ := json.Marshal(base)
	return string(b)
}

func userRec(sid, uuid, ts, text string) map[string]any {
	return map[string]any{"type": "user", "uuid": uuid, "timestamp": ts, "message": map[string]any{"role": "user", "content": text}}
}

func callRec(uuid, ts, id, cmd string) map[string]any {
	return map[string]any{"type": "assistant", "uuid": uuid, "timestamp": ts, "message": map[string]any{"id": "msg_" + uuid, "model": "claude-opus-4-6", "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}}}}}
}

func resultRec(uuid, ts, id, out string) map[string]any {
	return map[string]any{"type": "user", "uuid": uuid, "timestamp": ts, "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": false}}}}
}

func file(name string, lines ...string) bundletest.File {
	return bundletest.File{Path: proj + name, Data: []byte(strings.Join(lines, "\n") + "\n")}
}

// Issue 12: within one file, a second record reusing a uuid with other
// content (a planted earlier record hiding a later real one) is two rows
// and a duplicate_id problem.
func TestEngineReusedUUID(t *testing.T) {
	o := runEngine(t, []bundletest.File{file(sessS+".jsonl",
		line(sessS, userRec(sessS, "u1", "2026-10-11T10:00:00.000Z", "list the files")),
		line(sessS, userRec(sessS, "u1", "2026-10-11T10:05:00.000Z", "delete the logs")),
	)})
	want := []string{
		"11111111 user list the files (" + sessS + ".jsonl:1)",
		"11111111 user delete the logs (" + sessS + ".jsonl:2)",
	}
	if got := conv(o); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if o.sum.DuplicateIDs != 1 || len(o.problems) != 1 || o.problems[0].Kind != "duplicate_id" ||
		!strings.Contains(o.problems[0].Message, `record id "u1" has 2 different contents`) {
		t.Fatalf("duplicate ids %d, problems %+v", o.sum.DuplicateIDs, o.problems)
	}
}

// Issue 12, "a Claude Code file that copies records with their uuid and
// timestamp under a new sessionId": three copies of one session S, each
// record of S is written once.
//
//   - B, a /branch fork: its copies carry forkedFrom {S, uuid}; they are
//     replayed in S, B reads forked_from S.
//   - R, a 1.0.x resume: the copies keep S's sessionId; R's own records
//     follow, R reads forked_from S.
//   - F, a --fork-session copy: the copies are re-stamped with F and
//     nothing in the file marks them (mainframe research, Claude Code
//     2.1.219); the identity merge still writes each record once.
func TestEngineForkCopiesWrittenOnce(t *testing.T) {
	const b, r, f = "bbbbbbbb-aaaa-4bbb-8ccc-00000000000b", "cccccccc-aaaa-4bbb-8ccc-00000000000c", "dddddddd-aaaa-4bbb-8ccc-00000000000d"
	orig := []map[string]any{
		userRec(sessS, "u1", "2026-10-11T10:00:00.000Z", "list the files"),
		callRec("a1", "2026-10-11T10:00:01.000Z", "toolu_ls", "ls"),
		resultRec("u2", "2026-10-11T10:00:02.000Z", "toolu_ls", "a.txt"),
	}
	var sLines, bLines, rLines, fLines []string
	for _, m := range orig {
		sLines = append(sLines, line(sessS, m))
		bm := map[string]any{"forkedFrom": map[string]any{"sessionId": sessS, "messageUuid": m["uuid"]}}
		for k, v := range m {
			bm[k] = v
		}
		bLines = append(bLines, line(b, bm))
		rLines = append(rLines, line(sessS, m))
		fLines = append(fLines, line(f, m))
	}
	bLines = append(bLines, line(b, userRec(b, "ub", "2026-10-11T11:00:00.000Z", "count the lines")))
	rLines = append(rLines, line(r, userRec(r, "ur", "2026-10-11T12:00:00.000Z", "now delete a.txt")))
	fLines = append([]string{`{"type":"mode","mode":"normal","sessionId":"` + f + `"}`}, fLines...)
	fLines = append(fLines, line(f, userRec(f, "uf", "2026-10-11T13:00:00.000Z", "rename a.txt")))
	o := runEngine(t, []bundletest.File{file(sessS+".jsonl", sLines...), file(b+".jsonl", bLines...),
		file(r+".jsonl", rLines...), file(f+".jsonl", fLines...)})
	want := []string{
		"11111111 user list the files (" + sessS + ".jsonl:1)",
		"11111111 tool_use ls (" + sessS + ".jsonl:2)",
		"11111111 tool_result a.txt (" + sessS + ".jsonl:3)",
		"bbbbbbbb user count the lines (" + b + ".jsonl:4)",
		"cccccccc user now delete a.txt (" + r + ".jsonl:4)",
		"dddddddd user rename a.txt (" + f + ".jsonl:5)",
	}
	if got := conv(o); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	forked := map[string]string{}
	for _, s := range o.sessions {
		forked[shortID(s.SessionID)] = shortID(s.ForkedFrom) + "/" + shortID(s.ParentSessionID)
	}
	if forked["bbbbbbbb"] != "11111111/11111111" || forked["cccccccc"] != "11111111/11111111" || forked["dddddddd"] != "/" || forked["11111111"] != "/" {
		t.Fatalf("forked_from/parent %v", forked)
	}
	// 3 copies of each of S's three records, and of its model and surface
	// rows: the copies under F's own id (re-stamped, unmarked) lose to S
	// by file order, the replayed ones by rank.
	if o.sum.DuplicateIDs != 0 || len(o.problems) != 0 {
		t.Fatalf("duplicate ids %d problems %+v", o.sum.DuplicateIDs, o.problems)
	}
}

// claude-code #43764, with and without the subagent's file: the
// agent_progress copies give the subagent's rows when its file is gone;
// when the file is there its rows are written and the copies are not.
func TestEngineProgressCopiesAndSubagentFile(t *testing.T) {
	parent, err := os.ReadFile("testdata/progress_subagent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := os.ReadFile("testdata/progress_subagent_file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	pf := bundletest.File{Path: proj + sessS + ".jsonl", Data: parent}
	sf := bundletest.File{Path: proj + sessS + "/subagents/agent-" + agentID + ".jsonl", Data: sub}
	alone := runEngine(t, []bundletest.File{pf})
	both := runEngine(t, []bundletest.File{pf, sf})
	wantSub := func(o engineOut, srcLines []string) {
		t.Helper()
		var got []string
		for _, r := range o.rows {
			if r.SessionID == agentID {
				if r.ParentSessID != sessS {
					t.Fatalf("subagent row without its parent %+v", r)
				}
				got = append(got, fmt.Sprintf("%s %s (%s:%d)", r.TurnType, r.Text, filepath.Base(r.SourceFile), r.SourceLine))
			}
		}
		if strings.Join(got, "\n") != strings.Join(srcLines, "\n") {
			t.Fatalf("subagent rows:\n%s", strings.Join(got, "\n"))
		}
	}
	p := sessS + ".jsonl"
	wantSub(alone, []string{
		"system subagent " + agentID + " of " + sessS + " (" + p + ":3)",
		"system subagent task: Search the repo for TODO (" + p + ":3)",
		"system model: claude-haiku-4-5 (" + p + ":4)",
		"tool_use TODO (" + p + ":4)",
		"tool_result a.go:3: // TODO fix (" + p + ":5)",
	})
	a := "agent-" + agentID + ".jsonl"
	wantSub(both, []string{
		"system subagent " + agentID + " of " + sessS + " (" + a + ":1)",
		"system subagent task: Search the repo for TODO (" + a + ":1)",
		"system model: claude-haiku-4-5 (" + a + ":2)",
		"tool_use TODO (" + a + ":2)",
		"tool_result a.go:3: // TODO fix (" + a + ":3)",
	})
	if both.sum.RepeatedByID != 5 || len(both.rows) != len(alone.rows) || both.sum.DuplicateIDs != 0 {
		t.Fatalf("repeated %d, rows %d vs %d, duplicate ids %d", both.sum.RepeatedByID, len(both.rows), len(alone.rows), both.sum.DuplicateIDs)
	}
	var parents []string
	for _, s := range both.sessions {
		parents = append(parents, s.SessionID+"<"+s.ParentSessionID)
	}
	sort.Strings(parents)
	if strings.Join(parents, " ") != sessS+"< "+agentID+"<"+sessS {
		t.Fatalf("sessions %v", parents)
	}
}

// Issue 16: a project's .claude/settings.json and settings.local.json
// reach the analyzer with target "project" (collected as project
// artifacts); the settings parser reads them, with that project as
// project_path. A settings.json deeper in .claude/ is not one.
func TestEngineProjectSettings(t *testing.T) {
	settings, err := os.ReadFile("testdata/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	local, err := os.ReadFile("testdata/settings.local.json")
	if err != nil {
		t.Fatal(err)
	}
	mt := time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)
	o := runEngine(t, []bundletest.File{
		{Path: "/srv/app/.claude/settings.json", Target: "project", Kind: "settings", Data: settings, MTime: mt},
		{Path: "/srv/app/.claude/settings.local.json", Target: "project", Kind: "settings", Data: local, MTime: mt},
		{Path: "/srv/app/.claude/skills/x/settings.json", Target: "project", Kind: "settings", Data: settings, MTime: mt},
	})
	var got []string
	for _, r := range o.rows {
		if r.ProjectPath != "/srv/app" || r.TimestampUTC != "2026-10-11T09:00:00.000Z" || r.TimeBasis != "file-mtime" || r.Parser != "claude-code/settings" {
			t.Fatalf("row %+v", r)
		}
		got = append(got, r.Text)
	}
	want := []string{
		"permission setting: allow=Bash(npm run test:*) (from settings.json, file mtime)",
		"permission setting: allow=Read(~/.zshrc) (from settings.json, file mtime)",
		"permission setting: deny=Bash(curl:*) (from settings.json, file mtime)",
		"permission setting: ask=Bash(git push:*) (from settings.json, file mtime)",
		"permission setting: additionalDirectories=../docs/ (from settings.json, file mtime)",
		"permission setting: defaultMode=acceptEdits (from settings.json, file mtime)",
		"permission setting: disableBypassPermissionsMode=disable (from settings.json, file mtime)",
		"retention setting: cleanupPeriodDays=99 (from settings.json, file mtime)",
		"model setting: opus (from settings.json, file mtime)",
		"permission setting: allow=PowerShell(Get-ChildItem *) (from settings.local.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(o.problems) != 0 {
		t.Fatalf("problems %+v", o.problems)
	}
}

// replyRec is an assistant text reply of API message msgID (request
// reqID, none when "").
func replyRec(uuid, ts, msgID, reqID string, blocks ...any) map[string]any {
	m := map[string]any{"type": "assistant", "uuid": uuid, "timestamp": ts, "message": map[string]any{"id": msgID, "model": "mock-model", "role": "assistant",
		"content": blocks}}
	if reqID != "" {
		m["requestId"] = reqID
	}
	return m
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// Issue 25: a gateway (here a mock model) that reuses one message id for
// every reply. A later turn's reply identical to an earlier one is its own
// row: the block merge is scoped to one API message of one request, and a
// typed prompt ends it. Its nastiest members: the same reply after a typed
// prompt with no request id at all; the same reply to a later request
// within one turn (after a tool result); and, still merged, one message's
// block written again on a later line (same id, same request), also across
// the tool result of a parallel call.
func TestEngineGatewayReusedMessageID(t *testing.T) {
	o := runEngine(t, []bundletest.File{file(sessS+".jsonl",
		line(sessS, userRec(sessS, "u1", "2026-10-11T10:00:00.000Z", "say ok")),
		line(sessS, replyRec("a1", "2026-10-11T10:00:01.000Z", "msg_mock", "", textBlock("OK"))),
		line(sessS, userRec(sessS, "u2", "2026-10-11T10:01:00.000Z", "again")),
		line(sessS, replyRec("a2", "2026-10-11T10:01:01.000Z", "msg_mock", "", textBlock("OK"))),
		line(sessS, userRec(sessS, "u3", "2026-10-11T10:02:00.000Z", "run ls twice")),
		line(sessS, replyRec("a3", "2026-10-11T10:02:01.000Z", "msg_mock", "req_1", textBlock("Running."),
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{"command": "ls"}})),
		line(sessS, resultRec("u4", "2026-10-11T10:02:02.000Z", "toolu_1", "a.txt")),
		line(sessS, replyRec("a4", "2026-10-11T10:02:03.000Z", "msg_mock", "req_1", textBlock("Running."),
			map[string]any{"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": map[string]any{"command": "ls"}})),
		line(sessS, resultRec("u5", "2026-10-11T10:02:04.000Z", "toolu_2", "a.txt")),
		line(sessS, replyRec("a5", "2026-10-11T10:02:05.000Z", "msg_mock", "req_2", textBlock("Running."))),
	)})
	want := []string{
		"11111111 user say ok (" + sessS + ".jsonl:1)",
		"11111111 assistant OK (" + sessS + ".jsonl:2)",
		"11111111 user again (" + sessS + ".jsonl:3)",
		"11111111 assistant OK (" + sessS + ".jsonl:4)",
		"11111111 user run ls twice (" + sessS + ".jsonl:5)",
		"11111111 assistant Running. (" + sessS + ".jsonl:6)",
		"11111111 tool_use ls (" + sessS + ".jsonl:6)",
		"11111111 tool_result a.txt (" + sessS + ".jsonl:7)",
		"11111111 tool_use ls (" + sessS + ".jsonl:8)",
		"11111111 tool_result a.txt (" + sessS + ".jsonl:9)",
		"11111111 assistant Running. (" + sessS + ".jsonl:10)",
	}
	if got := conv(o); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Line 8's "Running." block is line 6's written again: one row, counted
	// as a repeat by record id; nothing else is merged, and nothing is a
	// problem.
	if o.sum.RepeatedByID != 1 || o.sum.DuplicateIDs != 0 || len(o.problems) != 0 {
		t.Fatalf("repeats %d, duplicate ids %d, problems %+v", o.sum.RepeatedByID, o.sum.DuplicateIDs, o.problems)
	}
}
