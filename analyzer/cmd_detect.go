package main

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/rs/zerolog"
)

// DetectCmd is `doubleagent detect`.
type DetectCmd struct {
	Inputs   []string `arg:"" name:"INPUT" help:"Bundles, folders of bundles, extracted collections or loose trees." type:"path"`
	JSON     bool     `help:"Print JSON lines instead of a table."`
	Identity []string `help:"${identity_help}" type:"path" placeholder:"FILE" sep:"none"`
}

// Run prints the agents found.
func (c *DetectCmd) Run(g *Globals, log zerolog.Logger) error {
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	if len(c.Identity) == 0 {
		limits = nil // the bundle reader's own defaults, as before
	}
	d := analyze.DetectInputs(context.Background(), c.Inputs, parsers.All(), limits)
	rows, probs := d.Rows, d.Problems
	for _, p := range probs {
		fmt.Fprintf(os.Stderr, "problem: %s: %s\n", clean(p.Input), clean(p.Message))
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else {
		tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HOST\tUSER\tAGENT\tFILES\tBYTES\tSTATUS\tPRESENCE\tPATHS SEEN")
		for _, r := range rows {
			user := r.User
			if r.UserInferred {
				user += " (inferred)"
			}
			var st []string
			for k, v := range r.Statuses {
				st = append(st, fmt.Sprintf("%s=%d", k, v))
			}
			sort.Strings(st)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", clean(r.Host), clean(user), clean(r.Agent), r.Files, r.Bytes, r.ParseStatus, r.Presence, clean(strings.Join(st, " ")))
		}
		tw.Flush()
	}
	var notParsed, collected []string
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.Agent] {
			continue
		}
		seen[r.Agent] = true
		switch r.ParseStatus {
		case "detected-not-parsed":
			notParsed = append(notParsed, r.Agent)
		case "collected-only":
			collected = append(collected, r.Agent)
		}
	}
	if !c.JSON {
		fmt.Printf("detected, not parsed: %s\ncollected only: %s\n", cleanN(orNone(notParsed), 16*maxTerminalText), cleanN(orNone(collected), 16*maxTerminalText))
	}
	if len(rows) == 0 && len(d.CutShort) == 0 {
		// A bundle cut short is read, as far as it goes, even when that
		// is nothing (cut inside bundle.json): exit 3 below, not 2.
		if len(probs) > 0 {
			return &exitError{exitUnusable, "no usable input"}
		}
		return &exitError{exitNothing, "no agent found"}
	}
	unusable := 0
	for _, p := range probs {
		if p.Kind == analyze.KindUnusableInput || p.Kind == analyze.KindWrongKey {
			unusable++
		}
	}
	if unusable > 0 {
		return &exitError{exitPartial, fmt.Sprintf("%d input(s) unusable (listed above): the table holds only the others", unusable)}
	}
	if n := len(d.CutShort); n > 0 {
		return &exitError{exitPartial, fmt.Sprintf("%d bundle(s) read only in part (cut short or corrupt; listed above): the table holds what came before each cut: %s", n, clean(strings.Join(d.CutShort, ", ")))}
	}
	if n := len(d.Unproven); n > 0 {
		for _, u := range d.Unproven {
			fmt.Fprintf(os.Stderr, "  %s\n", clean(u))
		}
		return &exitError{exitPartial, fmt.Sprintf("%d bundle(s) failing a whole-file check (a .sha256 sidecar naming another hash, or data after the archive not read; listed above): the table is not provably of the acquired bundle", n)}
	}
	return nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
