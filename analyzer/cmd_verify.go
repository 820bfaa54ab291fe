package main

import (
	"fmt"
	"os"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// VerifyCmd is `doubleagent verify`.
type VerifyCmd struct {
	Bundles []string `arg:"" name:"BUNDLE" help:"Bundle files to verify." type:"existingfile"`
}

// Run checks each bundle's .sha256 sidecar (when present) and every member
// against the manifest. It prints one line per problem and a verdict per
// bundle; the exit code is 0 only when every bundle verifies.
func (c *VerifyCmd) Run(g *Globals, log zerolog.Logger) error {
	bad, unusable := 0, 0
	for _, p := range c.Bundles {
		ok := true
		sidecarBad := 0
		sc, err := bundle.CheckSidecar(p)
		switch {
		case err != nil:
			fmt.Printf("%s: sidecar: %v\n", p, err)
			ok, sidecarBad = false, 1
		case sc.Present && !sc.OK:
			fmt.Printf("%s: sidecar: %s\n", p, clean(sc.Msg))
			ok, sidecarBad = false, 1
		case sc.Present:
			fmt.Printf("%s: sidecar %s.sha256 matches\n", p, p)
		}
		f, err := os.Open(p)
		if err != nil {
			fmt.Printf("%s: %v\n", p, err)
			unusable++
			continue
		}
		hdr, res, err := bundle.Verify(f, nil)
		f.Close()
		if err != nil {
			fmt.Printf("%s: unusable: %v\n", p, err)
			unusable++
			continue
		}
		warn := 0
		for _, pr := range res.Problems {
			if pr.Warning() { // incomplete collection, changed_during_copy, a row's error
				fmt.Printf("%s: warning: %s\n", p, clean(pr.String()))
				warn++
				continue
			}
			fmt.Printf("%s: %s\n", p, clean(pr.String()))
			ok = false
		}
		collected := 0
		for _, e := range res.Manifest {
			if e.Status == bundle.StatusCollected {
				collected++
			}
		}
		if ok {
			fmt.Printf("%s: OK: bundle %s from %s, %d of %d collected files verified\n", p, clean(hdr.BundleID), clean(hdr.Host.Hostname), len(res.Verified), collected)
		} else {
			fmt.Printf("%s: FAILED: bundle %s, %d of %d collected files verified, %d problems\n", p, clean(hdr.BundleID), len(res.Verified), collected, len(res.Problems)-warn+sidecarBad)
			bad++
		}
	}
	if unusable > 0 {
		return &exitError{exitUnusable, fmt.Sprintf("%d of %d inputs are not readable bundles; %d failed verification", unusable, len(c.Bundles), bad)}
	}
	if bad > 0 {
		return &exitError{exitNothing, fmt.Sprintf("%d of %d bundles failed verification", bad, len(c.Bundles))}
	}
	return nil
}
