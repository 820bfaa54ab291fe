package parsers

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// All returns every registered parser, grouped by agent in catalog-name
// order. A parser's position only breaks ties; routing is by Match.
func All() []parser.Parser {
	return []parser.Parser{
		// PARSERS (one line each, keep agent order; do not rewrite this list)
	}
}
