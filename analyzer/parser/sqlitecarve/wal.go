package sqlitecarve

import (
	"encoding/binary"
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
	latest := map[uint32]int{}
	for i, f := range frames {
		if f.valid && i <= lastCommit && f.pgno != 0 {
			if j, ok := latest[f.pgno]; ok {
				frames[j].src = SrcWALOld
				w.Superseded++
			}
			latest[f.pgno] = i
			c.snap[f.pgno] = f.off
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
