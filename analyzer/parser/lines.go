package parser

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sync"
)

var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// Lines calls fn for each line of r with its 1-based number, without a
// length limit (a line is held whole, so memory is bounded by the longest
// line, not the file). Trailing "\r" is removed and NUL bytes (the padding a
// crash leaves) are dropped; blank lines are skipped. A final line without
// "\n" (a write cut short) is still passed. ctx is checked every line.
func Lines(ctx context.Context, r io.Reader, fn func(n int64, line []byte) error) error {
	// 64 KiB buffers from a pool: a bundle holds thousands of small files,
	// and a longer line is accumulated anyway.
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var n int64
	var acc []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			acc = grow(acc, chunk)
			continue
		}
		var line []byte
		if len(acc) > 0 {
			acc = grow(acc, chunk)
			line = acc
		} else {
			line = chunk
		}
		if len(line) > 0 {
			n++
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			line = bytes.TrimRight(line, "\r\n")
			if bytes.IndexByte(line, 0) >= 0 {
				line = bytes.ReplaceAll(line, []byte{0}, nil)
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if ferr := fn(n, line); ferr != nil {
					return ferr
				}
			}
		}
		acc = acc[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// grow appends b to acc, doubling the capacity when it must grow: append's
// own growth (1.25x for large slices) copied a 50 MB line about five times
// over while it was read.
func grow(acc, b []byte) []byte {
	if len(acc)+len(b) > cap(acc) {
		n := make([]byte, len(acc), max(2*cap(acc), len(acc)+len(b), 256<<10))
		copy(n, acc)
		acc = n
	}
	return append(acc, b...)
}

// SplitGlued splits a line on which JSON records were glued together: a
// killed writer left a cut record and the next append wrote a whole one
// after it with no newline, or two complete records share a line. It
// returns the complete objects it can find and whether anything was lost.
// A valid line is returned as is.
//
// It first reads the line as a sequence of objects; if that fails it
// looks for the earliest '{' after which the rest of the line reads as a
// sequence of objects. At most maxGlueTries starts are tried, so a long
// cut line costs a bounded number of passes, not one per '{'.
func SplitGlued(line []byte) (objs [][]byte, lost bool) {
	if json.Valid(line) {
		return [][]byte{line}, false
	}
	if objs, ok := objectSeq(line); ok {
		return objs, false
	}
	tries := 0
	for i := 1; i < len(line) && tries < maxGlueTries; i++ {
		j := bytes.IndexByte(line[i:], '{')
		if j < 0 {
			break
		}
		i += j
		tries++
		if objs, ok := objectSeq(line[i:]); ok {
			return objs, true
		}
	}
	return nil, true
}

// maxGlueTries bounds the candidate starts SplitGlued tries.
const maxGlueTries = 64

// objectSeq reads b as one or more JSON objects separated by optional
// white space, all the way to the end.
func objectSeq(b []byte) ([][]byte, bool) {
	var objs [][]byte
	rest := bytes.TrimLeft(b, " \t")
	for len(rest) > 0 {
		if rest[0] != '{' {
			return nil, false
		}
		dec := json.NewDecoder(bytes.NewReader(rest))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		n := dec.InputOffset()
		objs = append(objs, rest[:n])
		rest = bytes.TrimLeft(rest[n:], " \t")
	}
	return objs, len(objs) > 0
}

// GluedProblem words the problem for a line SplitGlued had to split: n
// complete records kept, and whether a cut record was lost.
func GluedProblem(n int, lost bool) string {
	if lost {
		return fmt.Sprintf("cut record glued to the next record on one line; kept %d complete record(s)", n)
	}
	return fmt.Sprintf("%d complete records on one line with no newline between them; all kept", n)
}
