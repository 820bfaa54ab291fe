package parsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// RealAgent is one agent's part of a real-agent fixture root
// (fixtures/roots/<root>, written by real agents; see its README).
type RealAgent struct {
	Root     string          // local fixtures/roots/<root>
	Home     string          // local folder of the fixture user's home
	User     string          // the fixture's user (expect.json "user")
	HomePath string          // the home's original path (expect.json "home", /home/examiner2)
	Expect   json.RawMessage // the agent's entry in <root>.expect.json
}

// Orig returns the original path of a local file under Home.
func (r RealAgent) Orig(local string) string {
	rel, err := filepath.Rel(r.Home, local)
	if err != nil {
		return ""
	}
	return r.HomePath + "/" + filepath.ToSlash(rel)
}

// RealAgentFixture returns agent's part of fixtures/roots/<root>, found by
// walking up from the working directory. The fixtures are committed with
// the repository, so a missing root, expect.json, home or agent entry
// fails the test: it never skips a fixture that should be there. The one
// skip is an agent the generator recorded it could not run ("ran": false,
// with its error), which has no files to read.
func RealAgentFixture(t testing.TB, root, agent string) RealAgent {
	t.Helper()
	dir, _ := os.Getwd()
	var roots string
	for i := 0; i < 8; i++ {
		p := filepath.Join(dir, "fixtures", "roots")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			roots = p
			break
		}
		dir = filepath.Dir(dir)
	}
	if roots == "" {
		t.Fatalf("fixtures/roots not found above the working directory: the real-agent fixtures are part of the repository")
	}
	expectPath := filepath.Join(roots, root+".expect.json")
	b, err := os.ReadFile(expectPath)
	if err != nil {
		t.Fatalf("real-agent fixture %s: %v", root, err)
	}
	var head struct {
		User string `json:"user"`
		Home string `json:"home"`
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatalf("%s: %v", expectPath, err)
	}
	if err := json.Unmarshal(b, &head); err != nil || head.User == "" || head.Home == "" {
		t.Fatalf("%s: no user and home (%v)", expectPath, err)
	}
	raw, ok := all[agent]
	if !ok {
		t.Fatalf("%s has no %q entry", expectPath, agent)
	}
	var ran struct {
		Ran   *bool  `json:"ran"`
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &ran) == nil && ran.Ran != nil && !*ran.Ran {
		t.Skipf("%s: the generator could not run %s, so the fixture has no files of it: %s", expectPath, agent, ran.Error)
	}
	r := RealAgent{Root: filepath.Join(roots, root), User: head.User, HomePath: head.Home, Expect: raw}
	r.Home = filepath.Join(r.Root, filepath.FromSlash(head.Home))
	if st, err := os.Stat(r.Home); err != nil || !st.IsDir() {
		t.Fatalf("real-agent fixture %s: home %s missing (%v)", root, r.Home, err)
	}
	return r
}

// Glob returns the local files under the home matching pattern (a
// filepath.Glob pattern relative to the home) and fails the test when
// there are none: the expect.json entry says the agent ran.
func (r RealAgent) Glob(t testing.TB, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(r.Home, filepath.FromSlash(pattern)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) == 0 {
		t.Fatalf("real-agent fixture %s: no %s under %s", filepath.Base(r.Root), pattern, r.Home)
	}
	return m
}
