package gemini

import (
	"bytes"
	"context"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"
)

// The chat parts of the Gemini chat format (analyzer/parser/format/geminichat).
type (
	Part             = geminichat.Part
	FunctionCall     = geminichat.FunctionCall
	FunctionResponse = geminichat.FunctionResponse
)

// ParseParts reads a PartListUnion (geminichat.ParseParts).
func ParseParts(raw []byte) []Part { return geminichat.ParseParts(raw) }

// PartsText joins the text of parts (geminichat.PartsText).
func PartsText(ps []Part, thoughts bool) string { return geminichat.PartsText(ps, thoughts) }

func injected(s string) bool { return geminichat.Injected(s) }

func callText(name string, args json.RawMessage, description string) string {
	return geminichat.CallText(name, args, description)
}

func responseText(raw json.RawMessage) (string, bool) { return geminichat.ResponseText(raw) }

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '['
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return geminichat.ParseChat(ctx, in, out, geminichat.ChatOptions{Agent: Agent, ModelType: "gemini",
		Project: func(in *parser.Input, hash string) string { return newProjectResolver(in).Path(hash) }})
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
