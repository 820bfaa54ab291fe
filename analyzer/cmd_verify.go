package main

import (
	"context"
	"fmt"
	"os"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// VerifyCmd is `doubleagent verify`.
type VerifyCmd struct {
	Bundles  []string `arg:"" name:"BUNDLE" help:"Bundle files, or extracted collections (folders holding bundle.json, manifest.jsonl and files/, as tar --zstd -xf leaves them), to verify." type:"path"`
	Identity []string `help:"${identity_help} Without it an encrypted bundle's sidecar (the ciphertext's hash) is still checked." type:"path" placeholder:"FILE" sep:"none"`
}

// Run checks each bundle's .sha256 sidecar (when present) and every member
// against the manifest; for an extracted collection, every file the
// manifest lists, read by the evidence rule (analyze.VerifyExtracted). It
// prints one line per problem and a verdict per input, the same for both;
// the exit code is 0 only when every input verifies.
func (c *VerifyCmd) Run(g *Globals, log zerolog.Logger) error {
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	if len(c.Identity) == 0 {
		limits = nil // the bundle reader's own defaults, as before
	}
	bad, unusable := 0, 0
	for _, p := range c.Bundles {
		ok := true
		sidecarBad := 0
		var hdr *bundle.Header
		var res *bundle.Result
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			fmt.Printf("%s: %v\n", p, err)
			unusable++
			continue
		case fi.IsDir():
			if !analyze.IsExtracted(p) {
				fmt.Printf("%s: unusable: a folder that is not an extracted collection (no bundle.json and files/)\n", p)
				unusable++
				continue
			}
			var h bundle.Header
			h, res, err = analyze.VerifyExtracted(context.Background(), p)
			hdr = &h
			if err != nil {
				fmt.Printf("%s: unusable: %s\n", p, clean(err.Error()))
				unusable++
				continue
			}
		case !fi.Mode().IsRegular():
			fmt.Printf("%s: unusable: not a regular file or a folder: not read\n", p)
			unusable++
			continue
		default:
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
			hdr, res, err = bundle.Verify(f, limits)
			f.Close()
			if done, failed := encryptedVerdict(p, err, sc, ok); done {
				if failed {
					unusable++
				}
				continue
			}
			if err != nil {
				fmt.Printf("%s: unusable: %v\n", p, err)
				unusable++
				continue
			}
		}
		if res.Encrypted {
			fmt.Printf("%s: age-encrypted: the sidecar is the ciphertext's hash; decrypted with --identity as read, no plaintext written\n", p)
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
		return &exitError{exitUnusable, fmt.Sprintf("%d of %d inputs are not readable bundles or extracted collections; %d failed verification", unusable, len(c.Bundles), bad)}
	}
	if bad > 0 {
		return &exitError{exitNothing, fmt.Sprintf("%d of %d bundles failed verification", bad, len(c.Bundles))}
	}
	return nil
}
