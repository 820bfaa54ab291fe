package vscodestate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// MaxStateValue bounds one state.vscdb value read into memory. A larger
// value is reported (StateRow.TooLarge) and never loaded: its length is
// read first with SQL length().
const MaxStateValue = 256 << 20

// VSCodeState reads a VS Code (or fork) state database, state.vscdb:
// SQLite tables ItemTable and, in Cursor and other forks, cursorDiskKV,
// both (key TEXT UNIQUE, value BLOB). An extension's global state is the
// ItemTable row keyed by its extension id (a JSON object of the keys the
// extension set through Memento); the editor's own state is other
// ItemTable keys. Keys are compared case-insensitively for an extension
// id (VS Code lower-cases some on migration) and exactly for a prefix.
type VSCodeState struct {
	db       *sql.DB
	items    bool
	kv       bool
	maxValue int64
}

// StateRow is one row of ItemTable or cursorDiskKV.
type StateRow struct {
	Table string // "ItemTable" or "cursorDiskKV"
	Rowid int64
	Key   string
	Size  int64  // length of the value in bytes
	Value []byte // nil when TooLarge
	// TooLarge is set when Size is over the reader's bound: the value was
	// not loaded.
	TooLarge bool
}

// JSON decodes the row's value into v. A value over the bound (TooLarge)
// is an error worded as Unread.
func (r StateRow) JSON(v any) error {
	if r.TooLarge {
		return errors.New(r.Unread())
	}
	return json.Unmarshal(r.Value, v)
}

// The one wording of each cause a parser of a state database reports
// (parsers' TestOneWordingPerStateCause keeps every user of this package
// on them): NotReadable for a database OpenVSCodeState could not open or
// check; for a row whose value cannot be read, Unread when it is over the
// bound and was never loaded, else NotJSON, NotObject or NotArray (the
// shape the parser expected), each naming the table and key.

// NotReadable words the error of OpenVSCodeState (or NewVSCodeState): the
// file could not be opened as a database or its schema read.
func NotReadable(err error) string { return "state database not readable: " + err.Error() }

// Unread words a row whose value is over the reader's bound: its length
// was read, the value never loaded.
func (r StateRow) Unread() string {
	return fmt.Sprintf("%s %q: value of %d bytes over the %d-byte bound: not read", r.Table, r.Key, r.Size, MaxStateValue)
}

// NotJSON words a row whose value JSON (or the parser's own decoding)
// could not read: Unread when it is over the bound, else
// parser.NotJSON naming the table and key.
func (r StateRow) NotJSON(err error) string {
	if r.TooLarge {
		return r.Unread()
	}
	return parser.NotJSON(r.subject(), err)
}

// NotObject is NotJSON for a value that should be a JSON object.
func (r StateRow) NotObject(err error) string {
	if r.TooLarge {
		return r.Unread()
	}
	return parser.NotJSONObject(r.subject(), err)
}

// NotArray is NotJSON for a value that should be a JSON array.
func (r StateRow) NotArray(err error) string {
	if r.TooLarge {
		return r.Unread()
	}
	return parser.NotJSONArray(r.subject(), err)
}

func (r StateRow) subject() string { return fmt.Sprintf("%s %q", r.Table, r.Key) }

// VSCodeStore is the schema of a state database (the one SQLite policy,
// CheckStore): VS Code's storage.ts creates ItemTable (key TEXT UNIQUE ON
// CONFLICT REPLACE, value BLOB) in every state.vscdb; Cursor adds
// cursorDiskKV of the same shape, which VS Code and the other forks never
// create. A state database without ItemTable, or a table without key or
// value, is one problem row naming it; the other table is still read.
var VSCodeStore = parser.SQLiteStore{
	Name: "a VS Code state",
	Tables: parser.SQLiteSchema{
		"ItemTable":    {"key", "value"},
		"cursorDiskKV": {"key", "value"},
	},
	Optional: map[string]string{"cursorDiskKV": "VS Code and every fork but Cursor (microsoft/vscode storage.ts creates ItemTable only)"},
}

