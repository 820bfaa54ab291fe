package sqlitecarve

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Column is one column of a table, in declaration order.
type Column struct {
	Name string
	Type string // declared type ("" when none)
	// IntegerPrimaryKey marks the rowid alias (a lone INTEGER PRIMARY KEY
	// of a rowid table): NULL in the record, its value is the rowid.
	IntegerPrimaryKey bool
}

// Table is one b-tree of the schema. Index b-trees are given (Index true,
// no columns) so their pages count as in use.
type Table struct {
	Name         string
	RootPage     uint32
	Columns      []Column
	Index        bool
	WithoutRowid bool // carved as in use, not decoded
}

// Source says where in the file a record was found.
type Source string

// Sources.
const (
	SrcFreeblock   Source = "freeblock"        // a freed cell on a table leaf page
	SrcUnallocated Source = "unallocated"      // the gap between the cell pointers and the cells of a leaf page
	SrcFreelist    Source = "freelist"         // a freelist trunk or leaf page
	SrcOrphanPage  Source = "unreferenced"     // a page no b-tree and no freelist names
	SrcDBOld       Source = "db-page-replaced" // the database file's page that a WAL frame replaces
	SrcWALOld      Source = "wal-superseded"   // a committed WAL frame a later frame of the page replaced
	SrcWALUncommit Source = "wal-uncommitted"  // a WAL frame after the last commit
	SrcWALOldSalt  Source = "wal-old-salt"     // a WAL frame of an earlier WAL generation (other salts)
	SrcWALBadSum   Source = "wal-bad-checksum" // a WAL frame whose checksum chain broke
	SrcWALOrphan   Source = "wal-orphan"       // a committed WAL frame of a store whose database file is gone (CarveOrphanWAL)
)

// Record is one recovered record.
type Record struct {
	Table      string
	Rowid      int64
	RowidKnown bool
	// Values holds one value per column (nil, int64, float64, string or
	// []byte); Lost marks the columns that did not survive.
	Values  []any
	Lost    []bool
	Partial bool
	Note    string // why the record is partial
	Source  Source
	Page    uint32 // page number (in the database the page image belongs to)
	Offset  int    // byte offset of the cell in its page
	// Frame (1-based) and the salts of a WAL frame the page came from.
	Frame        int
	Salt1, Salt2 uint32
	columns      []Column
}

// Provenance names how the record was found, for an examiner:
// "freeblock on page 12 at offset 3012", "WAL frame 7 of salt
// 0x1a2b3c4d/0x5e6f7a8b (superseded), page 12".
func (r *Record) Provenance() string {
	var b strings.Builder
	switch r.Source {
	case SrcFreeblock:
		fmt.Fprintf(&b, "freeblock on page %d at offset %d", r.Page, r.Offset)
	case SrcUnallocated:
		fmt.Fprintf(&b, "unallocated space of page %d at offset %d", r.Page, r.Offset)
	case SrcFreelist:
		fmt.Fprintf(&b, "freelist page %d at offset %d", r.Page, r.Offset)
	case SrcOrphanPage:
		fmt.Fprintf(&b, "unreferenced page %d at offset %d", r.Page, r.Offset)
	case SrcDBOld:
		fmt.Fprintf(&b, "database page %d (replaced by the WAL) at offset %d", r.Page, r.Offset)
	default:
		what := map[Source]string{SrcWALOrphan: "committed, database gone", SrcWALOld: "superseded", SrcWALUncommit: "after the last commit", SrcWALOldSalt: "earlier WAL generation", SrcWALBadSum: "checksum broken"}[r.Source]
		fmt.Fprintf(&b, "WAL frame %d of salt %08x/%08x (%s), page %d at offset %d", r.Frame, r.Salt1, r.Salt2, what, r.Page, r.Offset)
	}
	if r.Partial {
		b.WriteString(", partial: " + r.Note)
	}
	return b.String()
}

// Row returns the record's surviving columns by name; the rowid alias
// column holds the rowid when it is known.
func (r *Record) Row() map[string]any {
	m := make(map[string]any, len(r.Values))
	for i, c := range r.columns {
		if i >= len(r.Values) {
			break
		}
		if c.IntegerPrimaryKey {
			if r.RowidKnown {
				m[c.Name] = r.Rowid
			}
			continue
		}
		if !r.Lost[i] {
			m[c.Name] = r.Values[i]
		}
	}
	return m
}

// Problem is something the carver could not read, by page (0 for the file).
type Problem struct {
	Page uint32
	Msg  string
}

// WALState describes the write-ahead log beside the store.
type WALState struct {
	Present       bool
	HeaderValid   bool // magic, version and header checksum
	PageSize      int
	CheckpointSeq uint32
	Salt1, Salt2  uint32
	Frames        int // whole frames in the file
	Committed     int // frames up to the last valid commit (read as the database now)
	Uncommitted   int // valid frames after the last commit
	OldSalt       int // frames whose salts are not the header's
	BadChecksum   int // frames of the header's salts whose checksum chain broke
	Superseded    int // committed frames a later committed frame of the page replaced
	OtherSalts    []string
}

