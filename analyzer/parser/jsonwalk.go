package parser

import (
	"context"
	"encoding/json"
)

// The token walker: the one mechanism by which a parser streams a large
// JSON document (one object whose member holds a long array: a Gemini
// conversation record, a Cortex session, a Devin transcript) without
// holding it whole. The caller reads the opening token itself (its own
// words for a document that is not an object) and then walks with
// EachMember and EachElement; every member value and element is consumed
// by the caller's function, one at a time.

// TokenStage says where a walk's own read failed.
type TokenStage int

const (
	// TokenKey: the next member's key could not be read.
	TokenKey TokenStage = iota + 1
	// TokenEnd: the closing '}' or ']' could not be read.
	TokenEnd
)

// TokenError is a read of the walker's own that failed (a member's key,
// a closing delimiter), with the index of the last element read for
// EachElement; errors of the caller's function are returned as they are.
type TokenError struct {
	Stage TokenStage
	Err   error
}

func (e *TokenError) Error() string { return e.Err.Error() }
func (e *TokenError) Unwrap() error { return e.Err }

// TokenDecoder is what the walker needs of a decoder: encoding/json's, or
// the go-json-experiment v1 one some readers use (its Token type is its
// own, hence T).
type TokenDecoder[T any] interface {
	More() bool
	Token() (T, error)
}

// EachMember walks the members of an object whose '{' dec has just read:
// for each it reads the key and calls fn, which must consume the member's
// value (dec.Decode, EachElement, SkipJSONValue); then it reads the
// closing '}'. It stops at fn's first error and returns it unchanged; its
// own failures are *TokenError; ctx (nil for none) is checked before each
// member and its error returned as it is.
func EachMember[T any, D TokenDecoder[T]](ctx context.Context, dec D, fn func(key string) error) error {
	for dec.More() {
		if ctx != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		kt, err := dec.Token()
		if err != nil {
			return &TokenError{Stage: TokenKey, Err: err}
		}
		key, _ := any(kt).(string)
		if err := fn(key); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &TokenError{Stage: TokenEnd, Err: err}
	}
	return nil
}

// EachElement walks the elements of an array whose '[' dec has just read,
// calling fn with each element's 1-based index; fn must consume the
// element. It then reads the closing ']'. It returns the number of
// elements fn was called for and, as EachMember, fn's first error
// unchanged, its own as *TokenError, ctx's as it is.
func EachElement[T any, D TokenDecoder[T]](ctx context.Context, dec D, fn func(i int64) error) (int64, error) {
	var n int64
	for dec.More() {
		if ctx != nil && ctx.Err() != nil {
			return n, ctx.Err()
		}
		n++
		if err := fn(n); err != nil {
			return n, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return n, &TokenError{Stage: TokenEnd, Err: err}
	}
	return n, nil
}

// SkipJSONValue reads the rest of a value whose first token tok was just
// read, one token at a time (never the value whole); ctx (nil for none)
// is checked between tokens.
func SkipJSONValue(ctx context.Context, dec *json.Decoder, tok json.Token) error {
	depth := 0
	for {
		if d, ok := tok.(json.Delim); ok {
			if d == '[' || d == '{' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
		if ctx != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		var err error
		if tok, err = dec.Token(); err != nil {
			return err
		}
	}
}

// JSONTokenKind names the kind of a value by its first token as
// encoding/json's UnmarshalTypeError does ("object", "array", "string",
// "bool", "number").
func JSONTokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case bool:
		return "bool"
	default:
		return "number"
	}
}
