package parser

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// File describes one collected file, from the bundle manifest or, for a
// loose tree, from the walk that found it.
type File struct {
	Path     string       // original absolute host path ('/' separated; C:/... for Windows)
	Rel      string       // path relative to the user's home ('/' separated)
	Agent    string       // catalog agent name
	Target   string       // catalog target ID
	Kind     catalog.Kind // catalog kind
	Size     int64        // bytes
	MTime    time.Time    // UTC modification time, zero when unknown
	Host     string
	User     string
	BundleID string
	Secret   bool
}

// Base returns the file's base name.
func (f *File) Base() string { return path.Base(f.Path) }

// ErrNotCollected is returned by OpenRelated when no such file is in the input.
var ErrNotCollected = errors.New("file not collected")

// Input is one file handed to a parser.
type Input struct {
	File
	// OpenFunc opens the verified content; set by the engine.
	OpenFunc func() (io.ReadCloser, error)
	// DBFunc opens a read-only SQLite database on a private copy (with its
	// sidecars); set by the engine. The engine closes it after Parse.
	DBFunc func(ctx context.Context) (*sql.DB, error)
	// RelatedFunc opens another collected file of the same home by its
	// original path; set by the engine.
	RelatedFunc func(origPath string) (io.ReadCloser, error)
	// ListFunc lists the collected files of the whole input (every home of
	// the bundle, extracted folder or loose tree) whose original path
	// matches a doublestar pattern, sorted by path; set by the engine.
	ListFunc func(pattern string) []File
	// NoCarve turns the SQLite carver off (Carve returns nil): the
	// --no-carve quick run.
	NoCarve bool
}

// Open returns the file's content as the agents read their JSON, JSONC
// and JSONL files: a leading UTF-8 byte order mark (EF BB BF, which
// Windows editors and PowerShell write, and which Node's readers and the
// agents skip) is removed, so a settings file or transcript saved with one
// decodes like any other. Every parser reads through Open (or
// OpenRelated, ReadWhole, ReadRelated, which use the same reader); CRLF
// line ends need nothing more, since JSON takes "\r" as white space and
// Lines drops it at a line's end. Only the text given to the parser
// changes: the engine still verifies every byte of the file, BOM
// included. OpenRaw gives the bytes unchanged.
func (in *Input) Open() (io.ReadCloser, error) {
	rc, err := in.OpenRaw()
	if err != nil {
		return nil, err
	}
	return SkipBOM(rc), nil
}

// OpenRaw returns the file's content byte for byte (a BOM kept), for a
// parser that needs the exact bytes rather than the text.
func (in *Input) OpenRaw() (io.ReadCloser, error) {
	if in.OpenFunc == nil {
		return nil, errors.New("parser: input has no content")
	}
	return in.OpenFunc()
}

// DB opens the file as a read-only SQLite database on a private copy.
func (in *Input) DB(ctx context.Context) (*sql.DB, error) {
	if in.DBFunc == nil {
		return nil, errors.New("parser: input is not available as a database")
	}
	return in.DBFunc(ctx)
}

// OpenRelated opens another collected file by original path, or returns
// ErrNotCollected. A leading UTF-8 BOM is removed, as by Open.
func (in *Input) OpenRelated(origPath string) (io.ReadCloser, error) {
	if in.RelatedFunc == nil {
		return nil, ErrNotCollected
	}
	rc, err := in.RelatedFunc(origPath)
	if err != nil {
		return nil, err
	}
	return SkipBOM(rc), nil
}

// ReadRelated reads at most max bytes of another collected file by
// original path; false when it is not collected or cannot be read.
func (in *Input) ReadRelated(origPath string, max int64) ([]byte, bool) {
	rc, err := in.OpenRelated(origPath)
	if err != nil {
		return nil, false
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max))
	if err != nil {
		return nil, false
	}
	return b, true
}

// List returns the collected files of the whole input, every home, whose
// original path matches a doublestar pattern, sorted by path. The engine
// answers from an index by the pattern's literal prefix, so a call costs
// the files under that prefix, not the input's file count: anchor the
// pattern (GlobEscape the known directory) rather than starting it with
// a wildcard.
func (in *Input) List(pattern string) []File {
	if in.ListFunc == nil {
		return nil
	}
	return in.ListFunc(pattern)
}

