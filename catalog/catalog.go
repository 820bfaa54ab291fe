package catalog

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Version identifies this revision of the table. It is recorded in every
// bundle's header so an examiner knows which paths were looked for, and how
// what was met on them was attributed: it changes with any agent, target,
// glob, relocation, alternate place or walk rule (a link or a non-folder
// where a folder is expected, attributed to the agent whose folder it
// stands for: 64ab3bf, b22f3b7) that changes what a collection holds or the
// agent its rows name. 2026.12.03: the agents and targets added since
// 2026.12.01 and that attribution. 2026.12.03.2: gemini-cli's restore
// checkpoints collected, systemd units read for relocations, and notes on
// what grok and qoder files are parsed. 2026.12.03.3: a folder every
// editor extension shares (workspaceStorage, globalStorage, User, logs) is
// no longer attributed to the first extension whose pattern starts there.
// 2026.12.03.4: grok's notes (the session files now parsed) and dify's
// evidence note (the shellctl source and commits). 2026.12.03.5: kiro's
// note (the IDE's .kiro/sessions folders read). 2026.12.03.6: grok's note
// (btw_history.jsonl parsed). 2026.12.03.7: grok's subagents/<id>/meta.json
// and output.json collected (a new target) and parsed.
// 2026.12.03.8: Kimi Code's ~/.kimi-code targets (KIMI_CODE_HOME) and
// the rows link per agent, merged with the above.
// 2026.12.03.9: the above, and (a parallel 2026.12.03.4) a path or folder two agents' targets name is its owner's
// (shared.go: SharedTargets, SharedFolders), not the first agent's by
// name: .pi/agent is pi's, an extension's log inside an editor's logs the
// extension's, a file in another app's folder that app's.
const Version = "2026.12.03.9"

// OS is an operating system a target applies to.
type OS string

// The operating systems the catalog knows. Windows profiles seen from WSL
// under /mnt/c/Users/* use the windows targets.
const (
	Linux   OS = "linux"
	Darwin  OS = "darwin"
	Windows OS = "windows"
)

// AllOS lists every OS in a fixed order.
var AllOS = []OS{Linux, Darwin, Windows}

// Kind says what a target's files hold.
type Kind string

// Kinds of artifact.
const (
	KindTranscript Kind = "transcript" // conversation records
	KindSQLite     Kind = "sqlite"     // a SQLite store; travels with -wal, -shm, -journal
	KindSettings   Kind = "settings"   // configuration, permission grants
	KindHistory    Kind = "history"    // prompt or command history
	KindLog        Kind = "log"        // the agent's own logs
	KindSecret     Kind = "secret"     // token stores, auth files: flagged, values never read into a row
	KindOther      Kind = "other"
)

// Kinds lists every Kind in a fixed order.
var Kinds = []Kind{KindTranscript, KindSQLite, KindSettings, KindHistory, KindLog, KindSecret, KindOther}

// Status is the analyzer's real state for an agent.
type Status string

// Agent statuses. A name is StatusParsed only when a registered parser reads
// it; a test in analyzer/parsers checks that against the registry.
const (
	StatusParsed    Status = "parsed"    // the analyzer reads its transcripts
	StatusBacklog   Status = "backlog"   // parseable records are collected; a parser is wanted
	StatusCollected Status = "collected" // collected and detected; nothing to parse
)

// Evidence is how well an agent's paths and formats are known.
type Evidence string

// Evidence levels, strongest first.
const (
	EvidenceRealInstall Evidence = "real-install" // seen on a real install; Agent.EvidenceNote names version
	EvidenceBundle      Evidence = "shipped-bundle"
	EvidenceSource      Evidence = "source"
	EvidenceDocs        Evidence = "docs"
)

// Sidecars are the files SQLite keeps beside a store; they travel with it.
var Sidecars = []string{"-wal", "-shm", "-journal"}

// DefaultExcludes are directory base names never descended into below any
// target: dependency trees, caches, vector stores, model weights.
var DefaultExcludes = []string{"node_modules", ".git", "__pycache__", ".venv", "venv", "Cache", "Code Cache", "GPUCache", "CachedData", "CachedExtensionVSIXs", "Crashpad", "blob_storage", "models", "vectorstores", "vector_store"}

// Target is one class of artifact an agent keeps.
type Target struct {
	// ID is unique within the agent: lower case, digits and '-'.
	ID string
	// OS lists the systems the target applies to; empty means all.
	OS []OS
	// Root names the base directory (roots.go); the glob is relative to it.
	Root Root
	// Glob is a doublestar pattern ("**", "{a,b}", "*") with '/' separators,
	// relative to each directory the Root expands to.
	Glob string
	// Kind says what the files hold.
	Kind Kind
	// Exclude lists extra directory base-name globs pruned below this target,
	// on top of DefaultExcludes.
	Exclude []string
	// MaxSize is the per-file size default in bytes; 0 means the collector's
	// default (--max-file-size).
	MaxSize int64
	// Projects says how files of this target name project directories, so
	// the collector can gather project artifacts from them ("" = they don't).
	Projects ProjectRef
}

