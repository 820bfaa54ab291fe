package parser

import (
	"context"
	"io"
	"strings"
)

// FileHistory reads a prompt_toolkit FileHistory file (the prompt history
// of Python terminal agents): each entry is a "# <time>" line (the
// host-local time the entry was stored, datetime.now()) followed by its
// "+<text>" lines; blank lines separate entries. fn is called once per
// entry with the line of its "#" header (or of its first "+" line when it
// has none), the header's time text and the entry's text. Each further
// "+" line of an entry is a Skip "continuation"; any other line a
// skipped_record problem.
func FileHistory(ctx context.Context, r io.Reader, out Sink, fn func(line int64, at, text string)) error {
	var (
		cur    []string
		open   bool
		at     string
		start  int64
		header bool
	)
	flush := func() {
		if open {
			fn(start, at, strings.Join(cur, "\n"))
		}
		cur, open, at, start, header = nil, false, "", 0, false
	}
	err := Lines(ctx, r, out, func(n int64, line []byte) error {
		s := string(line)
		switch {
		case strings.HasPrefix(s, "#"):
			flush()
			at, start, header = strings.TrimSpace(s[1:]), n, true
		case strings.HasPrefix(s, "+"):
			if !open {
				open = true
				if !header {
					start = n
				} else if out != nil {
					out.Skip(n, "continuation")
				}
			} else if out != nil {
				out.Skip(n, "continuation")
			}
			cur = append(cur, s[1:])
		default:
			if out != nil {
				out.Report(n, KindSkippedRecord, "not a prompt history line")
			}
		}
		return nil
	})
	flush()
	return err
}
