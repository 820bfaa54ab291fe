package findings

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// runDetector feeds rows to one Finisher detector and returns each
// reported match as its rows' lines and the note.
func runDetector(d interface {
	Detector
	Finisher
}, rows []*timeline.Row) []string {
	for i, r := range rows {
		d.Row(int64(i+1), r, func(...Ref) {})
	}
	var out []string
	d.Finish(func(note string, refs ...Ref) {
		var ls []string
		for _, x := range refs {
			ls = append(ls, string(rune('0'+x.Line)))
		}
		out = append(out, strings.Join(ls, ",")+" "+note)
	})
	return out
}

func surfRow(ts, kind, scope, name, file, project, cmd string) *timeline.Row {
	in := `{"kind":"` + kind + `","agent":"claude-code","scope":"` + scope + `","project":"` + project + `","name":"` + name + `","event":"` + name + `","command":"` + cmd + `","file":"` + file + `"}`
	return &timeline.Row{Host: "h", User: "u", Agent: "claude-code", TurnType: "system", Parser: "claude-code/surface", TimestampUTC: ts,
		Text: "control surface: " + kind + " " + name + ": " + cmd, ToolInput: in}
}

func TestClonedHook(t *testing.T) {
	rows := []*timeline.Row{
		surfRow("2026-01-01T00:00:00.000Z", "hook", "project", "SessionStart", "/home/u/shop/.claude/settings.json", "/home/u/shop", "bash x.sh"),
		surfRow("2026-01-01T00:00:00.000Z", "hook", "project", "Stop", "/home/u/shop/.claude/settings.local.json", "/home/u/shop", "true"), // local: a person's own
		surfRow("2026-01-01T00:00:00.000Z", "hook", "user", "Stop", "/home/u/.claude/settings.json", "", "true"),                           // user scope
		surfRow("2026-01-01T00:00:00.000Z", "hook", "project", "PreToolUse", "/home/u/app/.claude/settings.json", "/home/u/app", "lint"),
		// the agent wrote app's settings, later in timeline order
		{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", ProjectPath: "/home/u/app", TurnType: "tool_use", Action: "file_edit", Text: "/home/u/app/.claude/settings.json"},
	}
	got := runDetector(NewClonedHook(), rows)
	if len(got) != 1 || !strings.HasPrefix(got[0], "1 no agent turn in this timeline wrote /home/u/shop/.claude/settings.json (hook SessionStart runs \"bash x.sh\"") {
		t.Errorf("got %q", got)
	}
}

func TestApprovedMCPChanged(t *testing.T) {
	approval := &timeline.Row{Host: "h", User: "u", Agent: "claude-code", ProjectPath: "/home/u/shop", TurnType: "system", TimestampUTC: "2026-01-01T00:00:05.000Z",
		Text: "permission setting: enabledMcpjsonServers=notes (from settings.local.json, file mtime)", SourceFile: "/home/u/shop/.claude/settings.local.json"}
	write := func(ts string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", ProjectPath: "/home/u/shop", TurnType: "tool_use", Action: "execute",
			Text: "echo '{}' > .mcp.json", TimestampUTC: ts}
	}
	server := func(ts, name string) *timeline.Row {
		return surfRow(ts, "mcp_server", "project", name, "/home/u/shop/.mcp.json", "/home/u/shop", "sh")
	}
	for _, c := range []struct {
		name string
		rows []*timeline.Row
		want string
	}{
		{"written after", []*timeline.Row{approval, write("2026-01-01T00:00:09.000Z"), server("2026-01-01T00:00:09.000Z", "notes")}, "3,1,2 \"notes\" is approved for /home/u/shop by name (settings.local.json, file time 2026-01-01T00:00:05.000Z) and now runs \"sh\": agent turns rewrote /home/u/shop/.mcp.json after the approval's file time (session s row 2 at 2026-01-01T00:00:09.000Z)"},
		{"written before", []*timeline.Row{write("2026-01-01T00:00:01.000Z"), approval, server("2026-01-01T00:00:09.000Z", "notes")}, "3,2,1 \"notes\" is approved for /home/u/shop by name (settings.local.json, file time 2026-01-01T00:00:05.000Z) and now runs \"sh\": agent turns rewrote /home/u/shop/.mcp.json (session s row 1 at 2026-01-01T00:00:01.000Z); the approval's file time is later"},
		{"pulled after", []*timeline.Row{approval, server("2026-01-01T00:00:09.000Z", "notes")}, "2,1 \"notes\" is approved for /home/u/shop by name (settings.local.json, file time 2026-01-01T00:00:05.000Z) and now runs \"sh\": /home/u/shop/.mcp.json changed after the approval's file time (file time 2026-01-01T00:00:09.000Z) and no agent turn wrote it"},
		{"unchanged since", []*timeline.Row{server("2026-01-01T00:00:01.000Z", "notes"), approval}, ""},
		{"not approved", []*timeline.Row{approval, write("2026-01-01T00:00:09.000Z"), server("2026-01-01T00:00:09.000Z", "other")}, ""},
	} {
		got := strings.Join(runDetector(NewApprovedMCPChanged(), c.rows), "\n")
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q...", c.name, got, c.want)
		}
	}
}

