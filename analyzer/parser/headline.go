package parser

import "encoding/json"

// ArgHeadline is the short text of a tool call: the first of keys whose
// value in the call's JSON arguments is a non-empty string (a command, a
// path, a query), else name. Each agent names its tools' arguments its
// own way, so the caller gives the keys in its order.
func ArgHeadline(args []byte, name string, keys ...string) string {
	var a map[string]any
	if json.Unmarshal(args, &a) != nil {
		return name
	}
	for _, k := range keys {
		if s, ok := a[k].(string); ok && s != "" {
			return s
		}
	}
	return name
}
