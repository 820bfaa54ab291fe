package main

import (
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/rs/zerolog"
)

// ParsersCmd is `doubleagent parsers`.
type ParsersCmd struct{}

// Run lists the registry.
func (c *ParsersCmd) Run(g *Globals, log zerolog.Logger) error {
	for _, p := range parsers.All() {
		targets := ""
		if sp, ok := p.(parser.Specced); ok {
			targets = strings.Join(sp.Spec().Targets, ",")
		}
		fmt.Printf("%-36s v%d  agent=%s targets=%s\n", p.ID(), p.Version(), p.Agent(), targets)
	}
	return nil
}
