package parser

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"unicode/utf8"
)

var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// MaxLineBytes bounds the bytes of one line Lines holds (after NULs are
// dropped). A longer line is not accumulated past the limit: it is read to
// its end, reported as line_too_long and not passed on. The analyzer's
// --max-line flag sets it.
var MaxLineBytes int64 = 64 << 20

// LongLine is the size past which a line being accumulated counts as
// long. At most LongLines long lines are held at once across every Lines
// call that has a Sink (every parser's read), whatever --jobs is: a
// goroutine whose line grows past LongLine waits for a turn, so memory for
// lines is bounded by jobs × LongLine + LongLines × MaxLineBytes, not by
// jobs × MaxLineBytes (64 jobs at 64 MiB would be 4 GiB). A call without a
// Sink (a pre-scan, a related-file lookup, possibly made from inside
// another call's callback) never waits, so a turn held can never wait on
// itself.
const (
	LongLine  = 1 << 20
	LongLines = 2
)

var longTurns = make(chan struct{}, LongLines)

// hugeLine: after a line this long the garbage it left is collected at
// once (rare; a forced collection costs more than a line of a few MiB).
const hugeLine = 16 << 20

// Lines calls fn for each line of r with its 1-based number. Trailing "\r"
// is removed; blank lines are skipped; a final line without "\n" (a write
// cut short) is still passed. NUL bytes (the padding a crash or a
// preallocating writer leaves) are dropped as they are read, before a line
// is accumulated, and reported to out (when not nil) as nul_run; a line
// longer than MaxLineBytes is reported as line_too_long and skipped, so
// memory is bounded by the limit, not by the file. ctx is checked every
// line.
func Lines(ctx context.Context, r io.Reader, out Sink, fn func(n int64, line []byte) error) error {
	return lines(ctx, r, out, true, fn)
}

// LinesOwnEncoding is Lines for a caller that decodes each line's
// encoding itself and reports what it did (aider's Latin-1 fallback): no
// invalid_utf8 problem, whose U+FFFD wording would be false there.
func LinesOwnEncoding(ctx context.Context, r io.Reader, out Sink, fn func(n int64, line []byte) error) error {
	return lines(ctx, r, out, false, fn)
}

