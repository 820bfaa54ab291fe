package outputs

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// pipeRows hands rows to a writer goroutine in batches: the events are
// copied (the sorter reuses its storage), the strings shared. With a
// RowConsumer, each batch the writer is done with goes on to a goroutine
// of the consumer's (the findings), in the same order, so the rules run
// on the rows in memory beside the encoding instead of reading the
// written timeline back.
type pipeRows struct {
	w     rowWriter
	batch []timeline.Event
	ch    chan []timeline.Event
	free  chan []timeline.Event
	done  chan error
	cdone chan error
}

const pipeBatch = 512

// pipeDepth is how many batches wait for the writer, and for the
// consumer: the rows in flight are live memory (their strings decoded from
// the sorter's runs), so the queue is kept short; two batches are enough
// to keep the merge, the writer and the consumer busy at once.
const pipeDepth = 2

func newPipeRows(w rowWriter, rc RowConsumer) *pipeRows {
	p := &pipeRows{w: w, ch: make(chan []timeline.Event, pipeDepth), free: make(chan []timeline.Event, 2*pipeDepth+2), done: make(chan error, 1)}
	next := p.free
	if rc != nil {
		cch := make(chan []timeline.Event, pipeDepth)
		next = cch
		p.cdone = make(chan error, 1)
		go func() {
			var err error
			var n int64
			for b := range cch {
				for i := range b {
					n++
					if err == nil {
						r := b[i].WireRow()
						err = rc.Row(n, &r)
					}
				}
				p.recycle(b)
			}
			p.cdone <- err
		}()
	}
	go func() {
		var err error
		for b := range p.ch {
			for i := range b {
				if err == nil {
					err = w.write(&b[i])
				}
			}
			if next == p.free {
				p.recycle(b)
			} else {
				next <- b
			}
		}
		if next != p.free {
			close(next)
		}
		p.done <- err
	}()
	p.batch = make([]timeline.Event, 0, pipeBatch)
	return p
}

// recycle offers a finished batch for reuse (dropped when enough wait).
func (p *pipeRows) recycle(b []timeline.Event) {
	clear(b)
	select {
	case p.free <- b[:0]:
	default:
	}
}

func (p *pipeRows) write(e *timeline.Event) error {
	p.batch = append(p.batch, *e)
	if len(p.batch) == pipeBatch {
		p.ch <- p.batch
		select {
		case b := <-p.free:
			p.batch = b
		default:
			p.batch = make([]timeline.Event, 0, pipeBatch)
		}
	}
	return nil
}

// close flushes the last batch, waits for the writer (and the consumer)
// and closes it.
func (p *pipeRows) close() error {
	if len(p.batch) > 0 {
		p.ch <- p.batch
	}
	close(p.ch)
	err := <-p.done
	if p.cdone != nil {
		if cerr := <-p.cdone; err == nil {
			err = cerr
		}
	}
	if cerr := p.w.close(); err == nil {
		err = cerr
	}
	return err
}

type rowWriter interface {
	write(e *timeline.Event) error
	close() error
}

type jsonlRows struct {
	f *os.File
	w *timeline.Writer
}

func (j *jsonlRows) write(e *timeline.Event) error { return j.w.WriteEvent(e) }
func (j *jsonlRows) close() error {
	if err := j.w.Flush(); err != nil {
		j.f.Close()
		return err
	}
	return j.f.Close()
}

// timesketchRow is Timesketch's JSONL import shape: message, datetime and
// timestamp_desc beside our fields.
type timesketchRow struct {
	Message       string `json:"message"`
	Datetime      string `json:"datetime"`
	TimestampDesc string `json:"timestamp_desc"`
	timeline.Row
}

type timesketchRows struct{ jsonlRows }

// UndatedDatetime is the Timesketch datetime of a row without a time.
const UndatedDatetime = "1970-01-01T00:00:00.000Z"

func (t *timesketchRows) write(e *timeline.Event) error {
	r := e.ToRow()
	msg := fmt.Sprintf("[%s] %s", r.Agent, r.TurnType)
	if r.ToolName != "" {
		msg += " " + r.ToolName
	}
	if r.Text != "" {
		txt := r.Text
		if len(txt) > 2000 {
			n := 2000
			for n > 0 && !utf8.RuneStart(txt[n]) {
				n-- // cut at a character, not inside one
			}
			txt = txt[:n] + "…"
		}
		msg += ": " + txt
	}
	desc := "Agent event time"
	if r.TimeBasis != "" {
		desc = "Agent event time (" + r.TimeBasis + ")"
	}
	dt := r.TimestampUTC
	if dt == "" {
		// Timesketch needs a datetime; an undated row gets the Unix epoch,
		// which no agent record carries, and says so.
		dt, desc = UndatedDatetime, "No time recorded (time_basis none)"
	}
	return t.w.Write(timesketchRow{Message: msg, Datetime: dt, TimestampDesc: desc, Row: r})
}

type csvRows struct {
	f  *os.File
	bw *bufio.Writer
	w  *csv.Writer
}

func (c *csvRows) write(e *timeline.Event) error {
	v := e.ToRow().Values()
	for i := range v {
		v[i] = CSVCell(csvCell(v[i], e))
	}
	return c.w.Write(v)
}
func (c *csvRows) close() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		c.f.Close()
		return err
	}
	if err := c.bw.Flush(); err != nil {
		c.f.Close()
		return err
	}
	return c.f.Close()
}

func openRows(dir, format string) (rowWriter, string, error) {
	switch format {
	case "jsonl", "timesketch":
		name := TimelineJSONL
		if format == "timesketch" {
			name = TimelineTimesketch
		}
		f, err := createOutput(filepath.Join(dir, name))
		if err != nil {
			return nil, "", err
		}
		j := jsonlRows{f: f, w: timeline.NewWriter(f)}
		if format == "timesketch" {
			return &timesketchRows{j}, name, nil
		}
		return &j, name, nil
	case "csv":
		f, err := createOutput(filepath.Join(dir, TimelineCSV))
		if err != nil {
			return nil, "", err
		}
		bw := bufio.NewWriterSize(f, 1<<16)
		w := csv.NewWriter(bw)
		if err := w.Write(timeline.Fields); err != nil {
			f.Close()
			return nil, "", err
		}
		return &csvRows{f: f, bw: bw, w: w}, TimelineCSV, nil
	}
	return nil, "", fmt.Errorf("unknown format %q (jsonl, csv, timesketch)", format)
}

func writeJSONL(path string, n int, get func(int) any) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	w := timeline.NewWriter(f)
	for i := 0; i < n; i++ {
		if err := w.Write(get(i)); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
