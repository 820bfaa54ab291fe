package qwen

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"
)

// parseLegacyChat reads a legacy tmp/<hash>/chats/session-*.json file with
// the Gemini chat reader; the model's messages are of type "qwen". The
// file names its project only by hash (projectHash), which the rows do not
// resolve.
func parseLegacyChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return geminichat.ParseChat(ctx, in, out, geminichat.ChatOptions{Agent: Agent, ModelType: "qwen"})
}
