package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// Agent is the catalog name of Gemini CLI.
const Agent = "gemini-cli"

// Parsers returns the Gemini CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "gemini-cli/chat", Agent: Agent, Version: 8,
			Actions: actions,
			Targets: []string{"chats"}, Names: []string{"*.json", "*.jsonl"},
			Doc: "tmp/<slug>/chats/**/*.jsonl op-log (replayed: last copy wins unless it rewrites the message, then both stay; $set keeps first-hand records, $rewindTo keeps the rewound ones and a rewind row) and legacy *.json ConversationRecord",
		}, parseChat),
		parser.New(parser.Spec{
			ID: "gemini-cli/logs", Agent: Agent, Version: 3, Trace: true,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "logs.json stamps each input as it is submitted (useGeminiStream prepareQueryForGemini), before slash and @-command processing; the chat records the prompt when it is sent (geminiChat), within a second, later after a confirmation a scheduled tool waits on",
				// 0.61.0: the quit command (altName exit) ends the session
				// and reaches logs.json only (fixtures/roots/deleted-by-agents)
				Unrecorded: []string{"/quit", "/exit"}},
			Targets: []string{"logs"}, Names: []string{"logs.json"},
			Doc: "tmp/<slug>/logs.json prompt log (secondary user rows)",
		}, parseLogs),
		parser.New(parser.Spec{
			ID: "gemini-cli/settings", Agent: Agent, Version: 3,
			Actions: actions,
			// "project": a project's .gemini/settings.json and
			// .gemini/policies/*.toml, collected as project artifacts.
			Targets: []string{"settings", catalog.ProjectTarget},
			Names:   []string{"settings.json", "trustedFolders.json", "trusted_hooks.json", "agents.json", "*.toml"},
			Doc:     ".gemini/settings.json (home and project) permission, sandbox and retention keys, policies/*.toml rules (home and project), trustedFolders.json, trusted_hooks.json and acknowledgments/agents.json (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "gemini-cli/tmp-history", Agent: Agent, Version: 4,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.System, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult},
				Basis:     "shell_history and the Content[] of /chat save checkpoints and /bug exports record no time (useShellHistory.ts, historyExportUtils.ts)"},
			Targets: []string{"tmp-history"}, Names: []string{"shell_history", "checkpoint-*.json", "bug-report-history-*.json"},
			Doc: "tmp/<slug>/shell_history, checkpoint-<tag>.json (/chat save) and bug-report-history-<ms>.json (/bug) as secondary sources with no timestamp",
		}, parseTmpHistory),
		parser.New(parser.Spec{
			ID: "gemini-cli/restore-checkpoints", Agent: Agent, Version: 1, Trace: true,
			Actions: actions,
			Targets: []string{"restore-checkpoints"}, Names: []string{"*.json"},
			Doc: "tmp/<slug>/checkpoints/<time>-<file>-<tool>.json (general.checkpointing): one row per checkpoint naming its session by the prompt id, at the time its name records, naming sessions whose chat may be gone (trace)",
		}, parseRestore),
	}
}

// tmpLayout splits a path under <home>/.gemini/tmp/<slug>/ (or
// .cache/.gemini/tmp/<slug>/) into the home, the .gemini directory and the
// slug directory. ok is false for other paths.
func tmpLayout(p string) (home, geminiDir, slugDir, slug string, ok bool) {
	i := strings.LastIndex(p, "/.gemini/tmp/")
	if i < 0 {
		return "", "", "", "", false
	}
	geminiDir = p[:i+len("/.gemini")]
	rest := p[i+len("/.gemini/tmp/"):]
	j := strings.IndexByte(rest, '/')
	if j <= 0 {
		return "", "", "", "", false
	}
	slug = rest[:j]
	slugDir = geminiDir + "/tmp/" + slug
	home = p[:i]
	home = strings.TrimSuffix(home, "/.cache")
	return home, geminiDir, slugDir, slug, true
}

// maxSmallFile bounds what is read of a small related file (.project_root,
// projects.json).
const maxSmallFile = 4 << 20

// projectResolver finds a tmp/<slug> directory's project path: the slug
// directory's .project_root, else ~/.gemini/projects.json (path -> slug, or
// a path whose sha256 is the legacy hash slug or the session's
// projectHash). It reads each related file at most once per parse.
type projectResolver struct {
	in       *parser.Input
	done     bool
	root     string   // from .project_root
	projects []string // projects.json keys, file order
	slugOf   map[string]string
	slug     string
}

func newProjectResolver(in *parser.Input) *projectResolver {
	return &projectResolver{in: in}
}

func (r *projectResolver) load() {
	if r.done {
		return
	}
	r.done = true
	home, geminiDir, slugDir, slug, ok := tmpLayout(r.in.Path)
	if !ok {
		return
	}
	r.slug = slug
	if b, ok := r.in.ReadRelated(slugDir+"/.project_root", maxSmallFile); ok {
		r.root = strings.TrimSpace(string(b))
	}
	if r.root != "" {
		return
	}
	for _, p := range []string{geminiDir + "/projects.json", home + "/.gemini/projects.json"} {
		b, ok := r.in.ReadRelated(p, maxSmallFile)
		if !ok {
			continue
		}
		var pj struct {
			Projects json.RawMessage `json:"projects"`
		}
		if json.Unmarshal(b, &pj) != nil || len(pj.Projects) == 0 {
			continue
		}
		r.slugOf = map[string]string{}
		_ = parser.ObjectMembers(pj.Projects, func(k string, v json.RawMessage) {
			var s string
			if json.Unmarshal(v, &s) == nil {
				r.projects = append(r.projects, k)
				r.slugOf[k] = s
			}
		})
		return
	}
}

// Path returns the project path for a file of this slug directory, using
// projectHash (the session's, may be "") as a further key.
func (r *projectResolver) Path(projectHash string) string {
	r.load()
	if r.root != "" {
		return r.root
	}
	for _, p := range r.projects {
		if r.slugOf[p] == r.slug && r.slug != "" {
			return p
		}
	}
	for _, p := range r.projects {
		sum := sha256.Sum256([]byte(p))
		h := hex.EncodeToString(sum[:])
		if h == r.slug || (projectHash != "" && h == projectHash) {
			return p
		}
	}
	return ""
}

// base is path.Base for '/' separated original paths.
func base(p string) string { return path.Base(p) }