// OpenVSCodeState opens in as a state database (Input.DB, a private
// read-only copy) and checks it against VSCodeStore, writing its problem
// rows to out. A database with neither table readable gives a nil state
// and a nil error (the problem row says why); the error is the one
// opening the file or reading its schema.
func OpenVSCodeState(ctx context.Context, in *parser.Input, out parser.Sink) (*VSCodeState, error) {
	db, err := in.DB(ctx)
	if err != nil {
		return nil, err
	}
	return NewVSCodeState(ctx, db, out)
}

// NewVSCodeState wraps an open database (see OpenVSCodeState).
func NewVSCodeState(ctx context.Context, db *sql.DB, out parser.Sink) (*VSCodeState, error) {
	ok, err := parser.CheckStore(ctx, db, VSCodeStore, out)
	if err != nil {
		return nil, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if len(ok) == 0 {
		return nil, nil
	}
	return &VSCodeState{db: db, maxValue: MaxStateValue, items: ok["ItemTable"], kv: ok["cursorDiskKV"]}, nil
}

// DB returns the underlying database.
func (s *VSCodeState) DB() *sql.DB { return s.db }

// HasItems reports whether the database has an ItemTable.
func (s *VSCodeState) HasItems() bool { return s.items }

// HasKV reports whether the database has a cursorDiskKV table.
func (s *VSCodeState) HasKV() bool { return s.kv }

func (s *VSCodeState) has(table string) bool {
	if table == "cursorDiskKV" {
		return s.kv
	}
	return s.items
}

// Item returns the ItemTable row keyed key (case-insensitive), or false.
func (s *VSCodeState) Item(ctx context.Context, key string) (StateRow, bool, error) {
	return s.one(ctx, "ItemTable", key)
}

// KV returns the cursorDiskKV row keyed key (exact), or false.
func (s *VSCodeState) KV(ctx context.Context, key string) (StateRow, bool, error) {
	return s.one(ctx, "cursorDiskKV", key)
}

func (s *VSCodeState) one(ctx context.Context, table, key string) (StateRow, bool, error) {
	if !s.has(table) {
		return StateRow{}, false, nil
	}
	cmp := "key = ?"
	if table == "ItemTable" {
		cmp = "key = ? COLLATE NOCASE"
	}
	r := StateRow{Table: table}
	var k sql.NullString
	var n sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT rowid, key, length(value) FROM "+table+" WHERE "+cmp+" ORDER BY rowid LIMIT 1", key).Scan(&r.Rowid, &k, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return StateRow{}, false, nil
	}
	if err != nil {
		return StateRow{}, false, fmt.Errorf("%s %q: %w", table, key, err)
	}
	r.Key, r.Size = k.String, n.Int64
	if err := s.load(ctx, &r); err != nil {
		return StateRow{}, false, err
	}
	return r, true, nil
}

func (s *VSCodeState) load(ctx context.Context, r *StateRow) error {
	if r.Size > s.maxValue {
		r.TooLarge = true
		return nil
	}
	var v []byte
	if err := s.db.QueryRowContext(ctx, "SELECT CAST(value AS BLOB) FROM "+r.Table+" WHERE rowid = ?", r.Rowid).Scan(&v); err != nil {
		return fmt.Errorf("%s %q: %w", r.Table, r.Key, err)
	}
	r.Value = v
	return nil
}

// Items calls fn for each ItemTable row whose key starts with prefix
// (exact, case-sensitive), in key order. An error from fn stops the walk.
func (s *VSCodeState) Items(ctx context.Context, prefix string, fn func(StateRow) error) error {
	return s.each(ctx, "ItemTable", prefix, nil, fn)
}

// ItemsMatching is Items for the keys keep accepts: the other rows'
// values are never loaded.
func (s *VSCodeState) ItemsMatching(ctx context.Context, prefix string, keep func(key string) bool, fn func(StateRow) error) error {
	return s.each(ctx, "ItemTable", prefix, keep, fn)
}

// KVs calls fn for each cursorDiskKV row whose key starts with prefix, in
// key order.
func (s *VSCodeState) KVs(ctx context.Context, prefix string, fn func(StateRow) error) error {
	return s.each(ctx, "cursorDiskKV", prefix, nil, fn)
}

