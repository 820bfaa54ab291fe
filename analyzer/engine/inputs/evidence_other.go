//go:build !unix

package inputs

import (
	"os"
	"path/filepath"
	"strings"
)

// OpenIn opens rel inside the tree at root by the evidence rule (see
// evidence.go). Without openat, each component is checked with Lstat and
// the file opened is checked to be the one checked.
func OpenIn(root, rel string) (*os.File, error) {
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

// DirCache is OpenIn's folder cache where there is no openat: each file
// is checked from the root (see evidence_unix.go).
type DirCache struct{}

func (d *DirCache) OpenIn(root, rel string) (*os.File, error) { return OpenIn(root, rel) }

func (d *DirCache) Close() {}
