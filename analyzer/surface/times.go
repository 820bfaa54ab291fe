package surface

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
)

// macb is a file's access, inode change and birth times and where they
// come from ("manifest", "stat"; "" when unknown).
type macb struct{ a, c, b, from string }

// fileTimes finds the access, change and birth times of the listed files:
// from each bundle's manifest (a second read of the bundle, which also
// verifies it) or an extracted collection's manifest.jsonl, and for a
// loose tree from the file's own stat (links are not followed). The
// inputs are those run.json names; a stream input (stdin) cannot be read
// again and gives none.
func fileTimes(dir string, want map[string]bool, limits *bundle.Options) map[string]macb {
	if limits == nil {
		limits = analyze.DefaultLimits()
	}
	out := map[string]macb{}
	var rec analyze.RunRecord
	if b, err := os.ReadFile(filepath.Join(dir, analyze.RunJSON)); err != nil || json.Unmarshal(b, &rec) != nil {
		return out
	}
	take := func(bundleID string, e *bundle.Entry) {
		k := bundleID + "\x00" + e.Path
		if want[k] && e.Record == bundle.RecordFile {
			out[k] = macb{e.ATime, e.CTime, e.BTime, "manifest"}
		}
	}
	for _, src := range rec.Inputs {
		switch src.Kind {
		case analyze.KindBundle:
			f, err := os.Open(src.Input)
			if err != nil {
				continue
			}
			_, res, err := bundle.Verify(bufio.NewReaderSize(f, 1<<20), limits)
			f.Close()
			if err != nil || res == nil {
				continue
			}
			for i := range res.Manifest {
				take(src.BundleID, &res.Manifest[i])
			}
		case analyze.KindExtracted:
			f, err := analyze.OpenIn(src.Input, bundle.ManifestName)
			if err != nil {
				continue
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 64<<10), 16<<20)
			for sc.Scan() {
				var e bundle.Entry
				if json.Unmarshal(sc.Bytes(), &e) == nil {
					take(src.BundleID, &e)
				}
			}
			f.Close()
		}
	}
	// Loose trees: a file's original path is its local path, inside one of
	// the loose inputs; it is opened by the evidence rule (no link on the
	// way, a regular file) and only stat'ed, never read.
	var roots []string
	for _, src := range rec.Inputs {
		if src.Kind == analyze.KindLoose {
			if abs, err := filepath.Abs(src.Input); err == nil {
				roots = append(roots, filepath.ToSlash(abs))
			}
		}
	}
	for k := range want {
		if _, ok := out[k]; ok || k[0] != 0 {
			continue
		}
		p := k[1:]
		for _, root := range roots {
			rel, ok := strings.CutPrefix(p, strings.TrimSuffix(root, "/")+"/")
			if !ok {
				continue
			}
			f, err := analyze.OpenIn(filepath.FromSlash(root), rel)
			if err != nil {
				break
			}
			fi, err := f.Stat()
			f.Close()
			if err != nil {
				break
			}
			a, c, b := statTimes(fi)
			out[k] = macb{fmtTime(a), fmtTime(c), fmtTime(b), "stat"}
			break
		}
	}
	return out
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
