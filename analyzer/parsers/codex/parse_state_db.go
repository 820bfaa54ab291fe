package codex

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return nil
}
