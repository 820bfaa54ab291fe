//go:build !unix

package analyze

import (
	"os"
	"path/filepath"
	"strings"
)

// openIn opens rel inside the tree at root by the evidence rule (see
// evidence.go). Without openat, each component is checked with Lstat and
// the file opened is checked to be the one checked.
func openIn(root, rel string) (*os.File, error) {
	comps, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	p := root
	var last os.FileInfo
	for i, c := range comps {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		if i < len(comps)-1 {
			if !fi.IsDir() {
				return nil, linkOnTheWay(rel, comps, i, fi.Mode())
			}
			continue
		}
		if !fi.Mode().IsRegular() {
			return nil, notRegular(rel, fi.Mode())
		}
		last = fi
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !os.SameFile(fi, last) {
		f.Close()
		return nil, &unsafePath{strings.Join(comps, "/"), "changed while it was opened"}
	}
	return f, nil
}

// dirCache is openIn's folder cache where there is no openat: each file
// is checked from the root (see evidence_unix.go).
type dirCache struct{}

func (d *dirCache) openIn(root, rel string) (*os.File, error) { return openIn(root, rel) }

func (d *dirCache) close() {}