// Result is what one carve found.
type Result struct {
	Records []Record
	// Copies counts recovered cells identical to a live record (or to a
	// record recovered before) and so not returned, by source.
	Copies   map[Source]int
	Problems []Problem
	WAL      WALState
	Pages    int // pages in the database (the WAL's commit when it has one)
	// Truncated is set when Options.MaxRecords stopped the carve.
	Truncated bool
}

// Options bound a carve.
type Options struct {
	MaxRecords int   // records returned (default 100000)
	MaxPayload int   // bytes of one record's payload read (default 16 MiB)
	MaxBytes   int64 // bytes of all returned records' values (default 256 MiB)
	MaxPages   int   // pages read (default 4 Mi)
	// MaxLive is how many live records are remembered to tell a carved
	// copy of one (default 4 Mi, about 200 MB); past it, copies of the
	// others are returned as recovered and the parser's record ids tell
	// them apart.
	MaxLive int
	// orphan is set by CarveOrphanWAL: the database file is gone, so the
	// records of the WAL's committed pages are returned too (as
	// SrcWALOrphan), not only remembered as live.
	orphan bool
}

var errLimit = errors.New("limit")

// Carve recovers deleted records from a SQLite database db (size bytes)
// and its WAL (nil when there is none), decoding them against tables. It
// only reads. A corrupt page is a Problem and the carve goes on; the error
// is for a file that is no SQLite database and for ctx's.
func Carve(ctx context.Context, db io.ReaderAt, size int64, wal io.ReaderAt, walSize int64, tables []Table, opt Options) (*Result, error) {
	if opt.MaxRecords <= 0 {
		opt.MaxRecords = 100000
	}
	if opt.MaxPayload <= 0 {
		opt.MaxPayload = 16 << 20
	}
	if opt.MaxPages <= 0 {
		opt.MaxPages = 4 << 20
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 256 << 20
	}
	if opt.MaxLive <= 0 {
		opt.MaxLive = 4 << 20
	}
	c := &carver{ctx: ctx, db: db, size: size, opt: opt, res: &Result{Copies: map[Source]int{}},
		seen: map[[32]byte]bool{}, live: map[[32]byte]int64{}, owner: map[uint32]int{}, used: map[uint32]bool{}}
	if err := c.header(); err != nil {
		return nil, err
	}
	c.res.Pages = int(c.nPages)
	if wal != nil && walSize > 0 {
		c.readWAL(wal, walSize)
	}
	if n := uint32(size / int64(c.pageSize)); c.opt.orphan && c.nPages > n {
		// the WAL's commit names more pages than it holds: the others were
		// only in the database file, and the b-tree walk names them
		c.nPages = n
		c.res.Pages = int(n)
	}
	for _, t := range tables {
		ti := &table{Table: t}
		for _, col := range t.Columns {
			ti.aff = append(ti.aff, affinityOf(col.Type))
		}
		c.tables = append(c.tables, ti)
		c.maxCols = max(c.maxCols, len(t.Columns))
	}
	err := c.run()
	if errors.Is(err, errLimit) {
		c.res.Truncated = true
		c.problem(0, fmt.Sprintf("carving stopped at %d records and %d bytes (the limits: %d records, %d bytes)", len(c.res.Records), c.bytes, opt.MaxRecords, opt.MaxBytes))
		err = nil
	}
	if c.liveFull {
		c.problem(0, fmt.Sprintf("more than %d live records: carved copies of the others are not told from recovered records here", opt.MaxLive))
	}
	return c.res, err
}

type table struct {
	Table
	aff []affinity
}

type frame struct {
	no           int // 1-based
	pgno         uint32
	off          int64 // offset of the page data in the WAL
	src          Source
	salt1, salt2 uint32
}

type carver struct {
	ctx       context.Context
	db        io.ReaderAt
	size      int64
	wal       io.ReaderAt
	opt       Options
	res       *Result
	pageSize  int
	usable    int
	enc       uint32
	nPages    uint32
	trunk     uint32
	snap      map[uint32]int64 // page -> WAL offset of its current image
	snapFrame map[uint32]int   // page -> frame number (1-based) of its current image
	stale     []frame          // WAL frames not in the snapshot
	tables    []*table
	owner     map[uint32]int // table leaf page -> index in tables
	used      map[uint32]bool
	free      map[uint32]bool // freelist pages (trunk and leaf)
	trunks    map[uint32]bool
	live      map[[32]byte]int64 // content key -> rowid of a live record
	seen      map[[32]byte]bool
	reads     int
	maxCols   int   // columns of the widest table
	bytes     int64 // value bytes of the records returned
	liveFull  bool  // MaxLive reached
	// trustOwner is set while the live leaves are carved: their page
	// belongs to the table now. A stale page image (a WAL frame, a page
	// the WAL replaced) may have belonged to another table then, so it is
	// decoded strictly, its page's table tried first.
	trustOwner bool
	// strict is set while a record is tried against a table other than
	// its page's (see fits)
	strict bool
}

func (c *carver) problem(page uint32, msg string) {
	if len(c.res.Problems) < 1000 {
		c.res.Problems = append(c.res.Problems, Problem{Page: page, Msg: msg})
	}
}

