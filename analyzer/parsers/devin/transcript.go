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
	err = parser.EachMember(ctx, dec, func(key string) error {
		if strings.EqualFold(key, "steps") {
			t, err := dec.Token()
			if err != nil {
				return err
			}
			if prev > 0 {
				out.Report(1, parser.KindSkippedRecord, fmt.Sprintf("an earlier steps member of %d step(s) not read: a later steps member replaces it (the last is read)", prev))
			}
			prev = 0
			switch t {
			case json.Delim('['):
				h.held, h.heldAll = nil, true
				size := 0
				if _, err := parser.EachElement(ctx, dec, func(int64) error {
					prev++
					var raw json.RawMessage
					if err := dec.Decode(&raw); err != nil {
						return err
					}
					if size += len(raw); h.heldAll && size <= holdBudget {
						h.held = append(h.held, raw)
					} else {
						h.held, h.heldAll = nil, false
					}
					return nil
				}); err != nil {
					return err
				}
				h.steps, h.stepsAt = true, n
			case nil:
				h.steps = false
			default:
				if err := parser.SkipJSONValue(ctx, dec, t); err != nil {
					return err
				}
				if typeErr == nil {
					typeErr = &json.UnmarshalTypeError{Value: parser.JSONTokenKind(t), Type: reflect.TypeFor[[]json.RawMessage](), Field: "steps"}
				}
			}
			n++
			return nil
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if !isHeaderKey(key) {
			return nil
		}
		k, _ := json.Marshal(key)
		obj := make([]byte, 0, len(k)+len(raw)+3)
		obj = append(append(append(append(append(obj, '{'), k...), ':'), raw...), '}')
		if err := json.Unmarshal(obj, &h.hdr); err != nil && typeErr == nil {
			typeErr = err
		}
		return nil
	})
	if err != nil {
		var te *parser.TokenError
		if errors.As(err, &te) {
			err = te.Err
		}
		return fail(err)
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
	found := errors.New("found")
	err = parser.EachMember(ctx, dec, func(key string) error {
		if !strings.EqualFold(key, "steps") {
			var raw json.RawMessage
			return dec.Decode(&raw)
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if n != at {
			n++
			return parser.SkipJSONValue(ctx, dec, t)
		}
		if t != json.Delim('[') {
			return errChanged
		}
		if _, err := parser.EachElement(ctx, dec, func(i int64) error {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			fn(int(i-1), raw)
			return nil
		}); err != nil {
			var te *parser.TokenError
			if errors.As(err, &te) {
				return te.Err
			}
			return err
		}
		return found
	})
	var te *parser.TokenError
	switch {
	case errors.Is(err, found):
		return nil
	case errors.As(err, &te) && te.Stage == parser.TokenKey:
		return te.Err
	case errors.As(err, &te), err == nil:
		// the document ended without the steps member the first pass read
	default:
		return err
	}
	return errChanged
}
