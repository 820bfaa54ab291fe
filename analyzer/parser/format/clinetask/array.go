package clinetask

import (
	"bufio"
	"context"
	"fmt"
	"io"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// ArrayResult says how far DecodeArray got.
type ArrayResult struct {
	Elements int64 // elements passed to fn
	// Cut is set when the file ends (or breaks) inside the array: a
	// whole-file rewrite cut short. The elements before it were passed.
	Cut error
	// Trailing is set when data follows the closing ']' (a stray "]").
	Trailing bool
}

// DecodeArray streams a JSON array file (ui_messages.json,
// api_conversation_history.json, taskHistory.json) element by element,
// calling fn with the 1-based element index and the element's raw JSON.
// Only one element is held at a time. A file cut inside an element (the
// agent killed mid-rewrite) yields every element before the cut and sets
// Cut; bytes after the closing ']' set Trailing and are ignored. The error
// is ctx's, fn's, or "not a JSON array" when the file does not open with
// '['; an empty file is an empty array.
func DecodeArray(ctx context.Context, r io.Reader, fn func(idx int64, raw json.RawMessage) error) (ArrayResult, error) {
	var res ArrayResult
	br := bufio.NewReaderSize(r, 1<<16)
	// Skip a UTF-8 byte order mark and leading NULs/space.
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		if b[0] == 0 || b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t' {
			_, _ = br.ReadByte()
			continue
		}
		if b[0] == 0xEF {
			if bom, _ := br.Peek(3); len(bom) == 3 && bom[1] == 0xBB && bom[2] == 0xBF {
				_, _ = br.Discard(3)
				continue
			}
		}
		break
	}
	dec := json.NewDecoder(br)
	tok, err := dec.Token()
	if err != nil {
		return res, errNotArray
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return res, errNotArray
	}
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			res.Cut = fmt.Errorf("array cut short after element %d: %v", res.Elements, err)
			return res, nil
		}
		res.Elements++
		if err := fn(res.Elements, raw); err != nil {
			return res, err
		}
	}
	if _, err := dec.Token(); err != nil {
		res.Cut = fmt.Errorf("array not closed after element %d: %v", res.Elements, err)
		return res, nil
	}
	// Anything but whitespace after the array is trailing data.
	rest := io.MultiReader(dec.Buffered(), br)
	buf := make([]byte, 512)
	for {
		n, err := rest.Read(buf)
		for _, c := range buf[:n] {
			if c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != 0 {
				res.Trailing = true
				return res, nil
			}
		}
		if err != nil {
			return res, nil
		}
	}
}

var errNotArray = parser.ErrNotArray

// ReportArray records DecodeArray's cut or trailing data as problems.
func ReportArray(out interface{ Problem(int64, string) }, res ArrayResult) {
	if res.Cut != nil {
		out.Problem(res.Elements+1, res.Cut.Error()+" (the file was cut during a rewrite; earlier elements kept)")
	}
	if res.Trailing {
		out.Problem(res.Elements, "data after the closing ']' ignored (stray bracket)")
	}
}
