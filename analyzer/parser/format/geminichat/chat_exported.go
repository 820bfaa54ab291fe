package geminichat

import json "github.com/go-json-experiment/json/v1"

// Injected reports user-role text the agent wrote, not the person (a
// context block opening with one of the injected tags).
func Injected(s string) bool { return injected(s) }

// CallText renders a tool call as its row text.
func CallText(name string, args json.RawMessage, description string) string {
	return callText(name, args, description)
}

// ResponseText renders a function response's output (ok false when it
// names none).
func ResponseText(raw json.RawMessage) (string, bool) { return responseText(raw) }
