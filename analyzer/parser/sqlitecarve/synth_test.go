package sqlitecarve

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Synthetic stores (modernc.org/sqlite, secure_delete off) for the shapes
// an agent cannot be made to write on demand: overflow chains, whole
// freed leaf pages, WAL frames of other salts and after the last commit.

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t *testing.T, db *sql.DB, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func names(r *Result, table string) []string {
	var out []string
	for _, x := range byTable(r, table) {
		out = append(out, fmt.Sprint(x.Row()["name"]))
	}
	sort.Strings(out)
	return out
}

// TestOverflowChain: deleted records whose payload spilled over three
// overflow pages come back whole, with the freed overflow pages (leaves of
// an existing freelist trunk, so their content stays): one from a
// freeblock (its first 4 bytes lost), one from the unallocated gap (the
// cell at the start of the content area is given back to it, no
// freeblock written).
func TestOverflowChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), "o.db")
	db := openDB(t, p)
	body := strings.Repeat("overflow-body-0123456789 ", 400) // 10000 bytes
	exec(t, db, "PRAGMA secure_delete=off", "PRAGMA journal_mode=DELETE", "PRAGMA page_size=4096",
		"CREATE TABLE t(name TEXT, body TEXT)", "CREATE TABLE pad(x TEXT)",
		"INSERT INTO t VALUES ('gone-1', '1"+body+"')",
		"INSERT INTO t VALUES ('keep', 'small')",
		"INSERT INTO t VALUES ('gone-2', '2"+body+"')",
		"INSERT INTO pad VALUES ('"+strings.Repeat("pad-", 3000)+"')", "DELETE FROM pad",
		"DELETE FROM t WHERE name LIKE 'gone%'")
	db.Close()
	r := carveFile(t, p)
	var got []string
	for _, x := range byTable(r, "t") {
		row := x.Row()
		got = append(got, fmt.Sprintf("%v %v %v %s", row["name"], row["body"] == string(row["name"].(string)[5])+body, x.Partial, x.Provenance()))
	}
	want := "gone-1 true false freeblock on page 2 at offset 2261\ngone-2 true false unallocated space of page 2 at offset 412"
	if strings.Join(got, "\n") != want {
		t.Fatalf("records:\n%s", strings.Join(got, "\n"))
	}
}

// TestFreelistPage: deleting most rows frees whole leaf pages; every
// deleted row comes back (from freeblocks of the live leaves or from the
// freelist pages), none of the live ones does.
func TestFreelistPage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.db")
	db := openDB(t, p)
	exec(t, db, "PRAGMA secure_delete=off", "PRAGMA journal_mode=DELETE", "PRAGMA page_size=1024",
		"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
	for i := 1; i <= 120; i++ {
		exec(t, db, fmt.Sprintf("INSERT INTO t(name, n) VALUES ('row-%03d-%s', %d)", i, strings.Repeat("x", 40), i*7))
	}
	exec(t, db, "DELETE FROM t WHERE id BETWEEN 20 AND 110")
	var free int
	if err := db.QueryRow("PRAGMA freelist_count").Scan(&free); err != nil || free == 0 {
		t.Fatalf("freelist_count %d %v", free, err)
	}
	db.Close()
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	r := carveFile(t, p)
	// the rows the b-tree rebalance wrote over are gone from the file
	// (14 of them here); every other deleted row comes back
	var want []string
	for i := 20; i <= 110; i++ {
		if n := fmt.Sprintf("row-%03d-%s", i, strings.Repeat("x", 40)); bytes.Contains(raw, []byte(n)) {
			want = append(want, n)
		}
	}
	if len(want) != 77 {
		t.Fatalf("%d deleted rows in the file", len(want))
	}
	if g := names(r, "t"); strings.Join(g, ",") != strings.Join(want, ",") {
		t.Fatalf("recovered %d rows, want %d:\n%v", len(g), len(want), g)
	}
	bySrc := map[Source]int{}
	for _, x := range byTable(r, "t") {
		bySrc[x.Source]++
		// the number column matches the row's name; the rowid (id)
		// survives in whole cells, and a freeblock's cell is partial
		// without it
		var i int64
		fmt.Sscanf(x.Row()["name"].(string), "row-%d-", &i)
		id, hasID := x.Row()["id"].(int64)
		if x.Row()["n"] != i*7 || hasID && id != i || !hasID && (!x.Partial || x.RowidKnown) {
			t.Errorf("record %v: %s", x.Row(), x.Provenance())
		}
	}
	if bySrc[SrcFreelist] == 0 {
		t.Fatalf("no record from a freelist page: %v", bySrc)
	}
}

