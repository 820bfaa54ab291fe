package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// DocJSON is the JSON form of the catalog (docs/agents.json): the table
// version, the rules every target shares, and every agent.
type DocJSON struct {
	Version         string      `json:"version"`
	DefaultExcludes []string    `json:"default_excludes"`
	Sidecars        []string    `json:"sqlite_sidecars"`
	VolumeDirs      []string    `json:"volume_dirs"`
	HomeVolumeDir   string      `json:"home_volume_dir"`
	Agents          []AgentJSON `json:"agents"`
}

// AgentJSON is one agent in the JSON form.
type AgentJSON struct {
	Name         string            `json:"name"`
	Display      string            `json:"display"`
	Status       Status            `json:"status"`
	SeedStatus   Status            `json:"seed_status,omitempty"`
	Evidence     Evidence          `json:"evidence"`
	EvidenceNote string            `json:"evidence_note,omitempty"`
	Notes        string            `json:"notes,omitempty"`
	Targets      []TargetJSON      `json:"targets"`
	Volumes      []string          `json:"volumes"`
	ProjectFiles []ProjectFileJSON `json:"project_files"`
	Relocations  []Relocation      `json:"relocations,omitempty"`
	Alternates   []Alternate       `json:"alternates,omitempty"`
}

// TargetJSON is one target in the JSON form. RootDirs holds, per OS the
// target applies to, the home-relative directory patterns of its root; the
// glob is relative to each of them.
type TargetJSON struct {
	ID       string          `json:"id"`
	OS       []OS            `json:"os"`
	Root     Root            `json:"root"`
	RootDirs map[OS][]string `json:"root_dirs"`
	Glob     string          `json:"glob"`
	Patterns map[OS][]string `json:"patterns"`
	Kind     Kind            `json:"kind"`
	Excludes []string        `json:"excludes"`
	MaxSize  int64           `json:"max_size"`
	Projects ProjectRef      `json:"projects,omitempty"`
}

// ProjectFileJSON is one project artifact glob in the JSON form.
type ProjectFileJSON struct {
	Glob string `json:"glob"`
	Kind Kind   `json:"kind"`
}

// JSON renders list as an indented, stable JSON document (DocJSON).
func JSON(list []Agent) ([]byte, error) {
	doc := DocJSON{
		Version:         Version,
		DefaultExcludes: DefaultExcludes,
		Sidecars:        Sidecars,
		VolumeDirs:      VolumeDirs,
		HomeVolumeDir:   HomeVolumeDir,
		Agents:          make([]AgentJSON, 0, len(list)),
	}
	for _, a := range list {
		aj := AgentJSON{
			Name: a.Name, Display: a.Display, Status: a.Status, SeedStatus: a.SeedStatus,
			Evidence: a.Evidence, EvidenceNote: a.EvidenceNote, Notes: a.Notes,
			Targets: []TargetJSON{}, Volumes: nonNil(a.Volumes), ProjectFiles: []ProjectFileJSON{},
			Relocations: a.Relocations, Alternates: a.Alternates,
		}
		for _, t := range a.Targets {
			tj := TargetJSON{
				ID: t.ID, OS: t.OSes(), Root: t.Root, Glob: t.Glob, Kind: t.Kind,
				RootDirs: map[OS][]string{},
				Excludes: nonNil(t.Exclude), MaxSize: t.MaxSize, Projects: t.Projects,
			}
			for _, o := range t.OSes() {
				dirs, _ := RootDirs(t.Root, o)
				tj.RootDirs[o] = dirs
			}
			aj.Targets = append(aj.Targets, tj)
		}
		for _, p := range a.ProjectFiles {
			aj.ProjectFiles = append(aj.ProjectFiles, ProjectFileJSON(p))
		}
		doc.Agents = append(doc.Agents, aj)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// osPatterns returns t's home-relative globs on one OS, as the docs show
// them: a leading alternative that belongs to another OS (one starting
// with AppData/ off Windows, or Library/ off macOS) is left out, and a
// target with nothing left on an OS has no pattern there. The walker still
// tries every alternative, since a mounted image may hold any layout.
func osPatterns(t Target, o OS) []string {
	if !t.AppliesTo(o) {
		return nil
	}
	dirs, _ := RootDirs(t.Root, o)
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		p := t.Glob
		if d != "." {
			p = d + "/" + t.Glob
		}
		if p, ok := filterLeadingAlternatives(p, o); ok {
			out = append(out, p)
		}
	}
	return out
}

func filterLeadingAlternatives(p string, o OS) (string, bool) {
	if !strings.HasPrefix(p, "{") {
		if !osPath(p, o) {
			return "", false
		}
		return p, true
	}
	depth, last := 0, 1
	var alts []string
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				alts = append(alts, p[last:i])
				rest := p[i+1:]
				var keep []string
				for _, a := range alts {
					if osPath(a, o) {
						keep = append(keep, a)
					}
				}
				switch len(keep) {
				case 0:
					return "", false
				case 1:
					return keep[0] + rest, true
				default:
					return "{" + strings.Join(keep, ",") + "}" + rest, true
				}
			}
		case ',':
			if depth == 1 {
				alts = append(alts, p[last:i])
				last = i + 1
			}
		}
	}
	return p, true
}

