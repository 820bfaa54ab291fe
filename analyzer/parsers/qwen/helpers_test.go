package qwen

import (
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())
