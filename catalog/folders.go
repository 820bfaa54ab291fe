package catalog

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Folder is a folder the catalog names outright below a home: the static
// base (the literal folders before the first glob character or the file
// name) of one of a target's patterns.
type Folder struct {
	Rel    string // home-relative, '/' separated
	Agent  string
	Target Target
}

// Folders lists the folders the targets of list name outright, once each
// (a folder several agents name is its owner's, SharedFolders; else the
// first agent and target naming one keeps it), sorted by Rel. A
// folder must have at least one literal segment of the target's own glob
// below its root's folder, so a root such as .config or AppData/Roaming is
// never taken for an agent's folder; an editor extension's target (one
// rooted at every VS Code fork's User folder, or spanning the forks'
// folders) names no folder made only of the editors' shared containers
// (a fork's folder, User, workspaceStorage, globalStorage, profiles,
// logs), which hold every extension's data: the folder is the extension's
// from its own segment down (globalStorage/rjmacarthy.twinny), and the
// container is left to the editor's own agent; a root folder with glob characters
// (.vscode-server*/data/User) names none, and neither a root's folder
// nor its parents (.local, AppData), nor Library/Logs, Library/Preferences,
// Documents or Desktop is ever one agent's. The collector records each one
// that exists (status folder), so an agent folder that holds nothing is
// told from one never there.
func Folders(list []Agent) []Folder {
	seen := map[string]bool{".": true, "Library/Logs": true, "Library/Preferences": true, "Documents": true, "Desktop": true}
	// Every root's folders and their parents are shared, never one agent's.
	for _, m := range rootDirs {
		for _, dirs := range m {
			for _, d := range dirs {
				for d != "." && d != "/" && d != "" {
					seen[d] = true
					d = path.Dir(d)
				}
			}
		}
	}
	var out []Folder
	at := map[string]int{} // rel -> index in out
	for _, a := range list {
		for _, t := range a.Targets {
			for _, o := range t.OSes() {
				dirs, _ := RootDirs(t.Root, o)
				for _, d := range dirs {
					if hasMeta(d) {
						continue
					}
					for _, g := range ExpandBraces(t.Glob) {
						segs := strings.Split(g, "/")
						n := 0
						for n < len(segs)-1 && !hasMeta(segs[n]) {
							n++
						}
						if n == 0 {
							continue
						}
						if extensionTarget(t) && editorContainers(segs[:n]) {
							continue
						}
						rel := strings.Join(segs[:n], "/")
						if d != "." {
							rel = d + "/" + rel
						}
						rel = path.Clean(rel)
						if seen[rel] {
							// Named before: a folder of several agents
							// is its owner's (SharedFolders), never the
							// first one's by name.
							if i, ok := at[rel]; ok && out[i].Agent != a.Name {
								if owner, ok := folderOwner(rel); ok && owner == a.Name {
									out[i] = Folder{Rel: rel, Agent: a.Name, Target: t}
								}
							}
							continue
						}
						seen[rel] = true
						at[rel] = len(out)
						out = append(out, Folder{Rel: rel, Agent: a.Name, Target: t})
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// extensionTarget says whether t is an editor extension's: rooted at
// every VS Code fork's User folder, or a glob over the forks' folders.
func extensionTarget(t Target) bool {
	return t.Root == RootVSCodeUser || strings.HasPrefix(t.Glob, forksBrace+"/")
}

// editorSharedDirs are the folders of VS Code and its forks that hold
// every extension's data, never one extension's.
var editorSharedDirs = map[string]bool{"User": true, "workspaceStorage": true, "globalStorage": true, "profiles": true, "logs": true}

// editorContainers says whether every segment is a fork's folder or one
// of editorSharedDirs.
func editorContainers(segs []string) bool {
	for _, s := range segs {
		if !editorSharedDirs[s] && !slices.Contains(VSCodeForks, s) {
			return false
		}
	}
	return true
}