func (s *VSCodeState) each(ctx context.Context, table, prefix string, keep func(string) bool, fn func(StateRow) error) error {
	if !s.has(table) {
		return nil
	}
	q := "SELECT rowid, key, length(value) FROM " + table
	var args []any
	if prefix != "" {
		// A key range uses the key index; prefix + U+10FFFF bounds it.
		q += " WHERE key >= ? AND key < ?"
		args = append(args, prefix, prefix+"\U0010FFFF")
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY key", args...)
	if err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	// Collect the (small) keys first, so a value read does not run while
	// the key cursor is open on a single connection.
	var list []StateRow
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			rows.Close()
			return err
		}
		r := StateRow{Table: table}
		var k sql.NullString
		var n sql.NullInt64
		if err := rows.Scan(&r.Rowid, &k, &n); err != nil {
			rows.Close()
			return fmt.Errorf("%s: %w", table, err)
		}
		r.Key, r.Size = k.String, n.Int64
		if keep == nil || keep(r.Key) {
			list = append(list, r)
		}
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	for i := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.load(ctx, &list[i]); err != nil {
			return err
		}
		if err := fn(list[i]); err != nil {
			return err
		}
		list[i].Value = nil
	}
	return nil
}

// Keys returns which of keys are present in ItemTable (case-insensitive),
// mapped from the lower-cased key to the row's own key.
func (s *VSCodeState) Keys(ctx context.Context, keys ...string) (map[string]string, error) {
	out := map[string]string{}
	if !s.items || len(keys) == 0 {
		return out, nil
	}
	q := "SELECT key FROM ItemTable WHERE key COLLATE NOCASE IN (" + strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",") + ")"
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("ItemTable: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out[strings.ToLower(k)] = k
	}
	return out, rows.Err()
}

