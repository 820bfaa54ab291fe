package velociraptor

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// reference is testdata/velociraptor-reference.txt.
type reference struct {
	messages   map[string]map[string]bool // proto message -> YAML keys
	paramTypes map[string]bool
	functions  map[string]map[string]bool // name -> arg names
	plugins    map[string]map[string]bool
	artifacts  map[string]map[string]bool // built-in artifact -> parameters
}

func set(csv string) map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Split(csv, ",") {
		if s != "" {
			m[strings.Trim(s, `"`)] = true
		}
	}
	return m
}

func loadReference(t *testing.T) *reference {
	t.Helper()
	f, err := os.Open("testdata/velociraptor-reference.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := &reference{messages: map[string]map[string]bool{}, functions: map[string]map[string]bool{}, plugins: map[string]map[string]bool{}, artifacts: map[string]map[string]bool{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		last := ""
		if len(w) > 2 {
			last = w[len(w)-1]
		}
		switch w[0] {
		case "message":
			r.messages[w[1]] = set(last)
		case "paramtypes":
			r.paramTypes = set(w[1])
		case "function":
			r.functions[w[1]] = set(last)
		case "plugin":
			r.plugins[w[1]] = set(last)
		case "artifact":
			if len(w) > 3 {
				r.artifacts[w[1]] = set(w[3])
			} else {
				r.artifacts[w[1]] = map[string]bool{}
			}
		}
	}
	if len(r.functions) < 100 || len(r.plugins) < 100 || r.messages["Artifact"] == nil || r.messages["Tool"] == nil {
		t.Fatalf("reference list incomplete: %d functions, %d plugins", len(r.functions), len(r.plugins))
	}
	return r
}

func loadArtifact(t *testing.T, name string) *yaml.Node {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc.Content[0]
}

// checkKeys checks a mapping's keys against a proto message's fields, and
// the nested messages the artifact schema gives them.
func checkKeys(t *testing.T, ref *reference, where, msg string, n *yaml.Node) {
	t.Helper()
	nested := map[string]string{"tools": "Tool", "resources": "Resources", "parameters": "ArtifactParameter", "sources": "ArtifactSource", "reports": "Report", "column_types": "ColumnType"}
	if n.Kind != yaml.MappingNode {
		t.Errorf("%s: not a mapping", where)
		return
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if !ref.messages[msg][k] {
			t.Errorf("%s: %q is not a field of Velociraptor's %s", where, k, msg)
			continue
		}
		sub, ok := nested[k]
		if !ok || msg == "Report" {
			continue
		}
		if v.Kind == yaml.SequenceNode {
			for j, e := range v.Content {
				checkKeys(t, ref, where+"."+k+"["+string(rune('0'+j))+"]", sub, e)
			}
		} else {
			checkKeys(t, ref, where+"."+k, sub, v)
		}
	}
}

func get(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

var (
	strLit    = regexp.MustCompile(`(?s)'''.*?'''|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	comment   = regexp.MustCompile(`(?m)(--|//).*$`)
	letFunc   = regexp.MustCompile(`\bLET\s+(\w+)\s*\(`)
	callSite  = regexp.MustCompile(`([A-Za-z_][\w.]*)\s*\(`)
	argName   = regexp.MustCompile(`^\s*(\w+)\s*=[^=~]`)
	keywords  = map[string]bool{"SELECT": true, "FROM": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "IN": true, "LET": true, "AS": true, "LIMIT": true}
	precedeBy = regexp.MustCompile(`(?i)\bFROM\s*$`)
)

// topArgs splits the text between a call's parentheses (starting after
// the open one) into its top-level arguments, and returns them and the
// offset after the closing parenthesis.
func topArgs(s string, i int) ([]string, int) {
	depth, start := 0, i
	var args []string
	for ; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return append(args, s[start:i]), i + 1
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, s[start:i])
				start = i + 1
			}
		}
	}
	return args, i
}

type call struct {
	name, kind string // kind: function, plugin, artifact
	args       []string
}

// calls lists the VQL calls of a query: plugins (after FROM), artifacts
// (Artifact.Name(...)) and functions, with their named arguments. Calls
// of functions the query defines itself (LET name(...) =) are not listed.
func calls(q string) []call {
	q = comment.ReplaceAllString(strLit.ReplaceAllStringFunc(q, func(s string) string { return `""` }), "")
	local := map[string]bool{}
	for _, m := range letFunc.FindAllStringSubmatch(q, -1) {
		local[m[1]] = true
	}
	var out []call
	for _, m := range callSite.FindAllStringSubmatchIndex(q, -1) {
		name := q[m[2]:m[3]]
		if keywords[strings.ToUpper(name)] && strings.ToUpper(name) == name || local[name] {
			continue
		}
		if m[2] > 0 && strings.Contains("]})", q[m[2]-1:m[2]]) {
			continue
		}
		if before := q[:m[2]]; strings.HasSuffix(strings.TrimRight(before, " \t\n"), "LET") {
			continue
		}
		args, _ := topArgs(q, m[1])
		var names []string
		for _, a := range args {
			if am := argName.FindStringSubmatch(a + " "); am != nil {
				names = append(names, am[1])
			}
		}
		c := call{name: name, kind: "function", args: names}
		switch {
		case strings.HasPrefix(name, "Artifact."):
			c.kind, c.name = "artifact", strings.TrimPrefix(name, "Artifact.")
		case strings.Contains(name, "."):
			continue // a method-like member access (Host[0].OS is not a call)
		case precedeBy.MatchString(q[:m[2]]):
			c.kind = "plugin"
		}
		out = append(out, c)
	}
	return out
}

