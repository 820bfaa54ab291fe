package parsers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

var idRe = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+$`)

func spec(p parser.Parser) parser.Spec {
	if s, ok := p.(parser.Specced); ok {
		return s.Spec()
	}
	return parser.Spec{ID: p.ID(), Agent: p.Agent()}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range parsers.All() {
		if !idRe.MatchString(p.ID()) {
			t.Errorf("parser id %q does not match %s", p.ID(), idRe)
		}
		if seen[p.ID()] {
			t.Errorf("duplicate parser id %q", p.ID())
		}
		seen[p.ID()] = true
		prefixOK := strings.HasPrefix(p.ID(), p.Agent()+"/")
		for _, e := range spec(p).Emits {
			prefixOK = prefixOK || strings.HasPrefix(p.ID(), e+"/")
		}
		if !prefixOK {
			t.Errorf("parser %q: id does not start with its agent %q (or an agent it emits)", p.ID(), p.Agent())
		}
		a, ok := catalog.Lookup(p.Agent())
		if !ok {
			t.Errorf("parser %q: agent %q not in the catalog", p.ID(), p.Agent())
			continue
		}
		for _, tg := range spec(p).Targets {
			if tg == catalog.ProjectTarget && len(a.ProjectFiles) > 0 {
				continue
			}
			if tg == catalog.VolumeTarget && len(a.Volumes) > 0 {
				continue
			}
			if _, ok := a.Target(tg); !ok {
				t.Errorf("parser %q: target %q not in catalog agent %q", p.ID(), tg, a.Name)
			}
		}
		for _, e := range spec(p).Emits {
			if _, ok := catalog.Lookup(e); !ok {
				t.Errorf("parser %q: emits unknown agent %q", p.ID(), e)
			}
		}
	}
}

// parsedAgents are the agents whose rows some registered parser writes.
func parsedAgents() map[string]bool {
	m := map[string]bool{}
	for _, p := range parsers.All() {
		m[p.Agent()] = true
		for _, e := range spec(p).Emits {
			m[e] = true
		}
	}
	return m
}

// TestCatalogStatusIsReal: an agent is "parsed" in the catalog exactly
// when a registered parser reads it.
func TestCatalogStatusIsReal(t *testing.T) {
	parsed := parsedAgents()
	for _, a := range catalog.All() {
		if parsed[a.Name] && a.Status != catalog.StatusParsed {
			t.Errorf("%s: a parser is registered but the catalog says %s", a.Name, a.Status)
		}
		if !parsed[a.Name] && a.Status == catalog.StatusParsed {
			t.Errorf("%s: the catalog says parsed but no registered parser reads it", a.Name)
		}
	}
}

// knownGaps are transcript targets of parsed agents that no parser reads
// yet, each with the reason; the list is the honest state, shrinking as
// parsers land.
var knownGaps = map[string]string{
	"zed/conversations": "the legacy text-thread assistant's conversations/*.zed.json: not parsed yet",
	"letta/transcripts": "the cloud backend's transcript mirror: not written by 0.32.18's local backend, not parsed yet",
	"letta/runs":        "scheduled-task runs (cloud backend, 0.34.x source): not written by 0.32.18, not parsed yet",
	"kimi-cli/context":  "context.jsonl and its rotations (the model's context, which wire.jsonl repeats; rotations keep rewound turns): not parsed yet",
}

// notRead are the other collected targets of parsed agents that reach no
// parser as their own file, each with the reason. Secret-kind targets
// need none: they are collected for the examiner and never parsed unless a
// parser declares it reads named non-secret keys.
var notRead = map[string]string{
	"traex/state-db":                  "TRAE CLI's SQLite stores in ~/.trae/cli (agentsview 5386007 names only their WALs): names and tables unknown, collected and inventoried, not read",
	"autogen-studio/configs":          "configs/: collected; team and agent definitions, not records",
	"autogen-studio/files":            "files/: uploads and files the agents wrote: collected whole",
	"chatgpt-desktop/app-data":        "the app's own support files: collected whole; its Codex threads are read from ~/.codex",
	"chatgpt-desktop/group-container": "shared app-group caches: collected whole; the seed names no row in them",
	"chatgpt-desktop/logs":            "the app's diagnostic logs: collected; the seed names no row kind in them",
	"chatgpt-desktop/package":         "the MSIX package folder: collected whole; its Codex threads are read from ~/.codex",
	"chatgpt-desktop/preferences":     "binary plists: collected; no plist decoder and no row the seed names",
	"claude-code/paste-cache":         "read through history.jsonl: a [Pasted text #N] reference opens its file (OpenRelated)",
	"claude-desktop/logs":             "the app's diagnostic logs: collected; the seed names no row kind in them",
	"claude-desktop/logs-macos":       "the app's diagnostic logs: collected; the seed names no row kind in them",
	"cline/logs":                      "the CLI's diagnostic logs (hooks.jsonl is read): collected; no row kind in the seed",
	"codex-cli/logs":                  "codex-tui.log: collected; not in the seed's files read",
	"cody/extension-storage":          "the extension's globalStorage caches: collected; its chats are read from state.vscdb",
	"copilot/store":                   "the language server's other files (versions.json, caches, logs): collected; no account or conversation",
	"copilot/store-windows":           "the language server's other files on Windows: collected; no account or conversation",
	"kimi-work/aux-sessions":          "the daimon runtime's own title, skill-summary and dev-loop sessions (prompts the runtime writes, not conversations): collected, not parsed",
	"qwenpaw/config":                  "config.json, token_usage.json and each workspace's jobs.json (cron jobs), agent.json and HEARTBEAT.md: collected, not parsed yet",
	"omp/logs":                        "OhMyPi's debug logs (JSON lines: proxy, rules registered, lifecycle) and their rotation audit file: collected; no row kind seen in the 18.2.3 run",
	"reasonix/stats":                  "stats/<date>.jsonl: token usage per model request, collected, not parsed (not evidence of an action)",
	"reasonix/config":                 "config.toml: providers, permissions, sandbox; collected, not parsed yet",
	"shelley/config":                  "AGENTS.md and hooks/: the user's instructions and hook scripts, collected, not parsed yet",
	"openclaude/history":              "history.jsonl in Claude Code's layout: collected; the reader is claude-code's and is not shared as a format yet",
	"command-code/customizations":     "skills, agents, commands, taste files: collected; instructions, not records",
	"command-code/session-extra":      "share links, scheduled tasks and .v2.bak pre-migration copies (the .jsonl holds the same messages): collected, not parsed yet",
	"command-code/side-files":         "checkpoints.jsonl and prompts.jsonl: collected; their shape is not read yet",
	"crewai/user":                     ".crewai_user.json: collected; the telemetry user id, no row kind",
	"crewai/settings":                 ".config/crewai: collected; CLI settings, not records",
	"crewai/skills":                   ".crewai: collected; skills, instructions not records",
	"crush/logs":                      "the app's diagnostic logs: collected; the seed names no row kind in them",
	"camel-ai/config":                 "~/.config/camel settings: collected; no record shape named in the source read",
	"camel-ai/skills":                 "~/.camel/skills: skill definitions, instructions, not records: collected",
	"codebuff/chat-files":             "run-state.json (read beside chat-messages.json for the cwd and agent type), chat-meta.json, log.jsonl: collected, not parsed on their own",
	"codebuff/credentials":            "the Codebuff login token: a secret, never read",
	"cursor/editor-logs":              "the editor's diagnostic logs: collected; the seed names no row kind in them",
	"dify/cli-config":                 "difyctl config.yml: collected; the CLI's endpoint settings, no row kind",
	"factory-droid/session-index":     "cache/session-index/index.db: never written by 0.225.2, so no schema to read",
	"flowise/logs":                    "the server's winston logs (server.log, server-error.log, server-requests.log.jsonl): collected; the seed names no row kind in them",
	"flowise/storage":                 "uploaded files and flow storage: collected whole; chat_message fileUploads names each upload",
	"goose/logs":                      "the app's diagnostic logs (llm_request logs are read): collected",
	"grok/instructions":               "GROK.md custom instructions (grok-cli): collected; instructions, not records",
	"hermes/logs":                     "the agent's diagnostic logs: collected; the seed names no row kind in them",
	"kimi-cli/logs":                   "kimi.log, the CLI's diagnostic log: collected; no row kind in its source",
	"kimi-cli/subagent-meta":          "subagents/<id>/meta.json, prompt.txt, output: collected; the subagent's own wire.jsonl gives its rows",
	"kimi-cli/code-session-files":     "Kimi Code's per-session notify, tasks, cron, plans and upcoming-goals files: collected; the session's wire.jsonl records the tasks, schedules, plans and goals as rows",
	"kimi-cli/code-file-history":      "Kimi Code's file-history: copies of files before the agent changed them, and the per-workspace touch list: collected as evidence; the wire's file_history records name each copy with its sha256",
	"kimi-cli/code-index-cache":       "Kimi Code's sessions/.index-cache/scan.json and .index-dirty markers: collected; a cache rebuilt from the sessions' state.json files",
	"kimi-cli/code-logs":              "kimi-code.log (global and per session) and updates/rollout.log, the CLI's diagnostic and update logs: collected; no row kind in its source",
	"langflow/config-dir":             "the config directory's secret_key, uploads and logs: collected; its langflow.db is the server-db target",
	"langflow/config-dir-windows":     "the config directory's secret_key, uploads and logs: collected; its langflow.db is the server-db-windows target",
	"langflow/fs-sandbox":             "files the agent's file tools wrote: collected whole; the tool rows name them",
	"langflow/desktop-app":            "Langflow Desktop's Electron app folder: collected; known from the documentation only, no row kind",
	"letta/listener-state":            "the listener's cursor files: collected; bookkeeping with no evidence of its own",
	"letta/server-db":                 "the self-hosted server's database: not written by the local backend, no schema seen",
	"letta/sessions":                  "sessions.jsonl: not written by 0.32.18's local backend, not parsed yet",
	"local-deep-research/logs":        "the app's logs: collected; the seed names no row kind in them",
	"local-deep-research/documents":   "Documents/LocalDeepResearch: collected whole; exported documents, not records",
	"muse-code/approval-review":       "approval and tool-output blobs: collected; no source shows their format",
	"muse-code/config":                "configuration files: collected; no source shows their keys",
	"muse-code/indexes":               "the code-search indexes: collected; they hold the project, not the agent's use",
	"n8n/event-log":                   "n8nEventLog*.log and crash.journal: collected; not parsed yet (workflow and node events repeat execution_entity)",
	"n8n/gateway-settings":            "the computer-use gateway's settings.json: collected; not parsed yet",
	"nanobot/sessions-db":             "sessions.sqlite3: its writer is in no public source; the JSONL beside it is read",
	"nanobot/workspace":               "the workspace marker: collected; no evidence of its own",
	"ollama/logs":                     "the server's diagnostic logs: collected; the seed names no row kind in them",
	"openclaw/agent-db-locks":         "the store's writer and reindex lock databases: collected with it; locks hold no rows",
	"openclaw/logs":                   "the gateway's diagnostic logs: collected; the seed names no row kind in them",
	"openclaw/plugin-skills":          "plugin skill files: collected; listed by the control surface, not parsed as records",
	"openclaw/workspace":              "the workspace's Markdown files (AGENTS.md, SOUL.md): collected; instructions, not records",
	"opencode/logs":                   "the app's diagnostic logs: collected; the seed names no row kind in them",
	"pearai/extension-settings":       "the extension's settings folder: collected; its state row is read from state.vscdb",
	"pearai/output-log":               "the output channel's log: collected; not parsed yet",
	"pearai/workspace-json":           "workspace.json: read beside state.vscdb to name the project (OpenRelated)",
	"pi/experimental-db":              "experimental session.sqlite: no schema seen",
	"pydantic-clai/input-history":     "CLAI 2.0 input-history: collected; its writer is not in the source read, format not known yet",
	"pydantic-clai/mcp":               "CLAI 2.0 mcp.json: collected; not parsed yet",
	"pydantic-clai/orchestrator":      "CLAI 2.0 orchestrator.json: collected; not parsed yet",
	"pydantic-clai/workspaces":        "CLAI 2.0 workspace.json: collected (it names project folders); not parsed yet",
	"pydantic-clai/workspace-logs":    "CLAI 2.0 session.log: collected; its format is not known yet",
	"qwen-code/token-usage":           "token usage counters: collected; no row kind in the seed",
	"twinny/agent-changes":            "agent-changes records (twinny 4.x): only 3.23.31 is public, no shape to read",
	"twinny/extension-storage":        "the extension's globalStorage caches: collected; its chats are read from state.vscdb",
	"twinny/log":                      "the extension's log (twinny 4.x): only 3.23.31 is public, no shape to read",
	"windsurf/editor-logs":            "the editor's diagnostic logs: collected; the seed names no row kind in them",
	"zed/logs":                        "the editor's diagnostic logs: collected; the seed names no row kind in them",
}

// TestTranscriptTargetsAreParsed: every transcript target of a parsed agent
// is matched by some parser, or listed in knownGaps.
func TestTranscriptTargetsAreParsed(t *testing.T) {
	byAgent := map[string]map[string]bool{}
	for _, p := range parsers.All() {
		if byAgent[p.Agent()] == nil {
			byAgent[p.Agent()] = map[string]bool{}
		}
		for _, tg := range spec(p).Targets {
			byAgent[p.Agent()][tg] = true
		}
	}
	for _, a := range catalog.All() {
		if byAgent[a.Name] == nil {
			continue
		}
		for _, tg := range a.Targets {
			if _, gap := knownGaps[a.Name+"/"+tg.ID]; gap {
				if byAgent[a.Name][tg.ID] {
					t.Errorf("%s/%s is parsed now: remove it from knownGaps", a.Name, tg.ID)
				}
				continue
			}
			if tg.Kind == catalog.KindTranscript && !byAgent[a.Name][tg.ID] {
				t.Errorf("%s target %s (transcript) is read by no parser", a.Name, tg.ID)
			}
		}
	}
}

// TestEveryCollectedTargetIsRouted: every target of a parsed agent reaches
// a parser, or is listed (knownGaps, notRead) with the reason it does not,
// or is of kind secret; a listed target that a parser reads now fails too.
func TestEveryCollectedTargetIsRouted(t *testing.T) {
	routed := map[string]map[string]bool{}
	for _, p := range parsers.All() {
		// An agent whose rows a parser emits from another agent's files
		// (an editor extension read from the editor's state.vscdb) is
		// parsed too: its own targets need a route or a reason.
		for _, a := range append([]string{p.Agent()}, spec(p).Emits...) {
			if routed[a] == nil {
				routed[a] = map[string]bool{}
			}
		}
		ts := spec(p).Targets
		if len(ts) == 0 {
			routed[p.Agent()]["*"] = true
		}
		for _, tg := range ts {
			routed[p.Agent()][tg] = true
		}
	}
	seen := map[string]bool{}
	for _, a := range catalog.All() {
		r := routed[a.Name]
		if r == nil || r["*"] {
			continue
		}
		for _, tg := range a.Targets {
			k := a.Name + "/" + tg.ID
			_, gap := knownGaps[k]
			_, skip := notRead[k]
			seen[k] = true
			switch {
			case r[tg.ID] && skip:
				t.Errorf("%s is read by a parser now: remove it from notRead", k)
			case r[tg.ID], gap, skip, tg.Kind == catalog.KindSecret:
			default:
				t.Errorf("%s (%s) reaches no parser: route it, or say in notRead why it is not read", k, tg.Kind)
			}
		}
	}
	for k := range notRead {
		if !seen[k] {
			t.Errorf("notRead lists %s, which is no target of a parsed agent", k)
		}
	}
}

// Docs renders analyzer/docs/parsers.md.
func docs(t testing.TB) []byte {
	var b bytes.Buffer
	b.WriteString("# Parsers\n\nGenerated from `analyzer/parsers/all.go` and the catalog by `go test ./parsers -update`; do not edit.\n\n")
	b.WriteString("| parser | agent | version | catalog targets | files | what it reads |\n|---|---|---|---|---|---|\n")
	for _, p := range parsers.All() {
		s := spec(p)
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %s | %s |\n", p.ID(), p.Agent(), p.Version(), strings.Join(s.Targets, ", "), strings.Join(s.Names, ", "), strings.ReplaceAll(s.Doc, "|", "\\|"))
	}
	parsed := parsedAgents()
	var names []string
	for n := range parsed {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "\nAgents parsed: %d (%s).\n", len(names), strings.Join(names, ", "))
	var rest []string
	for _, a := range catalog.All() {
		if !parsed[a.Name] {
			rest = append(rest, fmt.Sprintf("%s (%s)", a.Name, a.Status))
		}
	}
	fmt.Fprintf(&b, "\nAgents collected but not parsed: %d: %s.\n", len(rest), strings.Join(rest, ", "))
	b.WriteString(rowsByAgent(t))
	return b.Bytes()
}

func TestDocsInSync(t *testing.T) {
	const path = "../docs/parsers.md"
	got := docs(t)
	if *parsertest.Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("analyzer/docs/parsers.md is out of date: run go test ./parsers -update")
	}
}

type nopSink struct{ n int }

func (s *nopSink) Event(e timeline.Event) {
	s.n++
	if e.TurnType == "" {
		panic("event without turn type")
	}
}
func (s *nopSink) Session(timeline.SessionState) {}
func (s *nopSink) Problem(int64, string)         {}
func (s *nopSink) Report(int64, string, string)  {}
func (s *nopSink) Skip(int64, string)            {}

// FuzzParsers feeds arbitrary bytes to every parser's entry point, as a
// file of each target it matches: none may panic or hang.
func FuzzParsers(f *testing.F) {
	f.Add([]byte(`{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), uint8(0))
	f.Add([]byte(`{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x","cwd":"/p"}}`+"\n"), uint8(3))
	f.Add([]byte(`{"sessionId":"s","messages":[{"id":"m","type":"user","content":"x","timestamp":"2026-01-01T00:00:00Z"}]}`), uint8(6))
	f.Add([]byte("{\"$set\":{\"messages\":[1,2]}}\n{\"$rewindTo\":\"m\"}\n\x00\x00{\"id\":\"m\",\"type\":\"gemini\""), uint8(7))
	// A BOM and CRLF line ends (issue 22), impossible times (issue 23), and
	// the legacy shapes (.claude.json projects[].history, Copilot CLI's
	// history-session-state), each given to every parser.
	for _, seed := range [][]byte{
		[]byte("\xef\xbb\xbf{\"type\":\"user\",\"sessionId\":\"s\",\"timestamp\":\"9999-12-31T23:59:59Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\r\n{\"type\":\"user\",\"timestamp\":\"0000-01-01T00:00:00Z\"}\r\n"),
		[]byte("\xef\xbb\xbf{\r\n \"projects\": {\"/p\": {\"history\": [{\"display\": \"x [Pasted text #1]\", \"pastedContents\": {\"1\": {\"content\": 5}}}, \"y\", null, 7]}, \"/q\": null}}"),
		[]byte("{\"sessionId\":\"s\",\"startTime\":\"0000-01-01T00:00:00Z\",\"chatMessages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":1,\"function\":{\"arguments\":\"{\"}}]},{\"role\":\"tool\"}],\"timeline\":[{\"timestamp\":1e300}]}"),
	} {
		for i := range parsers.All() {
			f.Add(seed, uint8(i))
		}
	}
	ps := parsers.All()
	f.Fuzz(func(t *testing.T, data []byte, idx uint8) {
		p := ps[int(idx)%len(ps)]
		s := spec(p)
		f := parser.File{Path: "/home/u/x.jsonl", Agent: p.Agent(), MTime: time.Unix(0, 0)}
		if len(s.Targets) > 0 {
			f.Target = s.Targets[int(idx)%len(s.Targets)]
		}
		if len(s.Names) > 0 {
			f.Path = "/home/u/" + strings.ReplaceAll(strings.ReplaceAll(s.Names[0], "*", "x"), "?", "y")
		}
		path := t.TempDir() + "/in"
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		in := parsertest.Input(t, path, f, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Parse(ctx, in, &nopSink{})
	})
}