func (c *carver) header() error {
	h := make([]byte, 100)
	if n, _ := c.db.ReadAt(h, 0); n < 100 || string(h[:16]) != "SQLite format 3\x00" {
		return errors.New("not a SQLite database (no header)")
	}
	ps := int(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return fmt.Errorf("not a SQLite database (page size %d)", ps)
	}
	c.pageSize = ps
	c.usable = ps - int(h[20])
	if c.usable < 480 {
		return fmt.Errorf("not a SQLite database (usable page size %d)", c.usable)
	}
	c.enc = binary.BigEndian.Uint32(h[56:])
	c.nPages = uint32(c.size / int64(ps))
	if n := binary.BigEndian.Uint32(h[28:]); n > 0 && binary.BigEndian.Uint32(h[24:]) == binary.BigEndian.Uint32(h[92:]) && int64(n)*int64(ps) <= c.size {
		c.nPages = n
	}
	c.trunk = binary.BigEndian.Uint32(h[32:])
	return nil
}

// page returns page n of the snapshot (the database with its committed
// WAL frames), or nil when it cannot be read.
func (c *carver) page(n uint32) []byte {
	if n == 0 || n > c.nPages {
		return nil
	}
	c.reads++
	b := make([]byte, c.pageSize)
	if off, ok := c.snap[n]; ok {
		if k, _ := c.wal.ReadAt(b, off); k == len(b) {
			return b
		}
		return nil
	}
	if k, _ := c.db.ReadAt(b, int64(n-1)*int64(c.pageSize)); k != len(b) {
		return nil
	}
	return b
}

func (c *carver) run() error {
	// 1. the live b-trees: which pages are in use, which leaf belongs to
	// which table, and every live record (a carved copy of one is no
	// recovery)
	for i, t := range c.tables {
		if err := c.walk(i, t.RootPage, 0, map[uint32]bool{}); err != nil {
			return err
		}
	}
	c.freelist()
	// 2. freed space of the live table leaves, in page order
	leaves := make([]uint32, 0, len(c.owner))
	for p := range c.owner {
		leaves = append(leaves, p)
	}
	sort.Slice(leaves, func(i, j int) bool { return leaves[i] < leaves[j] })
	c.trustOwner = true
	defer func() { c.trustOwner = false }()
	for _, p := range leaves {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		b := c.page(p)
		if b == nil {
			continue
		}
		if err := c.leafFree(b, c.owner[p], loc{src: SrcFreeblock, page: p}); err != nil {
			return err
		}
	}
	c.trustOwner = false
	// 3. freelist and unreferenced pages
	for p := uint32(2); p <= c.nPages; p++ {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		src := SrcFreelist
		if !c.free[p] {
			if c.used[p] || c.isLeaf(p) {
				continue
			}
			src = SrcOrphanPage
		}
		l := loc{src: src, page: p}
		if c.opt.orphan {
			if _, ok := c.snap[p]; !ok {
				continue // not in the WAL: gone with the database file
			}
			// a committed page no b-tree reached here names its table
			// through pages that were in the database file
			l = loc{src: SrcWALOrphan, page: p, frame: c.snapFrame[p], salt1: c.res.WAL.Salt1, salt2: c.res.WAL.Salt2}
		}
		b := c.page(p)
		if b == nil {
			continue
		}
		if err := c.wholePage(b, -1, l); err != nil {
			return err
		}
	}
	// 4. page images the snapshot no longer reads: database pages a WAL
	// frame replaces, and the WAL's stale frames
	pages := make([]uint32, 0, len(c.snap))
	for p := range c.snap {
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i] < pages[j] })
	for _, p := range pages {
		if c.opt.orphan {
			break // the database file is gone: its image is the WAL's frames
		}
		b := make([]byte, c.pageSize)
		if k, _ := c.db.ReadAt(b, int64(p-1)*int64(c.pageSize)); k != len(b) {
			continue
		}
		if err := c.wholePage(b, c.ownerOf(p), loc{src: SrcDBOld, page: p}); err != nil {
			return err
		}
	}
	for _, f := range c.stale {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		b := make([]byte, c.pageSize)
		if k, _ := c.wal.ReadAt(b, f.off); k != len(b) {
			continue
		}
		if err := c.wholePage(b, c.ownerOf(f.pgno), loc{src: f.src, page: f.pgno, frame: f.no, salt1: f.salt1, salt2: f.salt2}); err != nil {
			return err
		}
	}
	return nil
}

func (c *carver) isLeaf(p uint32) bool { _, ok := c.owner[p]; return ok }

func (c *carver) ownerOf(p uint32) int {
	if i, ok := c.owner[p]; ok {
		return i
	}
	return -1
}

// hdrOff is where page p's b-tree header starts (after the file header
// on page 1).
func hdrOff(p uint32) int {
	if p == 1 {
		return 100
	}
	return 0
}

