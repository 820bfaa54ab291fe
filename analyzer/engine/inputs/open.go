package inputs

import (
	"context"
	"errors"
	"os"

	"github.com/doubleagent/doubleagent/bundle"
)

// Open opens a unit as a source for the parse stage: a bundle streamed
// with the members some parser may read spooled into a private folder
// under tmp (openBundle), an extracted collection hashed against its
// manifest (openExtracted), a loose tree or file walked with the catalog
// (openLoose). limits bound a bundle's decompression. The caller closes it.
func Open(ctx context.Context, u Unit, tmp string, rt *Router, limits *bundle.Options) (*Source, error) {
	return OpenParsing(ctx, u, tmp, rt, limits, nil)
}

// OpenParsing is Open with sp, which, for a bundle, parses the members one
// streamable parser reads as the reader reaches them (stream.go); nil
// spools every member.
func OpenParsing(ctx context.Context, u Unit, tmp string, rt *Router, limits *bundle.Options, sp *Speculation) (*Source, error) {
	switch u.Kind {
	case KindBundle:
		return openBundle(ctx, u.Path, tmp, rt, limits, sp)
	case KindExtracted:
		return openExtracted(ctx, u.Path, rt)
	default:
		return openLoose(ctx, u.Path, rt)
	}
}

// OpenForDetect opens a unit for detect, which parses nothing: a bundle is
// read through and verified, nothing written to disk (detectBundle); its
// Facts and Problems are what detect reads.
func OpenForDetect(ctx context.Context, u Unit, rt *Router, limits *bundle.Options) (*Source, error) {
	switch u.Kind {
	case KindBundle:
		return detectBundle(u.Path, rt, limits)
	case KindExtracted:
		return openExtracted(ctx, u.Path, rt)
	default:
		return openLoose(ctx, u.Path, rt)
	}
}

// detectBundle verifies a bundle and keeps its header's host and its
// manifest rows' counts. A bundle cut short before or inside its manifest
// also counts the members read before the cut that no manifest row
// read names, from their own headers.
func detectBundle(p string, rt *Router, limits *bundle.Options) (*Source, error) {
	s := &Source{kind: KindBundle, input: p}
	if sc, err := bundle.CheckSidecar(p); err == nil && sc.Present && !sc.OK {
		s.problem(Problem{Kind: "sidecar_mismatch", Message: sc.Msg})
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br, err := bundle.Open(f, limits)
	if errors.Is(err, bundle.ErrHeaderCut) {
		s.headerCut(err)
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	var read []bundle.Entry
	for {
		m, err := br.Next()
		if err != nil {
			break
		}
		read = append(read, m.Entry)
	}
	res := br.Result()
	s.host, s.bundleID, s.cut = br.Header.Host.Hostname, br.Header.BundleID, res.Truncated
	agentOf := manifestAgents(res.Manifest)
	for _, pr := range res.Problems {
		s.problem(Problem{Kind: pr.Kind, SourceFile: pr.Path, Agent: agentOf[pr.Path], Message: pr.String()})
	}
	rows := res.Manifest
	if res.Truncated {
		listed := map[string]bool{}
		for _, e := range rows {
			listed[e.Path] = true
		}
		for _, e := range read {
			if !listed[e.Path] {
				rows = append(rows, e)
			}
		}
	}
	for _, e := range rows {
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.Reads(e.Agent)})
	}
	return s, nil
}
