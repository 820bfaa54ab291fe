package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrOutputExists is wrapped by CreateNew's error when something (a file,
// a link, a FIFO) is already where an output file is to be created.
var ErrOutputExists = errors.New("something is already there; refusing to overwrite or follow it")

// CreateNew creates the output file path for writing. It never follows a
// link and never opens, truncates or reuses what is already there
// (O_CREAT|O_EXCL|O_NOFOLLOW): a link planted where an output goes cannot
// redirect the write, and an earlier output is never overwritten.
func CreateNew(path string, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow|oCloExec, perm)
	if err != nil {
		if errors.Is(err, fs.ErrExist) || isLinkErr(path) {
			return nil, fmt.Errorf("%s: %w", path, ErrOutputExists)
		}
		return nil, err
	}
	return f, nil
}

func isLinkErr(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// ErrNotRegular is wrapped by OpenRegular's error for a link, FIFO,
// socket, device or directory.
var ErrNotRegular = errors.New("not a regular file (a link, FIFO, socket, device or folder): not opened")

// OpenRegular opens an existing regular file for reading without following
// a link in its last component (O_NOFOLLOW) and without blocking on a FIFO
// (O_NONBLOCK: what stands there is checked with fstat before any read).
func OpenRegular(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow|oNonBlock|oCloExec, 0)
	if err != nil {
		if isLinkErr(path) {
			return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
		}
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return f, nil
}
