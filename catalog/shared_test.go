package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// segRank is how much of a path a glob segment names: "**" least, then
// no segment at all (the glob ended), a segment of wildcards only ("*"),
// one with some literal characters ("*.jsonl", "OpenAI.Codex_*"), a
// literal name most.
func segRank(segs []string, k int) int {
	if k >= len(segs) {
		return 1
	}
	s := segs[k]
	switch {
	case s == "**":
		return 0
	case !hasMeta(s):
		return 4
	case strings.Trim(s, "*?") == "":
		return 2
	}
	return 3
}

// sharedRule decides a path both globs match: the first segment, from
// the root, where one names more than the other decides for it (its
// rule: a name against a catch-all "**" above it, else a folder name
// against a wildcard); 0 when neither does (the same path).
func sharedRule(p, q string) (winner int, rule string) {
	ps, qs := strings.Split(p, "/"), strings.Split(q, "/")
	for k := 0; k < len(ps) || k < len(qs); k++ {
		a, b := segRank(ps, k), segRank(qs, k)
		if a == b {
			continue
		}
		// The loser's glob collects the folder with a "**" at or
		// above this segment: a named file inside its catch-all; else
		// a folder name against a wildcard.
		loser := qs
		winner = 1
		if b > a {
			loser, winner = ps, 2
		}
		rule = RuleFolder
		if slices.Contains(loser[:min(k+1, len(loser))], "**") {
			rule = RuleNamedFile
		}
		return winner, rule
	}
	return 0, RuleFork
}

type sharedPair struct{ owner, yields, rule string }

// computeSharedTargets finds every pair of targets of different agents
// whose globs (every OS's, braces expanded) can match one path, and the
// rule deciding each.
func computeSharedTargets(t *testing.T) []sharedPair {
	type tp struct {
		id   string
		pats []string
	}
	var all []tp
	for _, a := range All() {
		for _, tg := range a.Targets {
			var ps []string
			for _, p := range TargetPatterns(tg) {
				ps = append(ps, ExpandBraces(p)...)
			}
			all = append(all, tp{a.Name + "/" + tg.ID, ps})
		}
	}
	agent := func(id string) string { return strings.SplitN(id, "/", 2)[0] }
	var out []sharedPair
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if agent(all[i].id) == agent(all[j].id) {
				continue
			}
			decided := map[sharedPair]bool{}
			for _, p := range all[i].pats {
				for _, q := range all[j].pats {
					if !globsMeet(p, q) {
						continue
					}
					w, rule := sharedRule(p, q)
					sp := sharedPair{all[i].id, all[j].id, rule}
					switch w {
					case 2:
						sp.owner, sp.yields = sp.yields, sp.owner
					case 0:
						// The same path: a VS Code fork's, owned by the
						// fork's agent rather than vscode's every-fork
						// target.
						switch {
						case agent(sp.owner) == "vscode":
							sp.owner, sp.yields = sp.yields, sp.owner
						case agent(sp.yields) != "vscode":
							t.Errorf("%s and %s name the same path %s and no rule decides whose it is: add one to shared.go", all[i].id, all[j].id, p)
						}
					}
					decided[sp] = true
				}
			}
			if len(decided) > 1 {
				t.Errorf("%s and %s: their globs meet in places the rule decides differently: %v", all[i].id, all[j].id, decided)
			}
			for sp := range decided {
				out = append(out, sp)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].owner != out[j].owner {
			return out[i].owner < out[j].owner
		}
		return out[i].yields < out[j].yields
	})
	return out
}

// TestSharedPaths: every path two agents' targets can both name is
// decided, never left to the agent whose name sorts first. The pairs of
// targets whose globs meet are computed from the table and must be
// exactly SharedTargets, each with the rule the globs give (the first
// segment where one glob names more decides: a folder name, or a name
// against a catch-all; the same path is a VS Code fork's file, its
// fork's agent's); the folders two agents name are exactly these, each
// with its owner.
func TestSharedPaths(t *testing.T) {
	got := computeSharedTargets(t)
	var want []sharedPair
	for _, s := range SharedTargets {
		want = append(want, sharedPair{s.Owner, s.Yields, s.Rule})
	}
	if !slices.Equal(got, want) {
		var b strings.Builder
		for _, g := range got {
			b.WriteString("\t{Owner: \"" + g.owner + "\", Yields: \"" + g.yields + "\", Rule: " + map[string]string{RuleFolder: "RuleFolder", RuleNamedFile: "RuleNamedFile", RuleFork: "RuleFork"}[g.rule] + "},\n")
		}
		t.Errorf("SharedTargets is not the pairs of targets whose globs meet; they are:\n%s", b.String())
	}

	claim := map[string][]string{}
	for _, a := range All() {
		for _, f := range Folders([]Agent{a}) {
			claim[f.Rel] = append(claim[f.Rel], a.Name)
		}
	}
	owner := map[string]string{}
	for _, f := range Folders(All()) {
		owner[f.Rel] = f.Agent
	}
	var shared []string
	for rel, as := range claim {
		if len(as) < 2 {
			continue
		}
		o, ok := folderOwner(rel)
		if !ok {
			t.Errorf("%s is named by %v and no table says whose it is", rel, as)
		}
		if owner[rel] != o {
			t.Errorf("%s: Folders gives it to %s, its owner is %s", rel, owner[rel], o)
		}
		shared = append(shared, rel+": "+o+" (of "+strings.Join(as, ", ")+")")
	}
	sort.Strings(shared)
	if got, want := strings.Join(shared, "\n"), ".config/Trae/User/globalStorage: trae (of trae, vscode)\n"+
		".config/Trae/User/workspaceStorage: trae (of trae, vscode)\n"+
		".copilot: copilot-cli (of copilot-cli, copilot-desktop)\n"+
		".pi/agent: pi (of little-coder, pi)\n"+
		"AppData/Roaming/Trae/User/globalStorage: trae (of trae, vscode)\n"+
		"AppData/Roaming/Trae/User/workspaceStorage: trae (of trae, vscode)\n"+
		"Library/Application Support/Trae/User/globalStorage: trae (of trae, vscode)\n"+
		"Library/Application Support/Trae/User/workspaceStorage: trae (of trae, vscode)"; got != want {
		t.Errorf("shared folders:\n%s\nwant\n%s", got, want)
	}
	for _, f := range SharedFolders {
		if len(claim[f.Rel]) < 2 {
			t.Errorf("SharedFolders lists %s, which %v name", f.Rel, claim[f.Rel])
		}
	}
}

