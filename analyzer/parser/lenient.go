package parser

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"
)

// maxLenient bounds how many members DecodeLenient leaves out of one
// record before it gives up.
const maxLenient = 16

// DecodeLenient decodes the JSON value b into v (a pointer) like
// json.Unmarshal, except that a member whose value has another type than
// v's field for it (a number where a string belongs, a string where an
// object does) is read as null, at its own depth, and its path is
// returned in dropped: the rest of the record is still read, so one odd
// field never costs the record's text. err is the decode error when b
// still does not decode (not valid JSON, not an object where v is a
// struct, more than 16 such members).
func DecodeLenient(b []byte, v any) (dropped []string, err error) {
	err = json.Unmarshal(b, v)
	for err != nil {
		var ute *json.UnmarshalTypeError
		if !errors.As(err, &ute) || ute.Field == "" || len(dropped) == maxLenient {
			return dropped, err
		}
		nb, ok := nullAt(b, strings.Split(ute.Field, "."))
		if !ok {
			return dropped, err
		}
		b = nb
		dropped = append(dropped, ute.Field)
		reflect.ValueOf(v).Elem().SetZero()
		err = json.Unmarshal(b, v)
	}
	return dropped, nil
}

// LenientProblem words the problem for the members DecodeLenient left out.
func LenientProblem(dropped []string) string {
	return "member(s) of an unexpected type read as null, the rest of the record read: " + strings.Join(dropped, ", ")
}

// nullAt returns raw with the value at path (object keys and array
// indexes) replaced by null; false when the path is not in raw.
func nullAt(raw []byte, path []string) ([]byte, bool) {
	if len(path) == 0 {
		return []byte("null"), true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && obj != nil {
		v, ok := obj[path[0]]
		if !ok {
			return nil, false
		}
		nv, ok := nullAt(v, path[1:])
		if !ok {
			return nil, false
		}
		obj[path[0]] = nv
		out, err := json.Marshal(obj)
		return out, err == nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(arr) {
			return nil, false
		}
		nv, ok := nullAt(arr[i], path[1:])
		if !ok {
			return nil, false
		}
		arr[i] = nv
		out, err := json.Marshal(arr)
		return out, err == nil
	}
	return nil, false
}