// Member is one key of an extension's global-state object, kept raw.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Members decodes an extension's global-state row (a JSON object) into
// its members in key order.
func (r StateRow) Members() ([]Member, error) {
	var m map[string]json.RawMessage
	if err := r.JSON(&m); err != nil {
		return nil, err
	}
	out := make([]Member, 0, len(m))
	for k, v := range m {
		out = append(out, Member{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// StateExtension reads one editor extension's rows of a state database:
// the extension's global-state row (Keys, its extension ids) and any
// other keys Read looks up itself.
type StateExtension struct {
	// Agent is the catalog agent whose rows Read writes (set on each row).
	Agent string
	// Keys are the ItemTable keys (extension ids, case-insensitive) whose
	// presence makes Read run; a database without them gives nothing.
	Keys []string
	// Doc is one line for the generated parser list.
	Doc string
	// Secondary declares the extension's secondary rows, when it writes
	// any (see Spec.Secondary).
	Secondary *parser.Secondary
	// Actions is the extension's actions table (see Spec.Actions).
	Actions map[string]timeline.Action
	// Read reads the rows; present maps each lower-cased key of Keys
	// found to the key as stored.
	Read func(ctx context.Context, st *VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error
}

// StateOwners returns, from the catalog, the agents whose targets own
// state.vscdb files (VS Code and the forks that keep their own catalog
// entry), each with those target ids, in catalog order.
func StateOwners() []StateOwner {
	var out []StateOwner
	for _, a := range catalog.All() {
		var tg []string
		for _, t := range a.Targets {
			if t.Kind == catalog.KindSQLite && strings.Contains(t.Glob, "state.vscdb") {
				tg = append(tg, t.ID)
			}
		}
		if len(tg) > 0 {
			out = append(out, StateOwner{Agent: a.Name, Targets: tg})
		}
	}
	return out
}

// StateOwner is a catalog agent that owns state.vscdb files.
type StateOwner struct {
	Agent   string
	Targets []string
}

// ExtensionStateParsers returns one parser per state.vscdb owner (see
// StateOwners) that opens each state database once and runs every
// extension whose keys it holds. A row's Agent is the extension's; its
// Parser is "<owner>/extension-state". Extensions whose keys are absent
// read nothing and account for nothing (no record of theirs was read).
func ExtensionStateParsers(exts ...StateExtension) []parser.Parser {
	var emits, docs []string
	var sec *parser.Secondary
	var actions map[string]timeline.Action
	for _, x := range exts {
		emits = append(emits, x.Agent)
		docs = append(docs, x.Agent+": "+x.Doc)
		if x.Secondary != nil {
			if sec == nil {
				sec = &parser.Secondary{Window: x.Secondary.Window, Basis: x.Agent + ": " + x.Secondary.Basis}
			} else {
				// one declaration per parser: the widest window, every
				// turn type, each extension's basis
				if x.Secondary.Window > sec.Window {
					sec.Window = x.Secondary.Window
				}
				sec.Basis += "; " + x.Agent + ": " + x.Secondary.Basis
			}
			for _, tt := range x.Secondary.TurnTypes {
				if !containsTurn(sec.TurnTypes, tt) {
					sec.TurnTypes = append(sec.TurnTypes, tt)
				}
			}
		}
		for k, a := range x.Actions {
			if actions == nil {
				actions = map[string]timeline.Action{}
			}
			if _, dup := actions[k]; !dup {
				actions[k] = a
			}
		}
	}
	var out []parser.Parser
	for _, o := range StateOwners() {
		exts := exts
		out = append(out, parser.New(parser.Spec{
			ID: o.Agent + "/extension-state", Agent: o.Agent, Version: 6,
			Targets: o.Targets, Names: []string{"state.vscdb", "state.vscdb.backup"},
			Emits: emits, Secondary: sec, Actions: actions,
			Doc: "extension rows of " + o.Agent + "'s state.vscdb ItemTable through vscodestate.VSCodeState; " + strings.Join(docs, "; "),
		}, func(ctx context.Context, in *parser.Input, out parser.Sink) error {
			return runExtensions(ctx, in, out, exts)
		}))
	}
	return out
}

func runExtensions(ctx context.Context, in *parser.Input, out parser.Sink, exts []StateExtension) error {
	st, err := OpenVSCodeState(ctx, in, out)
	if err != nil {
		out.Problem(0, NotReadable(err))
		return nil
	}
	if st == nil {
		return nil
	}
	var all []string
	for _, x := range exts {
		all = append(all, x.Keys...)
	}
	present, err := st.Keys(ctx, all...)
	if err != nil {
		out.Problem(0, err.Error())
		return nil
	}
	for _, x := range exts {
		mine := map[string]string{}
		for _, k := range x.Keys {
			if v, ok := present[strings.ToLower(k)]; ok {
				mine[strings.ToLower(k)] = v
			}
		}
		if len(mine) == 0 {
			continue
		}
		if err := x.Read(ctx, st, mine, in, &agentSink{Sink: out, agent: x.Agent}); err != nil {
			if ctx.Err() != nil {
				return err
			}
			out.Problem(0, x.Agent+": "+err.Error())
		}
	}
	return nil
}

// agentSink stamps an extension's agent on its rows and session states.
type agentSink struct {
	parser.Sink
	agent string
}

func (a *agentSink) Event(e timeline.Event) {
	e.Agent = a.agent
	a.Sink.Event(e)
}

func (a *agentSink) Session(st timeline.SessionState) {
	st.Key.Agent = a.agent
	a.Sink.Session(st)
}

// EditorDir returns the editor's User directory of a state.vscdb path
// (".../User" of ".../User/globalStorage/state.vscdb" or
// ".../User/workspaceStorage/<id>/state.vscdb"), or "".
func EditorDir(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	d := path.Dir(p)
	switch {
	case path.Base(d) == "globalStorage":
		return path.Dir(d)
	case path.Base(path.Dir(d)) == "workspaceStorage":
		return path.Dir(path.Dir(d))
	}
	return ""
}

// IsWorkspaceState reports whether p is a workspaceStorage/<id>/state.vscdb.
func IsWorkspaceState(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Base(path.Dir(path.Dir(p))) == "workspaceStorage"
}

func containsTurn(l []timeline.TurnType, t timeline.TurnType) bool {
	for _, x := range l {
		if x == t {
			return true
		}
	}
	return false
}
