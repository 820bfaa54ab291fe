package collect

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// errNotRegular is returned by readSmall for a FIFO, socket, device or
// directory where a small file was expected.
var errNotRegular = errors.New("not a regular file")

// readSmall reads up to max bytes of a small host file (the image's
// /etc/hostname, /etc/passwd, ...) without following links out of root and
// without ever opening a FIFO, socket or device: a FIFO planted at
// /etc/hostname must not hang the collector.
func readSmall(root, orig string, max int64) ([]byte, error) {
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
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", orig, errNotRegular)
	}
	return io.ReadAll(io.LimitReader(f, max))
}
