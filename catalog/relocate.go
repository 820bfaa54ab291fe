package catalog

// Relocation is an environment variable that moves one of an agent's
// folders away from its default place below the home. The collector reads
// the variable from each user's shell start files, the host's environment
// files and, on a live Linux host, the environment of the user's running
// processes, and walks the folder it names as if it stood at Folder.
type Relocation struct {
	// Var is the variable's name.
	Var string `json:"var"`
	// Folder is the home-relative folder the value stands for (".claude").
	Folder string `json:"folder"`
	// Sub is "" when the value names the folder itself; otherwise the
	// folder lies at <value>/<Sub> (GEMINI_CLI_HOME names a home-like
	// folder that holds .gemini).
	Sub string `json:"sub,omitempty"`
	// Source names the code or document the variable is read from.
	Source string `json:"source"`
}

// Alternate is a second default place of one of an agent's folders: the
// home-relative folder At is walked as if it stood at Folder.
type Alternate struct {
	Folder string `json:"folder"`
	At     string `json:"at"`
	Source string `json:"source"`
}

// XDGRelocations are the XDG base directory variables; they move the
// folders of every agent whose targets lie below the XDG defaults (the
// freedesktop.org Base Directory Specification 0.8).
var XDGRelocations = []Relocation{
	{Var: "XDG_CONFIG_HOME", Folder: ".config", Source: "XDG Base Directory Specification 0.8"},
	{Var: "XDG_DATA_HOME", Folder: ".local/share", Source: "XDG Base Directory Specification 0.8"},
	{Var: "XDG_STATE_HOME", Folder: ".local/state", Source: "XDG Base Directory Specification 0.8"},
	{Var: "XDG_CACHE_HOME", Folder: ".cache", Source: "XDG Base Directory Specification 0.8"},
}

// RelocationVars lists every variable the catalog knows, each once, in a
// fixed order: the agents' own (by agent name), then the XDG ones.
func RelocationVars(list []Agent) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range list {
		for _, r := range a.Relocations {
			if !seen[r.Var] {
				seen[r.Var] = true
				out = append(out, r.Var)
			}
		}
	}
	for _, r := range XDGRelocations {
		if !seen[r.Var] {
			seen[r.Var] = true
			out = append(out, r.Var)
		}
	}
	return out
}