func lines(ctx context.Context, r io.Reader, out Sink, countUTF8 bool, fn func(n int64, line []byte) error) error {
	// 64 KiB buffers from a pool: a bundle holds thousands of small files,
	// and a longer line is accumulated anyway.
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var (
		n        int64
		acc      []byte
		nuls     int64 // NUL bytes dropped from the current line
		size     int64 // bytes of the current line, NULs excluded
		overflow bool  // the current line passed MaxLineBytes
		any      bool  // the current line had any byte at all
		turn     bool  // this call holds one of the LongLines turns
		bad      int64 // lines passed on holding invalid UTF-8
		firstBad int64 // the first of them
	)
	// One problem per file for its lines holding invalid UTF-8: the JSON
	// decoders replace each such byte with U+FFFD, so the rows' text
	// differs from the bytes; the count says so (every return, EOF or
	// not, after the lines read so far).
	defer func() {
		if bad > 0 && out != nil {
			out.Report(firstBad, KindInvalidUTF8, InvalidUTF8Problem(bad))
		}
	}()
	release := func() {
		if turn {
			<-longTurns
			turn = false
		}
	}
	defer release()
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			any = true
		}
		if k := bytes.IndexByte(chunk, 0); k >= 0 {
			kept := stripNUL(chunk, k)
			nuls += int64(len(chunk) - len(kept))
			chunk = kept
		}
		size += int64(len(chunk))
		if !overflow && size > MaxLineBytes {
			overflow = true
			acc = nil // release what was held
			release()
		}
		if !overflow && !turn && out != nil && size > LongLine {
			select {
			case longTurns <- struct{}{}:
				turn = true
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err == bufio.ErrBufferFull {
			if !overflow {
				c := cap(acc)
				acc = grow(acc, chunk)
				if cap(acc) != c && c >= hugeLine/2 {
					// The buffer outgrown (half the new one) and those
					// before it are garbage the heap would otherwise
					// carry beside the line and its decoded text: a
					// 63 MiB line peaked at 193 MB of heap, 32+16+8 MB
					// of it outgrown buffers. Their pages go back to the
					// system too, or they stay resident beside the rest.
					debug.FreeOSMemory()
				}
			}
			continue
		}
		var line []byte
		if len(acc) > 0 {
			acc = grow(acc, chunk)
			line = acc
		} else {
			line = chunk
		}
		if any {
			n++
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if nuls > 0 && out != nil {
				out.Report(n, KindNULRun, fmt.Sprintf("%d NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)", nuls))
			}
			switch {
			case overflow:
				if err == nil {
					size-- // the newline
				}
				if out != nil {
					out.Report(n, KindLineTooLong, fmt.Sprintf("line of %d bytes is over the %d-byte line limit (--max-line): not parsed", size, MaxLineBytes))
				}
			default:
				line = bytes.TrimRight(line, "\r\n")
				if len(bytes.TrimSpace(line)) > 0 {
					if countUTF8 && !utf8.Valid(line) {
						if bad == 0 {
							firstBad = n
						}
						bad++
					}
					if ferr := fn(n, line); ferr != nil {
						return ferr
					}
				}
			}
		}
		lineSize := size
		acc, nuls, size, overflow, any = acc[:0], 0, 0, false, false
		if turn {
			acc = nil // a long line's buffer is not kept for the next line
			release()
			if lineSize > hugeLine {
				// Growing a line to tens of MiB left as much again in
				// buffers outgrown; collect them now rather than let the
				// heap double before the next collection.
				runtime.GC()
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// InvalidUTF8Problem is the message of the invalid_utf8 problem of a file
// with n lines holding invalid UTF-8.
func InvalidUTF8Problem(n int64) string {
	return fmt.Sprintf("%d line(s) held bytes that are not valid UTF-8 (the first at this line): each such byte is U+FFFD in the rows' text", n)
}

// stripNUL removes the NUL bytes of b in place, the first at k.
func stripNUL(b []byte, k int) []byte {
	w := k
	for _, c := range b[k+1:] {
		if c != 0 {
			b[w] = c
			w++
		}
	}
	return b[:w]
}

// grow appends b to acc, doubling the capacity when it must grow: append's
// own growth (1.25x for large slices) copied a 50 MB line about five times
// over while it was read.
func grow(acc, b []byte) []byte {
	if len(acc)+len(b) > cap(acc) {
		// Doubling, but never past the line limit (and one read more).
		c := max(min(2*cap(acc), int(MaxLineBytes)+64<<10), len(acc)+len(b), 256<<10)
		n := make([]byte, len(acc), c)
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
// It takes the complete objects at the start of the line (decoding
// forward until one fails) and the complete objects at its end (matching
// braces backward from the last '}', string-aware, and validating each);
// whatever lies between is the cut part. Each byte is scanned a bounded
// number of times, so the time is linear in the line whatever the number
// of braces in the cut part.
func SplitGlued(line []byte) (objs [][]byte, lost bool) {
	if json.Valid(line) {
		return [][]byte{line}, false
	}
	head, pos := objectPrefix(line)
	if pos == len(line) && len(head) > 0 {
		return head, false
	}
	var tail [][]byte
	end := len(bytes.TrimRight(line, " \t"))
	for end > pos && line[end-1] == '}' {
		start := matchOpen(line[pos:end])
		if start < 0 {
			break
		}
		start += pos
		if !json.Valid(line[start:end]) {
			break
		}
		tail = append(tail, line[start:end])
		end = len(bytes.TrimRight(line[:start], " \t"))
	}
	for i, j := 0, len(tail)-1; i < j; i, j = i+1, j-1 {
		tail[i], tail[j] = tail[j], tail[i]
	}
	objs = append(head, tail...)
	if len(objs) == 0 {
		return nil, true
	}
	return objs, len(bytes.TrimSpace(line[pos:end])) > 0
}

// objectPrefix decodes complete objects from the start of b and returns
// them with the offset where the first failure (or the end) is.
func objectPrefix(b []byte) ([][]byte, int) {
	var objs [][]byte
	pos := len(b) - len(bytes.TrimLeft(b, " \t"))
	for pos < len(b) && b[pos] == '{' {
		dec := json.NewDecoder(bytes.NewReader(b[pos:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break
		}
		n := int(dec.InputOffset())
		objs = append(objs, b[pos:pos+n])
		pos += n
		pos += len(b[pos:]) - len(bytes.TrimLeft(b[pos:], " \t"))
	}
	return objs, pos
}

// matchOpen returns the offset of the '{' that opens the object ending at
// the last byte of b (a '}'), reading backward with string awareness (a
// quote is real when an even number of backslashes precede it), or -1.
func matchOpen(b []byte) int {
	depth := 0
	inStr := false
	for i := len(b) - 1; i >= 0; i-- {
		c := b[i]
		if c == '"' {
			k := 0
			for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
				k++
			}
			if k%2 == 0 {
				inStr = !inStr
			}
			continue
		}
		if inStr {
			continue
		}
		switch c {
		case '}', ']':
			depth++
		case '{', '[':
			depth--
			if depth == 0 {
				if c == '{' {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// GluedProblem words the problem for a line SplitGlued had to split: n
// complete records kept, and whether a cut record was lost.
func GluedProblem(n int, lost bool) string {
	if lost {
		return fmt.Sprintf("cut record glued to the next record on one line; kept %d complete record(s)", n)
	}
	return fmt.Sprintf("%d complete records on one line with no newline between them; all kept", n)
}