// walk follows a b-tree from page p, marking its pages and reading its
// live records.
func (c *carver) walk(ti int, p uint32, depth int, visited map[uint32]bool) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	if _, ok := c.snap[p]; c.opt.orphan && p != 0 && !ok && !visited[p] && depth <= 40 {
		visited[p] = true
		c.problem(p, fmt.Sprintf("page %d of the b-tree of %s is not in the WAL (the database file that held it is gone)", p, c.tables[ti].Name))
		return nil
	}
	if p == 0 || p > c.nPages || visited[p] || depth > 40 {
		if p != 0 && !visited[p] {
			c.problem(p, fmt.Sprintf("b-tree of %s names page %d, out of the file", c.tables[ti].Name, p))
		}
		return nil
	}
	if c.reads > c.opt.MaxPages {
		return nil
	}
	visited[p] = true
	b := c.page(p)
	if b == nil {
		c.problem(p, "page cannot be read")
		return nil
	}
	c.used[p] = true
	h := hdrOff(p)
	kind := b[h]
	n := int(binary.BigEndian.Uint16(b[h+3:]))
	switch kind {
	case 0x05, 0x02: // interior
		if h+12+2*n > c.usable {
			c.problem(p, fmt.Sprintf("interior page of %s has %d cells, more than fit", c.tables[ti].Name, n))
			return nil
		}
		for i := 0; i < n; i++ {
			off := int(binary.BigEndian.Uint16(b[h+12+2*i:]))
			if off+4 > c.usable {
				c.problem(p, fmt.Sprintf("cell %d points past the page", i))
				continue
			}
			if err := c.walk(ti, binary.BigEndian.Uint32(b[off:]), depth+1, visited); err != nil {
				return err
			}
		}
		return c.walk(ti, binary.BigEndian.Uint32(b[h+8:]), depth+1, visited)
	case 0x0d:
		t := c.tables[ti]
		if t.Index || t.WithoutRowid {
			return nil
		}
		c.owner[p] = ti
		if h+8+2*n > c.usable {
			c.problem(p, fmt.Sprintf("leaf page of %s has %d cells, more than fit", t.Name, n))
			return nil
		}
		for i := 0; i < n; i++ {
			off := int(binary.BigEndian.Uint16(b[h+8+2*i:]))
			rec, ok := c.cellAt(b, off, c.usable, ti, true)
			if !ok {
				c.problem(p, fmt.Sprintf("live cell %d of %s at offset %d cannot be read", i, t.Name, off))
				continue
			}
			if c.opt.orphan {
				l := loc{src: SrcWALOrphan, page: p, frame: c.snapFrame[p], salt1: c.res.WAL.Salt1, salt2: c.res.WAL.Salt2}
				if err := c.keep(rec, l, off); err != nil {
					return err
				}
				continue
			}
			if len(c.live) < c.opt.MaxLive {
				c.live[rec.key] = rec.Rowid
			} else {
				c.liveFull = true
			}
		}
	case 0x0a:
		// index leaf: in use; overflow pages of long keys are not followed
	default:
		c.problem(p, fmt.Sprintf("b-tree of %s: page %d has page type %d", c.tables[ti].Name, p, kind))
	}
	return nil
}

// freelist reads the trunk chain; its pages are carved as freelist pages.
func (c *carver) freelist() {
	c.free = map[uint32]bool{}
	c.trunks = map[uint32]bool{}
	seen := map[uint32]bool{}
	for t := c.trunk; t != 0; {
		if t > c.nPages || seen[t] {
			c.problem(t, "freelist trunk chain names a page out of the file or twice")
			return
		}
		seen[t] = true
		b := c.page(t)
		if b == nil {
			return
		}
		c.free[t] = true
		c.trunks[t] = true
		n := int(binary.BigEndian.Uint32(b[4:]))
		if n > (c.usable-8)/4 {
			c.problem(t, fmt.Sprintf("freelist trunk page names %d leaves, more than fit", n))
			n = (c.usable - 8) / 4
		}
		for i := 0; i < n; i++ {
			if l := binary.BigEndian.Uint32(b[8+4*i:]); l != 0 && l <= c.nPages {
				c.free[l] = true
			}
		}
		t = binary.BigEndian.Uint32(b)
	}
}

type loc struct {
	src          Source
	page         uint32
	frame        int
	salt1, salt2 uint32
}

// cellRec is a decoded cell.
type cellRec struct {
	Record
	key [32]byte
	end int // offset after the cell's local part (and overflow pointer)
}

// localSize is how much of a payload of P bytes a table leaf cell keeps
// on its page (fileformat2 section 1.6).
func (c *carver) localSize(p int64) int {
	u := int64(c.usable)
	x := u - 35
	if p <= x {
		return int(p)
	}
	m := ((u-12)*32/255 - 23)
	k := m + (p-m)%(u-4)
	if k <= x {
		return int(k)
	}
	return int(m)
}

// overflow reads need bytes of an overflow chain from page first; ok is
// false when the chain broke first (the bytes read are returned).
func (c *carver) overflow(first uint32, need int) ([]byte, bool) {
	out := make([]byte, 0, min(need, 1<<20))
	seen := map[uint32]bool{}
	for p := first; len(out) < need; {
		if p == 0 || p > c.nPages || seen[p] || c.reads > c.opt.MaxPages {
			return out, false
		}
		seen[p] = true
		b := c.page(p)
		if b == nil {
			return out, false
		}
		c.used[p] = c.used[p] || !c.free[p]
		k := min(need-len(out), c.usable-4)
		out = append(out, b[4:4+k]...)
		p = binary.BigEndian.Uint32(b)
	}
	return out, true
}

