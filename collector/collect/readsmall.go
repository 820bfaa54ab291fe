package collect

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/doubleagent/doubleagent/catalog"
)

// errNotRegular is returned by readSmall for a FIFO, socket, device or
// directory where a small file was expected.
var errNotRegular = errors.New("not a regular file")

// readSmall reads up to max bytes of a small host file (the image's
// /etc/hostname, /etc/passwd, ...) without following links out of root and
// without ever opening a FIFO, socket or device: a FIFO planted at
// /etc/hostname must not hang the collector.
func readSmall(root, orig string, max int64) ([]byte, error) {
	f, err := openHostFile(root, orig)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// openHostFile opens a host file as readSmall reads it: resolved inside
// root, a regular file only, never a FIFO.
func openHostFile(root, orig string) (*os.File, error) {
	p, _, err := resolveIn(root, orig)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", orig, errNotRegular)
	}
	f, err := os.OpenFile(p, openFlags, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", orig, errNotRegular)
	}
	return f, nil
}

// maxHostLine bounds one line of a host file held in memory; a longer
// line is passed to scanLines' fn as too long (and the scan goes on).
const maxHostLine = 1 << 20

// scanLines is catalog.ScanLines.
var scanLines = catalog.ScanLines
