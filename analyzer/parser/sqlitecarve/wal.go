package sqlitecarve

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// walChecksum continues SQLite's WAL checksum (fileformat2 section 4.1)
// over b (a multiple of 8 bytes), reading words in the byte order the
// WAL's magic names.
func walChecksum(s0, s1 uint32, b []byte, big bool) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		var x0, x1 uint32
		if big {
			x0, x1 = binary.BigEndian.Uint32(b[i:]), binary.BigEndian.Uint32(b[i+4:])
		} else {
			x0, x1 = binary.LittleEndian.Uint32(b[i:]), binary.LittleEndian.Uint32(b[i+4:])
		}
		s0 += x0 + s1
		s1 += x1 + s0
	}
	return s0, s1
}

// readWAL reads the WAL's header and frames: the frames up to the last
// valid commit are the snapshot (the latest of each page is read as the
// database's page); every other frame (a committed frame a later one
// replaced, frames after the last commit, frames of other salts or with a
// broken checksum chain) is kept for carving. SQLite reads a WAL the
// same way: a frame is valid when its salts are the header's and the
// checksum chain holds from the header through it.
func (c *carver) readWAL(wal io.ReaderAt, size int64) {
	w := &c.res.WAL
	w.Present = true
	h := make([]byte, 32)
	if n, _ := wal.ReadAt(h, 0); n < 32 {
		c.problem(0, fmt.Sprintf("WAL of %d bytes has no header", size))
		return
	}
	magic := binary.BigEndian.Uint32(h)
	big := magic == 0x377f0683
	ps := int(binary.BigEndian.Uint32(h[8:]))
	if magic&^1 != 0x377f0682 || ps != c.pageSize {
		c.problem(0, fmt.Sprintf("WAL header is not valid (magic %08x, page size %d, database page size %d): its frames are not read", magic, ps, c.pageSize))
		return
	}
	w.PageSize = ps
	w.CheckpointSeq = binary.BigEndian.Uint32(h[12:])
	w.Salt1, w.Salt2 = binary.BigEndian.Uint32(h[16:]), binary.BigEndian.Uint32(h[20:])
	s0, s1 := walChecksum(0, 0, h[:24], big)
	w.HeaderValid = s0 == binary.BigEndian.Uint32(h[24:]) && s1 == binary.BigEndian.Uint32(h[28:])
	c.wal = wal
	fsz := int64(24 + ps)
	w.Frames = int((size - 32) / fsz)
	if w.Frames > c.opt.MaxPages {
		c.problem(0, fmt.Sprintf("WAL has %d frames: only the first %d are read", w.Frames, c.opt.MaxPages))
		w.Frames = c.opt.MaxPages
	}
	type fr struct {
		frame
		valid  bool
		commit uint32
	}
	frames := make([]fr, 0, w.Frames)
	fh := make([]byte, 24)
	data := make([]byte, ps)
	chain := w.HeaderValid
	lastCommit := -1
	var dbSize uint32
	other := map[string]bool{}
	for i := 0; i < w.Frames; i++ {
		off := 32 + int64(i)*fsz
		if n, _ := wal.ReadAt(fh, off); n < 24 {
			break
		}
		if n, _ := wal.ReadAt(data, off+24); n < ps {
			break
		}
		f := fr{frame: frame{no: i + 1, pgno: binary.BigEndian.Uint32(fh), off: off + 24,
			salt1: binary.BigEndian.Uint32(fh[8:]), salt2: binary.BigEndian.Uint32(fh[12:])}, commit: binary.BigEndian.Uint32(fh[4:])}
		if f.salt1 != w.Salt1 || f.salt2 != w.Salt2 {
			chain = false
			f.src = SrcWALOldSalt
			w.OldSalt++
			if k := fmt.Sprintf("%08x/%08x", f.salt1, f.salt2); !other[k] {
				other[k] = true
				w.OtherSalts = append(w.OtherSalts, k)
			}
		} else if chain {
			s0, s1 = walChecksum(s0, s1, fh[:8], big)
			s0, s1 = walChecksum(s0, s1, data, big)
			if s0 == binary.BigEndian.Uint32(fh[16:]) && s1 == binary.BigEndian.Uint32(fh[20:]) {
				f.valid = true
				if f.commit != 0 {
					lastCommit, dbSize = i, f.commit
				}
			} else {
				chain = false
				f.src = SrcWALBadSum
				w.BadChecksum++
			}
		} else {
			f.src = SrcWALBadSum
			w.BadChecksum++
		}
		if f.pgno == 0 {
			f.src = SrcWALBadSum
		}
		frames = append(frames, f)
	}
	c.snap = map[uint32]int64{}
	c.snapFrame = map[uint32]int{}
	latest := map[uint32]int{}
	for i, f := range frames {
		if f.valid && i <= lastCommit && f.pgno != 0 {
			if j, ok := latest[f.pgno]; ok {
				frames[j].src = SrcWALOld
				w.Superseded++
			}
			latest[f.pgno] = i
			c.snap[f.pgno] = f.off
			c.snapFrame[f.pgno] = f.no
			w.Committed++
		} else if f.valid {
			frames[i].src = SrcWALUncommit
			w.Uncommitted++
		}
	}
	if dbSize > 0 {
		c.nPages = dbSize
	}
	for p := range c.snap {
		if p > c.nPages {
			delete(c.snap, p)
		}
	}
	for _, f := range frames {
		if f.src != "" && f.pgno != 0 {
			c.stale = append(c.stale, f.frame)
		}
	}
	sort.SliceStable(c.stale, func(i, j int) bool { return c.stale[i].no < c.stale[j].no })
	c.res.Pages = int(c.nPages)
}

