package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
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
// maxInvProblems bounds the lines of one file named as not inventory JSON.
const maxInvProblems = 20

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
		br := bufio.NewReaderSize(f, 1<<16)
		if head, _ := br.Peek(4); bytes.Equal(head, []byte{0x28, 0xb5, 0x2f, 0xfd}) || bytes.HasPrefix(head, []byte("age-")) {
			f.Close()
			return &exitError{exitUnusable, clean(p) + ": a bundle (a zstd frame or an age file), not the collector's --inventory output (JSON lines): give it to detect or timeline"}
		}
		if what, err := jsonDocument(f, br); err != nil {
			f.Close()
			return &exitError{exitUnusable, clean(p) + ": " + plainErr(err)}
		} else if what != "" {
			f.Close()
			return &exitError{exitUnusable, clean(p) + ": " + what + ", not JSON lines: inventory takes what `doubleagent-collector --inventory` prints (one JSON object a line), not a JSON document such as the timeline's inventory.json"}
		}
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		n, bad := 0, 0
		for sc.Scan() {
			n++
			var l invLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				// Each named, up to a bound: a file of something else
				// must not flood the terminal; the rest are counted.
				if bad++; bad <= maxInvProblems {
					fmt.Fprintf(os.Stderr, "problem: %s line %d: %s\n", clean(p), n, clean(err.Error()))
				}
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
		if bad > maxInvProblems {
			fmt.Fprintf(os.Stderr, "problem: %s: %d more lines that are not inventory JSON (of %d lines), not printed\n", clean(p), bad-maxInvProblems, n)
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

// jsonDocument says whether the file behind br is one JSON document
// rather than JSON lines: "a JSON array" when its first byte (after
// spaces and a byte-order mark) opens an array (an inventory line is
// always an object), "a JSON document over several lines" when its first
// line is not a whole value but one object runs on from it over more
// lines (inventory.json, pretty-printed). It answers "" otherwise and
// leaves br at the start of the file; the object is skipped streaming,
// never held.
func jsonDocument(f *os.File, br *bufio.Reader) (string, error) {
	head, _ := br.Peek(1 << 16)
	body := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(body) == 0 {
		return "", nil
	}
	if body[0] == '[' {
		return "a JSON array", nil
	}
	if body[0] != '{' {
		return "", nil
	}
	line := body
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		line = body[:i]
	} else if len(head) < 1<<16 {
		return "", nil // one line: read as a line
	}
	if jsontext.Value(bytes.TrimSpace(line)).IsValid() {
		return "", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	what := ""
	r := bufio.NewReader(f)
	if _, err := r.Discard(len(head) - len(body)); err != nil {
		return "", err
	}
	if jsontext.NewDecoder(r).SkipValue() == nil {
		what = "a JSON document over several lines"
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	br.Reset(f)
	return what, nil
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