// cellAt decodes a whole table leaf cell at off (ending by lim) against
// table ti, then (when ti < 0 or it does not fit) against every other
// table under the strict checks; live is set for a live cell, which is
// decoded against ti alone without the carving checks. The cell header
// is parsed once, whatever the table.
func (c *carver) cellAt(b []byte, off, lim, ti int, live bool) (cellRec, bool) {
	if off < 0 || off >= lim || lim > len(b) {
		return cellRec{}, false
	}
	p, n1 := varint(b[off:lim])
	if n1 == 0 || p == 0 || p > uint64(c.opt.MaxPayload) && !live || p > math.MaxInt32 || off+n1 >= lim {
		return cellRec{}, false
	}
	rowid, n2 := varint(b[off+n1 : lim])
	if n2 == 0 {
		return cellRec{}, false
	}
	hs := off + n1 + n2
	hl, types, body, ok := c.recHeader(b, hs, lim)
	if !ok || int64(hl)+body != int64(p) {
		return cellRec{}, false
	}
	fin := func(t *table) (cellRec, bool) {
		if t.Index || t.WithoutRowid || len(types) > len(t.Columns) {
			return cellRec{}, false
		}
		r, ok := c.finish(b, hs, lim, int64(p), hl, types, t, live, "")
		r.Rowid, r.RowidKnown = int64(rowid), true
		return r, ok
	}
	if ti >= 0 {
		c.strict = !c.trustOwner && !live
		if r, ok := fin(c.tables[ti]); ok || live {
			return r, ok
		}
	}
	c.strict = true
	defer func() { c.strict = false }()
	for i, t := range c.tables {
		if i == ti {
			continue
		}
		if r, ok := fin(t); ok {
			return r, true
		}
	}
	return cellRec{}, false
}

// recHeader parses a record header at hs: its length, serial types (at most
// as many as the widest table has columns) and body size.
func (c *carver) recHeader(b []byte, hs, lim int) (int, []uint64, int64, bool) {
	if hs >= lim {
		return 0, nil, 0, false
	}
	hl, n := varint(b[hs:lim])
	if n == 0 || hl < uint64(n) || hl > uint64(n+9*c.maxCols) || hs+int(hl) > lim {
		return 0, nil, 0, false
	}
	var types []uint64
	var body int64
	for i := hs + n; i < hs+int(hl); {
		st, k := varint(b[i : hs+int(hl)])
		if k == 0 {
			return 0, nil, 0, false
		}
		sz, ok := serialSize(st)
		if !ok || len(types) >= c.maxCols {
			return 0, nil, 0, false
		}
		types = append(types, st)
		body += sz
		i += k
	}
	return int(hl), types, body, true
}

