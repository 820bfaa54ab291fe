package parser

import "bytes"

// TopFields walks the top-level members of the JSON object in b, calling
// fn with each key (raw, as written between its quotes) and the raw bytes
// of its value, until fn returns false. It is a structural scan, not a
// decoder: it allocates nothing, finds strings' ends with memchr and
// skips nested values by counting brackets, so it costs a small part of
// a decode. It reports false when b is not a well-formed object as far as
// that scan can tell (a string or a bracket left open, a missing colon or
// comma); a true result still needs a decoder to vouch for the values.
//
// Parsers use it to decide, before decoding, that a record is of a kind
// whose large values they never read (Claude Code's api-request-shape and
// prompt snapshots are two thirds of a 2.1.332 transcript's bytes).
func TopFields(b []byte, fn func(key, val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return len(bytes.TrimSpace(b[i+1:])) == 0
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		ke := stringEnd(b, i)
		if ke < 0 {
			return false
		}
		key := b[i+1 : ke-1]
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		ve := valueEnd(b, i)
		if ve < 0 {
			return false
		}
		if !fn(key, b[i:ve]) {
			return true
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return len(bytes.TrimSpace(b[i+1:])) == 0
		default:
			return false
		}
	}
	return false
}

// TopMap returns the top-level members of the object in b by key, each
// value a slice of b (nothing copied). ok is false when TopFields is, or a
// key holds an escape (then decode b instead).
func TopMap(b []byte) (m map[string][]byte, ok bool) {
	m = map[string][]byte{}
	if !TopMapInto(m, b, nil) {
		return nil, false
	}
	return m, true
}

// TopMapInto is TopMap filling m (cleared first), so one map serves a
// file's records; key, when not nil, makes each key's string (an
// interner: the keys repeat from record to record). It reports TopMap's ok.
func TopMapInto(m map[string][]byte, b []byte, key func([]byte) string) bool {
	clear(m)
	esc := false
	ok := TopFields(b, func(k, v []byte) bool {
		if bytes.IndexByte(k, '\\') >= 0 {
			esc = true
			return false
		}
		if key != nil {
			m[key(k)] = v
		} else {
			m[string(k)] = v
		}
		return true
	})
	return ok && !esc
}

// RawString returns a JSON string value's text when it holds no escape
// (the common case for ids, types and times), and false otherwise.
func RawString(val []byte) (string, bool) {
	if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' || bytes.IndexByte(val, '\\') >= 0 {
		return "", false
	}
	return string(val[1 : len(val)-1]), true
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the offset just past the string starting at b[i]
// (a '"'), or -1 when it is not closed. It jumps from quote to quote with
// memchr: a quote ends the string unless an odd run of backslashes comes
// right before it (then it is escaped, and the search goes on after it),
// so text with escapes (new lines written \n, a JSON document quoted
// inside a string) is not walked a byte at a time. Where escaped quotes
// come close together a short stretch is walked bytewise instead, which
// is then cheaper than a memchr call per quote.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
		if k < 64 {
			end := min(len(b), j+1024)
			for ; j < end; j++ {
				switch b[j] {
				case '\\':
					j++
				case '"':
					return j + 1
				}
			}
			if j >= len(b) {
				return -1
			}
		}
	}
}

// valueEnd returns the offset just past the value starting at b[i], or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	return -1
}