func TestHeadlessBypass(t *testing.T) {
	r := func(sess, tt, text string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "a", SessionID: sess, TurnType: tt, Text: text}
	}
	rows := []*timeline.Row{
		r("s1", "system", "permission mode: bypassPermissions"), // the mode may come first
		r("s1", "user", "do it"),
		r("s1", "system", "session surface: sdk-cli"),
		r("s2", "system", "session surface: cli"), // interactive
		r("s2", "system", "permission mode: bypassPermissions"),
		r("s3", "system", "session origin: local (originator=codex_exec cli_version=0.171.0 source=exec)"), // headless, guard rails on
		r("s3", "system", "permission mode: approval=never sandbox=workspace-write"),
		r("s4", "system", "session origin: local (originator=codex_exec cli_version=0.171.0 source=exec)"),
		r("s4", "system", "permission mode: approval=never sandbox=danger-full-access"),
	}
	got := runDetector(NewHeadlessBypass(), rows)
	if len(got) != 2 || !strings.HasPrefix(got[0], "3,1,2 entry point \"session surface: sdk-cli\"") || !strings.HasSuffix(got[0], "the first prompt (row 2) came from that process's arguments or stdin") ||
		!strings.HasPrefix(got[1], "8,9 entry point \"session origin: local (originator=codex_exec") {
		t.Errorf("got %q", got)
	}
}