// GlobEscape escapes the doublestar metacharacters of a literal path, for a
// List pattern built from a path the agent recorded.
func GlobEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Sink receives what a parser finds.
type Sink interface {
	// Event emits one row. The engine fills Host, User, BundleID, Agent
	// (when empty), SourceFile (when empty) and Parser.
	Event(e timeline.Event)
	// Session records a session's sync, origin, relay and recovery state.
	Session(st timeline.SessionState)
	// Problem records a problem at a line (or rowid; 0 for the whole file)
	// of kind "parse": a record that could not be read.
	Problem(line int64, msg string)
	// Report records a problem of a named kind (the Kind* constants).
	Report(line int64, kind, msg string)
	// Skip accounts for a record read that gives no row, by reason (a
	// record that only carries state the parser folds into other rows, a
	// record kind with no evidence). It is counted per file in the
	// inventory, not written as a problem row.
	Skip(line int64, reason string)
}

// Problem kinds a parser reports with Sink.Report. Each names why a record
// gave no row (or gave rows that need the examiner's eye).
const (
	KindParse         = "parse"          // a record that could not be read
	KindSkippedRecord = "skipped_record" // a readable record of a shape the parser does not know
	KindNULRun        = "nul_run"        // NUL bytes (crash or preallocation padding) dropped
	KindInvalidUTF8   = "invalid_utf8"   // lines holding bytes that are not UTF-8, replaced with U+FFFD
	KindLineTooLong   = "line_too_long"  // a line over the line limit, not parsed
	KindGlued         = "glued_record"   // records that shared one line
	KindOrphanRecord  = "orphan_record"  // a record whose parent record is gone
	KindDuplicateID   = "duplicate_id"   // one record id with two contents
	KindStateConflict = "state_conflict" // two values for one session's state
	KindEmptyStore    = "empty_store"    // a SQLite store with no table at all (an empty file)
	KindUndatedRows   = "undated_rows"   // rows of an undated file no dated record of the session identifies
)

// Parser reads one format of one agent.
type Parser interface {
	// ID is "agent/format", unique, matching ^[a-z0-9-]+/[a-z0-9-]+$.
	ID() string
	// Agent is the catalog name of the agent whose files it reads.
	Agent() string
	// Version is bumped when the parser's output changes: the goldens'
	// hashes are recorded per version (parsertest.Main fails a golden that
	// changes under the same version), and inventory.json names the
	// version of every parser of a run.
	Version() int
	// Match is cheap: it looks only at the File's fields.
	Match(f *File) bool
	// Parse reads one file.
	Parse(ctx context.Context, in *Input, out Sink) error
}

// Spec describes a parser built with New.
type Spec struct {
	ID      string
	Agent   string
	Version int
	// Targets are the catalog target IDs of Agent the parser reads.
	Targets []string
	// Names, when set, are path.Match patterns one of which the base name
	// must match.
	Names []string
	// Doc is one line for the generated parser list.
	Doc string
	// Emits names other catalog agents whose rows this parser writes (a
	// file kept under one agent's directory that records another's use,
	// such as the ChatGPT app's catalog in ~/.codex).
	Emits []string
	// ReadsSecretKind lets the parser receive files of catalog kind secret
	// (API-key-bearing configs). Such a parser reads only named non-secret
	// keys and never puts a secret value into a row; without the flag the
	// engine never hands it a secret file.
	ReadsSecretKind bool
	// Secondary declares how the parser's Secondary rows pair with primary
	// rows; a parser that emits Secondary rows must declare it.
	Secondary *Secondary
	// Trace declares that the parser's rows name sessions without being
	// their store of record (a prompt history, a process registry, a
	// session index, a thread table): a session whose every row comes
	// from such parsers existed but its transcript is gone, and reads
	// recovered "trace" in sessions.jsonl. The parser only emits what its
	// file says; the correlation pass decides the trace (issue 30).
	Trace bool
	// Streamable says the parser reads its file once, front to back,
	// through Open or OpenRaw, and does not read File.MTime (a bundle
	// member's PAX mtime has whole seconds, its manifest row more): the
	// engine may then parse a bundle member as the bundle is read, before
	// the manifest decides it, instead of spooling it first
	// (inputs.Speculation). It is a cost hint, never a condition of
	// correctness: a second Open, or a manifest that contradicts the
	// member, makes the engine read the bundle again spooled; another
	// parser opening the file by path later reads the same bytes.
	Streamable bool
	// Actions maps the agent's tool names (exact, or path.Match patterns
	// such as "mcp__*") to the one action vocabulary; the engine fills a
	// tool row's Action from it when the parser left it empty. Every tool
	// name a fixture shows must be named (analyzer/docs/actions.md).
	Actions map[string]timeline.Action
}

