package merge

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/doubleagent/doubleagent/bundle"
)

// DefaultFanIn bounds how many files a merge has open (and buffered) at
// once: with more shards than this, groups of DefaultFanIn consecutive
// shards are merged first into framed files in a temporary folder inside
// the output folder, and the groups then merged (a tree of merges, each
// at most DefaultFanIn wide). The merge's memory for reading is then
// DefaultFanIn read buffers (64 KiB each) and current items, whatever the
// number of shards, and it needs no ulimit -n above the shard count.
// Options.FanIn sets another.
const DefaultFanIn = 64

// opener opens one sorted source when the merge reaches it.
type opener func() (source, error)

// spill is the temporary folder of a merge's intermediate files: inside
// the output folder (nothing is written outside it), removed when the
// merge ends.
type spill struct {
	parent string
	dir    string
	n      int
	fanIn  int // sources merged at once
}

func (s *spill) create() (*os.File, string, error) {
	if s.dir == "" {
		d, err := os.MkdirTemp(s.parent, ".merge-spill-")
		if err != nil {
			return nil, "", err
		}
		s.dir = d
	}
	s.n++
	p := filepath.Join(s.dir, fmt.Sprintf("%06d.frames", s.n))
	f, err := bundle.CreateNew(p, 0o600)
	return f, p, err
}

// remove deletes the intermediate files.
func (s *spill) remove() error {
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
	return err
}

// reduce merges groups of sp.fanIn consecutive sources into framed
// intermediate files until at most sp.fanIn remain, and returns the
// openers of what remains. Merging consecutive groups first gives the
// bytes one merge of every source gives: mergeSources emits equal keys in
// source order, so a group's items of one key come out together in its
// sources' order, and the groups are in source order. (A shard's timeline
// is sorted by time to the millisecond and then by time to the nanosecond,
// which the rows do not show, not by rowLess; mergeSources then emits a
// source's run of rows whose key is not above the run's first together,
// keyed by the first, and a merged group is made of such runs in key
// order, so merging it again keeps them.) Every original source is read
// in the first round, so an error names the shard's file.
func reduce[K any](opens []opener, sp *spill, decode func([]byte) (K, error), less, before func(a, b K) bool) ([]opener, error) {
	for len(opens) > sp.fanIn {
		var next []opener
		for i := 0; i < len(opens); i += sp.fanIn {
			group := opens[i:min(i+sp.fanIn, len(opens))]
			if len(group) == 1 {
				next = append(next, group[0])
				continue
			}
			p, err := mergeToFrames(group, sp, decode, less, before)
			if err != nil {
				return nil, err
			}
			next = append(next, func() (source, error) { return openFrames(p) })
		}
		opens = next
	}
	return opens, nil
}

// openAll opens every source, closing those opened when one fails.
func openAll(opens []opener) ([]source, error) {
	srcs := make([]source, 0, len(opens))
	for _, op := range opens {
		s, err := op()
		if err != nil {
			for _, o := range srcs {
				o.close()
			}
			return nil, err
		}
		srcs = append(srcs, s)
	}
	return srcs, nil
}

// mergeToFrames merges the group into one framed intermediate file.
func mergeToFrames[K any](group []opener, sp *spill, decode func([]byte) (K, error), less, before func(a, b K) bool) (string, error) {
	srcs, err := openAll(group)
	if err != nil {
		return "", err
	}
	f, p, err := sp.create()
	if err != nil {
		for _, o := range srcs {
			o.close()
		}
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	var num []byte
	err = mergeSources(srcs, decode, less, before, func(item []byte, _ K) error {
		num = strconv.AppendInt(num[:0], int64(len(item)), 10)
		num = append(num, '\n')
		if _, err := w.Write(num); err != nil {
			return err
		}
		_, err := w.Write(item)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return p, err
}

// frameSource reads an intermediate file: each item as its length in
// decimal and a newline, then its bytes.
type frameSource struct {
	path string
	f    *os.File
	r    *bufio.Reader
	n    int
}

func openFrames(p string) (*frameSource, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	return &frameSource{path: p, f: f, r: bufio.NewReaderSize(f, 1<<16)}, nil
}

func (s *frameSource) where() string { return fmt.Sprintf("%s item %d (intermediate)", s.path, s.n) }
func (s *frameSource) close()        { s.f.Close() }

func (s *frameSource) next() ([]byte, bool, error) {
	head, err := s.r.ReadSlice('\n')
	if err == io.EOF && len(head) == 0 {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.where(), err)
	}
	n, err := strconv.Atoi(string(head[:len(head)-1]))
	if err != nil || n < 0 {
		return nil, false, fmt.Errorf("%s: bad frame length %q", s.where(), head)
	}
	// A new slice per item: the heap holds the item while the next is read.
	b := make([]byte, n)
	if _, err := io.ReadFull(s.r, b); err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.where(), err)
	}
	s.n++
	return b, true, nil
}