func TestForbiddenDestruction(t *testing.T) {
	u := func(sess, text string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "a", SessionID: sess, TurnType: "user", Text: text}
	}
	c := func(sess, cmd string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "a", SessionID: sess, TurnType: "tool_use", Action: "execute", Text: cmd}
	}
	rows := []*timeline.Row{
		c("s1", "rm -rf ~/backups"), // before any prohibition
		u("s1", "Clean up, but don't remove anything under ~/backups."),
		c("s1", "ls ~/backups"),
		c("s1", "rm -rf ~/backups"), // 4: forbidden
		u("s2", "Never force-push to main."),
		c("s3", "git push --force origin main"),     // another session
		u("s2", "OK, now delete the build folder."), // a request lifts it
		c("s2", "rm -rf /home/u/build"),
		u("s4", "Nothing may be deleted."),
		c("s4", "git push --force origin main"), // 10
		u("s5", "no deletes please, just read"),
		c("s5", "cat notes.txt"),
	}
	got := runDetector(NewForbiddenDestruction(), rows)
	want := []string{
		`2,4 the person wrote "don't remove" (row 2) and the agent then ran "rm -rf ~/backups" (row 4)`,
		`9,: the person wrote "Nothing may be deleted" (row 9) and the agent then ran "git push --force origin main" (row 10)`,
	}
	if len(got) != 2 || got[0] != want[0] || !strings.HasSuffix(got[1], `the person wrote "Nothing may be deleted" (row 9) and the agent then ran "git push --force origin main" (row 10)`) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestScanRate(t *testing.T) {
	var rows []*timeline.Row
	at := func(sec int) string {
		return "2026-01-01T00:" + string(rune('0'+sec/600)) + string(rune('0'+sec/60%10)) + ":" + string(rune('0'+sec%60/10)) + string(rune('0'+sec%10)) + ".000Z"
	}
	add := func(sess string, sec int, action, tool, text string) {
		rows = append(rows, &timeline.Row{Host: "h", User: "u", Agent: "a", SessionID: sess, TurnType: "tool_use", Action: action, ToolName: tool, Text: text, TimestampUTC: at(sec)})
	}
	// s1: 20 reads and 12 scans through MCP in 40 seconds: found.
	for i := 0; i < 20; i++ {
		add("s1", i, "file_read", "Read", "/x")
	}
	for i := 0; i < 12; i++ {
		add("s1", 20+i*2, "mcp", "mcp__kali__port_scan", "10.0.0.1")
	}
	// s2: 40 scans at one a minute and a half: never 30 in a window.
	for i := 0; i < 40; i++ {
		add("s2", i*90%3600, "execute", "Bash", "nmap -p 22 10.0.0.1")
	}
	// s3: 35 fast calls, 9 scanners: not enough scanners.
	for i := 0; i < 35; i++ {
		text := "ls"
		if i < 9 {
			text = "masscan -p80 10.0.0.0/24"
		}
		add("s3", i, "execute", "Bash", text)
	}
	// s4: "snmapshot" and "nmapper" are not nmap.
	for i := 0; i < 35; i++ {
		add("s4", i, "execute", "Bash", "snmapshot nmapper")
	}
	got := runDetector(NewScanRate(), rows)
	if len(got) != 1 || !strings.HasSuffix(got[0], " 32 tool calls within 60 seconds (2026-01-01T00:00:00.000Z to 2026-01-01T00:00:42.000Z), 12 of them scanners; rows: the scanner calls of that window") {
		t.Errorf("got %q", got)
	}
}