// TestParserVersionsRecorded: every registered parser is recorded at its
// Spec.Version, with at least one golden, in the testdata/versions.json of
// exactly one parser package; every recorded id is registered; and every
// parser package's tests end in parsertest.Main, which fails when a golden
// changes without a version bump and when a golden is orphaned.
func TestParserVersionsRecorded(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{} // id -> package folder
	versions := map[string]int{}
	for _, d := range entries {
		if !d.IsDir() || d.Name() == "testdata" {
			continue // testdata: the cross-parser goldens, checked by this package's TestMain
		}
		tests, _ := filepath.Glob(filepath.Join(d.Name(), "*_test.go"))
		hasMain := false
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			hasMain = hasMain || bytes.Contains(b, []byte("parsertest.Main(m)"))
		}
		if !hasMain {
			t.Errorf("%s: no TestMain calling parsertest.Main(m): its goldens are not checked against parser versions", d.Name())
		}
		rec, err := parsertest.ReadVersions(filepath.Join(d.Name(), filepath.FromSlash(parsertest.VersionsFile)))
		if err != nil {
			t.Fatal(err)
		}
		for id, r := range rec {
			// A shared parser (an extension-state reader of a VS Code
			// store) may be recorded by each package whose goldens run it,
			// at one version.
			if other, dup := recorded[id]; dup && versions[id] != r.Version {
				t.Errorf("%s recorded in %s at version %d and in %s at %d", id, other, versions[id], d.Name(), r.Version)
			}
			recorded[id], versions[id] = d.Name(), r.Version
			if len(r.Goldens) == 0 {
				t.Errorf("%s (%s): no golden recorded", id, d.Name())
			}
		}
	}
	registered := map[string]bool{}
	for _, p := range parsers.All() {
		registered[p.ID()] = true
		dir, ok := recorded[p.ID()]
		switch {
		case !ok:
			t.Errorf("%s: no golden test records its output in any parser package's %s", p.ID(), parsertest.VersionsFile)
		case versions[p.ID()] != p.Version():
			t.Errorf("%s: Spec.Version %d, %s/%s records %d: run go test -update in %s", p.ID(), p.Version(), dir, parsertest.VersionsFile, versions[p.ID()], dir)
		}
	}
	for id, dir := range recorded {
		if !registered[id] {
			t.Errorf("%s/%s records %s, which is not registered", dir, parsertest.VersionsFile, id)
		}
	}
}

