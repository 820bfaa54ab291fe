//go:build linux || darwin

package collect

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// openUnder opens path, which lies under root (a walked path: homes,
// volume and project folders are resolved inside root, and nothing below
// them is a link when walked), component by component from root with
// O_NOFOLLOW: a folder on the way swapped for a link since the walk (a
// race a user can run against a collector working as root) fails the
// open (ELOOP, ENOTDIR), and the link's target is never read. root itself
// is the examiner's argument and is followed. A path not under root is
// opened as it is, O_NOFOLLOW on its last element.
func openUnder(root, path string, flags int) (*os.File, error) {
	if root == "" {
		root = "/"
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return os.OpenFile(path, flags, 0)
	}
	dfd, err := unix.Open(root, dirOpen|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for _, p := range parts[:len(parts)-1] {
		nfd, err := unix.Openat(dfd, p, dirOpen|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(dfd)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: errOnTheWay(err)}
		}
		dfd = nfd
	}
	fd, err := unix.Openat(dfd, parts[len(parts)-1], flags, 0)
	unix.Close(dfd)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// errOnTheWay names a folder on the way that is no longer a folder.
func errOnTheWay(err error) error {
	if err == unix.ELOOP || err == unix.ENOTDIR {
		return errSwapped
	}
	return err
}
