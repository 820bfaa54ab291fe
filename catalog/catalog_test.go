package catalog

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// update rewrites the generated docs: go test ./catalog -update
var update = flag.Bool("update", false, "rewrite docs/agents.md and docs/agents.json from the table")

// seedNames is the agent column of the seed table (agents-catalog.md), in
// its order: every name, and no other, must be in the catalog.
var seedNames = []string{
	"agent-zero", "aider", "amp", "antigravity", "augment", "autogen-studio", "camel-ai",
	"chatgpt-desktop", "claude-code", "claude-desktop", "cline", "codex-cli", "cody", "continue",
	"copilot", "copilot-cli", "copilot-desktop", "crewai", "crush", "cursor", "dify",
	"factory-droid", "flowise", "gemini-cli", "goose", "hermes", "kilo-code", "kiro", "langflow",
	"letta", "little-coder", "local-deep-research", "metagpt", "muse-code", "n8n", "nanobot",
	"ollama", "open-interpreter", "openclaw", "opencode", "openhands", "pearai", "pi",
	"pydantic-clai", "qwen-code", "roo-code", "shared", "shellgpt", "tabby", "twinny", "vscode",
	"windsurf", "zed",
}

// peerNames are the agents added beyond the seed table because a peer
// tool reads them (issue 28: kenn-io/agentsview internal/parser/types.go).
var peerNames = []string{"codebuff", "command-code", "cortex", "deepseek-harness", "deepseek-tui", "devin", "forge", "gemini-apps", "gptme", "grok", "icodemate", "iflow", "kimi-cli", "kimi-work", "mimocode", "omnigent", "omp", "openclaude", "piebald", "poolside", "posit-assistant", "prime-agent", "qoder", "qwenpaw", "reasonix", "shelley", "trae", "traex", "vibe", "visualstudio-copilot", "warp", "workbuddy", "zcode", "zencoder"}

func TestValidate(t *testing.T) {
	if err := Validate(All()); err != nil {
		t.Fatal(err)
	}
}

func TestSeedNames(t *testing.T) {
	if len(seedNames) != 53 {
		t.Fatalf("seed list has %d names, the seed table 53", len(seedNames))
	}
	var got []string
	for _, a := range All() {
		got = append(got, a.Name)
	}
	want := slices.Concat(seedNames, peerNames)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("catalog names differ from the seed table and the peers' additions:\n got %v\nwant %v", got, want)
	}
}

func TestAllSortedCopy(t *testing.T) {
	a := All()
	if !slices.IsSortedFunc(a, func(x, y Agent) int { return strings.Compare(x.Name, y.Name) }) {
		t.Error("All is not sorted by name")
	}
	a[0].Name = "changed"
	if All()[0].Name == "changed" {
		t.Error("All returns the table itself, not a copy")
	}
	// The ranges keep alphabetical order, so list order and All agree.
	for i, x := range agents {
		if All()[i].Name != x.Name {
			t.Fatalf("agents list out of order at %d: %s", i, x.Name)
		}
	}
}

func TestLookup(t *testing.T) {
	a, ok := Lookup("cursor")
	if !ok || a.Display == "" {
		t.Fatal("cursor not found")
	}
	if _, ok := a.Target("state-db"); !ok {
		t.Error("cursor has no state-db target")
	}
	if _, ok := Lookup("no-such-agent"); ok {
		t.Error("Lookup found a missing agent")
	}
}

// TestStatusShapes checks the statuses that need no registry; whether
// "parsed" matches the registered parsers is checked in
// analyzer/parsers (TestCatalogStatusIsReal), since the catalog does not
// depend on the analyzer.
func TestStatusShapes(t *testing.T) {
	for _, a := range All() {
		if a.Status == StatusParsed {
			continue
		}
		if a.SeedStatus == "" {
			t.Errorf("%s: no seed status", a.Name)
		}
		parseable := false
		for _, tg := range a.Targets {
			switch tg.Kind {
			case KindTranscript, KindSQLite, KindHistory:
				parseable = true
			}
		}
		switch {
		case a.Status == StatusCollected && parseable:
			t.Errorf("%s: collected, but has transcript, store or history targets", a.Name)
		case a.Status == StatusBacklog && !parseable && len(a.Volumes) == 0 && !strings.Contains(a.Notes, "collected as"):
			// Its records may sit in a volume or in another agent's
			// target (the Notes say which).
			t.Errorf("%s: backlog, but nothing parseable is collected", a.Name)
		}
		if a.SeedStatus == StatusCollected && a.Status != StatusCollected {
			t.Errorf("%s: the seed says collected only, status %s", a.Name, a.Status)
		}
	}
}

func TestKindsUsedAreKnown(t *testing.T) {
	used := map[Kind]bool{}
	for _, a := range All() {
		if len(a.Targets) == 0 {
			t.Errorf("%s: no targets", a.Name)
		}
		for _, tg := range a.Targets {
			used[tg.Kind] = true
		}
		for _, p := range a.ProjectFiles {
			used[p.Kind] = true
		}
	}
	for k := range used {
		if !slices.Contains(Kinds, k) {
			t.Errorf("kind %q used but not in Kinds", k)
		}
	}
	for _, k := range Kinds {
		if !used[k] {
			t.Errorf("kind %q is never used", k)
		}
	}
}

