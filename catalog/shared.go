package catalog

import (
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Shared paths. Two agents' targets can name one path, and a walk reports
// each path once: without a rule the first agent in list order (by name)
// would take it, so an agent's files would be named by whichever agent
// sorts first. Every path two agents name is decided here instead, and
// TestSharedPaths lists them all (it computes every pair of targets of
// different agents whose globs can match one path, and every folder two
// agents name) and fails on one these tables do not decide.

// SharedFolder is a folder two or more agents' targets name outright
// (Folders), and the agent it belongs to.
type SharedFolder struct {
	Rel    string   // home-relative, '/' separated
	Owner  string   // the agent whose folder it is
	Others []string // the agents that keep files in it
	Why    string
}

// SharedFolders are the folders more than one agent names. The owner's
// folder row is written for it; the others' files in it stay theirs.
var SharedFolders = []SharedFolder{
	{Rel: ".copilot", Owner: "copilot-cli", Others: []string{"copilot-desktop"}, Why: "Copilot CLI's configuration folder (COPILOT_HOME); Copilot Desktop keeps data.db and repos/ in it and runs its sessions through the CLI"},
	{Rel: ".pi/agent", Owner: "pi", Others: []string{"little-coder"}, Why: "pi's agent folder; little-coder, which runs on pi, keeps only its prompt history there"},
}

// sharedForkFolders are the folders of a VS Code fork that the vscode
// agent's targets over every fork's User folder also name: the fork's own
// agent owns them.
var sharedForkFolders = []struct{ fork, agent string }{{"Trae", "trae"}}

// SharedTarget is a pair of targets of two agents whose globs can match
// one path: a path both match is Owner's. Owner and Yields are
// "agent/target".
type SharedTarget struct {
	Owner, Yields string
	Rule          string
}

// Rules deciding a shared target (SharedTarget.Rule).
const (
	// RuleFolder: comparing the two globs segment by segment from the
	// root, the first segment where they differ is a literal folder name
	// (or more of one) in Owner's and a wildcard in the other's: the
	// folder is Owner's application's (Library/Application Support/Codex
	// is the ChatGPT desktop app's, whatever a CrewAI project named
	// "Codex" would write).
	RuleFolder = "folder"
	// RuleNamedFile: the first segment where they differ is a name in
	// Owner's glob and a catch-all (**) in the other's: a file of
	// Owner's format kept inside the other's collected folder (an
	// extension's log in an editor's logs).
	RuleNamedFile = "named file"
	// RuleFork: the globs name the same path; it is a VS Code fork's
	// file, and the fork's own agent owns it rather than the vscode
	// agent's target over every fork.
	RuleFork = "fork"
)

// SharedTargets decides every pair of targets of different agents whose
// globs meet (TestSharedPaths checks the list is exactly those pairs and
// each rule is the one the globs give).
var SharedTargets = []SharedTarget{
	{Owner: "chatgpt-desktop/app-data", Yields: "crewai/task-outputs", Rule: RuleFolder},
	{Owner: "chatgpt-desktop/app-data", Yields: "crewai/user", Rule: RuleFolder},
	{Owner: "chatgpt-desktop/package", Yields: "claude-desktop/msix-app-state", Rule: RuleFolder},
	{Owner: "chatgpt-desktop/package", Yields: "claude-desktop/msix-sessions", Rule: RuleFolder},
	{Owner: "copilot/store-windows", Yields: "crewai/task-outputs", Rule: RuleFolder},
	{Owner: "copilot/store-windows", Yields: "crewai/user", Rule: RuleFolder},
	{Owner: "langflow/desktop-app", Yields: "crewai/task-outputs", Rule: RuleFolder},
	{Owner: "langflow/desktop-app", Yields: "crewai/user", Rule: RuleFolder},
	{Owner: "local-deep-research/databases", Yields: "crewai/task-outputs", Rule: RuleFolder},
	{Owner: "muse-code/indexes", Yields: "crewai/task-outputs", Rule: RuleFolder},
	{Owner: "pearai/output-log", Yields: "cursor/editor-logs", Rule: RuleNamedFile},
	{Owner: "pearai/output-log", Yields: "windsurf/editor-logs", Rule: RuleNamedFile},
	{Owner: "trae/state", Yields: "vscode/state-db", Rule: RuleFork},
	{Owner: "twinny/log", Yields: "cursor/editor-logs", Rule: RuleNamedFile},
	{Owner: "twinny/log", Yields: "windsurf/editor-logs", Rule: RuleNamedFile},
}

// owners finds, for a hit of a yielding target, the owning target of an
// agent in the walk's list whose glob matches the path too.
type owners struct {
	by map[string][]ownerTarget // "agent/target" of the yielding side
}

type ownerTarget struct {
	agent string
	t     Target
	pats  []string
}

// newOwners builds the lookup for the agents in list.
func newOwners(list []Agent) *owners {
	o := &owners{by: map[string][]ownerTarget{}}
	in := map[string]Agent{}
	for _, a := range list {
		in[a.Name] = a
	}
	for _, s := range SharedTargets {
		an, tid, _ := strings.Cut(s.Owner, "/")
		a, ok := in[an]
		if !ok {
			continue
		}
		if _, ok := in[strings.SplitN(s.Yields, "/", 2)[0]]; !ok {
			continue
		}
		t, ok := a.Target(tid)
		if !ok {
			continue
		}
		var pats []string
		for _, p := range TargetPatterns(t) {
			pats = append(pats, ExpandBraces(p)...)
		}
		o.by[s.Yields] = append(o.by[s.Yields], ownerTarget{an, t, pats})
	}
	return o
}

// of returns the agent and target a path rel found by agent's target t
// belongs to: the owner's, when a shared target's owner matches it.
func (o *owners) of(rel, agent string, t Target) (string, Target) {
	if o == nil || len(o.by) == 0 {
		return agent, t
	}
	for _, ot := range o.by[agent+"/"+t.ID] {
		for _, p := range ot.pats {
			if ok, _ := doublestar.Match(p, rel); ok {
				return ot.agent, ot.t
			}
		}
	}
	return agent, t
}

// folderOwner returns the owner of a folder more than one agent names,
// if the tables decide it.
func folderOwner(rel string) (string, bool) {
	for _, f := range SharedFolders {
		if f.Rel == rel {
			return f.Owner, true
		}
	}
	for _, f := range sharedForkFolders {
		for _, o := range []OS{Linux, Darwin, Windows} {
			dirs, _ := RootDirs(RootAppConfig, o)
			for _, d := range dirs {
				for _, c := range []string{"globalStorage", "workspaceStorage"} {
					if rel == d+"/"+f.fork+"/User/"+c {
						return f.agent, true
					}
				}
			}
		}
	}
	return "", false
}

// allOwners is the lookup over the whole catalog.
var allOwners = sync.OnceValue(func() *owners { return newOwners(All()) })

// SharedOwner returns the owning agent and target of a home-relative path
// rel that agent's target (its ID) names, when SharedTargets gives the
// path to another agent (ok false otherwise). A reader of a bundle a
// collector before catalog 2026.12.03.4 wrote uses it: such a collector
// named a shared path by the first agent in name order.
func SharedOwner(rel, agent, target string) (string, Target, bool) {
	o := allOwners()
	if len(o.by[agent+"/"+target]) == 0 {
		return "", Target{}, false
	}
	a, ok := Lookup(agent)
	if !ok {
		return "", Target{}, false
	}
	t, ok := a.Target(target)
	if !ok {
		return "", Target{}, false
	}
	na, nt := o.of(rel, agent, t)
	if na == agent && nt.ID == target {
		return "", Target{}, false
	}
	return na, nt, true
}

// allFolders are Folders(All()), by Rel.
var allFolders = sync.OnceValue(func() map[string]Folder {
	m := map[string]Folder{}
	for _, f := range Folders(All()) {
		m[f.Rel] = f
	}
	return m
})

// SharedFolderOwner returns the folder entry of a home-relative folder
// more than one agent names (SharedFolders): its owner and the target
// naming it. ok is false for any other folder. A reader of a bundle a
// collector before catalog 2026.12.03.4 wrote uses it: such a collector
// gave the folder row to the first agent by name (.pi/agent to
// little-coder).
func SharedFolderOwner(rel string) (Folder, bool) {
	if _, ok := folderOwner(rel); !ok {
		return Folder{}, false
	}
	f, ok := allFolders()[rel]
	return f, ok
}