// freeArgs are the calls whose named arguments are the caller's own
// (Velociraptor's reference: chain() "takes a number of queries" as
// named arguments, dict() builds a dict of its arguments).
var freeArgs = map[string]bool{"plugin chain": true, "function dict": true}

var artifacts = []string{"DoubleAgent.Collect.yaml", "DoubleAgent.Server.Timeline.yaml"}

// TestArtifactsAgainstVelociraptor: every key is a field of Velociraptor's
// artifact schema, every parameter type one its launcher knows, and every
// function, plugin, argument and artifact parameter the queries use is
// one Velociraptor defines (reference list extracted from its source).
func TestArtifactsAgainstVelociraptor(t *testing.T) {
	ref := loadReference(t)
	used := map[string]bool{}
	for _, name := range artifacts {
		a := loadArtifact(t, name)
		checkKeys(t, ref, name, "Artifact", a)
		if got := get(a, "name").Value + ".yaml"; got != name {
			t.Errorf("%s: artifact name %s", name, got)
		}
		switch typ := get(a, "type").Value; typ {
		case "CLIENT", "SERVER_EVENT":
		default:
			t.Errorf("%s: type %s", name, typ)
		}
		declared := map[string]bool{}
		for _, p := range get(a, "parameters").Content {
			declared[get(p, "name").Value] = true
			if ty := get(p, "type"); ty != nil && !ref.paramTypes[ty.Value] {
				t.Errorf("%s: parameter %s has type %q, which Velociraptor's launcher does not know", name, get(p, "name").Value, ty.Value)
			}
		}
		for _, s := range get(a, "sources").Content {
			q := get(s, "query").Value
			cs := calls(q)
			if len(cs) < 10 {
				t.Fatalf("%s: only %d calls found: the scanner is broken", name, len(cs))
			}
			for _, c := range cs {
				var known map[string]bool
				switch c.kind {
				case "function":
					known = ref.functions[c.name]
				case "plugin":
					known = ref.plugins[c.name]
				case "artifact":
					known = ref.artifacts[c.name]
				}
				used[c.kind+" "+c.name] = true
				if known == nil {
					t.Errorf("%s: %s %s() is not a Velociraptor %s", name, c.kind, c.name, c.kind)
					continue
				}
				for _, an := range c.args {
					if !known[an] && !freeArgs[c.kind+" "+c.name] {
						t.Errorf("%s: %s %s() has no argument %q", name, c.kind, c.name, an)
					}
				}
			}
			// Every parameter is used by the query.
			for p := range declared {
				if !regexp.MustCompile(`\b` + p + `\b`).MatchString(q) {
					t.Errorf("%s: parameter %s is never used", name, p)
				}
			}
		}
	}
	// What the brief requires is there (the scanner saw it).
	for _, want := range []string{"artifact Generic.Utils.FetchBinary", "plugin execve", "function upload", "plugin info", "plugin glob",
		"function hash", "plugin watch_monitoring", "plugin uploads", "function file_store", "function parse_json"} {
		if !used[want] {
			t.Errorf("no %s in the artifacts", want)
		}
	}
}

// TestScannerFindsWrongNames: the checker fails on a misspelt function,
// a plugin used as a function, a wrong argument and an unknown artifact.
func TestScannerFindsWrongNames(t *testing.T) {
	ref := loadReference(t)
	q := `LET x(a) = SELECT * FROM execve(argvv=["a"]) WHERE uplaod(file="y") AND x(a=1)
	      SELECT glob(globs="*") FROM Artifact.Generic.Utils.FetchBinaryy(ToolName="t")`
	var bad []string
	for _, c := range calls(q) {
		var known map[string]bool
		switch c.kind {
		case "function":
			known = ref.functions[c.name]
		case "plugin":
			known = ref.plugins[c.name]
		case "artifact":
			known = ref.artifacts[c.name]
		}
		if known == nil {
			bad = append(bad, c.kind+" "+c.name)
			continue
		}
		for _, a := range c.args {
			if !known[a] {
				bad = append(bad, c.name+"."+a)
			}
		}
	}
	sort.Strings(bad)
	if strings.Join(bad, "|") != "artifact Generic.Utils.FetchBinaryy|execve.argvv|function glob|function uplaod" {
		t.Fatalf("found %q", bad)
	}
}

