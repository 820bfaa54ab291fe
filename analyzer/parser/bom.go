package parser

import (
	"bytes"
	"io"
)

// BOM is the UTF-8 byte order mark.
const BOM = "\xef\xbb\xbf"

// TrimBOM returns b without a leading UTF-8 byte order mark, for text that
// reaches a parser other than through Input.Open (a value read from a
// database, a member of an archive).
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte(BOM)) }

// SkipBOM returns rc reading past a leading UTF-8 byte order mark: the
// reader behind Input.Open and Input.OpenRelated. Any other start, a
// short file, or a partial mark ("\xef\xbb" then other bytes) is passed on
// unchanged; closing it closes rc.
func SkipBOM(rc io.ReadCloser) io.ReadCloser { return &bomReader{rc: rc} }

type bomReader struct {
	rc      io.ReadCloser
	head    [len(BOM)]byte
	hn, hi  int  // bytes of head held, and served
	checked bool // the start was read
	err     error
}

func (r *bomReader) Read(p []byte) (int, error) {
	if !r.checked {
		r.checked = true
		r.hn, r.err = io.ReadFull(r.rc, r.head[:])
		if r.err == io.ErrUnexpectedEOF {
			r.err = io.EOF
		}
		if r.hn == len(BOM) && string(r.head[:]) == BOM {
			r.hn = 0
		}
	}
	if r.hi < r.hn {
		n := copy(p, r.head[r.hi:r.hn])
		r.hi += n
		return n, nil
	}
	if r.err != nil {
		return 0, r.err
	}
	return r.rc.Read(p)
}

func (r *bomReader) Close() error { return r.rc.Close() }