// TestSharedPathsWalk: a home holding a file at a path of each shared
// pair (and the two shared folders) is walked with each file named by its
// owner, whichever agent's target meets it first; MatchesAt agrees.
func TestSharedPathsWalk(t *testing.T) {
	home := t.TempDir()
	files := map[string]string{ // witness -> owner/target
		"Library/Application Support/Codex/latest_kickoff_task_outputs.db":                                    "chatgpt-desktop/app-data",
		"Library/Application Support/Codex/.crewai_user.json":                                                 "chatgpt-desktop/app-data",
		"AppData/Local/Packages/OpenAI.Codex_x/LocalCache/Roaming/Claude/scheduled-tasks.json":                "chatgpt-desktop/package",
		"AppData/Local/Packages/OpenAI.Codex_x/LocalCache/Roaming/Claude/local-agent-mode-sessions/s/a.jsonl": "chatgpt-desktop/package",
		"AppData/Local/github-copilot/latest_kickoff_task_outputs.db":                                         "copilot/store-windows",
		"AppData/Local/github-copilot/.crewai_user.json":                                                      "copilot/store-windows",
		"Library/Application Support/com.LangflowDesktop/latest_kickoff_task_outputs.db":                      "langflow/desktop-app",
		"Library/Application Support/com.LangflowDesktop/.crewai_user.json":                                   "langflow/desktop-app",
		".local/share/local-deep-research/latest_kickoff_task_outputs.db":                                     "local-deep-research/databases",
		".local/share/muse/latest_kickoff_task_outputs.db":                                                    "muse-code/indexes",
		".config/Cursor/logs/20261201T100000/window1/exthost/output_logging_1/1-PearAI.log":                   "pearai/output-log",
		".config/Windsurf/logs/20261201T100000/window1/exthost/output_logging_1/1-PearAI.log":                 "pearai/output-log",
		".config/Trae/User/globalStorage/state.vscdb":                                                         "trae/state",
		".config/Cursor/logs/20261201T100000/window1/exthost/rjmacarthy.twinny/Twinny.log":                    "twinny/log",
		".config/Windsurf/logs/20261201T100000/window1/exthost/rjmacarthy.twinny/Twinny.log":                  "twinny/log",
		".config/Cursor/logs/20261201T100000/main.log":                                                        "cursor/editor-logs",
		".pi/agent/little-coder-prompt-history.json":                                                          "little-coder/prompt-history",
		".pi/agent/settings.json": "pi/settings",
		".copilot/data.db":        "copilot-desktop/data-db",
		".copilot/config.json":    "copilot-cli/config",
	}
	for rel := range files {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each witness of a pair is one both globs match.
	for _, s := range SharedTargets {
		n := 0
		for rel, o := range files {
			if o == s.Owner && matchesTarget(t, s.Owner, rel) && matchesTarget(t, s.Yields, rel) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no witness of %s over %s", s.Owner, s.Yields)
		}
	}
	got := map[string]string{}
	if err := WalkHome(home, All(), func(h Hit) error {
		if h.Info != nil && !h.Info.IsDir() {
			got[h.Rel] = h.Agent + "/" + h.Target.ID
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for rel, want := range files {
		if got[rel] != want {
			t.Errorf("%s: walked as %q, want %s", rel, got[rel], want)
		}
		a, tg, ok := MatchesAt(rel, All())
		if !ok || a+"/"+tg.ID != want {
			t.Errorf("MatchesAt(%s) = %s/%s %v, want %s", rel, a, tg.ID, ok, want)
		}
	}
}

func matchesTarget(t *testing.T, id, rel string) bool {
	t.Helper()
	an, tid, _ := strings.Cut(id, "/")
	a, ok := Lookup(an)
	if !ok {
		t.Fatalf("no agent %s", an)
	}
	tg, ok := a.Target(tid)
	if !ok {
		t.Fatalf("no target %s", id)
	}
	for _, p := range TargetPatterns(tg) {
		for _, x := range ExpandBraces(p) {
			if ok, _ := doublestar.Match(x, rel); ok {
				return true
			}
		}
	}
	return false
}
