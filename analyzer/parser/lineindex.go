package parser

import "bytes"

// LineIndex turns byte offsets of one document held whole into 1-based
// line numbers, for a parser that walks a JSON document with a token
// decoder (jsontext.Decoder.InputOffset) and gives each array member the
// line it starts on: the SourceLine of a pretty-printed file's record.
// Offsets asked in increasing order cost one pass over the document.
type LineIndex struct {
	b    []byte
	off  int64
	line int64
}

// NewLineIndex indexes b.
func NewLineIndex(b []byte) *LineIndex { return &LineIndex{b: b} }

// At returns the line of byte offset off (clamped to the document).
func (l *LineIndex) At(off int64) int64 {
	off = min(max(off, 0), int64(len(l.b)))
	if off < l.off {
		l.off, l.line = 0, 0
	}
	l.line += int64(bytes.Count(l.b[l.off:off], []byte("\n")))
	l.off = off
	return l.line + 1
}
