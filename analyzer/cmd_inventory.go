package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"os"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// InventoryCmd is `doubleagent inventory`: it merges the JSON lines that
// `doubleagent-collector --inventory` printed on many hosts into one CSV.
type InventoryCmd struct {
	Files []string `arg:"" name:"FILE" help:"Saved --inventory outputs (JSON lines)."`
}

type invLine struct {
	Record     string   `json:"record"`
	Host       string   `json:"host"`
	User       string   `json:"user"`
	Home       string   `json:"home"`
	Agent      string   `json:"agent"`
	Status     string   `json:"status"`
	Files      int      `json:"files"`
	Bytes      int64    `json:"bytes"`
	FirstMTime string   `json:"first_mtime"`
	LastMTime  string   `json:"last_mtime"`
	Projects   []string `json:"projects"`
	// Added by the collector with its own walk (older lines lack them).
	Statuses map[string]int `json:"statuses"`
	Presence string         `json:"presence"`
	FoundVia []string       `json:"found_via"`
}

// Run writes the CSV to stdout.
func (c *InventoryCmd) Run(g *Globals, log zerolog.Logger) error {
	w := csv.NewWriter(os.Stdout)
	if err := w.Write([]string{"host", "user", "home", "agent", "status", "files", "bytes", "first_mtime", "last_mtime", "projects", "source_file", "presence", "statuses", "found_via"}); err != nil {
		return err
	}
	rows := 0
	for _, p := range c.Files {
		// The examiner's own inputs by the evidence rule: a regular file
		// only (a FIFO is never opened, a link never followed).
		f, err := bundle.OpenRegular(p)
		if err != nil {
			return &exitError{exitUnusable, plainErr(err)}
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		n := 0
		for sc.Scan() {
			n++
			var l invLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				fmt.Fprintf(os.Stderr, "problem: %s line %d: %v\n", p, n, err)
				continue
			}
			if l.Record != "agent" {
				continue
			}
			rows++
			// Cells from evidence never reach a spreadsheet as formulas.
			if err := w.Write(analyze.CSVRow([]string{l.Host, l.User, l.Home, l.Agent, l.Status, strconv.Itoa(l.Files), strconv.FormatInt(l.Bytes, 10), l.FirstMTime, l.LastMTime, strings.Join(l.Projects, ";"), p, l.Presence, statusCell(l.Statuses), strings.Join(l.FoundVia, ";")})); err != nil {
				f.Close()
				return err
			}
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(os.Stderr, "problem: %s line %d: %v: the rest of the file is not read\n", clean(p), n+1, err)
		}
		f.Close()
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	if rows == 0 {
		return &exitError{exitNothing, "no agent lines found"}
	}
	return nil
}

// statusCell is an inventory line's rows per status as "status=n;...", in
// the bundle's order of statuses.
func statusCell(st map[string]int) string {
	var out []string
	for _, k := range bundle.Statuses {
		if n := st[k]; n > 0 {
			out = append(out, k+"="+strconv.Itoa(n))
		}
	}
	return strings.Join(out, ";")
}
