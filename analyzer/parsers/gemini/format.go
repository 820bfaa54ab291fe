package gemini

import "github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"

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
