package cursor

import (
	json "github.com/go-json-experiment/json/v1"
	"io"
)

type jsonRaw = json.RawMessage

// maxConfig bounds a settings file read whole (they are a few KB).
const maxConfig = 16 << 20

// decodeJSONC decodes a JSON object that may carry // and /* */ comments
// and trailing commas (permissions.json is JSONC).
func decodeJSONC(r io.Reader) (map[string]jsonRaw, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxConfig))
	if err != nil {
		return nil, err
	}
	var m map[string]jsonRaw
	if err := json.Unmarshal(stripJSONC(b), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// stripJSONC removes comments and trailing commas outside strings.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
