package analyze

import (
	"context"
	"sort"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// DetectRow is one host × user × agent found in the inputs.
type DetectRow struct {
	Input         string         `json:"input"`
	Host          string         `json:"host"`
	User          string         `json:"user"`
	Agent         string         `json:"agent"`
	Files         int            `json:"files"`
	Bytes         int64          `json:"bytes"`
	Statuses      map[string]int `json:"statuses"`
	CatalogStatus string         `json:"catalog_status"`
	ParseStatus   string         `json:"parse_status"` // parsed | detected-not-parsed | collected-only
	UserInferred  bool           `json:"user_inferred"`
	// Presence is "files kept", "present, nothing kept" (only the agent's
	// folders exist: folder rows) or "present, nothing collected" (paths
	// seen, none copied: refused links, unreadable or skipped files).
	Presence string `json:"presence"`
}

// Presence values of DetectRow and InventoryAgent.
const (
	PresenceFilesKept     = "files kept"
	PresenceNothingKept   = "present, nothing kept"
	PresenceNothingCopied = "present, nothing collected"
)

// presence says what the rows of one agent and user (their statuses, the
// files collected) amount to.
func presence(statuses map[string]int, files int) string {
	switch {
	case files > 0:
		return PresenceFilesKept
	case len(statuses) == 1 && statuses[bundle.StatusFolder] > 0:
		return PresenceNothingKept
	}
	return PresenceNothingCopied
}

// Detect lists the agents in each input without parsing anything. Bundles
// are read through (hashes are checked, nothing is written to disk).
func Detect(ctx context.Context, paths []string, ps []parser.Parser, limits *bundle.Options) ([]DetectRow, []Problem) {
	d := DetectInputs(ctx, paths, ps, limits)
	return d.Rows, d.Problems
}

// Detected is what Detect found: the rows, the problems, and the bundles
// read only in part (cut short or corrupt), sorted, as Summary.CutShort
// names them for a timeline.
type Detected struct {
	Rows     []DetectRow
	Problems []Problem
	CutShort []string
	// Unproven names the bundles failing a whole-file check (a .sha256
	// sidecar that does not vouch for the file, data after the archive),
	// one line each, as Summary.Unproven does for a timeline.
	Unproven []string
}

// DetectInputs is Detect, with the bundles read only in part.
func DetectInputs(ctx context.Context, paths []string, ps []parser.Parser, limits *bundle.Options) Detected {
	var cut, unproven []string
	rt := inputs.NewRouter(ps)
	parsed := parser.ParsedAgents(ps)
	x := inputs.Expand(paths)
	units, probs := x.Units, x.Problems
	var rows []DetectRow
	for _, u := range units {
		if ctx.Err() != nil {
			break
		}
		s, err := inputs.OpenForDetect(ctx, u, rt, limits)
		if err != nil {
			n := 0
			if limits != nil {
				n = len(limits.Identities)
			}
			probs = append(probs, inputs.UnusableProblem(u.Path, inputs.WrongKey(err, n)))
			continue
		}
		probs = append(probs, s.Problems()...)
		unproven = append(unproven, unprovenLinesIn(u.Path, s.Problems(), "problem ")...)
		facts := s.Facts()
		if facts.CutShort {
			cut = append(cut, u.Path)
		}
		m := map[[2]string]*DetectRow{}
		for _, f := range facts.Seen {
			if f.Agent == "" {
				continue
			}
			k := [2]string{f.User, f.Agent}
			r := m[k]
			if r == nil {
				r = &DetectRow{Input: u.Path, Host: facts.Host, User: f.User, Agent: f.Agent, Statuses: map[string]int{}, UserInferred: facts.Inferred}
				if a, ok := catalog.Lookup(f.Agent); ok {
					r.CatalogStatus = string(a.Status)
				}
				switch {
				case parsed[f.Agent]:
					r.ParseStatus = "parsed"
				case r.CatalogStatus == string(catalog.StatusCollected):
					r.ParseStatus = "collected-only"
				default:
					r.ParseStatus = "detected-not-parsed"
				}
				m[k] = r
			}
			r.Statuses[f.Status]++
			if f.Status == bundle.StatusCollected {
				r.Files++
				r.Bytes += f.Size
			}
		}
		for _, r := range m {
			r.Presence = presence(r.Statuses, r.Files)
			rows = append(rows, *r)
		}
		s.Close()
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if a.User != b.User {
			return a.User < b.User
		}
		if a.Agent != b.Agent {
			return a.Agent < b.Agent
		}
		return a.Input < b.Input
	})
	for i := range probs {
		probs[i] = probs[i].NamedOnce()
	}
	sort.Strings(cut)
	sort.Strings(unproven)
	return Detected{Rows: rows, Problems: probs, CutShort: cut, Unproven: unproven}
}
