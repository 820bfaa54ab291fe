package collect

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// errLinkLoop is returned by resolveIn for a chain of more than maxHops links.
var errLinkLoop = errors.New("too many levels of symbolic links")

const maxHops = 40

// resolveIn maps the host path orig ('/' separated, absolute) onto the tree
// at root, following symbolic links the way the examined host would, but
// confined to root: an absolute link target is taken relative to root and
// ".." never climbs above it, so an image's /home -> /data/home resolves
// inside the image, never on the examiner's machine. It returns the path to
// walk and the resolved host path. On a live host (root "/") this is an
// ordinary resolution. Used for homes, volume directories and project
// directories only: artifacts below them are never followed.
func resolveIn(root, orig string) (walked, resolved string, err error) {
	if isLive(root) && runtime.GOOS == "windows" {
		return joinRoot(root, orig), orig, nil
	}
	if root == "" {
		root = "/"
	}
	var done []string
	todo := splitSlash(orig)
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(strings.Join(append(done, c), "/")))
		fi, err := os.Lstat(p)
		if err != nil {
			return "", "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		if hops++; hops > maxHops {
			return "", "", &fs.PathError{Op: "resolve", Path: p, Err: errLinkLoop}
		}
		t, err := os.Readlink(p)
		if err != nil {
			return "", "", err
		}
		t = filepath.ToSlash(t)
		if strings.HasPrefix(t, "/") {
			done = nil
		}
		todo = append(splitSlash(t), todo...)
	}
	resolved = "/" + strings.Join(done, "/")
	return joinRoot(root, resolved), resolved, nil
}

func splitSlash(p string) []string { return strings.Split(filepath.ToSlash(p), "/") }