// finish reads the payload of a record whose header (hl bytes at hs) gave
// types, follows its overflow chain, checks the values against t's
// columns (unless live) and builds the record.
func (c *carver) finish(b []byte, hs, lim int, p int64, hl int, types []uint64, t *table, live bool, note string) (cellRec, bool) {
	if !live && len(types) < (len(t.Columns)+1)/2 {
		return cellRec{}, false
	}
	local := c.localSize(p)
	end := hs + local
	if local < int(p) {
		end += 4
	}
	if end > lim {
		return cellRec{}, false
	}
	for i, st := range types {
		if !live && !fits(t.aff[i], t.Columns[i].IntegerPrimaryKey, st, c.strict) {
			return cellRec{}, false
		}
	}
	payload := b[hs : hs+local]
	if !live {
		// the values the page holds whole are checked before an overflow
		// chain is followed: noise rarely gets this far
		pos := hl
		for _, st := range types {
			sz, _ := serialSize(st)
			if pos+int(sz) > len(payload) {
				if st >= 13 && st%2 == 1 && pos < len(payload) && !textOK(trimRune(payload[pos:]), c.enc) {
					return cellRec{}, false
				}
				break
			}
			if st >= 13 && st%2 == 1 && !textOK(payload[pos:pos+int(sz)], c.enc) {
				return cellRec{}, false
			}
			pos += int(sz)
		}
	}
	complete := true
	if local < int(p) {
		more, ok := c.overflow(binary.BigEndian.Uint32(b[hs+local:]), int(p)-local)
		payload = append(append(make([]byte, 0, int(p)), payload...), more...)
		complete = ok
	}
	r := cellRec{end: end}
	r.Table, r.columns = t.Name, t.Columns
	r.Values = make([]any, len(t.Columns))
	r.Lost = make([]bool, len(t.Columns))
	h := sha256.New()
	h.Write([]byte(t.Name))
	pos := hl
	for i := range t.Columns {
		if i >= len(types) {
			continue // a column added after the record was written: its default
		}
		sz, _ := serialSize(types[i])
		fmt.Fprintf(h, "\x00%d:", types[i])
		if pos+int(sz) > len(payload) {
			r.Lost[i] = true
			pos += int(sz)
			continue
		}
		v := payload[pos : pos+int(sz)]
		if !live && types[i] >= 13 && types[i]%2 == 1 && !textOK(v, c.enc) {
			return cellRec{}, false
		}
		h.Write(v)
		r.Values[i] = decodeValue(types[i], v, c.enc)
		pos += int(sz)
	}
	if !live && empty(r.Values) {
		return cellRec{}, false // a record of NULLs and empty strings says nothing: noise
	}
	copy(r.key[:], h.Sum(nil))
	r.Note = note
	if !complete {
		r.Partial = true
		r.Note = joinNote(note, "overflow chain broken after "+fmt.Sprint(len(payload))+" of "+fmt.Sprint(p)+" bytes")
	}
	if note != "" {
		r.Partial = true
	}
	return r, true
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// keep adds a carved record unless it copies a live or earlier one.
func (c *carver) keep(r cellRec, l loc, off int) error {
	if rowid, ok := c.live[r.key]; ok && (!r.RowidKnown || r.Rowid == rowid) || c.seen[r.key] {
		c.res.Copies[l.src]++
		return nil
	}
	size := recordSize(r.Values)
	if len(c.res.Records) >= c.opt.MaxRecords || c.bytes+size > c.opt.MaxBytes {
		return errLimit
	}
	c.bytes += size
	c.seen[r.key] = true
	r.Source, r.Page, r.Offset, r.Frame, r.Salt1, r.Salt2 = l.src, l.page, off, l.frame, l.salt1, l.salt2
	c.res.Records = append(c.res.Records, r.Record)
	return nil
}

// scan carves whole cells anywhere in b[lo:hi], trying table ti first.
func (c *carver) scan(b []byte, lo, hi, ti int, l loc) error {
	if hi > len(b) {
		hi = len(b)
	}
	for o := lo; o+4 <= hi; {
		r, ok := c.try(b, o, hi, ti)
		if !ok {
			// a freeblock header of a page image whose page header is
			// gone (a freelist trunk, an unreferenced page): the cell
			// under it lost its first 4 bytes
			if next, sz := int(binary.BigEndian.Uint16(b[o:])), int(binary.BigEndian.Uint16(b[o+2:])); sz >= 8 && o+sz <= hi && (next == 0 || next > o+sz && next < c.usable) {
				// decoded strictly: a guess at a header is no page's word
				trust := c.trustOwner
				c.trustOwner = false
				r, ok = c.headless(b, o, o+sz, ti, true)
				c.trustOwner = trust
			}
		}
		if !ok {
			o++
			continue
		}
		if err := c.keep(r, l, o); err != nil {
			return err
		}
		o = r.end
	}
	return nil
}

func (c *carver) try(b []byte, o, hi, ti int) (cellRec, bool) {
	return c.cellAt(b, o, hi, ti, false)
}

// leafFree carves a table leaf page's freeblocks and unallocated gap.
func (c *carver) leafFree(b []byte, ti int, l loc) (err error) {
	defer func() {
		if v := recover(); v != nil {
			c.problem(l.page, fmt.Sprintf("page cannot be carved: %v", v))
			err = nil
		}
	}()
	h := hdrOff(l.page)
	if l.src != SrcFreeblock && l.src != SrcUnallocated {
		h = 0
		if b[0] != 0x0d && len(b) > 100 && b[100] == 0x0d {
			h = 100
		}
	}
	n := int(binary.BigEndian.Uint16(b[h+3:]))
	cs := int(binary.BigEndian.Uint16(b[h+5:]))
	if cs == 0 {
		cs = 65536
	}
	ptrEnd := h + 8 + 2*n
	if ptrEnd > c.usable || cs > c.usable {
		c.problem(l.page, fmt.Sprintf("leaf page header names %d cells and content at %d: not carved", n, cs))
		return nil
	}
	// freeblocks: a chain in increasing offset order
	fb := loc{src: l.src, page: l.page, frame: l.frame, salt1: l.salt1, salt2: l.salt2}
	prev := 0
	for f, k := int(binary.BigEndian.Uint16(b[h+1:])), 0; f != 0; k++ {
		if f <= prev || f+4 > c.usable || k > c.usable/4 {
			c.problem(l.page, fmt.Sprintf("freeblock chain breaks at offset %d", f))
			break
		}
		next := int(binary.BigEndian.Uint16(b[f:]))
		sz := int(binary.BigEndian.Uint16(b[f+2:]))
		if sz < 4 || f+sz > c.usable {
			c.problem(l.page, fmt.Sprintf("freeblock at offset %d has size %d", f, sz))
			break
		}
		if err := c.freeblock(b, f, sz, ti, fb); err != nil {
			return err
		}
		prev, f = f, next
	}
	ul := l
	if l.src == SrcFreeblock {
		ul.src = SrcUnallocated
	}
	if cs > ptrEnd {
		return c.scan(b, ptrEnd, cs, ti, ul)
	}
	return nil
}

// freeblock carves one freeblock: its first cell lost its first 4 bytes
// (the next-freeblock offset and size written over the payload length,
// the rowid and maybe the record header's first bytes). Adjacent freed
// cells merge into one freeblock, and each of them lost its own first 4
// bytes when it was freed, so the cells after the first are headless too;
// what follows the last one that decodes is scanned for whole cells.
func (c *carver) freeblock(b []byte, f, sz, ti int, l loc) error {
	end := f + sz
	pos := f
	for pos+4 < end {
		r, ok := c.headless(b, pos, end, ti, false)
		if !ok {
			break
		}
		if err := c.keep(r, l, pos); err != nil {
			return err
		}
		pos = r.end
	}
	if pos == f {
		pos += 4
	}
	return c.scan(b, pos, end, ti, l)
}

// headless decodes a cell whose first 4 bytes are gone, trying every
// layout of the lost varints (the literature's approach: the payload
// length and rowid take 2 to 12 bytes, so the record header starts 2 to
// 12 bytes in; where its length byte or first serial type fell in the
// lost bytes they are rebuilt from the column count and the freeblock
// size). The best candidate fills the freeblock exactly; else the
// first found.
//
// guessed is set for a freeblock header read from a page image that has
// no page header to chain it from: there only a whole record header
// (mode 1), or a table of at least 3 columns (so at least 2 serial types
// checked), is believed.
func (c *carver) headless(b []byte, f, end, ti int, guessed bool) (cellRec, bool) {
	order := []int{}
	if ti >= 0 {
		order = append(order, ti)
	}
	for i := range c.tables {
		if i != ti {
			order = append(order, i)
		}
	}
	var first cellRec
	found := false
	consider := func(r cellRec, ok bool) bool {
		if !ok {
			return false
		}
		if r.end == end {
			first, found = r, true
			return true
		}
		if !found {
			first, found = r, true
		}
		return false
	}
	defer func() { c.strict = false }()
	for _, i := range order {
		c.strict = i != ti || !c.trustOwner
		t := c.tables[i]
		if t.Index || t.WithoutRowid || len(t.Columns) == 0 {
			continue
		}
		// mode 1: the record header is whole (it starts 4 to 12 bytes in)
		for hs := f + 4; hs <= f+12 && hs < end; hs++ {
			r, ok := c.headerAt(b, f, hs, end, t)
			if consider(r, ok) {
				return first, true
			}
		}
		if guessed && len(t.Columns) < 3 {
			continue
		}
		// mode 2: the header length byte was lost, the serial types start
		// at byte 4
		if r, ok := c.rebuilt(b, f, end, t, 0); consider(r, ok) {
			return first, true
		}
		// mode 3: the header length byte and the first serial type were
		// lost: the first column's length is what the freeblock leaves
		if r, ok := c.rebuilt(b, f, end, t, 1); consider(r, ok) {
			return first, true
		}
	}
	return first, found
}

// headerAt: mode 1, a whole record header at hs.
func (c *carver) headerAt(b []byte, f, hs, end int, t *table) (cellRec, bool) {
	hl, n := varint(b[hs:end])
	if n == 0 || hl < uint64(n)+1 || hl > uint64(n+9*len(t.Columns)) {
		return cellRec{}, false
	}
	var types []uint64
	var body int64
	for i := hs + n; i < hs+int(hl); {
		if i >= end {
			return cellRec{}, false
		}
		st, k := varint(b[i:end])
		sz, ok := serialSize(st)
		if k == 0 || !ok || i+k > hs+int(hl) || len(types) >= len(t.Columns) {
			return cellRec{}, false
		}
		types, body, i = append(types, st), body+sz, i+k
	}
	if len(types) != len(t.Columns) {
		return cellRec{}, false
	}
	p := int64(hl) + body
	lp := varintLen(uint64(p))
	if lp+1 > hs-f || hs-f-lp > 9 {
		return cellRec{}, false
	}
	r, ok := c.finish(b, hs, end, p, int(hl), types, t, false, "")
	if !ok {
		return r, false
	}
	c.lostRowid(&r, b, f, f+lp, hs)
	return r, true
}

// lostRowid marks what the freeblock header took: the rowid (unless it
// lies past the first 4 bytes), and with it an INTEGER PRIMARY KEY.
func (c *carver) lostRowid(r *cellRec, b []byte, f, rs, hs int) {
	r.RowidKnown = false
	if rs >= f+4 && rs < hs {
		if v, n := varint(b[rs:hs]); n == hs-rs {
			r.Rowid, r.RowidKnown = int64(v), true
		}
	}
	if r.RowidKnown {
		return
	}
	for i, col := range r.columns {
		if col.IntegerPrimaryKey {
			r.Lost[i] = true
			r.Partial = true
			r.Note = joinNote(r.Note, "rowid ("+col.Name+") overwritten by the freeblock header")
		}
	}
}

// rebuilt: modes 2 and 3. lostTypes serial-type bytes (0 or 1) fell in
// the lost 4 bytes with the header length byte.
func (c *carver) rebuilt(b []byte, f, end int, t *table, lostTypes int) (cellRec, bool) {
	want := len(t.Columns) - lostTypes
	var types []uint64
	var body int64
	i := f + 4
	for len(types) < want {
		if i >= end {
			return cellRec{}, false
		}
		st, k := varint(b[i:end])
		sz, ok := serialSize(st)
		if k == 0 || !ok {
			return cellRec{}, false
		}
		types, body, i = append(types, st), body+sz, i+k
	}
	hl := i - (f + 4) + lostTypes + 1 // + the header length byte
	if hl >= 128 {
		return cellRec{}, false // a 2-byte header length would start before byte 3
	}
	hs := f + 4 - lostTypes - 1
	if hs-f < 2 {
		return cellRec{}, false
	}
	note := "record header length overwritten by the freeblock header"
	if lostTypes == 1 {
		// the first column's serial type: one byte, so a text of at most
		// 57 bytes or a small number; its size is what the freeblock
		// leaves when the cell filled it (no overflow)
		c0 := int64(end-(hs+hl)) - body
		var st uint64
		switch {
		case t.Columns[0].IntegerPrimaryKey:
			// the rowid alias is always NULL in the record: nothing to infer
			c0 = 0
		case c0 < 0 || c0 > 57:
			return cellRec{}, false
		case t.aff[0] == affText:
			st = uint64(2*c0 + 13)
		case t.aff[0] == affBlob:
			st = uint64(2*c0 + 12)
		default:
			m := map[int64]uint64{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 8: 6}
			v, ok := m[c0]
			if !ok {
				return cellRec{}, false
			}
			st = v
		}
		types = append([]uint64{st}, types...)
		body += c0
		note = "record header length and the first column's type overwritten by the freeblock header; its size taken from the freeblock's"
		if t.Columns[0].IntegerPrimaryKey {
			note = "record header length overwritten by the freeblock header"
		}
	}
	p := int64(hl) + body
	if lp := varintLen(uint64(p)); lp+1 > hs-f {
		return cellRec{}, false
	}
	r, ok := c.finish(b, hs, end, p, hl, types, t, false, "")
	if !ok {
		return r, false
	}
	if lostTypes == 1 && !t.Columns[0].IntegerPrimaryKey {
		if r.end != end {
			return cellRec{}, false
		}
		r.Partial, r.Note = true, note
	}
	c.lostRowid(&r, b, f, f+4, hs)
	return r, true
}

// wholePage carves a page image that is no live page of the snapshot: a
// table leaf (its cells, then its free space), or anything else scanned
// whole.
func (c *carver) wholePage(b []byte, ti int, l loc) (err error) {
	defer func() {
		if v := recover(); v != nil {
			c.problem(l.page, fmt.Sprintf("page cannot be carved: %v", v))
			err = nil
		}
	}()
	h := 0
	if l.page == 1 && l.src != SrcFreelist && l.src != SrcOrphanPage {
		h = 100
	}
	if l.src == SrcFreelist && c.trunks[l.page] {
		n := int(binary.BigEndian.Uint32(b[4:]))
		lo := 8 + 4*min(max(n, 0), (c.usable-8)/4)
		return c.scan(b, lo, c.usable, ti, l)
	}
	switch b[h] {
	case 0x02, 0x0a:
		// an index page: its records repeat columns of table rows, and
		// read as a table's they mislead; not carved
		return nil
	case 0x05:
		// a table interior page: cells are child pointers, but the gap
		// may hold the leaf content it had before a split
		n := int(binary.BigEndian.Uint16(b[h+3:]))
		cs := int(binary.BigEndian.Uint16(b[h+5:]))
		if cs == 0 {
			cs = 65536
		}
		if h+12+2*n <= cs && cs <= c.usable {
			return c.scan(b, h+12+2*n, cs, -1, l)
		}
		return nil
	}
	if b[h] == 0x0d {
		n := int(binary.BigEndian.Uint16(b[h+3:]))
		if h+8+2*n <= c.usable {
			for i := 0; i < n; i++ {
				off := int(binary.BigEndian.Uint16(b[h+8+2*i:]))
				if r, ok := c.try(b, off, c.usable, ti); ok {
					if err := c.keep(r, l, off); err != nil {
						return err
					}
				}
			}
			return c.leafFree(b, ti, l)
		}
	}
	return c.scan(b, 0, c.usable, ti, l)
}

func empty(vs []any) bool {
	for _, v := range vs {
		switch x := v.(type) {
		case nil:
		case string:
			if x != "" {
				return false
			}
		case []byte:
			if len(x) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// trimRune drops a UTF-8 sequence cut at the end of b (a text value the
// page holds only the start of).
func trimRune(b []byte) []byte {
	for i := 0; i < 3 && len(b) > 0; i++ {
		c := b[len(b)-1-i]
		if c < 0x80 {
			return b
		}
		if c >= 0xc0 {
			return b[:len(b)-1-i]
		}
	}
	return b
}

func recordSize(vs []any) int64 {
	n := int64(0)
	for _, v := range vs {
		switch x := v.(type) {
		case string:
			n += int64(len(x))
		case []byte:
			n += int64(len(x))
		default:
			n += 8
		}
	}
	return n
}