// ProjectRef names a method of reading project directories out of a file.
type ProjectRef string

// Methods of finding project directories in agent state.
const (
	ProjectsNone ProjectRef = ""
	// ProjectsJSONLCwd: JSONL whose records carry "cwd" (Claude Code
	// transcripts, Codex session_meta payload.cwd).
	ProjectsJSONLCwd ProjectRef = "jsonl-cwd"
	// ProjectsJSONKeys: a JSON object whose keys under "projects" are paths
	// (~/.claude.json, ~/.gemini/projects.json).
	ProjectsJSONKeys ProjectRef = "json-project-keys"
	// ProjectsFileContent: the file's whole content is a path
	// (Gemini .project_root).
	ProjectsFileContent ProjectRef = "file-content"
	// ProjectsWorkspaceJSON: VS Code style workspace.json {"folder": "file:///..."}.
	ProjectsWorkspaceJSON ProjectRef = "workspace-json"
	// ProjectsJSONPaths: a JSON document or JSON lines whose object keys or
	// string values hold directory paths under a field the agent names
	// (cwd, directory, worktree, workspace, workingDir, working_dir,
	// cwdOnTaskInitialization, userSelectedFolders, main_repo_path,
	// project_path, path) or as keys (trustedFolders.json, trust.json). The
	// collector walks the whole document, keeps every key or string value
	// that is an absolute path or a file:// URI, and gathers project artifacts
	// only from those that name an existing directory on the examined host.
	ProjectsJSONPaths ProjectRef = "json-paths"
	// ProjectsYAMLCwd: a YAML file with top-level "cwd:" and "git_root:" keys
	// (Copilot CLI workspace.yaml). The collector reads those lines only,
	// with no YAML library, unquoting a quoted scalar.
	ProjectsYAMLCwd ProjectRef = "yaml-cwd"
)

// ProjectRefs lists every method, ProjectsNone excepted, in a fixed order.
var ProjectRefs = []ProjectRef{ProjectsJSONLCwd, ProjectsJSONKeys, ProjectsFileContent, ProjectsWorkspaceJSON, ProjectsJSONPaths, ProjectsYAMLCwd}

// Agent is one product in the catalog.
type Agent struct {
	// Name is the catalog name, the stable identifier in bundles and rows.
	Name string
	// Display is the human name.
	Display string
	// Status is the analyzer's real state (checked against the registry).
	Status Status
	// SeedStatus is the status the research documents intend once the
	// agent's parser lands (the seed table); the lead flips Status to it.
	SeedStatus Status
	// Notes is the seed table's note: open issues, what is not parsed yet,
	// which other agent's target holds this agent's records.
	Notes string
	// RowsUnder names the agent whose rows hold this agent's transcripts
	// (little-coder's sessions are pi sessions, parsed as pi), so that an
	// agent present with no rows of its own says where they went.
	RowsUnder string
	// Evidence is the strongest evidence the paths rest on; EvidenceNote
	// says which version, commit or document.
	Evidence     Evidence
	EvidenceNote string
	// Targets are the artifacts under a home.
	Targets []Target
	// Volumes are Docker or Podman named-volume globs of a self-hosted agent.
	Volumes []string
	// ProjectFiles are globs, relative to a project directory, of artifacts
	// the agent keeps inside a repository.
	ProjectFiles []ProjectFile
	// Relocations are the environment variables that move the agent's
	// folders (relocate.go); Alternates are second default places.
	Relocations []Relocation
	Alternates  []Alternate
}

// ProjectTarget is the target ID the collector gives a project artifact
// (an agent's ProjectFiles found in a project directory that state names).
const ProjectTarget = "project"

// VolumeTarget is the target ID the collector gives a file found in a
// Docker or Podman named volume of one of an agent's Volumes (the volume's
// _data directory is walked as a home; see collector collectVolumes).
const VolumeTarget = "volume"

// ProjectFile is an artifact an agent keeps inside a project directory.
type ProjectFile struct {
	Glob string
	Kind Kind
}

// AppliesTo reports whether the target applies to os.
func (t Target) AppliesTo(os OS) bool {
	if len(t.OS) == 0 {
		return true
	}
	for _, o := range t.OS {
		if o == os {
			return true
		}
	}
	return false
}

// OSes returns the systems the target applies to.
func (t Target) OSes() []OS {
	if len(t.OS) == 0 {
		return AllOS
	}
	return t.OS
}

