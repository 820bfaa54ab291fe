package cursor

import (
	"io"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	json "github.com/go-json-experiment/json/v1"
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
	if err := json.Unmarshal(parser.StandardJSON(b), &m); err != nil {
		return nil, err
	}
	return m, nil
}
