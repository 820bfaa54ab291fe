package analyze

import (
	"context"
	"os"
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
	rt := newRouter(ps)
	x := inputs.Expand(paths)
	units, probs := x.Units, x.Problems
	var rows []DetectRow
	for _, u := range units {
		if ctx.Err() != nil {
			break
		}
		var s *source
		var err error
		switch u.Kind {
		case KindBundle:
			s, err = detectBundle(u.Path, rt, limits)
		case KindExtracted:
			s, err = openExtracted(ctx, u.Path, rt)
		default:
			s, err = openLoose(ctx, u.Path, rt)
		}
		if err != nil {
			probs = append(probs, Problem{Input: u.Path, Kind: KindUnusableInput, Message: err.Error()})
			continue
		}
		probs = append(probs, s.problems...)
		m := map[[2]string]*DetectRow{}
		for _, f := range s.seen {
			if f.agent == "" {
				continue
			}
			k := [2]string{f.user, f.agent}
			r := m[k]
			if r == nil {
				r = &DetectRow{Input: u.Path, Host: s.host, User: f.user, Agent: f.agent, Statuses: map[string]int{}, UserInferred: s.inferred}
				if a, ok := catalog.Lookup(f.agent); ok {
					r.CatalogStatus = string(a.Status)
				}
				switch {
				case rt.Reads(f.agent):
					r.ParseStatus = "parsed"
				case r.CatalogStatus == string(catalog.StatusCollected):
					r.ParseStatus = "collected-only"
				default:
					r.ParseStatus = "detected-not-parsed"
				}
				m[k] = r
			}
			r.Statuses[f.status]++
			if f.status == bundle.StatusCollected {
				r.Files++
				r.Bytes += f.size
			}
		}
		for _, r := range m {
			r.Presence = presence(r.Statuses, r.Files)
			rows = append(rows, *r)
		}
		s.close()
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
	return rows, probs
}

func detectBundle(p string, rt *router, limits *bundle.Options) (*source, error) {
	s := &source{kind: KindBundle, input: p}
	if sc, err := bundle.CheckSidecar(p); err == nil && sc.Present && !sc.OK {
		s.problem(Problem{Kind: "sidecar_mismatch", Message: sc.Msg})
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hdr, res, err := bundle.Verify(f, limits)
	if err != nil {
		return nil, err
	}
	s.host, s.bundleID = hdr.Host.Hostname, hdr.BundleID
	for _, pr := range res.Problems {
		s.problem(Problem{Kind: pr.Kind, SourceFile: pr.Path, Message: pr.String()})
	}
	for _, e := range res.Manifest {
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.Reads(e.Agent)})
	}
	return s, nil
}