// All returns the catalog, sorted by name. The slice is a copy.
func All() []Agent {
	out := make([]Agent, len(agents))
	copy(out, agents)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the agent named name.
func Lookup(name string) (Agent, bool) {
	for _, a := range agents {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Target returns the agent's target with the given ID.
func (a Agent) Target(id string) (Target, bool) {
	for _, t := range a.Targets {
		if t.ID == id {
			return t, true
		}
	}
	return Target{}, false
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var envVarPattern = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// Validate checks the table's invariants: unique agent names and target IDs
// of the right shape, valid globs, known kinds, and every root defined for
// each OS a target uses it on.
func Validate(list []Agent) error {
	var errs []string
	names := map[string]bool{}
	for _, a := range list {
		if !idPattern.MatchString(a.Name) {
			errs = append(errs, fmt.Sprintf("agent %q: name not lower-case-dashed", a.Name))
		}
		if names[a.Name] {
			errs = append(errs, fmt.Sprintf("agent %q: duplicate name", a.Name))
		}
		names[a.Name] = true
		if a.Display == "" {
			errs = append(errs, fmt.Sprintf("agent %q: no display name", a.Name))
		}
		switch a.Status {
		case StatusParsed, StatusBacklog, StatusCollected:
		default:
			errs = append(errs, fmt.Sprintf("agent %q: bad status %q", a.Name, a.Status))
		}
		switch a.SeedStatus {
		case "", StatusParsed, StatusBacklog, StatusCollected:
		default:
			errs = append(errs, fmt.Sprintf("agent %q: bad seed status %q", a.Name, a.SeedStatus))
		}
		switch a.Evidence {
		case EvidenceRealInstall, EvidenceBundle, EvidenceSource, EvidenceDocs:
		default:
			errs = append(errs, fmt.Sprintf("agent %q: bad evidence %q", a.Name, a.Evidence))
		}
		ids := map[string]bool{}
		for _, t := range a.Targets {
			where := fmt.Sprintf("agent %q target %q", a.Name, t.ID)
			if !idPattern.MatchString(t.ID) {
				errs = append(errs, where+": id not lower-case-dashed")
			}
			if ids[t.ID] {
				errs = append(errs, where+": duplicate id")
			}
			ids[t.ID] = true
			if !validKind(t.Kind) {
				errs = append(errs, fmt.Sprintf("%s: bad kind %q", where, t.Kind))
			}
			if t.Glob == "" || strings.HasPrefix(t.Glob, "/") || strings.Contains(t.Glob, "\\") || strings.Contains(t.Glob, "..") || !doublestar.ValidatePattern(t.Glob) {
				errs = append(errs, fmt.Sprintf("%s: invalid glob %q", where, t.Glob))
			}
			if t.Projects != ProjectsNone && !validProjectRef(t.Projects) {
				errs = append(errs, fmt.Sprintf("%s: bad project method %q", where, t.Projects))
			}
			if t.MaxSize < 0 {
				errs = append(errs, fmt.Sprintf("%s: negative max size", where))
			}
			for _, x := range t.Exclude {
				if !doublestar.ValidatePattern(x) || strings.Contains(x, "/") {
					errs = append(errs, fmt.Sprintf("%s: invalid exclude %q", where, x))
				}
			}
			for _, os := range t.OSes() {
				if _, ok := RootDirs(t.Root, os); !ok {
					errs = append(errs, fmt.Sprintf("%s: root %q not defined for %s", where, t.Root, os))
				}
			}
		}
		for _, p := range a.ProjectFiles {
			if !doublestar.ValidatePattern(p.Glob) || strings.HasPrefix(p.Glob, "/") || strings.Contains(p.Glob, "..") {
				errs = append(errs, fmt.Sprintf("agent %q: invalid project glob %q", a.Name, p.Glob))
			}
			if !validKind(p.Kind) {
				errs = append(errs, fmt.Sprintf("agent %q: project glob %q: bad kind %q", a.Name, p.Glob, p.Kind))
			}
		}
		for _, r := range a.Relocations {
			if !envVarPattern.MatchString(r.Var) || r.Folder == "" || strings.HasPrefix(r.Folder, "/") || strings.Contains(r.Folder, "..") || strings.Contains(r.Sub, "..") || r.Source == "" {
				errs = append(errs, fmt.Sprintf("agent %q: bad relocation %+v", a.Name, r))
			}
		}
		for _, al := range a.Alternates {
			if al.Folder == "" || al.At == "" || strings.HasPrefix(al.At, "/") || strings.Contains(al.At, "..") || hasMeta(al.At) || al.Source == "" {
				errs = append(errs, fmt.Sprintf("agent %q: bad alternate %+v", a.Name, al))
			}
		}
		for _, v := range a.Volumes {
			if !doublestar.ValidatePattern(v) || strings.Contains(v, "/") {
				errs = append(errs, fmt.Sprintf("agent %q: invalid volume glob %q", a.Name, v))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("catalog: %d problems:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
	return nil
}

func validProjectRef(p ProjectRef) bool {
	for _, x := range ProjectRefs {
		if x == p {
			return true
		}
	}
	return false
}

func validKind(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}
