package sqlitecarve

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realWAL is the WAL of a real opencode store (fixtures/roots/real-agents-2),
// read here as if its database file were gone.
const realDB = "../../../fixtures/roots/real-agents-2/home/examiner2/.local/share/opencode/opencode.db"

const realWAL = "../../../fixtures/roots/real-agents-2/home/examiner2/.local/share/opencode/opencode.db-wal"

// carveOrphan carves the WAL at path alone: the schema is read from the
// image the WAL gives, written to a temporary file.
func carveOrphan(t *testing.T, path, schemaOf string) *Result {
	t.Helper()
	w, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, _ := w.Stat()
	db, err := sql.Open("sqlite", "file:"+schemaOf+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tabs, err := Schema(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	r, err := CarveOrphanWAL(context.Background(), w, st.Size(), tabs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// counts is "table/source=n" of the records, sorted.
func counts(r *Result) string {
	m := map[string]int{}
	for _, rec := range r.Records {
		m[rec.Table+"/"+string(rec.Source)]++
	}
	var out []string
	for k, n := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestOrphanWALRealOpencode: the WAL of a real opencode store read as if
// its database file were gone (the tryout's T2: SQLite itself discards
// it). Its 511 frames hold 32 pages of the store's 110; the schema is the
// agent's (read from the store's database here, as a parser that knows
// its agent's tables supplies it). Every record of the committed frames
// comes back as wal-orphan, those of superseded frames and of the two
// earlier WAL generations under their own sources; the b-tree pages that
// only the database file held are named, one problem each.
func TestOrphanWALRealOpencode(t *testing.T) {
	r := carveOrphan(t, realWAL, realDB)
	const want = "event/wal-old-salt=44 event/wal-orphan=16 event/wal-superseded=5 event_sequence/wal-old-salt=42 event_sequence/wal-orphan=7 event_sequence/wal-superseded=10 message/wal-old-salt=34 message/wal-orphan=4 part/wal-old-salt=46 part/wal-orphan=7 project/wal-orphan=1 session/freeblock=1 session/wal-old-salt=10 session/wal-orphan=7 session/wal-superseded=3 sqlite_schema/wal-superseded=17"
	if g := counts(r); g != want {
		t.Fatalf("records\n got %s\nwant %s", g, want)
	}
	w := r.WAL
	if w.Frames != 511 || w.Committed != 123 || w.Superseded != 91 || w.OldSalt != 388 || w.BadChecksum != 0 || w.Uncommitted != 0 ||
		strings.Join(w.OtherSalts, ",") != "7e33e124/8b36d856,7e33e123/02c0188c" || r.Pages != 110 {
		t.Fatalf("WAL %+v, pages %d", w, r.Pages)
	}
	if r.Copies[SrcWALOldSalt] != 765 || r.Copies[SrcWALOld] != 142 || len(r.Copies) != 2 {
		t.Fatalf("copies %v", r.Copies)
	}
	if len(r.Problems) != 72 || r.Problems[0].Msg != "page 21 of the b-tree of sqlite_schema is not in the WAL (the database file that held it is gone)" {
		t.Fatalf("%d problems, first %+v", len(r.Problems), r.Problems[0])
	}
	var orphanSessions []string
	for _, rec := range r.Records {
		if rec.Table == "session" && rec.Source == SrcWALOrphan {
			orphanSessions = append(orphanSessions, fmt.Sprint(rec.Row()["id"]))
			if rec.Frame < 1 || rec.Salt1 != w.Salt1 || !strings.HasPrefix(rec.Provenance(), fmt.Sprintf("WAL frame %d of salt %08x/%08x (committed, database gone), page ", rec.Frame, w.Salt1, w.Salt2)) {
				t.Fatalf("provenance %q", rec.Provenance())
			}
		}
	}
	sort.Strings(orphanSessions)
	if g := strings.Join(orphanSessions, ","); g != "ses_dd77cc2c5ffeTNQ2R2HttPMfRA,ses_dd77d023dffe4TnFLR6NxwrSXH,ses_dd77d255fffe2Jpv10tlbMxcop,ses_dd77d437effeoAm9xpPBhAS4ca,ses_dd77d6fd7ffeC4PHb13h440NdK,ses_dd77da37bffe12PG1fjRFESGrS,ses_dd77e2a6dffekUXTqEMKzsETO7" {
		t.Fatalf("sessions %s", g)
	}
}

// TestOrphanWALNoPage1: a WAL without a frame of page 1 gives no page
// size or encoding to decode by: an error naming why, no records.
func TestOrphanWALNoPage1(t *testing.T) {
	b, err := os.ReadFile(realWAL)
	if err != nil {
		t.Fatal(err)
	}
	ps := 4096
	for off := 32; off+24+ps <= len(b); off += 24 + ps {
		if b[off] == 0 && b[off+1] == 0 && b[off+2] == 0 && b[off+3] == 1 {
			b[off+3] = 0 // page 0: no page
		}
	}
	_, err = CarveOrphanWAL(context.Background(), bytes.NewReader(b), int64(len(b)), nil, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "the WAL holds no frame of page 1") {
		t.Fatalf("err %v", err)
	}
	if _, err := CarveOrphanWAL(context.Background(), bytes.NewReader(b[:20]), 20, nil, Options{}); err == nil || err.Error() != "WAL of 20 bytes has no header" {
		t.Fatalf("err %v", err)
	}
}

// TestRealWALBesideDB: the same WAL beside its database (the store as
// opencode left it). SQLite reads the committed frames as the database
// now; the carver carves the superseded frames, the earlier WAL
// generations and the database pages the WAL replaced, and a carved cell
// identical to a live record is counted as a copy, not returned.
func TestRealWALBesideDB(t *testing.T) {
	r := carveFile(t, realDB)
	const want = "event_sequence/wal-old-salt=42 event_sequence/wal-superseded=10 message/freeblock=1 message/wal-old-salt=16 part/wal-old-salt=8 project/db-page-replaced=1 session/db-page-replaced=1 session/freeblock=1 session/wal-old-salt=9 session/wal-superseded=3"
	if g := counts(r); g != want {
		t.Fatalf("records\n got %s\nwant %s", g, want)
	}
	if fmt.Sprint(r.Copies) != "map[db-page-replaced:44 freeblock:2 unallocated:9 wal-old-salt:866 wal-superseded:164]" || len(r.Problems) != 0 || r.WAL.Committed != 123 {
		t.Fatalf("copies %v, problems %v, WAL %+v", r.Copies, r.Problems, r.WAL)
	}
}

// TestRealStoreSessionDeletedInWAL: a session deleted from a copy of the
// real opencode store (as opencode deletes one: the session row, its
// messages and parts), the WAL kept before any checkpoint. SQLite no
// longer reads the session; its records survive in the frames the delete
// superseded and come back as recovered from there, once each (a copy of
// one in another frame is counted, not returned).
func TestRealStoreSessionDeletedInWAL(t *testing.T) {
	const victim = "ses_dd77e2a6dffekUXTqEMKzsETO7"
	dir := t.TempDir()
	p := filepath.Join(dir, "opencode.db")
	for _, sfx := range []string{"", "-wal"} {
		b, err := os.ReadFile(realDB + sfx)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+sfx, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t, p)
	var msgs, parts int
	if err := db.QueryRow("SELECT (SELECT count(*) FROM message WHERE session_id = ?), (SELECT count(*) FROM part WHERE session_id = ?)", victim, victim).Scan(&msgs, &parts); err != nil || msgs != 6 || parts != 16 {
		t.Fatalf("%s: %d messages, %d parts, %v", victim, msgs, parts, err)
	}
	exec(t, db, "PRAGMA wal_autocheckpoint=0", "PRAGMA foreign_keys=OFF",
		"DELETE FROM part WHERE session_id = '"+victim+"'", "DELETE FROM message WHERE session_id = '"+victim+"'", "DELETE FROM session WHERE id = '"+victim+"'")
	out := filepath.Join(t.TempDir(), "opencode.db")
	for _, sfx := range []string{"", "-wal"} {
		b, err := os.ReadFile(p + sfx)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out+sfx, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := carveFile(t, out)
	got := map[string]int{}
	for _, rec := range r.Records {
		m := rec.Row()
		if m["id"] == victim || m["session_id"] == victim {
			got[rec.Table+"/"+string(rec.Source)]++
		}
	}
	// every one of the 6 messages, 16 parts (17 part records: one part
	// also in an older version) and the session row: the
	// delete left them in freeblocks of the leaves it rewrote (frames now
	// committed), in the database pages those frames replaced and in
	// unallocated space; their copies in superseded frames are counted
	if fmt.Sprint(got) != "map[message/freeblock:6 part/db-page-replaced:10 part/freeblock:2 part/unallocated:5 session/freeblock:1]" {
		t.Fatalf("records of %s: %v", victim, got)
	}
	if g := liveNamesOf(t, out, victim); g != 0 {
		t.Fatalf("SQLite still reads %d rows of %s", g, victim)
	}
	if r.WAL.Committed != 138 || r.WAL.Superseded != 101 || r.WAL.OldSalt != 373 {
		t.Fatalf("WAL %+v", r.WAL)
	}
}

// liveNamesOf counts the rows of session, message and part SQLite reads
// for the session id in the store at p (a copy, with its WAL).
func liveNamesOf(t *testing.T, p, id string) int {
	t.Helper()
	dir := t.TempDir()
	for _, sfx := range []string{"", "-wal"} {
		b, _ := os.ReadFile(p + sfx)
		_ = os.WriteFile(filepath.Join(dir, "x.db"+sfx), b, 0o600)
	}
	db := openDB(t, filepath.Join(dir, "x.db"))
	var n int
	if err := db.QueryRow("SELECT (SELECT count(*) FROM session WHERE id = ?) + (SELECT count(*) FROM message WHERE session_id = ?) + (SELECT count(*) FROM part WHERE session_id = ?)", id, id, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
