package parser

import (
	encjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
)

// One wording per cause. A problem row for a record or file that does not
// read as JSON says so in the words below, whichever parser writes it, so
// an examiner (and a grep over problems.jsonl) meets one sentence per
// cause. analyzer/parsers/wording_test.go fails when a parser writes its
// own wording for one of these causes.
//
//   - BadJSONLine: one line of a line-oriented (JSON Lines) file does not
//     decode: cut short by a crash, corrupt, hand-edited; or it decodes to
//     something that is not a record of the format. The line is skipped
//     and the rest of the file is read.
//   - NotJSON: a whole file, or a value stored in a record (a SQLite cell,
//     a field holding JSON text), does not decode as JSON at all.
//   - NotJSONObject, NotJSONArray: a whole file, a record or a stored value
//     that is not the JSON object (array) the format has there: it does
//     not decode, or it decodes to another kind of value.
//
// The detail after the colon is JSONError's: plain words, never a Go type.

// BadJSONLine is the problem message for a line of a JSON Lines file that
// does not decode; err (may be nil) gives the detail.
// A line that decodes but is not a record of the format (an array, a
// string, an object whose fields have other types) is its own cause, and
// says so.
func BadJSONLine(err error) string {
	if isShape(err) {
		return withDetail("JSON line is not a record of this format, skipped", err)
	}
	return withDetail("malformed JSON line (cut short or corrupt), skipped", err)
}

// isShape reports whether err says that valid JSON had another shape than
// the one decoded into.
func isShape(err error) bool {
	var te1 *json.UnmarshalTypeError
	var te2 *encjson.UnmarshalTypeError
	var se *jsonv2.SemanticError
	return errors.Is(err, ErrNotObject) || errors.Is(err, ErrNotArray) ||
		errors.As(err, &te1) || errors.As(err, &te2) || (errors.As(err, &se) && se.GoType != nil)
}

// NotJSON is the problem message for a file or stored value (named by what,
// "" for the file itself) that does not decode as JSON.
func NotJSON(what string, err error) string {
	return withDetail(subject(what)+"not valid JSON", err)
}

// NotJSONObject is the problem message for a file, record or value (named
// by what, "" for the file itself) that is not the JSON object expected.
func NotJSONObject(what string, err error) string {
	return withDetail(subject(what)+"not a JSON object", err)
}

// NotJSONArray is NotJSONObject for a JSON array.
func NotJSONArray(what string, err error) string {
	return withDetail(subject(what)+"not a JSON array", err)
}

func subject(what string) string {
	if what == "" {
		return ""
	}
	return what + " is "
}

func withDetail(msg string, err error) string {
	if err == ErrNotObject || err == ErrNotArray {
		return msg
	}
	if d := JSONError(err); d != "" {
		return msg + ": " + d
	}
	return msg
}

// endOfInput is the one wording for JSON cut short (io.EOF and
// io.ErrUnexpectedEOF from a decoder, "unexpected end of JSON input" from
// Unmarshal).
const endOfInput = "unexpected end of JSON input"

// JSONError describes a JSON decoding error in plain words for a problem
// row: what was expected and what was found, and where when the decoder
// says ("expected an object at messages.0, found a string"); a syntax
// error as the decoder words it, without its package prefix; a cut as
// "unexpected end of JSON input". It never quotes a Go type name. "" for
// nil.
func JSONError(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return endOfInput
	}
	var te1 *json.UnmarshalTypeError
	if errors.As(err, &te1) {
		return expected(te1.Type, te1.Field, te1.Value)
	}
	var te2 *encjson.UnmarshalTypeError
	if errors.As(err, &te2) {
		return expected(te2.Type, te2.Field, te2.Value)
	}
	var se *jsonv2.SemanticError
	if errors.As(err, &se) && se.GoType != nil {
		return expected(se.GoType, pointerPath(string(se.JSONPointer)), kindName(se.JSONKind))
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) && sy.Err != nil {
		if errors.Is(sy.Err, io.ErrUnexpectedEOF) {
			return endOfInput
		}
		return plain(sy.Err.Error())
	}
	return plain(err.Error())
}

// plain strips a decoder's package prefix; a message that still names a Go
// type (an error from a decoder this file does not know) is replaced.
func plain(s string) string {
	for _, p := range []string{"jsontext: ", "json: "} {
		s = strings.TrimPrefix(s, p)
	}
	if strings.Contains(s, "Go value") || strings.Contains(s, "Go struct") || strings.Contains(s, "of type ") {
		return "a value of another shape than the format has there"
	}
	return s
}

func pointerPath(p string) string {
	return strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", ".")
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return ""
}

// expected words a type mismatch: the JSON the Go type stands for, where,
// and the JSON value found ("number -5", "array", "string").
func expected(t reflect.Type, field, found string) string {
	s := "expected " + jsonKindOf(t)
	if field != "" {
		s += " at " + field
	}
	if found != "" {
		f, _, _ := strings.Cut(found, " ")
		s += ", found " + article(f)
	}
	return s
}

func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}

func article(jsonKind string) string {
	switch jsonKind {
	case "object", "array":
		return "an " + jsonKind
	case "string", "number":
		return "a " + jsonKind
	case "bool":
		return "true or false"
	case "null":
		return "null"
	}
	return jsonKind
}

// DataAfterJSON is the problem message for a file that holds one JSON value
// and then more than whitespace (a second value, as a rewrite interrupted or
// racing another leaves, or junk): what follows is not read, and a decoder
// that stops at the first value would drop it without a word. buffered is
// the decoder's Buffered(), rest the reader it was reading, offset its
// InputOffset() after the value; the message names the byte where the data
// starts. "" when nothing but whitespace (or NUL
// padding) follows.
func DataAfterJSON(buffered, rest io.Reader, offset int64) string {
	r := io.MultiReader(buffered, rest)
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		for i, c := range buf[:n] {
			if c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != 0 {
				return fmt.Sprintf("data after the JSON value (from byte %d) not read: a second value or junk after its end (a rewrite cut or racing another)", offset+int64(i))
			}
		}
		offset += int64(n)
		if err != nil {
			return ""
		}
	}
}
