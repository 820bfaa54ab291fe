package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// VerifyCmd is `doubleagent verify`.
type VerifyCmd struct {
	Bundles  []string `arg:"" name:"BUNDLE" help:"Bundle files, folders of bundles, or extracted collections (folders holding bundle.json, manifest.jsonl and files/, as tar --zstd -xf leaves them), to verify." type:"path"`
	Sidecar  string   `help:"The acquired bundle's .sha256 sidecar, with one extracted collection: its manifest.jsonl and bundle.json must be the bytes the collector wrote, which ties the folder to the acquisition." type:"path" placeholder:"FILE"`
	Identity []string `help:"${identity_help} Without it an encrypted bundle's sidecar (the ciphertext's hash) is still checked." type:"path" placeholder:"FILE" sep:"none"`
}

// Run checks each bundle's .sha256 sidecar (when present) and every member
// against the manifest; for an extracted collection, every file the
// manifest lists, read by the evidence rule (analyze.VerifyExtracted), and
// with --sidecar its manifest and header against the acquisition's
// sidecar. A folder of bundles gives each of its bundles and extracted
// collections, and each entry named like a bundle that is not one is
// unusable, as timeline takes them. It prints one line per problem and a
// verdict per input; the exit code is 0 only when every input verifies.
func (c *VerifyCmd) Run(g *Globals, log zerolog.Logger) error {
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	if len(c.Identity) == 0 {
		limits = nil // the bundle reader's own defaults, as before
	}
	var sc *bundle.Sidecar
	if c.Sidecar != "" {
		s, err := bundle.ReadSidecar(c.Sidecar)
		if err != nil {
			return &exitError{exitUnusable, "--sidecar: " + clean(err.Error())}
		}
		sc = &s
	}
	inputs := analyze.ExpandInputs(c.Bundles)
	if sc != nil {
		n := 0
		for _, in := range inputs {
			if in.Status == analyze.InputRead && in.Kind == analyze.KindExtracted {
				n++
			}
		}
		if n != 1 {
			return &exitError{exitUnusable, fmt.Sprintf("--sidecar ties one extracted collection to its acquisition: give exactly one (%d given)", n)}
		}
	}
	// given counts each input once: an entry unusable before it is read,
	// and one read (which verifyOne may still find unusable).
	bad, unusable, given := 0, 0, 0
	for _, in := range inputs {
		p := in.Input
		switch in.Status {
		case analyze.InputSidecar:
			continue // checked with its bundle
		case analyze.InputDuplicate:
			fmt.Printf("%s: given twice: %s\n", clean(p), clean(in.Reason))
			continue
		case analyze.InputUnusable:
			fmt.Printf("%s: unusable: %s\n", clean(p), clean(in.Reason))
			unusable++
			given++
			continue
		}
		given++
		if in.Kind == analyze.KindLoose {
			fmt.Printf("%s: unusable: neither a bundle (no zstd frame) nor an extracted collection (no bundle.json, manifest.jsonl or files/): not verified\n", clean(p))
			unusable++
			continue
		}
		ok, usable := c.verifyOne(p, in.Kind, sc, limits)
		switch {
		case !usable:
			unusable++
		case !ok:
			bad++
		}
	}
	total := given
	if unusable > 0 {
		return &exitError{exitUnusable, fmt.Sprintf("%d input(s) are not readable bundles or extracted collections; %d of %d failed verification", unusable, bad, total)}
	}
	if bad > 0 {
		return &exitError{exitNothing, fmt.Sprintf("%d of %d inputs failed verification", bad, total)}
	}
	return nil
}

