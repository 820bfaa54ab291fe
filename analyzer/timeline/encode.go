package timeline

import (
	"bufio"
	"bytes"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// Fields is the timeline row's field order. Fields are only ever appended.
var Fields = []string{
	"timestamp_utc", "host", "user", "agent", "session_id", "project_path",
	"turn_type", "model", "tool_name", "tool_use_id", "text", "tool_input",
	"is_error", "source_file", "source_line", "bundle_id",
	"parser", "secondary", "time_basis",
	"record_id", "parent_session_id", "verified", "action",
	"recovered", "provenance",
}

// Row is the wire form of an Event, in field order.
type Row struct {
	TimestampUTC string `json:"timestamp_utc"`
	Host         string `json:"host"`
	User         string `json:"user"`
	Agent        string `json:"agent"`
	SessionID    string `json:"session_id"`
	ProjectPath  string `json:"project_path"`
	TurnType     string `json:"turn_type"`
	Model        string `json:"model"`
	ToolName     string `json:"tool_name"`
	ToolUseID    string `json:"tool_use_id"`
	Text         string `json:"text"`
	ToolInput    string `json:"tool_input"`
	IsError      string `json:"is_error"`
	SourceFile   string `json:"source_file"`
	SourceLine   int64  `json:"source_line"`
	BundleID     string `json:"bundle_id"`
	Parser       string `json:"parser"`
	Secondary    string `json:"secondary"`
	TimeBasis    string `json:"time_basis"`
	RecordID     string `json:"record_id"`
	ParentSessID string `json:"parent_session_id"`
	Verified     string `json:"verified"`
	Action       string `json:"action"`
	// Recovered and Provenance are written only on recovered rows.
	Recovered  string `json:"recovered,omitempty"`
	Provenance string `json:"provenance,omitempty"`
}

// ToRow converts an event to its wire form.
func (e *Event) ToRow() Row {
	tb := string(e.TimeBasis)
	if e.Time.IsZero() {
		tb = string(TimeNone)
	}
	sec := ""
	if e.Secondary {
		sec = "true"
	}
	return Row{
		TimestampUTC: e.TimeString(), Host: e.Host, User: e.User, Agent: e.Agent,
		SessionID: e.SessionID, ProjectPath: e.ProjectPath, TurnType: string(e.TurnType),
		Model: e.Model, ToolName: e.ToolName, ToolUseID: e.ToolUseID, Text: e.Text,
		ToolInput: e.ToolInput, IsError: e.IsError, SourceFile: e.SourceFile,
		SourceLine: e.SourceLine, BundleID: e.BundleID, Parser: e.Parser,
		Secondary: sec, TimeBasis: tb,
		RecordID: e.RecordID, ParentSessID: e.ParentSessionID, Verified: e.Verified, Action: string(e.Action),
		Recovered: e.Recovered, Provenance: e.Provenance,
	}
}

// Values returns the row's fields as strings in Fields order (for CSV).
func (r Row) Values() []string {
	return []string{r.TimestampUTC, r.Host, r.User, r.Agent, r.SessionID, r.ProjectPath,
		r.TurnType, r.Model, r.ToolName, r.ToolUseID, r.Text, r.ToolInput, r.IsError,
		r.SourceFile, strconv.FormatInt(r.SourceLine, 10), r.BundleID, r.Parser, r.Secondary, r.TimeBasis,
		r.RecordID, r.ParentSessID, r.Verified, r.Action, r.Recovered, r.Provenance}
}

// AppendJSON appends v as one JSON line (no HTML escaping, trailing '\n').
func AppendJSON(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Writer writes rows as JSON Lines.
type Writer struct {
	w   *bufio.Writer
	buf bytes.Buffer
	row []byte
}

// NewWriter returns a JSON Lines writer on w. Call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// Write writes one value as a JSON line.
func (w *Writer) Write(v any) error {
	w.buf.Reset()
	if err := AppendJSON(&w.buf, v); err != nil {
		return err
	}
	_, err := w.w.Write(w.buf.Bytes())
	w.release()
	return err
}

// WriteEvent writes e's timeline row (AppendRow).
func (w *Writer) WriteEvent(e *Event) error {
	var err error
	if len(e.Text)+len(e.ToolInput) > 1<<20 {
		w.row, err = writeLongRow(w.w, w.row, e)
	} else {
		w.row = AppendRow(w.row[:0], e)
		_, err = w.w.Write(w.row)
	}
	w.release()
	return err
}

// release drops a buffer a long line grew, so a 50 MB row is not held
// for the rest of the run.
func (w *Writer) release() {
	if cap(w.row) > 1<<20 {
		w.row = nil
	}
	if w.buf.Cap() > 1<<20 {
		w.buf = bytes.Buffer{}
	}
}

// Flush flushes buffered output.
func (w *Writer) Flush() error { return w.w.Flush() }

// FormatTime renders t as RFC 3339 UTC with milliseconds, or "" when zero.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// WireRow is the Row a reader decodes from e's timeline.jsonl line: ToRow
// with every invalid UTF-8 byte of a string field read back as U+FFFD, as
// the encoder writes it (AppendString). The findings pass reads the rows
// in memory through it, so what it sees is what the file holds.
func (e *Event) WireRow() Row {
	r := e.ToRow()
	for _, p := range [...]*string{&r.Host, &r.User, &r.Agent, &r.SessionID, &r.ProjectPath, &r.TurnType, &r.Model, &r.ToolName,
		&r.ToolUseID, &r.Text, &r.ToolInput, &r.IsError, &r.SourceFile, &r.BundleID, &r.Parser, &r.TimeBasis, &r.RecordID,
		&r.ParentSessID, &r.Verified, &r.Action, &r.Recovered, &r.Provenance} {
		*p = WireString(*p)
	}
	return r
}

// WireString is s as it reads back from the timeline's JSON: each byte
// that is not part of valid UTF-8 becomes U+FFFD (s itself when valid).
func WireString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
