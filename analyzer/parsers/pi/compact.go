package pi

import (
	"bytes"
	json "github.com/go-json-experiment/json/v1"
)

func appendCompact(dst []byte, raw []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return append(dst, b.Bytes()...), nil
}