// TestHeadlessOneGuardRailsFinding: a headless session with its guard
// rails off is one guard-rails finding, the headless detector's, holding
// every permission-mode row the Sigma bypass rule matched (two here);
// the rule's finding is kept for an interactive session (the detector
// does not fire) and, in the headless session, for what else it matched
// (a call starting another agent with its guard rails off), holding
// only that.
func TestHeadlessOneGuardRailsFinding(t *testing.T) {
	u, err := New(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r := func(sess, tt, text string) timeline.Row {
		return timeline.Row{Host: "h", User: "u", Agent: "claude-code", SessionID: sess, TurnType: tt, Text: text, TimestampUTC: "2026-01-01T00:00:0" + sess[1:] + ".000Z"}
	}
	rows := []timeline.Row{
		r("s1", "system", "session surface: sdk-cli"),
		r("s1", "system", "permission mode: bypassPermissions"),
		r("s1", "user", "do it"),
		r("s1", "system", "permission mode: bypassPermissions"), // set again (a resume)
		r("s2", "system", "session surface: cli"),
		r("s2", "system", "permission mode: bypassPermissions"),
		r("s3", "system", "session surface: sdk-cli"),
		r("s3", "system", "permission mode: bypassPermissions"),
		r("s3", "tool_use", "codex exec --dangerously-bypass-approvals-and-sandbox 'go on'"),
	}
	for i := range rows {
		if err := u.Row(int64(i+1), &rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := u.Finish()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range sum.Findings {
		var lines []string
		for _, x := range f.Rows {
			lines = append(lines, fmt.Sprint(x.Line))
		}
		got = append(got, fmt.Sprintf("%s %s %d:%s", f.SessionID, f.RuleID[:8], f.RowCount, strings.Join(lines, ",")))
	}
	sort.Strings(got)
	want := []string{"s1 4f2c8e6a 4:1,2,3,4", "s2 ff47d7ba 1:6", "s3 4f2c8e6a 2:7,8", "s3 ff47d7ba 1:9"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestHeadlessGemini: a Gemini CLI session no logs.json row names whose
// shell call (a tool -p has only with --yolo) succeeded is headless with
// its guard rails off (rows: the first prompt, the call); typed in the
// interactive UI (a prompt-log row), refused (the call's result an
// error, as -p with the default mode records it), or only reading: none.
func TestHeadlessGemini(t *testing.T) {
	r := func(sess, parser, tt, tool, id, isErr, text string) *timeline.Row {
		return &timeline.Row{Host: "h", User: "u", Agent: "gemini-cli", SessionID: sess, Parser: parser, TurnType: tt, ToolName: tool, ToolUseID: id, IsError: isErr, Text: text}
	}
	const chat, logs = "gemini-cli/chat", "gemini-cli/logs"
	rows := []*timeline.Row{
		r("g1", chat, "user", "", "", "", "Run the shell command `id`"),
		r("g1", chat, "tool_use", "run_shell_command", "c1", "", "id"),
		r("g1", chat, "tool_result", "run_shell_command", "c1", "false", "uid=1000"),
		r("g2", logs, "user", "", "", "", "Run the shell command `id`"), // typed in the UI
		r("g2", chat, "user", "", "", "", "Run the shell command `id`"),
		r("g2", chat, "tool_use", "run_shell_command", "c2", "", "id"),
		r("g2", chat, "tool_result", "run_shell_command", "c2", "false", "uid=1000"),
		r("g3", chat, "user", "", "", "", "Run the shell command `id`"),
		r("g3", chat, "tool_use", "run_shell_command", "c3", "", "id"),
		r("g3", chat, "tool_result", "run_shell_command", "c3", "true", `Tool "run_shell_command" not found.`),
		r("g4", chat, "user", "", "", "", "read it"),
		r("g4", chat, "tool_use", "read_file", "c4", "", "/etc/hosts"),
		r("g4", chat, "tool_result", "read_file", "c4", "false", "127.0.0.1 localhost"),
		r("g5", chat, "user", "", "", "", "write it"),
		r("g5", chat, "tool_use", "write_file", "c5", "", "/tmp/x"),
		r("g5", chat, "tool_result", "write_file", "c5", "false", "Successfully created"),
	}
	got := runDetector(NewHeadlessBypass(), rows)
	if len(got) != 2 || !strings.HasPrefix(got[0], "1,2 no prompt of this session is in logs.json") || !strings.Contains(got[0], "run_shell_command ran (row 2)") ||
		!strings.Contains(got[1], "the first prompt (row 14)") || !strings.Contains(got[1], "write_file ran (row 15)") {
		t.Errorf("got %q", got)
	}
}

// Finish runs once: RowsDone (the output pass) finishes the runner and
// releases the detectors' state, a later Finish (the command's) returns
// the same summary without writing findings.jsonl again, and a row after
// it is an error, never a silent drop.
func TestFinishOnce(t *testing.T) {
	dir := t.TempDir()
	u, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rows := []timeline.Row{
		{Host: "h", User: "u", Agent: "claude-code", SessionID: "s1", TurnType: "system", Text: "session surface: sdk-cli", TimestampUTC: "2026-01-01T00:00:01.000Z"},
		{Host: "h", User: "u", Agent: "claude-code", SessionID: "s1", TurnType: "system", Text: "permission mode: bypassPermissions", TimestampUTC: "2026-01-01T00:00:02.000Z"},
	}
	for i := range rows {
		if err := u.Row(int64(i+1), &rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := u.RowsDone(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	first, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("planted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := u.Finish()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(p)
	if string(again) != "planted\n" || len(first) == 0 {
		t.Errorf("findings.jsonl rewritten by the second Finish (%q) or empty the first time (%d bytes)", again, len(first))
	}
	if sum.Rows != 2 || len(sum.Findings) != 1 || sum.Findings[0].RuleID != HeadlessBypassID || sum.Findings[0].RowCount != 2 {
		t.Errorf("summary: %d rows, findings %+v", sum.Rows, sum.Findings)
	}
	if u.ds != nil || u.found != nil {
		t.Errorf("the detectors' state is still held after Finish")
	}
	if err := u.Row(3, &rows[0]); err == nil || !strings.Contains(err.Error(), "after Finish") {
		t.Errorf("a row after Finish: %v", err)
	}
}