// walPair writes a WAL-mode store whose last transaction (inserting the
// row "in-wal") is only in the WAL, and copies both files while the
// connection is open (SQLite checkpoints and deletes the WAL on close).
func walPair(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "w.db")
	db := openDB(t, p)
	exec(t, db, "PRAGMA secure_delete=off", "PRAGMA page_size=1024", "PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0",
		"CREATE TABLE t(name TEXT, n INTEGER)", "INSERT INTO t VALUES ('base', 1)", "PRAGMA wal_checkpoint(TRUNCATE)",
		"INSERT INTO t VALUES ('in-wal', 2)")
	out := filepath.Join(t.TempDir(), "w.db")
	for _, sfx := range []string{"", "-wal"} {
		b, err := os.ReadFile(p + sfx)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out+sfx, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// reseal rewrites the WAL's checksums from frame 1 on (after a test
// changed a header), as SQLite would have written them.
func reseal(t *testing.T, wal []byte) {
	t.Helper()
	big := binary.BigEndian.Uint32(wal) == 0x377f0683
	s0, s1 := walChecksum(0, 0, wal[:24], big)
	binary.BigEndian.PutUint32(wal[24:], s0)
	binary.BigEndian.PutUint32(wal[28:], s1)
	ps := int(binary.BigEndian.Uint32(wal[8:]))
	for off := 32; off+24+ps <= len(wal); off += 24 + ps {
		copy(wal[off+8:off+16], wal[16:24]) // the header's salts
		s0, s1 = walChecksum(s0, s1, wal[off:off+8], big)
		s0, s1 = walChecksum(s0, s1, wal[off+24:off+24+ps], big)
		binary.BigEndian.PutUint32(wal[off+16:], s0)
		binary.BigEndian.PutUint32(wal[off+20:], s1)
	}
}

func liveNames(t *testing.T, p string) []string {
	t.Helper()
	dir := t.TempDir()
	for _, sfx := range []string{"", "-wal"} {
		b, _ := os.ReadFile(p + sfx)
		_ = os.WriteFile(filepath.Join(dir, "x.db"+sfx), b, 0o600)
	}
	db := openDB(t, filepath.Join(dir, "x.db"))
	var out []string
	rows, err := db.Query("SELECT name FROM t ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

// TestWALCommitted: frames up to the last commit are the database now:
// SQLite reads the row, and the carver does not call it recovered.
func TestWALCommitted(t *testing.T) {
	p := walPair(t)
	if g := liveNames(t, p); strings.Join(g, ",") != "base,in-wal" {
		t.Fatalf("live %v", g)
	}
	r := carveFile(t, p)
	if len(byTable(r, "t")) != 0 || !r.WAL.HeaderValid || r.WAL.Frames == 0 || r.WAL.Committed != r.WAL.Frames || r.WAL.OldSalt != 0 {
		t.Fatalf("records %v, WAL %+v", names(r, "t"), r.WAL)
	}
}

// TestWALOldSalt: a WAL whose header salts are not its frames' (the WAL
// restarted; these frames are an earlier generation's) is not read by
// SQLite; the carver recovers the row from those frames and says so.
func TestWALOldSalt(t *testing.T) {
	p := walPair(t)
	wal, _ := os.ReadFile(p + "-wal")
	frameSalt := binary.BigEndian.Uint32(wal[32+8:])
	binary.BigEndian.PutUint32(wal[16:], binary.BigEndian.Uint32(wal[16:])+1) // new salt-1, as a restart writes
	s0, s1 := walChecksum(0, 0, wal[:24], binary.BigEndian.Uint32(wal) == 0x377f0683)
	binary.BigEndian.PutUint32(wal[24:], s0)
	binary.BigEndian.PutUint32(wal[28:], s1)
	if err := os.WriteFile(p+"-wal", wal, 0o600); err != nil {
		t.Fatal(err)
	}
	if g := liveNames(t, p); strings.Join(g, ",") != "base" {
		t.Fatalf("live %v", g)
	}
	r := carveFile(t, p)
	got := byTable(r, "t")
	if len(got) != 1 || got[0].Row()["name"] != "in-wal" || got[0].Source != SrcWALOldSalt || got[0].Salt1 != frameSalt || got[0].Frame < 1 {
		t.Fatalf("records %+v", got)
	}
	if r.WAL.OldSalt != r.WAL.Frames || r.WAL.Committed != 0 || len(r.WAL.OtherSalts) != 1 ||
		!strings.HasPrefix(got[0].Provenance(), fmt.Sprintf("WAL frame %d of salt %08x/", got[0].Frame, frameSalt)) {
		t.Fatalf("WAL %+v, %s", r.WAL, got[0].Provenance())
	}
}

// TestWALUncommitted: frames after the last commit (the commit frame's
// database size zeroed, the checksums resealed) are not the database;
// the row comes back as recovered from them.
func TestWALUncommitted(t *testing.T) {
	p := walPair(t)
	wal, _ := os.ReadFile(p + "-wal")
	ps := int(binary.BigEndian.Uint32(wal[8:]))
	n := (len(wal) - 32) / (24 + ps)
	for i := 0; i < n; i++ {
		off := 32 + i*(24+ps)
		binary.BigEndian.PutUint32(wal[off+4:], 0)
	}
	reseal(t, wal)
	if err := os.WriteFile(p+"-wal", wal, 0o600); err != nil {
		t.Fatal(err)
	}
	if g := liveNames(t, p); strings.Join(g, ",") != "base" {
		t.Fatalf("live %v", g)
	}
	r := carveFile(t, p)
	got := byTable(r, "t")
	if len(got) != 1 || got[0].Row()["name"] != "in-wal" || got[0].Source != SrcWALUncommit || r.WAL.Uncommitted != n || r.WAL.Committed != 0 {
		t.Fatalf("records %+v, WAL %+v", got, r.WAL)
	}
}

// TestCorruptPages: a b-tree page of a real store (opencode-deleted's
// opencode.db) with every seventh byte flipped is one problem naming the
// page and its table, never a panic or an error; the carve goes on and
// the records of the other pages come back (30 from the whole store).
func TestCorruptPages(t *testing.T) {
	b, err := os.ReadFile(deletedStore)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "o.db")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	tabs, err := Schema(context.Background(), openDB(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := Carve(context.Background(), bytes.NewReader(b), int64(len(b)), nil, 0, tabs, Options{}); err != nil || len(r.Records) != 30 || len(r.Problems) != 0 {
		t.Fatalf("the store whole: %d records, problems %v, %v", len(r.Records), r.Problems, err)
	}
	for _, c := range []struct {
		page    int
		table   string
		records int
	}{{2, "workspace", 30}, {25, "message", 27}, {35, "session", 29}, {70, "part", 22}} {
		bad := append([]byte(nil), b...)
		for i := (c.page - 1) * 4096; i < c.page*4096; i += 7 {
			bad[i] ^= 0xff
		}
		r, err := Carve(context.Background(), bytes.NewReader(bad), int64(len(bad)), nil, 0, tabs, Options{})
		want := fmt.Sprintf("[{Page:%d Msg:b-tree of %s: page %d has page type 242}]", c.page, c.table, c.page)
		if err != nil || fmt.Sprintf("%+v", r.Problems) != want || len(r.Records) != c.records {
			t.Errorf("page %d: %d records (want %d), problems %+v (want %s), %v", c.page, len(r.Records), c.records, r.Problems, want, err)
		}
	}
}

// TestLimits: the record and byte limits stop the carve with a problem
// naming them; what was carved before is kept.
func TestLimits(t *testing.T) {
	b, err := os.ReadFile(deletedStore)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "o.db")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, p)
	tabs, err := Schema(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{MaxRecords: 3}, {MaxBytes: 2000}} {
		r, err := Carve(context.Background(), bytes.NewReader(b), int64(len(b)), nil, 0, tabs, o)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Truncated || len(r.Problems) != 1 || !strings.HasPrefix(r.Problems[0].Msg, fmt.Sprintf("carving stopped at %d records", len(r.Records))) || len(r.Records) == 0 {
			t.Errorf("%+v: %d records, problems %v", o, len(r.Records), r.Problems)
		}
	}
	// a cancelled context ends the carve with its error
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Carve(ctx, bytes.NewReader(b), int64(len(b)), nil, 0, tabs, Options{}); err == nil {
		t.Error("cancelled carve: no error")
	}
}