// TestSecondaryRowsAreDeclared: every parser whose rows (in any golden
// under parsers/) are secondary declares Spec.Secondary with that turn
// type, so the engine knows the window to pair them in.
func TestSecondaryRowsAreDeclared(t *testing.T) {
	byID := map[string]parser.Spec{}
	for _, p := range parsers.All() {
		byID[p.ID()] = spec(p)
	}
	goldens, err := filepath.Glob("*/testdata/*.golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			var r timeline.Row
			if json.Unmarshal(l, &r) != nil || r.Secondary != "true" {
				continue
			}
			k := r.Parser + " " + r.TurnType
			if seen[k] {
				continue
			}
			seen[k] = true
			sp, ok := byID[r.Parser]
			if !ok {
				t.Errorf("%s: secondary row of unknown parser %q", g, r.Parser)
				continue
			}
			if sp.Secondary == nil {
				t.Errorf("%s: parser %s writes secondary rows but declares no Spec.Secondary", g, r.Parser)
				continue
			}
			found := false
			for _, tt := range sp.Secondary.TurnTypes {
				found = found || string(tt) == r.TurnType
			}
			if !found {
				t.Errorf("%s: parser %s writes secondary %s rows; Spec.Secondary.TurnTypes %v lacks it", g, r.Parser, r.TurnType, sp.Secondary.TurnTypes)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("no secondary rows in any golden: the check reads nothing")
	}
}

// windowsTable renders the secondary sources every parser declares, for
// the generated section of analyzer/docs/output.md.
func windowsTable() string {
	var b strings.Builder
	b.WriteString("| parser | window | turn types | why this window |\n|---|---|---|---|\n")
	for _, p := range parsers.All() {
		sec := spec(p).Secondary
		if sec == nil {
			continue
		}
		w := "0 (no usable time)"
		if sec.Window > 0 {
			w = sec.Window.String()
		}
		var tts []string
		for _, tt := range sec.TurnTypes {
			tts = append(tts, string(tt))
		}
		basis := sec.Basis
		if len(sec.Unrecorded) > 0 {
			basis += "; never in the store of record, so no sign of lost turns: `" + strings.Join(sec.Unrecorded, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.ID(), w, strings.Join(tts, ", "), strings.ReplaceAll(basis, "|", "\\|"))
	}
	return b.String()
}

// TestOutputDocListsSecondaryWindows: output.md lists exactly the windows
// the parsers' Specs declare.
func TestOutputDocListsSecondaryWindows(t *testing.T) {
	const path = "../docs/output.md"
	const open, shut = "<!-- secondary-windows: generated by `go test ./parsers -update`; do not edit -->\n", "<!-- /secondary-windows -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, open), strings.Index(s, shut)
	if i < 0 || j < i {
		t.Fatalf("%s has no secondary-windows section", path)
	}
	got := s[:i+len(open)] + windowsTable() + s[j:]
	if *parsertest.Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != s {
		t.Fatalf("%s: the secondary windows differ from the parsers' Specs: run go test ./parsers -update", path)
	}
}

// actionTables returns, per agent, the Spec.Actions tables of the parsers
// writing its rows (as the engine builds them).
func actionTables() map[string][]map[string]timeline.Action {
	m := map[string][]map[string]timeline.Action{}
	for _, p := range parsers.All() {
		s := spec(p)
		if s.Actions == nil {
			continue
		}
		for _, a := range append([]string{p.Agent()}, s.Emits...) {
			m[a] = append(m[a], s.Actions)
		}
	}
	return m
}

// TestEveryToolNameHasAnAction: every tool name a fixture shows (parser
// goldens and the real-agent end-to-end goldens) is named by its agent's
// actions table, so "other" only ever means a tool no fixture showed.
func TestEveryToolNameHasAnAction(t *testing.T) {
	tables := actionTables()
	files, _ := filepath.Glob("*/testdata/*.golden.jsonl")
	e2e, _ := filepath.Glob("../../fixtures/golden/*.timeline.jsonl")
	if len(e2e) == 0 {
		t.Fatal("no end-to-end goldens under fixtures/golden")
	}
	seen := map[string]bool{}
	for _, f := range append(files, e2e...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			var r timeline.Row
			if json.Unmarshal(l, &r) != nil || r.ToolName == "" || (r.TurnType != "tool_use" && r.TurnType != "tool_result") {
				continue
			}
			k := r.Agent + " " + r.ToolName
			if seen[k] {
				continue
			}
			seen[k] = true
			ok := false
			for _, tb := range tables[r.Agent] {
				if _, found := parser.ActionFor(tb, r.ToolName); found {
					ok = true
					break
				}
			}
			if !ok {
				t.Errorf("%s: %s tool %q maps to no action: add it to the package's actions table", f, r.Agent, r.ToolName)
			}
		}
	}
	if len(seen) < 50 {
		t.Fatalf("only %d tool names seen: the check reads too little", len(seen))
	}
}

// actionsDoc renders analyzer/docs/actions.md from the tables.
func actionsDoc() []byte {
	var b bytes.Buffer
	b.WriteString("# Actions\n\nGenerated from each parser package's actions table by `go test ./parsers -update`; do not edit.\n\n")
	b.WriteString("Tool rows (`tool_use`, `tool_result`) carry `action`, one vocabulary across agents, so an examiner can ask for\n")
	b.WriteString("every shell command any agent ran (`--action execute`) without knowing each agent's tool names. A parser sets\n")
	b.WriteString("it where the call's arguments decide; otherwise the engine looks the tool name up below (exact names first,\n")
	b.WriteString("then patterns); a tool no table names is `other`.\n\n")
	b.WriteString("| action | meaning |\n|---|---|\n")
	means := map[timeline.Action]string{
		timeline.ActExecute: "a shell command or program run", timeline.ActFileRead: "read a file or list a folder",
		timeline.ActFileWrite: "create or overwrite a file", timeline.ActFileEdit: "change part of a file (a patch, a replace)",
		timeline.ActFileDelete: "delete or move away a file", timeline.ActSearch: "search files or code (grep, glob, an index)",
		timeline.ActWebFetch: "fetch a URL or search the web", timeline.ActMCP: "a tool of an MCP server",
		timeline.ActSubagent: "start or steer a subagent", timeline.ActAskUser: "a question to the person",
		timeline.ActTodo: "the agent's own plan or to-do list", timeline.ActOther: "anything else",
	}
	for _, a := range timeline.Actions {
		fmt.Fprintf(&b, "| `%s` | %s |\n", a, means[a])
	}
	tables := actionTables()
	var agents []string
	for a := range tables {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		fmt.Fprintf(&b, "\n## %s\n\n| tool | action |\n|---|---|\n", a)
		seen := map[string]bool{}
		var names []string
		for _, tb := range tables[a] {
			for n := range tb {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
		sort.Strings(names)
		for _, n := range names {
			act, _ := parser.ActionFor(tables[a][0], n)
			for _, tb := range tables[a] {
				if v, ok := tb[n]; ok {
					act = v
					break
				}
			}
			fmt.Fprintf(&b, "| `%s` | %s |\n", n, act)
		}
	}
	return b.Bytes()
}

func TestActionsDocInSync(t *testing.T) {
	const path = "../docs/actions.md"
	got := actionsDoc()
	if *parsertest.Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("analyzer/docs/actions.md is out of date: run go test ./parsers -update")
	}
}
