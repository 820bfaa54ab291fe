package devin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// transcriptHeader is a transcript's members other than steps, decoded as
// encoding/json decodes them into a struct (keys matched without regard
// to case, a repeated member decoded over the one before), and where its
// steps array is: steps is true when the last member named steps is an
// array, stepsAt counts the steps members before it.
type transcriptHeader struct {
	hdr
	steps   bool
	stepsAt int
	// held is the steps array's steps when they came to no more than
	// holdBudget bytes (heldAll): then the second pass is not needed
	held    []json.RawMessage
	heldAll bool
	// cut is the document failing to decode part way (cut short, or
	// broken) once its steps array was begun: the nsteps complete steps
	// of that array before the failure are read, and no more.
	cut    bool
	nsteps int
}

// holdBudget is how many bytes of steps the first pass keeps so that a
// transcript of ordinary size is read once; a larger one is read again.
var holdBudget = 32 << 20

type hdr struct {
	Agent *struct {
		ModelName string `json:"model_name"`
	} `json:"agent"`
	WorkingDirectory string          `json:"working_directory"`
	CWD              string          `json:"cwd"`
	FinalMetrics     json.RawMessage `json:"final_metrics"`
	UpdatedAt        string          `json:"updated_at"`
}

// headerKeys are hdr's members: only these are kept by the first pass.
var headerKeys = []string{"agent", "working_directory", "cwd", "final_metrics", "updated_at"}

func isHeaderKey(k string) bool {
	for _, h := range headerKeys {
		if strings.EqualFold(k, h) {
			return true
		}
	}
	return false
}

// scanTranscript is the first pass: it reads the whole document one
// member and one step at a time, keeping the header and where the steps
// are. A document that does not decode gives its problem and nil, as
// decoding it whole did (a syntax error or a cut first, then the first
// value of the wrong type); data after it gives parser.DataAfterJSON's
// problem. The error is the context's only.
func scanTranscript(ctx context.Context, in *parser.Input, out parser.Sink) (*transcriptHeader, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	h := &transcriptHeader{}
	dec := json.NewDecoder(rc)
	fail := func(err error) (*transcriptHeader, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out.Problem(1, parser.NotJSONObject("Devin transcript", err))
		return nil, nil
	}
	tok, err := dec.Token()
	if err != nil {
		return fail(err)
	}
	if tok != json.Delim('{') {
		if tok == nil { // null decodes to nothing: no steps
			return h, dataAfter(dec, rc, out)
		}
		if err := parser.SkipJSONValue(ctx, dec, tok); err != nil {
			return fail(err)
		}
		return fail(&json.UnmarshalTypeError{Value: parser.JSONTokenKind(tok), Type: reflect.TypeFor[hdr]()})
	}
	var typeErr error
	n := 0
	prev := 0 // the steps of the last steps member read
	open := false
	// broken is a decode failure part way. Once a steps array is begun
	// (open) or read (h.steps), the complete steps of that array before
	// the failure are kept, with one problem naming where the document
	// ends to the reader; before that, the document's problem as
	// decoding it whole gave (no rows).
	broken := func(err error) (*transcriptHeader, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if typeErr != nil || (!open && !h.steps) {
			return fail(err)
		}
		if open {
			h.steps, h.stepsAt = true, n
			h.nsteps = prev
		}
		h.cut = true
		what, at := "cut short", "cut"
		if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			what, at = "broken", "break"
		}
		where := fmt.Sprintf("inside its steps array: the %d complete step(s) before the %s are read, the step being written and the rest of the file are not", h.nsteps, at)
		if !open {
			where = fmt.Sprintf("after its steps array: its %d step(s) are read, the members after the %s are not", h.nsteps, at)
		}
		out.Problem(1, fmt.Sprintf("Devin transcript %s (%s) %s", what, parser.JSONError(err), where))
		return h, nil
	}
	for dec.More() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		kt, err := dec.Token()
		if err != nil {
			return broken(err)
		}
		key, _ := kt.(string)
		if strings.EqualFold(key, "steps") {
			t, err := dec.Token()
			if err != nil {
				return broken(err)
			}
			if prev > 0 {
				out.Report(1, parser.KindSkippedRecord, fmt.Sprintf("an earlier steps member of %d step(s) not read: a later steps member replaces it (the last is read)", prev))
			}
			prev = 0
			switch t {
			case json.Delim('['):
				h.held, h.heldAll = nil, true
				open = true
				size := 0
				for dec.More() {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					var raw json.RawMessage
					if err := dec.Decode(&raw); err != nil {
						return broken(err)
					}
					prev++
					if size += len(raw); h.heldAll && size <= holdBudget {
						h.held = append(h.held, raw)
					} else {
						h.held, h.heldAll = nil, false
					}
				}
				if _, err := dec.Token(); err != nil {
					return broken(err)
				}
				open = false
				h.steps, h.stepsAt, h.nsteps = true, n, prev
			case nil:
				h.steps = false
			default:
				if err := parser.SkipJSONValue(ctx, dec, t); err != nil {
					return broken(err)
				}
				if typeErr == nil {
					typeErr = &json.UnmarshalTypeError{Value: parser.JSONTokenKind(t), Type: reflect.TypeFor[[]json.RawMessage](), Field: "steps"}
				}
			}
			n++
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return broken(err)
		}
		if !isHeaderKey(key) {
			continue
		}
		k, _ := json.Marshal(key)
		obj := make([]byte, 0, len(k)+len(raw)+3)
		obj = append(append(append(append(append(obj, '{'), k...), ':'), raw...), '}')
		if err := json.Unmarshal(obj, &h.hdr); err != nil && typeErr == nil {
			typeErr = err
		}
	}
	if _, err := dec.Token(); err != nil {
		return broken(err)
	}
	if typeErr != nil {
		return fail(typeErr)
	}
	return h, dataAfter(dec, rc, out)
}

func dataAfter(dec *json.Decoder, rc io.Reader, out parser.Sink) error {
	if msg := parser.DataAfterJSON(dec.Buffered(), rc, dec.InputOffset()); msg != "" {
		out.Problem(0, msg)
	}
	return nil
}

// errChanged is the second pass finding a document other than the first
// pass read.
var errChanged = errors.New("the steps array is not where the first read found it")

// eachStep calls fn with each step of the steps member the first pass
// found: the steps it held, or (the second pass) the steps member
// numbered tr.stepsAt (counting the members named steps) read again, one
// decoded at a time, stopping at that array's end.
func eachStep(ctx context.Context, in *parser.Input, tr *transcriptHeader, fn func(i int, raw json.RawMessage)) error {
	if tr.heldAll {
		for i, raw := range tr.held {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fn(i, raw)
		}
		return nil
	}
	at := tr.stepsAt
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := json.NewDecoder(rc)
	if t, err := dec.Token(); err != nil {
		return err
	} else if t != json.Delim('{') {
		return errChanged
	}
	n := 0
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
		if !strings.EqualFold(key, "steps") {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			continue
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if n != at {
			n++
			if err := parser.SkipJSONValue(ctx, dec, t); err != nil {
				return err
			}
			continue
		}
		if t != json.Delim('[') {
			return errChanged
		}
		for i := 0; dec.More(); i++ {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if tr.cut && i == tr.nsteps {
				return nil // the first pass's problem names the rest
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			fn(i, raw)
		}
		if _, err = dec.Token(); err != nil && tr.cut {
			return nil // cut right after its last step: the first pass said so
		}
		return err
	}
	return errChanged
}
