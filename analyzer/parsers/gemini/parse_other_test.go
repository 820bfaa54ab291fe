package gemini

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestLogsGolden(t *testing.T) {
	p := byID(t, "gemini-cli/logs")
	for _, name := range []string{"logs", "truncated", "empty", "malformed"} {
		t.Run(name, func(t *testing.T) {
			f := parser.File{Path: slugDir + "/logs.json", Agent: Agent, Target: "logs"}
			in := parsertest.Input(t, filepath.Join("testdata", "logs", name+".json"), f, parsertest.Files{slugDir + "/.project_root": "testdata/project_root"})
			parsertest.Golden(t, p, in, filepath.Join("testdata", "logs", name+".golden.jsonl"))
		})
	}
}

func TestLogs(t *testing.T) {
	f := parser.File{Path: slugDir + "/logs.json", Agent: Agent, Target: "logs"}
	in := parsertest.Input(t, "testdata/logs/logs.json", f, parsertest.Files{slugDir + "/.project_root": "testdata/project_root"})
	s := parsertest.Run(t, byID(t, "gemini-cli/logs"), in)
	u := one(t, s, timeline.User, "list files")
	if !u.Secondary || u.SessionID != "s-typical" || u.SourceLine != 1 || u.ProjectPath != "/home/examiner/demo" ||
		!u.Time.Equal(parsertest.Time(t, "2026-01-02T10:00:01Z")) {
		t.Errorf("logs row: %+v", u)
	}
	if e := one(t, s, timeline.User, "no timestamp"); !e.Time.IsZero() || e.TimeBasis != timeline.TimeNone || e.SourceLine != 3 {
		t.Errorf("undated logs row: %+v", e)
	}
	f.Path = slugDir + "/logs.json"
	tr := parsertest.Run(t, byID(t, "gemini-cli/logs"), parsertest.Input(t, "testdata/logs/truncated.json", f, nil))
	if len(tr.Events) != 1 || tr.Events[0].Text != "kept" || len(tr.Problems) != 1 {
		t.Errorf("truncated logs.json: %d rows, problems %v", len(tr.Events), tr.Problems)
	}
}

func settingsInput(t *testing.T, local, name string) *parser.Input {
	f := parser.File{Path: home + "/.gemini/" + name, Agent: Agent, Target: "settings",
		MTime: parsertest.Time(t, "2026-05-06T07:08:09Z")}
	return parsertest.Input(t, local, f, nil)
}

func TestSettingsGolden(t *testing.T) {
	p := byID(t, "gemini-cli/settings")
	for _, c := range []struct{ name, file, as string }{
		{"settings", "settings.json", "settings.json"}, {"trustedFolders", "trustedFolders.json", "trustedFolders.json"},
		{"malformed", "malformed.json", "settings.json"}, {"empty", "empty.json", "settings.json"},
		{"auto-saved", "auto-saved.toml", "policies/auto-saved.toml"},
		{"trusted_hooks", "trusted_hooks.json", "trusted_hooks.json"},
		{"agents", "agents.json", "acknowledgments/agents.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := settingsInput(t, filepath.Join("testdata", "settings", c.file), c.as)
			parsertest.Golden(t, p, in, filepath.Join("testdata", "settings", c.name+".golden.jsonl"))
		})
	}
}

// settingsRows renders rows as "<line> <project> <text>".
func settingsRows(t *testing.T, s *parsertest.Sink) string {
	t.Helper()
	var got []string
	for _, e := range s.Events {
		if e.TurnType != timeline.System || e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(parsertest.Time(t, "2026-05-06T07:08:09Z")) {
			t.Errorf("settings row not at the file mtime: %+v", e)
		}
		got = append(got, fmt.Sprintf("%d %s %s", e.SourceLine, e.ProjectPath, e.Text))
	}
	return strings.Join(got, "\n")
}