var platforms = []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64", "windows_amd64", "windows_arm64"}

// TestToolsMatchTheRelease: the collect artifact declares one tool per
// OS and architecture scripts/build.sh --release builds, each with the
// expected_hash that SHA256SUMS (written by scripts/release.sh from the
// binaries it built) records for its file, and nothing else.
func TestToolsMatchTheRelease(t *testing.T) {
	sums := map[string]string{}
	b, err := os.ReadFile("SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 || len(f[0]) != 64 {
			t.Fatalf("SHA256SUMS line %q", l)
		}
		sums[f[1]] = f[0]
	}
	a := loadArtifact(t, "DoubleAgent.Collect.yaml")
	tools := get(a, "tools").Content
	if len(tools) != len(platforms) || len(sums) != len(platforms) {
		t.Fatalf("%d tools, %d sums, want %d", len(tools), len(sums), len(platforms))
	}
	for i, p := range platforms {
		tl := tools[i]
		file := "doubleagent-collector_" + p
		if strings.HasPrefix(p, "windows") {
			file += ".exe"
		}
		if get(tl, "name").Value != "DoubleAgentCollector_"+p || get(tl, "filename").Value != file || get(tl, "serve_locally").Value != "true" {
			t.Errorf("tool %d: %s %s", i, get(tl, "name").Value, get(tl, "filename").Value)
		}
		if h := get(tl, "expected_hash").Value; h != sums[file] || h == strings.Repeat("0", 64) {
			t.Errorf("%s: expected_hash %s, SHA256SUMS %s", file, h, sums[file])
		}
	}
	// The query names the tools the way the list declares them.
	q := get(get(a, "sources").Content[0], "query").Value
	if !strings.Contains(q, `format(format="DoubleAgentCollector_%v_%v"`) {
		t.Error("the query does not build the tool name from info()'s OS and Architecture")
	}
}

// TestCollectorFlagsAndInventoryFields: every collector flag the artifact
// passes is one the collector has (its CLI struct), and the inventory
// fields it reads are exactly those the collector writes
// (collect/inventory.go's InventoryHost and InventoryRow).
func TestCollectorFlagsAndInventoryFields(t *testing.T) {
	cli, err := os.ReadFile(filepath.Join("..", "cli.go"))
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\t([A-Z]\w*)\s+[\w.\[\]]+\s+`+"`").FindAllStringSubmatch(string(cli), -1) {
		flags["--"+strings.ToLower(regexp.MustCompile(`([a-z])([A-Z])`).ReplaceAllString(m[1], "$1-$2"))] = true
	}
	inv, err := os.ReadFile(filepath.Join("..", "collect", "inventory.go"))
	if err != nil {
		t.Fatal(err)
	}
	// The json names of the two line types, InventoryHost and InventoryRow.
	fields := map[string]bool{}
	for _, typ := range []string{"InventoryHost", "InventoryRow"} {
		body := regexp.MustCompile(`(?s)\ntype ` + typ + ` struct \{\n(.*?)\n\}`).FindStringSubmatch(string(inv))
		if body == nil {
			t.Fatalf("collect/inventory.go has no type %s", typ)
		}
		for _, m := range regexp.MustCompile(`json:"(\w+)`).FindAllStringSubmatch(body[1], -1) {
			fields[m[1]] = true
		}
	}
	b, _ := os.ReadFile("DoubleAgent.Collect.yaml")
	n := 0
	for _, m := range regexp.MustCompile(`"(--[a-z-]+)"`).FindAllStringSubmatch(string(b), -1) {
		n++
		if !flags[m[1]] {
			t.Errorf("the artifact passes %s, which the collector does not have", m[1])
		}
	}
	read := map[string]bool{}
	for _, m := range regexp.MustCompile(`Line\.(\w+)`).FindAllStringSubmatch(string(b), -1) {
		read[m[1]] = true
		if !fields[m[1]] {
			t.Errorf("the artifact reads inventory field %s, which the collector does not write", m[1])
		}
	}
	// and every field the collector writes is a column of the hunt's
	// table (the fleet inventory is the rows, nothing left out).
	for f := range fields {
		if !read[f] {
			t.Errorf("the collector's --inventory writes %s, which the artifact does not return as a column", f)
		}
	}
	if len(fields) != 19 {
		t.Errorf("%d inventory fields read from collect/inventory.go, want the 19 of InventoryHost and InventoryRow: %v", len(fields), fields)
	}
	if n < 8 || !flags["--encrypt-to"] {
		t.Fatalf("%d flags seen; collector flags %v", n, flags)
	}
}
