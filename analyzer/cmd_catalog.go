package main

import (
	"fmt"
	"os"
	"strings"

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
	fmt.Println("statuses: parsed = the analyzer reads its records; backlog = collected, a parser is wanted; collected = collected and detected, nothing to parse")
	fmt.Printf("%-22s %-10s %-15s %s\n", "AGENT", "STATUS", "EVIDENCE", "NAME")
	fmt.Printf("    %-18s %-10s %-20s %s\n", "TARGET", "KIND", "OS", "PATHS (relative to each home)")
	for _, a := range list {
		fmt.Printf("%-22s %-10s %-15s %s\n", a.Name, a.Status, a.Evidence, a.Display)
		for _, t := range a.Targets {
			var os []string
			for _, o := range t.OSes() {
				os = append(os, string(o))
			}
			fmt.Printf("    %-18s %-10s %-20s %s\n", t.ID, t.Kind, strings.Join(os, ","), strings.Join(catalog.TargetPatterns(t), "  "))
		}
	}
	return nil
}

func catalogJSON(list []catalog.Agent) ([]byte, error) { return catalog.JSON(list) }