// Issue 16 (gemini-cli): the standing permission files the seed lists
// beside settings.json: policies/*.toml (the auto-saved "Always allow"
// rules and written ones, one row per rule and safety checker),
// trusted_hooks.json (one row per trusted hook of a project) and
// acknowledgments/agents.json (one row per acknowledged project agent).
func TestSettingsStandingFiles(t *testing.T) {
	p := byID(t, "gemini-cli/settings")
	const from = " (from /home/examiner/.gemini/"
	for _, c := range []struct {
		file, as string
		want     []string
	}{
		{"auto-saved.toml", "policies/auto-saved.toml", []string{
			"1  permission setting: policy rule[0]=toolName=run_shell_command commandPrefix=[\"rm -rf build/\"] decision=allow priority=950" + from + "policies/auto-saved.toml, file mtime)",
			"7  permission setting: policy rule[1]=toolName=read_file decision=allow priority=950" + from + "policies/auto-saved.toml, file mtime)",
		}},
		{"project-policy.toml", "policies/team.toml", []string{
			"2  permission setting: policy rule[0]=toolName=run_shell_command commandPrefix=git push decision=deny priority=500 denyMessage=no pushes from the agent" + from + "policies/team.toml, file mtime)",
			"9  permission setting: policy rule[1]=toolName=[\"web_fetch\",\"google_web_search\"] decision=ask_user priority=100 modes=[\"default\",\"autoEdit\"]" + from + "policies/team.toml, file mtime)",
			"15  permission setting: policy safety_checker[0]=toolName=write_file priority=10 checker={\"name\":\"allowed-path\",\"type\":\"in-process\"}" + from + "policies/team.toml, file mtime)",
		}},
		{"trusted_hooks.json", "trusted_hooks.json", []string{
			"1 /home/examiner/demo permission setting: trusted_hooks./home/examiner/demo=lint-on-save:npm run lint" + from + "trusted_hooks.json, file mtime)",
			"2 /home/examiner/demo permission setting: trusted_hooks./home/examiner/demo=notify:curl -H \"Authorization: Bearer [redacted]\" https://hooks.example/x" + from + "trusted_hooks.json, file mtime)",
			"3 /srv/empty permission setting: trusted_hooks./srv/empty=[]" + from + "trusted_hooks.json, file mtime)",
		}},
		{"agents.json", "acknowledgments/agents.json", []string{
			"1 /home/examiner/demo permission setting: acknowledgments.agents./home/examiner/demo.reviewer=5f2c8e1d9a" + from + "acknowledgments/agents.json, file mtime)",
			"2 /home/examiner/demo permission setting: acknowledgments.agents./home/examiner/demo.deployer=77aa01bb" + from + "acknowledgments/agents.json, file mtime)",
		}},
	} {
		s := parsertest.Run(t, p, settingsInput(t, "testdata/settings/"+c.file, c.as))
		if got := settingsRows(t, s); got != strings.Join(c.want, "\n") {
			t.Errorf("%s rows:\n%s\nwant:\n%s", c.file, got, strings.Join(c.want, "\n"))
		}
		if len(s.Problems) != 0 || len(s.Skips) != 0 {
			t.Errorf("%s: problems %v skips %v", c.file, s.Problems, s.Skips)
		}
	}
	// A file the settings target collects but that holds no standing
	// permission (GEMINI.md never matches; a command's TOML under a
	// project's .gemini/commands/ is not a policy) is accounted for.
	f := parser.File{Path: "/srv/app/.gemini/commands/deploy.toml", Agent: Agent, Target: "project", MTime: parsertest.Time(t, "2026-05-06T07:08:09Z")}
	s := parsertest.Run(t, p, parsertest.Input(t, "testdata/settings/auto-saved.toml", f, nil))
	if len(s.Events) != 0 || fmt.Sprint(s.Skips) != "[{0 no_evidence:not a Gemini CLI settings or policy file}]" {
		t.Errorf("command TOML: rows %d skips %v", len(s.Events), s.Skips)
	}
}

