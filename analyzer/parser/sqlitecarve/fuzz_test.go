package sqlitecarve

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// FuzzCarve: any database and WAL bytes give a result or an error, never
// a panic, within the limits.
func FuzzCarve(f *testing.F) {
	if b, err := os.ReadFile(deletedStore); err == nil {
		f.Add(b[:4096*3], []byte(nil))
	}
	h := append([]byte("SQLite format 3\x00\x02\x00\x01\x01\x00\x40\x20\x20"), make([]byte, 1024-24)...)
	h[100] = 0x0d
	f.Add(h, []byte{0x37, 0x7f, 0x06, 0x82, 0, 0x2d, 0xe2, 0x18, 0, 0, 2, 0})
	tabs := []Table{
		{Name: "sqlite_schema", RootPage: 1, Columns: []Column{{Name: "type", Type: "text"}, {Name: "name", Type: "text"}, {Name: "tbl_name", Type: "text"}, {Name: "rootpage", Type: "int"}, {Name: "sql", Type: "text"}}},
		{Name: "t", RootPage: 2, Columns: []Column{{Name: "id", Type: "INTEGER", IntegerPrimaryKey: true}, {Name: "a", Type: "text"}, {Name: "b", Type: "real"}, {Name: "c"}}},
		{Name: "i", RootPage: 3, Index: true},
	}
	f.Fuzz(func(t *testing.T, db, wal []byte) {
		if len(db) > 1<<20 || len(wal) > 1<<20 {
			return
		}
		var w *bytes.Reader
		if len(wal) > 0 {
			w = bytes.NewReader(wal)
		}
		opt := Options{MaxRecords: 1000, MaxPayload: 1 << 20, MaxPages: 4096}
		if w != nil {
			_, _ = Carve(context.Background(), bytes.NewReader(db), int64(len(db)), w, int64(len(wal)), tabs, opt)
		} else {
			_, _ = Carve(context.Background(), bytes.NewReader(db), int64(len(db)), nil, 0, tabs, opt)
		}
	})
}

// FuzzCarveOrphanWAL: any WAL bytes carved alone give a result or an
// error, never a panic, within the limits.
func FuzzCarveOrphanWAL(f *testing.F) {
	if b, err := os.ReadFile(realWAL); err == nil {
		f.Add(b[:32+3*(24+4096)])
	}
	f.Add([]byte{0x37, 0x7f, 0x06, 0x82, 0, 0x2d, 0xe2, 0x18, 0, 0, 2, 0})
	tabs := []Table{
		{Name: "sqlite_schema", RootPage: 1, Columns: []Column{{Name: "type", Type: "text"}, {Name: "name", Type: "text"}, {Name: "tbl_name", Type: "text"}, {Name: "rootpage", Type: "int"}, {Name: "sql", Type: "text"}}},
		{Name: "t", RootPage: 2, Columns: []Column{{Name: "id", Type: "INTEGER", IntegerPrimaryKey: true}, {Name: "a", Type: "text"}}},
	}
	f.Fuzz(func(t *testing.T, wal []byte) {
		if len(wal) > 1<<20 {
			return
		}
		opt := Options{MaxRecords: 1000, MaxPayload: 1 << 20, MaxPages: 4096}
		_, _ = CarveOrphanWAL(context.Background(), bytes.NewReader(wal), int64(len(wal)), tabs, opt)
	})
}
