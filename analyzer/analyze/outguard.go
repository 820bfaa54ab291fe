package analyze

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
)

// ErrOutputInEvidence is returned when the output folder lies inside a
// tree the run reads in place.
var ErrOutputInEvidence = errors.New("output folder inside the evidence")

// ErrNestedInput is returned when an input lies inside what another input
// reads under another host name.
var ErrNestedInput = errors.New("input read twice")

// checkPaths runs the checks on the output folder and the inputs that
// must pass before anything is read or written.
func checkPaths(out string, paths []string) error {
	if err := refuseOutputInEvidence(out, paths); err != nil {
		return err
	}
	return refuseNestedInputs(paths)
}

// refuseNestedInputs refuses an input (a folder or a single file) that
// lies inside a home of an image root given too, or inside an extracted
// collection given too: its files would be read twice, under two host
// names (the image's etc/hostname or the bundle's host, and loose:<its
// folder>), so every row would be written twice. The same input given
// twice, or an agent folder inside a copied home given too, is not
// refused: both are named alike and their rows are written once.
func refuseNestedInputs(paths []string) error {
	type scope struct{ input, root, dir string }
	var scopes []scope
	for _, in := range paths {
		fi, err := os.Stat(in)
		if err != nil || !fi.IsDir() {
			continue
		}
		_, kind, err := inputs.DetectInput(in)
		if err != nil {
			continue
		}
		root, err := inputs.ResolvedAbs(in)
		if err != nil {
			continue
		}
		switch kind {
		case KindExtracted:
			scopes = append(scopes, scope{in, root, root})
		case KindLoose:
			for _, dir := range inputs.ImageHomes(in) {
				if d, err := inputs.ResolvedAbs(dir); err == nil {
					scopes = append(scopes, scope{in, root, d})
				}
			}
		}
	}
	for _, in := range paths {
		p, err := inputs.ResolvedAbs(in)
		if err != nil {
			continue
		}
		for _, s := range scopes {
			if p == s.root {
				continue // the same input
			}
			if p == s.dir || strings.HasPrefix(p, s.dir+string(filepath.Separator)) {
				return fmt.Errorf("%w: %s lies inside %s, which the input %s reads under its own host name: every row would be written twice, under two hosts; give one of them", ErrNestedInput, in, s.dir, s.input)
			}
		}
	}
	return nil
}

// refuseOutputInEvidence refuses an output folder at or under an input
// that is read in place and not hash-verified as a whole (a loose tree, an
// image root, an extracted collection): writing there would change the
// evidence examined, as the collector refuses to write inside the image
// it collects. A folder of bundles is not refused (its bundles are files
// of their own, and a folder in it is never read). Links on either side
// are resolved, so a link to the evidence is caught too.
func refuseOutputInEvidence(out string, paths []string) error {
	o, err := inputs.ResolvedAbs(out)
	if err != nil {
		return nil // the output folder's own creation reports it
	}
	for _, in := range paths {
		fi, err := os.Stat(in)
		if err != nil || !fi.IsDir() {
			continue
		}
		paths, kind, err := inputs.DetectInput(in)
		if err != nil {
			continue
		}
		if kind != KindFolder {
			paths = []string{in}
		}
		for _, p := range paths {
			// Of a folder of evidence, its extracted collections (its
			// bundles are files of their own).
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				continue
			}
			r, err := inputs.ResolvedAbs(p)
			if err != nil {
				continue
			}
			if o == r || strings.HasPrefix(o, r+string(filepath.Separator)) {
				return fmt.Errorf("%w: %s is inside the input %s, which is read in place: write the outputs elsewhere", ErrOutputInEvidence, out, p)
			}
		}
	}
	return nil
}
