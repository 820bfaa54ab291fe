package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONStableAndComplete(t *testing.T) {
	a, err := JSON(All())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := JSON(All())
	if !bytes.Equal(a, b) {
		t.Fatal("JSON output is not stable")
	}
	var doc DocJSON
	if err := json.Unmarshal(a, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Agents) != len(All()) {
		t.Fatalf("%d agents in JSON, want %d", len(doc.Agents), len(All()))
	}
	for _, aj := range doc.Agents {
		ag, _ := Lookup(aj.Name)
		if len(aj.Targets) != len(ag.Targets) {
			t.Errorf("%s: %d targets in JSON, want %d", aj.Name, len(aj.Targets), len(ag.Targets))
		}
		for _, tj := range aj.Targets {
			for _, o := range tj.OS {
				if len(tj.RootDirs[o]) == 0 {
					t.Errorf("%s/%s on %s: no root dirs", aj.Name, tj.ID, o)
				}
			}
		}
	}
}

func TestMarkdownShowsHomeRelativePaths(t *testing.T) {
	md := Markdown(All())
	for _, want := range []string{
		"| [cursor](#cursor) |",
		"## cursor\n",
		"| state-db | sqlite | `~/AppData/Roaming/Cursor/User/globalStorage/state.vscdb{,.backup}` |",
		"| state-db | sqlite | `~/Library/Application Support/Cursor/User/globalStorage/state.vscdb{,.backup}` |",
		"| state-db | sqlite | `~/.config/Cursor/User/globalStorage/state.vscdb{,.backup}` |",
		"Volumes: `*n8n_data`, `*n8n-data`.",
		"Project files: `CLAUDE.md` (settings)",
		"(seed: backlog)", // a parsed agent the seed still lists as backlog (openclaw and letta, the last backlog agents the seed marked parsed, are parsed now)
		"| projects | other | `~/.local/share/crush/projects.json` | projects: json-paths |",
		"| projects | other | `~/{.local/share/crush,AppData/Local/crush}/projects.json` | projects: json-paths |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestFilterLeadingAlternatives(t *testing.T) {
	cases := []struct {
		in   string
		os   OS
		want string
		ok   bool
	}{
		{"{.local/share/x,AppData/Local/x}/a.db", Linux, ".local/share/x/a.db", true},
		{"{.local/share/x,AppData/Local/x}/a.db", Windows, "{.local/share/x,AppData/Local/x}/a.db", true},
		{"{Library/Application Support/Z,AppData/Local/Z,.local/share/z}/t.db", Darwin, "{Library/Application Support/Z,.local/share/z}/t.db", true},
		{"{Library/Application Support,AppData/Local}/C/x.json", Linux, "", false},
		{"AppData/Local/Temp/x", Linux, "", false},
		{"{.a,{.b,.c}}/x", Linux, "{.a,{.b,.c}}/x", true},
		{".claude/x", Windows, ".claude/x", true},
	}
	for _, c := range cases {
		got, ok := filterLeadingAlternatives(c.in, c.os)
		if got != c.want || ok != c.ok {
			t.Errorf("filterLeadingAlternatives(%q, %s) = %q, %v; want %q, %v", c.in, c.os, got, ok, c.want, c.ok)
		}
	}
}
