package n8n

import (
	"bytes"
	"errors"
	"strconv"

	json "github.com/go-json-experiment/json/v1"
)

// unflatten decodes the "flatted" serialisation (npm flatted, WebReflection)
// n8n writes execution_data.data in: a JSON array whose element 0 is the
// root; inside an object or array every string is the decimal index of
// another element, strings in the array itself are literal, and numbers,
// booleans and null stand as written. A cycle or a repeated reference
// resolves to the same decoded value once; an index out of range is an
// error. Plain JSON (an object, as n8n wrote before flatted) is returned
// as decoded.
func unflatten(raw []byte) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("empty")
	}
	if raw[0] == '{' {
		var v any
		err := json.Unmarshal(raw, &v)
		return v, err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("empty flatted array")
	}
	d := &flat{list: list, done: map[int]any{}, busy: map[int]bool{}}
	return d.at(0)
}

type flat struct {
	list []json.RawMessage
	done map[int]any
	busy map[int]bool
}

const maxFlatDepth = 512

func (d *flat) at(i int) (any, error) { return d.atDepth(i, 0) }

func (d *flat) atDepth(i, depth int) (any, error) {
	if i < 0 || i >= len(d.list) {
		return nil, errors.New("flatted reference " + strconv.Itoa(i) + " out of range")
	}
	if v, ok := d.done[i]; ok {
		return v, nil
	}
	if d.busy[i] || depth > maxFlatDepth {
		return nil, nil // a cycle: the repeated value is left out
	}
	d.busy[i] = true
	defer delete(d.busy, i)
	raw := bytes.TrimSpace(d.list[i])
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		d.done[i] = s
		return s, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	out, err := d.revive(v, depth)
	if err != nil {
		return nil, err
	}
	d.done[i] = out
	return out, nil
}

func (d *flat) ref(v any, depth int) (any, error) {
	switch x := v.(type) {
	case string:
		n, err := strconv.Atoi(x)
		if err != nil {
			return nil, errors.New("flatted reference " + strconv.Quote(x) + " is not an index")
		}
		return d.atDepth(n, depth+1)
	case map[string]any, []any:
		return d.revive(x, depth+1)
	}
	return v, nil
}

func (d *flat) revive(v any, depth int) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			r, err := d.ref(e, depth)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
		return x, nil
	case []any:
		for k, e := range x {
			r, err := d.ref(e, depth)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
		return x, nil
	}
	return v, nil
}
