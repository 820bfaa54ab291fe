package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The bundle's JSON (bundle.json, manifest.jsonl) is decoded here and only
// here, with the standard library's encoding/json: the format is plain
// RFC 8259 JSON written by this package, the collector binary it is linked
// into stays free of other JSON stacks, and the standard decoder's rules
// (unknown fields ignored, the last of duplicate keys wins) are the ones
// docs/format.md states for readers. The analyzer reads a bundle unpacked
// into a folder through the same two functions, so a tar bundle and its
// extracted copy are read alike.

// DecodeHeader parses bundle.json. Unknown fields are ignored; a version
// outside [MinFormatVersion, MaxFormatVersion] is ErrUnsupportedVersion.
func DecodeHeader(b []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil {
		return h, &FormatError{Member: HeaderName, Msg: err.Error()}
	}
	if h.FormatVersion < MinFormatVersion || h.FormatVersion > MaxFormatVersion {
		return h, fmt.Errorf("%w: %d (this reader supports %d to %d)", ErrUnsupportedVersion, h.FormatVersion, MinFormatVersion, MaxFormatVersion)
	}
	return h, nil
}

// ManifestRow is one row of manifest.jsonl. Entry is set for a file row,
// Summary for the closing row; neither for a row whose record kind this
// reader does not know (Record names it) or that did not decode (Err).
type ManifestRow struct {
	Line    int // 1-based row number
	Record  string
	Entry   *Entry
	Summary *Summary
	// Err is a row that is JSON but not a valid row (a field of the wrong
	// type); the rows after it can still be read.
	Err error
}

// ManifestDecoder reads manifest.jsonl one row at a time.
type ManifestDecoder struct {
	dec  *json.Decoder
	line int
}

// NewManifestDecoder reads rows from r.
func NewManifestDecoder(r io.Reader) *ManifestDecoder {
	return &ManifestDecoder{dec: json.NewDecoder(r)}
}

// ErrManifestSyntax marks a manifest that is not a sequence of JSON
// objects: the rows after the error cannot be read.
var ErrManifestSyntax = errors.New("manifest is not JSON Lines")

// Next returns the next row, io.EOF after the last, or an error wrapping
// ErrManifestSyntax when the rest of the manifest cannot be read.
func (d *ManifestDecoder) Next() (ManifestRow, error) {
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return ManifestRow{}, io.EOF
		}
		return ManifestRow{Line: d.line + 1}, fmt.Errorf("%w: row %d: %v", ErrManifestSyntax, d.line+1, err)
	}
	d.line++
	row := ManifestRow{Line: d.line}
	var probe struct {
		Record string `json:"record"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		row.Err = fmt.Errorf("row %d: %v", d.line, err)
		return row, nil
	}
	row.Record = probe.Record
	switch probe.Record {
	case RecordFile:
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			row.Err = fmt.Errorf("row %d: %v", d.line, err)
			return row, nil
		}
		row.Entry = &e
	case RecordSummary:
		var s Summary
		if err := json.Unmarshal(raw, &s); err != nil {
			row.Err = fmt.Errorf("row %d: %v", d.line, err)
			return row, nil
		}
		row.Summary = &s
	}
	return row, nil
}

// UnknownRecord is the message for a row of a record kind this reader
// does not know: it is skipped, never taken for a file row.
func (r *ManifestRow) UnknownRecord() string {
	return fmt.Sprintf("row %d: record %q unknown to this reader (format version %d): skipped", r.Line, r.Record, MaxFormatVersion)
}