func osPath(p string, o OS) bool {
	switch {
	case strings.HasPrefix(p, "AppData/"):
		return o == Windows
	case strings.HasPrefix(p, "Library/"):
		return o == Darwin
	}
	return true
}

// Markdown renders list as the reference page docs/agents.md: a summary
// table, then per agent its status, evidence, and for each OS the
// home-relative patterns of its targets, its volumes and project files.
func Markdown(list []Agent) string {
	var b strings.Builder
	count := map[Status]int{}
	for _, a := range list {
		count[a.Status]++
	}
	fmt.Fprintf(&b, "# Agents\n\n")
	fmt.Fprintf(&b, "<!-- Generated from catalog/agents*.go by `go test ./catalog -update`; do not edit. -->\n\n")
	fmt.Fprintf(&b, "Catalog version %s: %d agents, %d parsed, %d backlog, %d collected.\n\n", Version, len(list), count[StatusParsed], count[StatusBacklog], count[StatusCollected])
	b.WriteString("Status is what the analyzer does today: `parsed` (a registered parser reads the transcripts), " +
		"`backlog` (parseable records are collected, a parser is wanted), `collected` (collected and detected, nothing to parse). " +
		"Seed status is what the research documents intend once the parser lands. " +
		"Evidence is where each agent's format was learned: `real-install` (a release run here, its version in the note), " +
		"`shipped-bundle` (the code a release ships, read), `source` (the agent's source or a peer's reader, at the commit in the note), " +
		"`docs` (documentation only). The rows each parsed agent yields are listed per parser in its section of " +
		"[analyzer/docs/parsers.md](../../analyzer/docs/parsers.md) (generated from the registry and the parsers' goldens), " +
		"which each parsed agent's section below links as Rows.\n\n")
	b.WriteString("Paths are relative to a home directory (`~`): a Linux or macOS home, or a Windows profile " +
		"(`C:\\Users\\<name>`, seen from WSL as `/mnt/c/Users/<name>`). Globs use doublestar syntax (`*`, `**`, `{a,b}`). " +
		"A path is reported once, for the first agent and target in this order whose glob matches it.\n\n")
	fmt.Fprintf(&b, "Directories never descended into below a wildcard: %s. ", codeList(DefaultExcludes))
	fmt.Fprintf(&b, "SQLite targets also collect their %s side files. ", codeList(Sidecars))
	fmt.Fprintf(&b, "Docker and Podman named volumes are looked for under %s and `~/%s`.\n\n", codeList(VolumeDirs), HomeVolumeDir)
	b.WriteString("Relocated folders: the collector reads each agent's relocation variables (below) and the XDG ones (")
	for i, r := range XDGRelocations {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "`%s` for `~/%s`", r.Var, r.Folder)
	}
	b.WriteString(") from each user's shell start files, the host's environment files, systemd service units (a system unit's for the home of its `User=`) and, on a live Linux host, " +
		"the environment of the user's processes, and walks the folder a value names as if it stood at the default place.\n\n")

	b.WriteString("| Agent | Display | Status | Seed status | Evidence | Targets (linux / darwin / windows) |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, a := range list {
		var n [3]int
		for i, o := range AllOS {
			for _, t := range a.Targets {
				if len(osPatterns(t, o)) > 0 {
					n[i]++
				}
			}
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s | %d / %d / %d |\n", a.Name, a.Name, a.Display, a.Status, a.SeedStatus, a.Evidence, n[0], n[1], n[2])
	}
	for _, a := range list {
		fmt.Fprintf(&b, "\n## %s\n\n", a.Name)
		fmt.Fprintf(&b, "%s. Status: **%s**", a.Display, a.Status)
		if a.SeedStatus != "" && a.SeedStatus != a.Status {
			fmt.Fprintf(&b, " (seed: %s)", a.SeedStatus)
		}
		fmt.Fprintf(&b, ". Evidence: %s", a.Evidence)
		if a.EvidenceNote != "" {
			fmt.Fprintf(&b, " (%s)", a.EvidenceNote)
		}
		b.WriteString(".\n")
		if a.Status == StatusParsed {
			fmt.Fprintf(&b, "\nRows: [analyzer/docs/parsers.md#%s](../../analyzer/docs/parsers.md#%s) (each parser that reads this agent's files, its targets and the row kinds it yields).\n", a.Name, a.Name)
		}
		if a.Notes != "" {
			fmt.Fprintf(&b, "\nNotes: %s.\n", a.Notes)
		}
		for _, o := range AllOS {
			var rows []string
			for _, t := range a.Targets {
				if !t.AppliesTo(o) {
					continue
				}
				for _, p := range osPatterns(t, o) {
					rows = append(rows, fmt.Sprintf("| %s | %s | `~/%s` | %s |", t.ID, t.Kind, p, targetNotes(t)))
				}
			}
			if len(rows) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n| Target | Kind | Path | Rules |\n|---|---|---|---|\n%s\n", o, strings.Join(rows, "\n"))
		}
		if len(a.Volumes) > 0 {
			fmt.Fprintf(&b, "\nVolumes: %s.\n", codeList(a.Volumes))
		}
		for _, r := range a.Relocations {
			at := "`$" + r.Var + "`"
			if r.Sub != "" {
				at = "`$" + r.Var + "/" + r.Sub + "`"
			}
			fmt.Fprintf(&b, "\nRelocation: %s stands for `~/%s` (%s).\n", at, r.Folder, r.Source)
		}
		for _, al := range a.Alternates {
			fmt.Fprintf(&b, "\nAlternate: `~/%s` stands for `~/%s` (%s).\n", al.At, al.Folder, al.Source)
		}
		if len(a.ProjectFiles) > 0 {
			var ps []string
			for _, p := range a.ProjectFiles {
				ps = append(ps, fmt.Sprintf("`%s` (%s)", p.Glob, p.Kind))
			}
			fmt.Fprintf(&b, "\nProject files: %s.\n", strings.Join(ps, ", "))
		}
	}
	return b.String()
}

func targetNotes(t Target) string {
	var n []string
	if t.MaxSize > 0 {
		n = append(n, "max "+sizeString(t.MaxSize))
	}
	if len(t.Exclude) > 0 {
		n = append(n, "excludes "+codeList(t.Exclude))
	}
	if t.Projects != ProjectsNone {
		n = append(n, "projects: "+string(t.Projects))
	}
	return strings.Join(n, "; ")
}

func sizeString(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	default:
		return fmt.Sprintf("%d B", n)
	}
}

func codeList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = "`" + x + "`"
	}
	return strings.Join(q, ", ")
}