func TestSettings(t *testing.T) {
	p := byID(t, "gemini-cli/settings")
	s := parsertest.Run(t, p, settingsInput(t, "testdata/settings/settings.json", "settings.json"))
	const from = " (from /home/examiner/.gemini/settings.json, file mtime)"
	want := []string{
		"permission setting: general.defaultApprovalMode=auto_edit" + from,
		"session retention: general.sessionRetention.enabled=true" + from,
		"session retention: general.sessionRetention.maxAge=30d" + from,
		"permission setting: tools.sandbox=docker" + from,
		"permission setting: tools.allowed=run_shell_command(git status)" + from,
		"permission setting: tools.allowed=read_file" + from,
		"permission setting: tools.exclude=[]" + from,
		"permission setting: mcp.excluded=untrusted-server" + from,
		"permission setting: mcpServers.github.trust=true" + from,
		"permission setting: security.folderTrust.enabled=true" + from,
		"permission setting: security.auth.selectedType=gemini-api-key" + from,
		"permission setting: security.auth.apiKey=[redacted]" + from,
	}
	var got []string
	for _, e := range s.Events {
		got = append(got, e.Text)
		if e.TurnType != timeline.System || e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(parsertest.Time(t, "2026-05-06T07:08:09Z")) {
			t.Errorf("settings row: %+v", e)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("settings rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if out := string(parsertest.Render(s)); strings.Contains(out, "AIzaSECRET") || strings.Contains(out, "ghp_secret") {
		t.Error("a secret value reached the output")
	}

	tf := parsertest.Run(t, p, settingsInput(t, "testdata/settings/trustedFolders.json", "trustedFolders.json"))
	e := one(t, tf, timeline.System, "/tmp/untrusted")
	if e.Text != "permission setting: trustedFolders./tmp/untrusted=DO_NOT_TRUST (from /home/examiner/.gemini/trustedFolders.json, file mtime)" ||
		e.ProjectPath != "/tmp/untrusted" || e.SourceLine != 3 {
		t.Errorf("trusted folder row: %+v", e)
	}
	if n := len(tf.Events); n != 3 {
		t.Errorf("%d trusted folder rows, want 3", n)
	}
}

func tmpInput(t *testing.T, local, name string) *parser.Input {
	f := parser.File{Path: slugDir + "/" + name, Agent: Agent, Target: "tmp-history"}
	return parsertest.Input(t, local, f, parsertest.Files{slugDir + "/.project_root": "testdata/project_root"})
}

func TestTmpHistoryGolden(t *testing.T) {
	p := byID(t, "gemini-cli/tmp-history")
	for _, name := range []string{"shell_history", "checkpoint-before-refactor.json", "checkpoint-truncated.json", "bug-report-history-1777629700000.json"} {
		t.Run(strings.NewReplacer(".", "_", "-", "_").Replace(name), func(t *testing.T) {
			in := tmpInput(t, filepath.Join("testdata", "tmp", name), name)
			parsertest.Golden(t, p, in, filepath.Join("testdata", "tmp", strings.TrimSuffix(name, ".json")+".golden.jsonl"))
		})
	}
}

func TestTmpHistory(t *testing.T) {
	p := byID(t, "gemini-cli/tmp-history")
	s := parsertest.Run(t, p, tmpInput(t, "testdata/tmp/shell_history", "shell_history"))
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
		if e.TurnType != timeline.User || !e.Secondary || e.TimeBasis != timeline.TimeNone || e.ProjectPath != "/home/examiner/demo" {
			t.Errorf("shell history row: %+v", e)
		}
	}
	if strings.Join(texts, "|") != "git status|ls -la    /tmp|echo done" {
		t.Errorf("shell history %q", texts)
	}
	c := parsertest.Run(t, p, tmpInput(t, "testdata/tmp/checkpoint-before-refactor.json", "checkpoint-before-refactor.json"))
	one(t, c, timeline.System, "<session_context>")
	one(t, c, timeline.User, "list files")
	one(t, c, timeline.Thinking, "Planning")
	if u := one(t, c, timeline.ToolUse, "ls"); u.ToolUseID != "run_shell_command-1" || u.SourceLine != 3 {
		t.Errorf("checkpoint call: %+v", u)
	}
	if r := one(t, c, timeline.ToolResult, "a.txt"); r.ToolUseID != "run_shell_command-1" || r.IsError != "false" {
		t.Errorf("checkpoint result: %+v", r)
	}
	one(t, c, timeline.Assistant, "One file.")
}

// Issue 16 (gemini-cli): the /bug export bug-report-history-<ms>.json: a
// "bug report exported:" row at <ms> (the file name is the export time),
// then the exported history as secondary rows with no time; an empty
// entry is accounted for.
func TestTmpHistoryBugReport(t *testing.T) {
	p := byID(t, "gemini-cli/tmp-history")
	s := parsertest.Run(t, p, tmpInput(t, "testdata/tmp/bug-report-history-1777629700000.json", "bug-report-history-1777629700000.json"))
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%d %s %s %s secondary=%v %q %s", e.SourceLine, e.TimeString(), e.TimeBasis, e.TurnType, e.Secondary, e.Text, e.ProjectPath))
	}
	want := []string{
		`0 2026-05-01T10:01:40.000Z  system secondary=false "bug report exported: ` + slugDir + `/bug-report-history-1777629700000.json (/bug chat history export)" /home/examiner/demo`,
		`1  none user secondary=true "clean the build" /home/examiner/demo`,
		`2  none tool_use secondary=true "rm -rf build/" /home/examiner/demo`,
		`3  none tool_result secondary=true "Exit Code: 0" /home/examiner/demo`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fmt.Sprint(s.Skips) != "[{4 no_evidence:empty_content}]" || len(s.Problems) != 0 {
		t.Errorf("skips %v problems %v", s.Skips, s.Problems)
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		id, path, target string
		want             bool
	}{
		{"gemini-cli/logs", slugDir + "/logs.json", "logs", true},
		{"gemini-cli/settings", home + "/.gemini/settings.json", "settings", true},
		{"gemini-cli/settings", home + "/.gemini/trustedFolders.json", "settings", true},
		{"gemini-cli/settings", home + "/.gemini/GEMINI.md", "settings", false},
		{"gemini-cli/tmp-history", slugDir + "/shell_history", "tmp-history", true},
		{"gemini-cli/tmp-history", slugDir + "/checkpoint-x.json", "tmp-history", true},
		{"gemini-cli/tmp-history", slugDir + "/bug-report-history-1.json", "tmp-history", true},
		{"gemini-cli/settings", home + "/.gemini/trusted_hooks.json", "settings", true},
		{"gemini-cli/settings", home + "/.gemini/acknowledgments/agents.json", "settings", true},
		{"gemini-cli/settings", home + "/.gemini/policies/auto-saved.toml", "settings", true},
		{"gemini-cli/settings", "/srv/app/.gemini/settings.json", "project", true},
		{"gemini-cli/settings", "/srv/app/.gemini/policies/team.toml", "project", true},
		{"gemini-cli/settings", "/srv/app/GEMINI.md", "project", false},
	} {
		f := parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}

func TestTmpLayout(t *testing.T) {
	for _, c := range []struct{ path, home, gemini, slug string }{
		{"/home/u/.gemini/tmp/demo/chats/s.jsonl", "/home/u", "/home/u/.gemini", "demo"},
		{"/home/u/.cache/.gemini/tmp/abc123/logs.json", "/home/u", "/home/u/.cache/.gemini", "abc123"},
		{"C:/Users/u/.gemini/tmp/proj/chats/p/a.jsonl", "C:/Users/u", "C:/Users/u/.gemini", "proj"},
	} {
		h, g, sd, slug, ok := tmpLayout(c.path)
		if !ok || h != c.home || g != c.gemini || slug != c.slug || sd != c.gemini+"/tmp/"+c.slug {
			t.Errorf("tmpLayout(%s) = %q %q %q %q %v", c.path, h, g, sd, slug, ok)
		}
	}
	if _, _, _, _, ok := tmpLayout("/home/u/.gemini/settings.json"); ok {
		t.Error("tmpLayout accepted a path outside tmp/<slug>/")
	}
}
