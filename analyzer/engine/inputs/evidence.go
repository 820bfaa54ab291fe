package inputs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// The one rule for every path the analyzer opens from evidence (an
// extracted collection, a loose tree or image, a folder of bundles): the
// path is taken relative to its tree's root and resolved inside it, no
// component may be a link (each is checked, not only the last), the last
// must be a regular file, and it is opened O_NOFOLLOW|O_NONBLOCK, so a
// FIFO, a device or a link planted in evidence is never opened or
// followed. Anything else is an error that becomes a problem row.

// ErrUnsafePath is wrapped by OpenIn's errors for a link, a FIFO, a device,
// a socket or a folder where a file was expected, or a path that climbs.
var ErrUnsafePath = errors.New("not read")

// unsafePath says why path (relative to its tree) was not opened.
type unsafePath struct {
	rel, why string
}

func (e *unsafePath) Error() string { return e.rel + ": " + e.why + ": not read" }
func (e *unsafePath) Unwrap() error { return ErrUnsafePath }

// splitRel splits a '/' separated path relative to a tree; it refuses an
// absolute path, an empty one and "..".
func splitRel(rel string) ([]string, error) {
	rel = filepath.ToSlash(rel)
	if rel == "" || strings.HasPrefix(rel, "/") {
		return nil, &unsafePath{rel, "not a path inside the tree"}
	}
	var out []string
	for _, c := range strings.Split(rel, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			return nil, &unsafePath{rel, "climbs out of its tree ('..')"}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, &unsafePath{rel, "not a path inside the tree"}
	}
	return out, nil
}

// KindOf names what stands at a path that is not a regular file.
func KindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return fmt.Sprintf("not a regular file (mode %v)", m)
}

// notRegular is the error for the last component.
func notRegular(rel string, m fs.FileMode) error {
	return &unsafePath{rel, "is " + KindOf(m) + ", not a regular file"}
}

// linkOnTheWay is the error for a component before the last.
func linkOnTheWay(rel string, comps []string, i int, m fs.FileMode) error {
	at := path.Join(comps[:i+1]...)
	if at == rel {
		return notRegular(rel, m)
	}
	return &unsafePath{rel, at + " on the way is " + KindOf(m) + ", not a folder"}
}
