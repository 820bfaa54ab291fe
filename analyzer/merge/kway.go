package merge

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"
	"os"

	"github.com/doubleagent/doubleagent/bundle"
)

// source is one shard's sorted sequence: the lines of a JSON Lines file,
// or the elements of one array of a JSON file.
type source interface {
	// next returns the next item's bytes as written; ok is false at the end.
	next() (b []byte, ok bool, err error)
	where() string // the file and item number, for errors
	close()
}

// lineSource reads a JSON Lines file a line at a time.
type lineSource struct {
	path string
	f    *os.File
	r    *bufio.Reader
	n    int64
}

func openLines(p string) (*lineSource, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	return &lineSource{path: p, f: f, r: bufio.NewReaderSize(f, 1<<16)}, nil
}

func (s *lineSource) where() string { return fmt.Sprintf("%s line %d", s.path, s.n) }
func (s *lineSource) close()        { s.f.Close() }

func (s *lineSource) next() ([]byte, bool, error) {
	for {
		b, rerr := s.r.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			s.n++
			if b[len(b)-1] != '\n' {
				return nil, false, fmt.Errorf("%s: the last line has no line ending (a cut file)", s.where())
			}
			return b, true, nil
		}
		if rerr == io.EOF {
			return nil, false, nil
		}
		if rerr != nil {
			return nil, false, fmt.Errorf("%s: %w", s.path, rerr)
		}
	}
}

// stream is a source with its current item decoded.
type stream[K any] struct {
	src  source
	idx  int // the shard's position on the command line: ties keep it
	item []byte
	key  K
}

func (s *stream[K]) advance(decode func([]byte) (K, error)) (bool, error) {
	b, ok, err := s.src.next()
	if err != nil || !ok {
		return false, err
	}
	k, err := decode(b)
	if err != nil {
		return false, fmt.Errorf("%s: %w", s.src.where(), err)
	}
	s.item, s.key = b, k
	return true, nil
}

type streamHeap[K any] struct {
	s    []*stream[K]
	less func(a, b K) bool
}

func (h *streamHeap[K]) Len() int { return len(h.s) }
func (h *streamHeap[K]) Less(i, j int) bool {
	a, b := h.s[i], h.s[j]
	if h.less(a.key, b.key) {
		return true
	}
	if h.less(b.key, a.key) {
		return false
	}
	return a.idx < b.idx
}
func (h *streamHeap[K]) Swap(i, j int) { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *streamHeap[K]) Push(x any)    { h.s = append(h.s, x.(*stream[K])) }
func (h *streamHeap[K]) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}

// mergeSources merges sorted sources (one per shard, in shard order) into
// emit, in the order less gives their decoded keys; equal keys keep shard
// order, and one source's items keep their order. Each item is handed to
// emit as read, so the output holds the shards' bytes. A source with an
// item that before says comes before the item above it is an error: it
// is not the output of a run. Every source is closed.
func mergeSources[K any](srcs []source, decode func([]byte) (K, error), less, before func(a, b K) bool, emit func(item []byte, k K) error) error {
	h := &streamHeap[K]{less: less}
	defer func() {
		for _, s := range h.s {
			s.src.close()
		}
	}()
	for i, src := range srcs {
		s := &stream[K]{src: src, idx: i}
		ok, err := s.advance(decode)
		if err != nil || !ok {
			src.close()
			if err != nil {
				for _, rest := range srcs[i+1:] {
					rest.close()
				}
				return err
			}
			continue
		}
		h.s = append(h.s, s)
	}
	heap.Init(h)
	for h.Len() > 0 {
		s := h.s[0]
		if err := emit(s.item, s.key); err != nil {
			return err
		}
		prev := s.key
		ok, err := s.advance(decode)
		if err != nil {
			return err
		}
		if !ok {
			s.src.close()
			heap.Pop(h)
			continue
		}
		if before(s.key, prev) {
			return fmt.Errorf("%s: out of order (not as a run sorts it): not the output of `doubleagent timeline`", s.src.where())
		}
		heap.Fix(h, 0)
	}
	return nil
}