// walImage is the database file a WAL alone gives: each page the WAL
// holds, from the last frame of the header's salts that names it (the
// carver's own reading of the WAL then decides which frames are the
// committed state); zeros for every other page (the database file's
// pages, gone with it).
type walImage struct {
	wal  io.ReaderAt
	ps   int64
	page map[uint32]int64
	size int64
}

func (w *walImage) ReadAt(b []byte, off int64) (int, error) {
	if off >= w.size {
		return 0, io.EOF
	}
	n := len(b)
	if int64(n) > w.size-off {
		n = int(w.size - off)
	}
	for i := 0; i < n; {
		pg := uint32(off/w.ps) + 1
		in := off % w.ps
		k := min(int64(n-i), w.ps-in)
		if fo, ok := w.page[pg]; ok {
			if m, _ := w.wal.ReadAt(b[i:i+int(k)], fo+in); m < int(k) {
				clear(b[i+m : i+int(k)])
			}
		} else {
			clear(b[i : i+int(k)])
		}
		i += int(k)
		off += k
	}
	var err error
	if n < len(b) {
		err = io.EOF
	}
	return n, err
}

// OrphanImage returns the database image a WAL whose database file is
// gone gives (see walImage) and its size, for reading its schema; an
// error when the WAL has no valid header or no frame of page 1 (without
// page 1 neither the page size nor the schema is known).
func OrphanImage(wal io.ReaderAt, walSize int64) (io.ReaderAt, int64, error) {
	h := make([]byte, 32)
	if n, _ := wal.ReadAt(h, 0); n < 32 {
		return nil, 0, fmt.Errorf("WAL of %d bytes has no header", walSize)
	}
	magic := binary.BigEndian.Uint32(h)
	ps := int64(binary.BigEndian.Uint32(h[8:]))
	if magic&^1 != 0x377f0682 || ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return nil, 0, fmt.Errorf("WAL header is not valid (magic %08x, page size %d)", magic, ps)
	}
	salt1, salt2 := binary.BigEndian.Uint32(h[16:]), binary.BigEndian.Uint32(h[20:])
	img := &walImage{wal: wal, ps: ps, page: map[uint32]int64{}}
	fh := make([]byte, 24)
	var maxPage uint32
	for off := int64(32); off+24+ps <= walSize; off += 24 + ps {
		if n, _ := wal.ReadAt(fh, off); n < 24 {
			break
		}
		pg := binary.BigEndian.Uint32(fh)
		if pg == 0 || binary.BigEndian.Uint32(fh[8:]) != salt1 || binary.BigEndian.Uint32(fh[12:]) != salt2 {
			continue
		}
		img.page[pg] = off + 24
		maxPage = max(maxPage, pg)
	}
	if _, ok := img.page[1]; !ok {
		return nil, 0, errors.New("the WAL holds no frame of page 1 (the database header and the schema's root): its page size and schema are unknown, so its records are not decoded")
	}
	img.size = int64(maxPage) * ps // pages past it were only in the database file: none is read
	return img, img.size, nil
}

// CarveOrphanWAL recovers the records of a WAL whose database file is
// gone (SQLite discards such a WAL): the database image is rebuilt from
// the WAL's frames (OrphanImage; pages it does not hold read as zeros
// and are named as problems where a b-tree needs them), and every record
// of it is returned: those of the committed frames as SrcWALOrphan,
// those of the other frames (superseded, after the last commit, other
// salts, broken checksum) under their own sources, a copy of a record
// returned before counted in Copies. tables is the schema, read from the
// image (Schema over a file of its bytes).
func CarveOrphanWAL(ctx context.Context, wal io.ReaderAt, walSize int64, tables []Table, opt Options) (*Result, error) {
	img, size, err := OrphanImage(wal, walSize)
	if err != nil {
		return nil, err
	}
	opt.orphan = true
	return Carve(ctx, img, size, wal, walSize, tables, opt)
}