// verifyOne verifies one bundle or extracted collection and prints its
// lines; usable is false when it cannot be read at all.
func (c *VerifyCmd) verifyOne(p, kind string, sc *bundle.Sidecar, limits *bundle.Options) (ok, usable bool) {
	ok = true
	extra := 0 // failures outside the result's problems (sidecars)
	var hdr *bundle.Header
	var res *bundle.Result
	if kind == analyze.KindExtracted {
		h, r, err := analyze.VerifyExtracted(context.Background(), p)
		if err != nil {
			fmt.Printf("%s: unusable: %s\n", clean(p), clean(err.Error()))
			return false, false
		}
		hdr, res = &h, r
	} else {
		s, err := bundle.CheckSidecar(p)
		switch {
		case err != nil:
			fmt.Printf("%s: sidecar: %v\n", clean(p), clean(err.Error()))
			ok, extra = false, 1
		case s.Present && !s.OK:
			fmt.Printf("%s: sidecar: %s\n", clean(p), clean(s.Msg))
			ok, extra = false, 1
		case s.Present:
			fmt.Printf("%s: sidecar %s.sha256 matches\n", clean(p), clean(p))
		}
		f, err := os.Open(p)
		if err != nil {
			fmt.Printf("%s: %v\n", clean(p), clean(err.Error()))
			return false, false
		}
		hdr, res, err = bundle.Verify(f, limits)
		f.Close()
		if done, failed := encryptedVerdict(clean(p), err, s, ok, c.Identity); done {
			return !failed, !failed
		}
		if errors.Is(err, bundle.ErrHeaderCut) {
			// A bundle (its zstd frame begins) cut or corrupt inside its
			// first member: a damaged bundle that fails, as any cut does
			// (exit 1), not an input of another kind (exit 2).
			fmt.Printf("%s: truncated %s: %s\n", clean(p), bundle.HeaderName, clean(strings.TrimPrefix(err.Error(), bundle.ErrNotBundle.Error()+": ")))
			fmt.Printf("%s: FAILED: a bundle cut short or corrupt inside its header: no member can be read or verified\n", clean(p))
			return false, true
		}
		if err != nil {
			fmt.Printf("%s: unusable: %v\n", clean(p), clean(err.Error()))
			return false, false
		}
	}
	if res.Encrypted {
		fmt.Printf("%s: age-encrypted: the sidecar is the ciphertext's hash; decrypted with --identity as read, no plaintext written\n", clean(p))
	}
	warn := 0
	for _, pr := range res.Problems {
		if pr.Warning() { // incomplete collection, changed_during_copy, a row's error
			fmt.Printf("%s: warning: %s\n", clean(p), clean(pr.String()))
			warn++
			continue
		}
		fmt.Printf("%s: %s\n", clean(p), clean(pr.String()))
		ok = false
	}
	followed := make([]string, 0, len(res.Followed))
	for m := range res.Followed {
		followed = append(followed, m)
	}
	sort.Strings(followed)
	for _, m := range followed {
		fmt.Printf("%s: link followed: %s read at %s (the link policy, inside files/)\n", clean(p), clean(m), clean(res.Followed[m]))
	}
	tied := false
	if kind == analyze.KindExtracted && sc != nil {
		msgs := tieToSidecar(p, c.Sidecar, sc)
		for _, m := range msgs {
			fmt.Printf("%s: %s\n", clean(p), clean(m))
		}
		if len(msgs) > 0 {
			ok, extra = false, extra+len(msgs)
		} else {
			tied = true
		}
	}
	collected := 0
	for _, e := range res.Manifest {
		if e.Status == bundle.StatusCollected {
			collected++
		}
	}
	switch {
	case !ok:
		fmt.Printf("%s: FAILED: bundle %s, %d of %d collected files verified, %d problems\n", clean(p), clean(hdr.BundleID), len(res.Verified), collected, len(res.Problems)-warn+extra)
	case kind != analyze.KindExtracted:
		fmt.Printf("%s: OK: bundle %s from %s, %d of %d collected files verified\n", clean(p), clean(hdr.BundleID), clean(hdr.Host.Hostname), len(res.Verified), collected)
	case tied:
		fmt.Printf("%s: OK: extracted collection of bundle %s from %s, %d of %d collected files match manifest.jsonl, and manifest.jsonl and bundle.json are the bytes the acquisition's sidecar %s records: the folder holds the files acquired\n",
			clean(p), clean(hdr.BundleID), clean(hdr.Host.Hostname), len(res.Verified), collected, clean(c.Sidecar))
	default:
		fmt.Printf("%s: OK (self-consistency only): extracted collection of bundle %s from %s, %d of %d collected files match manifest.jsonl; this proves the folder agrees with its own manifest, not that it is what was acquired (an edited file whose new hash was written into manifest.jsonl passes): give --sidecar BUNDLE.sha256 to tie it to the acquisition\n",
			clean(p), clean(hdr.BundleID), clean(hdr.Host.Hostname), len(res.Verified), collected)
	}
	return ok, true
}

// tieToSidecar compares an extracted collection's manifest.jsonl and
// bundle.json with the hashes the acquisition's sidecar records, and says
// what does not match (nothing when both do).
func tieToSidecar(dir, path string, sc *bundle.Sidecar) []string {
	if sc.Manifest == "" {
		return []string{"sidecar " + path + " records no manifest.jsonl hash (written by a collector before they were recorded): the folder cannot be tied to the acquisition by it; verify the bundle file itself against it"}
	}
	h, m, herr, merr := analyze.ExtractedSums(dir)
	var out []string
	switch {
	case merr != nil:
		out = append(out, "manifest.jsonl cannot be hashed: "+merr.Error())
	case m != sc.Manifest:
		out = append(out, fmt.Sprintf("sidecar_mismatch: manifest.jsonl sha256 %s, the acquisition's sidecar %s records %s: the manifest is not the one acquired, so the files verified against it are not proven acquired", m, path, sc.Manifest))
	}
	switch {
	case sc.Header == "":
	case herr != nil:
		out = append(out, "bundle.json cannot be hashed: "+herr.Error())
	case h != sc.Header:
		out = append(out, fmt.Sprintf("sidecar_mismatch: bundle.json sha256 %s, the acquisition's sidecar %s records %s: the header (host, case, bundle id) is not the one acquired", h, path, sc.Header))
	}
	return out
}
