package vscodestate

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"

	_ "modernc.org/sqlite"
)

func stateDB(t *testing.T, ddl string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "state.vscdb"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(ddl); err != nil {
		t.Fatal(err)
	}
	return db
}

const stateDDL = `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('Sourcegraph.Cody-AI', '{"b":2,"a":{"x":1}}');
INSERT INTO ItemTable VALUES ('chat/a', '1'), ('chat/b', x'32'), ('chatx', '3'), ('big', '0123456789');
INSERT INTO cursorDiskKV VALUES ('bubbleId:1:2', '{"t":1}'), ('bubbleId:1:3', '{"t":2}'), ('composerData:1', '{}');`

func TestVSCodeState(t *testing.T) {
	ctx := context.Background()
	st, err := NewVSCodeState(ctx, stateDB(t, stateDDL), &recSink{})
	if err != nil {
		t.Fatal(err)
	}
	if !st.HasItems() || !st.HasKV() {
		t.Fatal("tables not seen")
	}
	r, ok, err := st.Item(ctx, "sourcegraph.cody-ai")
	if err != nil || !ok || r.Key != "Sourcegraph.Cody-AI" || r.Rowid != 1 || r.Size != 19 {
		t.Fatalf("Item: %+v %v %v", r, ok, err)
	}
	ms, err := r.Members()
	if err != nil || len(ms) != 2 || ms[0].Key != "a" || string(ms[0].Value) != `{"x":1}` || ms[1].Key != "b" {
		t.Fatalf("Members: %+v %v", ms, err)
	}
	if _, ok, _ := st.Item(ctx, "nope"); ok {
		t.Fatal("missing key found")
	}
	var keys []string
	if err := st.Items(ctx, "chat/", func(r StateRow) error { keys = append(keys, r.Key+"="+string(r.Value)); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "chat/a=1,chat/b=2" {
		t.Fatalf("Items prefix: %v", keys)
	}
	keys = nil
	if err := st.ItemsMatching(ctx, "chat", func(k string) bool { return k == "chatx" }, func(r StateRow) error { keys = append(keys, r.Key+"="+string(r.Value)); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "chatx=3" {
		t.Fatalf("ItemsMatching: %v", keys)
	}
	keys = nil
	if err := st.KVs(ctx, "bubbleId:1:", func(r StateRow) error { keys = append(keys, r.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "bubbleId:1:2,bubbleId:1:3" {
		t.Fatalf("KVs prefix: %v", keys)
	}
	if r, ok, _ := st.KV(ctx, "composerData:1"); !ok || string(r.Value) != "{}" {
		t.Fatalf("KV: %+v", r)
	}
	present, err := st.Keys(ctx, "SOURCEGRAPH.cody-ai", "rjmacarthy.twinny")
	if err != nil || len(present) != 1 || present["sourcegraph.cody-ai"] != "Sourcegraph.Cody-AI" {
		t.Fatalf("Keys: %v %v", present, err)
	}
	// bounded: a value over the bound is not loaded
	st.maxValue = 5
	r, ok, err = st.Item(ctx, "big")
	if err != nil || !ok || !r.TooLarge || r.Value != nil || r.Size != 10 {
		t.Fatalf("TooLarge: %+v %v", r, err)
	}
	var v any
	if err := r.JSON(&v); err == nil || !strings.Contains(err.Error(), "10 bytes over") {
		t.Fatalf("JSON of a too-large value: %v", err)
	}
}

func TestVSCodeStateNotAStore(t *testing.T) {
	ctx := context.Background()
	s := &recSink{}
	if st, err := NewVSCodeState(ctx, stateDB(t, `CREATE TABLE other(x)`), s); st != nil || err != nil ||
		strings.Join(s.probs, "|") != "not a VS Code state database: none of the tables ItemTable, cursorDiskKV" {
		t.Fatalf("state %v err %v problems %q", st, err, s.probs)
	}
	// ItemTable only (VS Code itself): cursorDiskKV is Optional, no
	// problem, and its reads give nothing
	s = &recSink{}
	st, err := NewVSCodeState(ctx, stateDB(t, `CREATE TABLE ItemTable (key TEXT UNIQUE, value BLOB)`), s)
	if err != nil || st == nil || st.HasKV() || !st.HasItems() || len(s.probs) != 0 {
		t.Fatal(err, s.probs)
	}
	if _, ok, err := st.KV(ctx, "x"); ok || err != nil {
		t.Fatal("KV on a store without cursorDiskKV")
	}
}

// TestVSCodeStateAltered: a Cursor store without ItemTable is one problem
// naming it and every cursorDiskKV row is still read; an ItemTable
// without its value column is named and every cursorDiskKV row is still
// read; cursorDiskKV without key is named and every ItemTable row is read.
func TestVSCodeStateAltered(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ alter, problem, items, kvs string }{
		{`DROP TABLE ItemTable`, "table ItemTable missing: its rows cannot be read; the other tables are read", "", "bubbleId:1:2,bubbleId:1:3,composerData:1"},
		{`ALTER TABLE ItemTable DROP COLUMN value`, "unknown schema: table ItemTable lacks column(s) value: not read; the other tables are read", "", "bubbleId:1:2,bubbleId:1:3,composerData:1"},
		{`ALTER TABLE cursorDiskKV RENAME COLUMN key TO k`, "unknown schema: table cursorDiskKV lacks column(s) key: not read; the other tables are read", "Sourcegraph.Cody-AI,big,chat/a,chat/b,chatx", ""},
	} {
		s := &recSink{}
		st, err := NewVSCodeState(ctx, stateDB(t, stateDDL+c.alter), s)
		if err != nil || st == nil || strings.Join(s.probs, "|") != c.problem {
			t.Fatalf("%s: err %v problems %q", c.alter, err, s.probs)
		}
		var items, kvs []string
		if err := st.Items(ctx, "", func(r StateRow) error { items = append(items, r.Key); return nil }); err != nil {
			t.Fatal(err)
		}
		if err := st.KVs(ctx, "", func(r StateRow) error { kvs = append(kvs, r.Key); return nil }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(items, ",") != c.items || strings.Join(kvs, ",") != c.kvs {
			t.Fatalf("%s: items %v kvs %v", c.alter, items, kvs)
		}
	}
}

func TestEditorDir(t *testing.T) {
	for in, want := range map[string]string{
		"/h/.config/Code/User/globalStorage/state.vscdb":          "/h/.config/Code/User",
		"/h/.config/Code/User/workspaceStorage/abc/state.vscdb":   "/h/.config/Code/User",
		`C:\Users\a\AppData\Roaming\Code\User\globalStorage\x.db`: "C:/Users/a/AppData/Roaming/Code/User",
		"/h/state.vscdb": "",
	} {
		if got := EditorDir(in); got != want {
			t.Errorf("EditorDir(%q) = %q, want %q", in, got, want)
		}
	}
	if !IsWorkspaceState("/h/Code/User/workspaceStorage/abc/state.vscdb") || IsWorkspaceState("/h/Code/User/globalStorage/state.vscdb") {
		t.Fatal("IsWorkspaceState")
	}
}

type recSink struct {
	events []timeline.Event
	states []timeline.SessionState
	probs  []string
}

func (s *recSink) Event(e timeline.Event)             { s.events = append(s.events, e) }
func (s *recSink) Session(st timeline.SessionState)   { s.states = append(s.states, st) }
func (s *recSink) Problem(_ int64, m string)          { s.probs = append(s.probs, m) }
func (s *recSink) Report(_ int64, _ string, m string) { s.probs = append(s.probs, m) }
func (s *recSink) Skip(_ int64, _ string)             {}

func TestExtensionStateParsers(t *testing.T) {
	ps := ExtensionStateParsers(StateExtension{
		Agent: "cody", Keys: []string{"sourcegraph.cody-ai"}, Doc: "test",
		Read: func(ctx context.Context, st *VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error {
			r, _, err := st.Item(ctx, present["sourcegraph.cody-ai"])
			if err != nil {
				return err
			}
			out.Event(timeline.Event{Text: r.Key, SourceLine: r.Rowid})
			out.Session(timeline.SessionState{Key: timeline.SessionKey{SessionID: "s"}, Synced: "no"})
			return nil
		},
	}, StateExtension{Agent: "twinny", Keys: []string{"rjmacarthy.twinny"}, Doc: "absent",
		Read: func(context.Context, *VSCodeState, map[string]string, *parser.Input, parser.Sink) error {
			t.Fatal("an extension whose key is absent ran")
			return nil
		}})
	owners := map[string]bool{}
	for _, p := range ps {
		owners[p.Agent()] = true
		if p.ID() != p.Agent()+"/extension-state" {
			t.Errorf("id %s", p.ID())
		}
	}
	for _, a := range []string{"vscode", "cursor", "windsurf", "kiro", "pearai"} {
		if !owners[a] {
			t.Errorf("owner %s has no extension-state parser (owners %v)", a, owners)
		}
	}
	db := stateDB(t, stateDDL)
	in := &parser.Input{File: parser.File{Path: "/h/.config/Code/User/globalStorage/state.vscdb", Agent: "vscode", Target: "state-db"},
		DBFunc: func(context.Context) (*sql.DB, error) { return db, nil }}
	var p parser.Parser
	for _, q := range ps {
		if q.Match(&in.File) {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no parser matches the vscode state.vscdb")
	}
	s := &recSink{}
	if err := p.Parse(context.Background(), in, s); err != nil {
		t.Fatal(err)
	}
	if len(s.events) != 1 || s.events[0].Agent != "cody" || s.events[0].Text != "Sourcegraph.Cody-AI" || s.events[0].SourceLine != 1 {
		t.Fatalf("events %+v", s.events)
	}
	if len(s.states) != 1 || s.states[0].Key.Agent != "cody" {
		t.Fatalf("states %+v", s.states)
	}
}
