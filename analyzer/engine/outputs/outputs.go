package outputs

import (
	"os"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// Output file names in the output folder.
const (
	TimelineJSONL      = "timeline.jsonl"
	TimelineCSV        = "timeline.csv"
	TimelineTimesketch = "timeline.timesketch.jsonl"
	SessionsJSONL      = "sessions.jsonl"
	InventoryJSON      = "inventory.json"
	ProblemsJSONL      = "problems.jsonl"
)

// RowConsumer sees the rows of the timeline during the output pass, on a
// goroutine of its own: n is the row's 1-based number (its line in
// timeline.jsonl, its row in the other formats), r its wire form (the row
// timeline.jsonl holds, timeline.Event.WireRow), which the consumer may
// keep. An error stops the run.
type RowConsumer interface {
	Row(n int64, r *timeline.Row) error
}

// RowsDone is a RowConsumer that wants to know when the last row has been
// handed to it: the output pass calls RowsDone once, after the last row
// and before the sessions and the inventory are written, so that what the
// consumer holds for its rows (the findings' per-session state) is not
// still live while they are built (analyzer/docs/architecture.md, memory).
type RowsDone interface {
	RowsDone() error
}

// Timeline writes the rows of every row format asked for; the encoding
// runs on a goroutine of its own (and the RowConsumer on another), so the
// caller's merge and the writing use two cores.
type Timeline struct{ p *pipeRows }

// OpenTimeline opens a writer for every row format in formats (as
// ParseFormats returns them; the bodyfile is not a row format) and
// returns the files it will write. With partitionByHost the Parquet
// timeline is Hive-partitioned by case (caseOf a row's bundle id), host
// and day, and the Timesketch timeline is one file per host. rc, when not
// nil, is handed every row written.
func OpenTimeline(dir string, formats []string, partitionByHost bool, caseOf func(bundleID string) string, rc RowConsumer) (*Timeline, []string, error) {
	rw, names, err := openTimelines(dir, formats, partitionByHost, caseOf)
	if err != nil {
		return nil, nil, err
	}
	return &Timeline{p: newPipeRows(rw, rc)}, names, nil
}

// Write writes one row (copied: the caller may reuse e).
func (t *Timeline) Write(e *timeline.Event) error { return t.p.write(e) }

// Close flushes every row, waits for the writers and the consumer, and
// closes the files; the first error of any is returned.
func (t *Timeline) Close() error { return t.p.close() }

// BodyEntry is one manifest row (or walked file) of a host, for the
// bodyfile.
type BodyEntry = bodyEntry

// BodyEntryOf makes the bodyfile entry of a manifest row of host.
func BodyEntryOf(host string, e bundle.Entry) BodyEntry { return bodyEntry{host: host, e: e} }

// WriteBodyfile writes the mactime bodyfile of entries (sorted in place by
// host and path) to path.
func WriteBodyfile(path string, entries []BodyEntry) error { return writeBodyfile(path, entries) }

// WriteJSONL writes n values, get(0) to get(n-1), one JSON object a line,
// to a new output file.
func WriteJSONL(path string, n int, get func(int) any) error { return writeJSONL(path, n, get) }

// WriteFile writes data to a new output file (CreateOutput).
func WriteFile(path string, data []byte) error { return writeFile(path, data) }

// CreateOutput creates an output file that must not exist yet:
// O_CREAT|O_EXCL|O_NOFOLLOW, so a file or a link planted in the output
// folder while the run goes is refused, never truncated or written
// through.
func CreateOutput(path string) (*os.File, error) { return createOutput(path) }