func TestRootsDefined(t *testing.T) {
	for _, r := range Roots() {
		if _, ok := rootDirs[r]; !ok {
			t.Errorf("root %q listed but not defined", r)
		}
	}
	if len(rootDirs) != len(Roots()) {
		t.Errorf("rootDirs has %d roots, Roots() %d", len(rootDirs), len(Roots()))
	}
	for r, m := range rootDirs {
		for o, dirs := range m {
			for _, d := range dirs {
				if strings.HasPrefix(d, "/") || strings.Contains(d, "\\") || strings.Contains(d, "..") {
					t.Errorf("root %s on %s: bad dir %q", r, o, d)
				}
			}
		}
	}
}

func TestEveryOSCovered(t *testing.T) {
	// Each OS gets targets from the table; the counts go into the report.
	for _, o := range AllOS {
		n := 0
		for _, a := range All() {
			for _, tg := range a.Targets {
				if len(osPatterns(tg, o)) > 0 {
					n++
				}
			}
		}
		t.Logf("%s: %d targets", o, n)
		if n < 100 {
			t.Errorf("%s: only %d targets", o, n)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	good := Agent{Name: "x", Display: "X", Status: StatusBacklog, Evidence: EvidenceSource,
		Targets: []Target{{ID: "t", Root: RootHome, Glob: ".x/*.json", Kind: KindTranscript}}}
	cases := map[string]func(a *Agent) []Agent{
		"duplicate_name":     func(a *Agent) []Agent { return []Agent{*a, *a} },
		"bad_name":           func(a *Agent) []Agent { a.Name = "X_y"; return []Agent{*a} },
		"bad_status":         func(a *Agent) []Agent { a.Status = "done"; return []Agent{*a} },
		"bad_seed_status":    func(a *Agent) []Agent { a.SeedStatus = "done"; return []Agent{*a} },
		"bad_evidence":       func(a *Agent) []Agent { a.Evidence = "rumour"; return []Agent{*a} },
		"bad_kind":           func(a *Agent) []Agent { a.Targets[0].Kind = "blob"; return []Agent{*a} },
		"absolute_glob":      func(a *Agent) []Agent { a.Targets[0].Glob = "/etc/x"; return []Agent{*a} },
		"dotdot_glob":        func(a *Agent) []Agent { a.Targets[0].Glob = "../x"; return []Agent{*a} },
		"unclosed_brace":     func(a *Agent) []Agent { a.Targets[0].Glob = ".x/{a,b"; return []Agent{*a} },
		"root_missing_on_os": func(a *Agent) []Agent { a.Targets[0].Root = RootXDGConfig; return []Agent{*a} },
		"unknown_root":       func(a *Agent) []Agent { a.Targets[0].Root = "nowhere"; return []Agent{*a} },
		"duplicate_target": func(a *Agent) []Agent {
			a.Targets = append(a.Targets, a.Targets[0])
			return []Agent{*a}
		},
		"bad_projects":       func(a *Agent) []Agent { a.Targets[0].Projects = "guess"; return []Agent{*a} },
		"negative_max_size":  func(a *Agent) []Agent { a.Targets[0].MaxSize = -1; return []Agent{*a} },
		"exclude_with_slash": func(a *Agent) []Agent { a.Targets[0].Exclude = []string{"a/b"}; return []Agent{*a} },
		"volume_with_slash":  func(a *Agent) []Agent { a.Volumes = []string{"a/b"}; return []Agent{*a} },
		"project_file_kind":  func(a *Agent) []Agent { a.ProjectFiles = []ProjectFile{{Glob: "X.md"}}; return []Agent{*a} },
		"project_file_dotdot": func(a *Agent) []Agent {
			a.ProjectFiles = []ProjectFile{{Glob: "../X.md", Kind: KindOther}}
			return []Agent{*a}
		},
	}
	if err := Validate([]Agent{good}); err != nil {
		t.Fatalf("good agent rejected: %v", err)
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			a := good
			a.Targets = slices.Clone(good.Targets)
			if err := Validate(mk(&a)); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestProjectRefsDocumented(t *testing.T) {
	used := map[ProjectRef]bool{}
	for _, a := range All() {
		for _, tg := range a.Targets {
			if tg.Projects != ProjectsNone {
				used[tg.Projects] = true
			}
		}
	}
	for _, p := range ProjectRefs {
		if !used[p] {
			t.Errorf("project method %q is never used", p)
		}
	}
}

func TestDocsInSync(t *testing.T) {
	js, err := JSON(All())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		filepath.Join("docs", "agents.md"):   []byte(Markdown(All())),
		filepath.Join("docs", "agents.json"): js,
	}
	for path, want := range files {
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./catalog -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date with the table; run go test ./catalog -update", path)
		}
	}
}
