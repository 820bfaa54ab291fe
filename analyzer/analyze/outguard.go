package analyze

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutputInEvidence is returned when the output folder lies inside a
// tree the run reads in place.
var ErrOutputInEvidence = errors.New("output folder inside the evidence")

// refuseOutputInEvidence refuses an output folder at or under an input
// that is read in place and not hash-verified as a whole (a loose tree, an
// image root, an extracted collection): writing there would change the
// evidence examined, as the collector refuses to write inside the image
// it collects. A folder of bundles is not refused (its bundles are files
// of their own, and a folder in it is never read). Links on either side
// are resolved, so a link to the evidence is caught too.
func refuseOutputInEvidence(out string, inputs []string) error {
	o, err := resolvedAbs(out)
	if err != nil {
		return nil // the output folder's own creation reports it
	}
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil || !fi.IsDir() {
			continue
		}
		if _, kind, err := detectInput(in); err != nil || kind == KindFolder {
			continue
		}
		r, err := resolvedAbs(in)
		if err != nil {
			continue
		}
		if o == r || strings.HasPrefix(o, r+string(filepath.Separator)) {
			return fmt.Errorf("%w: %s is inside the input %s, which is read in place: write the outputs elsewhere", ErrOutputInEvidence, out, in)
		}
	}
	return nil
}

// resolvedAbs is p made absolute with the links of its longest existing
// prefix resolved (the rest does not exist yet).
func resolvedAbs(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := a; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return a, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