// ActionFor looks tool up in an actions table: an exact name first, then
// the patterns in sorted order. ok is false when nothing names it.
func ActionFor(table map[string]timeline.Action, tool string) (a timeline.Action, ok bool) {
	if a, ok := table[tool]; ok {
		return a, true
	}
	var pats []string
	for k := range table {
		if strings.ContainsAny(k, "*?[") {
			pats = append(pats, k)
		}
	}
	sort.Strings(pats)
	for _, k := range pats {
		if m, _ := path.Match(k, tool); m {
			return table[k], true
		}
	}
	return timeline.ActOther, false
}

// Secondary describes a secondary source (a prompt history, a search
// index, a mirror, a database copy): a Secondary row is dropped only when
// a primary row of the same host, user and agent, in the same session when
// the secondary row names one, has the same turn type and the same full
// text within Window of it; each primary row pairs with at most one
// secondary row. Rows that pair with nothing are written, marked secondary.
type Secondary struct {
	// Window is how far apart in time a pair may be. Zero means the source
	// records no usable time: rows pair on session and text alone, one to
	// one.
	Window time.Duration
	// TurnTypes are the turn types the source's rows can have.
	TurnTypes []timeline.TurnType
	// Basis says where the window comes from (the seed, the agent's source).
	Basis string
	// Unrecorded are typed inputs (exact, after trimming spaces) that the
	// agent acts on without ever writing them to its store of record: a
	// command that ends the session (Claude Code's and Gemini CLI's
	// "/exit" and "/quit"). Such a row stays in the timeline, unpaired, as
	// what the person typed; its missing twin is no sign the store lost
	// turns, so it does not make a live session read recovered "partial"
	// (issue 30).
	Unrecorded []string
}

// IsUnrecorded reports whether text, trimmed, is one of s.Unrecorded.
func (s *Secondary) IsUnrecorded(text string) bool {
	if s == nil {
		return false
	}
	t := strings.TrimSpace(text)
	for _, u := range s.Unrecorded {
		if t == u {
			return true
		}
	}
	return false
}

// ParseFunc parses one file.
type ParseFunc func(ctx context.Context, in *Input, out Sink) error

// New returns a Parser from a Spec and a function.
func New(s Spec, fn ParseFunc) Parser { return &specParser{s: s, fn: fn} }

type specParser struct {
	s  Spec
	fn ParseFunc
}

func (p *specParser) ID() string    { return p.s.ID }
func (p *specParser) Agent() string { return p.s.Agent }
func (p *specParser) Version() int  { return p.s.Version }

// Spec returns the parser's spec.
func (p *specParser) Spec() Spec { return p.s }

func (p *specParser) Match(f *File) bool {
	if f.Agent != p.s.Agent {
		return false
	}
	ok := len(p.s.Targets) == 0
	for _, t := range p.s.Targets {
		if t == f.Target {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	if len(p.s.Names) == 0 {
		return true
	}
	base := f.Base()
	for _, n := range p.s.Names {
		if m, _ := path.Match(n, base); m {
			return true
		}
	}
	return false
}

func (p *specParser) Parse(ctx context.Context, in *Input, out Sink) error {
	return p.fn(ctx, in, out)
}

// Specced is implemented by parsers built with New.
type Specced interface{ Spec() Spec }

// ParsedAgents is the set of catalog agents the parsers ps write rows
// for: each parser's own agent and the agents its Spec emits (twinny's
// rows come from the VS Code state parser). detect and inventory.json
// both say "parsed" from it, so they never disagree.
func ParsedAgents(ps []Parser) map[string]bool {
	out := map[string]bool{}
	for _, p := range ps {
		out[p.Agent()] = true
		if sp, ok := p.(Specced); ok {
			for _, e := range sp.Spec().Emits {
				out[e] = true
			}
		}
	}
	return out
}
