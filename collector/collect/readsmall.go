package collect

import (
	"bufio"
	"bytes"
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

// scanLines calls fn with every line of r (without its "\n" or "\r\n")
// and its 1-based number. Unlike bufio.Scanner it has no line-length
// trap: a line over max bytes is read to its end and passed as tooLong
// with only its first max bytes, and the lines after it are still read.
func scanLines(r io.Reader, max int, fn func(n int, line []byte, tooLong bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var acc []byte
	n, size := 0, 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if room := max + 2 - len(acc); room > 0 {
			acc = append(acc, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if size > 0 {
			n++
			line := bytes.TrimRight(acc, "\r\n")
			long := size-(len(acc)-len(line)) > max
			if long && len(line) > max {
				line = line[:max]
			}
			fn(n, line, long)
		}
		acc, size = acc[:0], 0
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
