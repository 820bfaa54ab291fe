package main

import (
	"os"

	"github.com/doubleagent/doubleagent/catalog"
	"github.com/rs/zerolog"
)

// CatalogCmd is `doubleagent catalog`.
type CatalogCmd struct {
	JSON bool `help:"Print the whole catalog as JSON (agents, status, evidence, targets per OS)."`
}

// Run prints the catalog.
func (c *CatalogCmd) Run(g *Globals, log zerolog.Logger) error {
	list := catalog.All()
	if c.JSON {
		b, err := catalogJSON(list)
		if err != nil {
			return err
		}
		_, err = os.Stdout.Write(append(b, '\n'))
		return err
	}
	return catalog.WriteTable(os.Stdout, list)
}

func catalogJSON(list []catalog.Agent) ([]byte, error) { return catalog.JSON(list) }
