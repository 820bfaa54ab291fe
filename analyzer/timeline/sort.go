package timeline

import (
	"bufio"
	"container/heap"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"unsafe"
)

// Sorter orders values of any volume with bounded memory: it keeps up to
// MemLimit bytes of values in memory, spills sorted runs to files in Dir,
// and merges them. The zero value is not usable; use NewSorter or
// NewSorterOf.
type Sorter = SorterOf[Event]

// SorterOf sorts values of type T by less, estimating each one's memory
// with size.
type SorterOf[T any] struct {
	Dir      string // where runs are spilled (a private temp folder)
	MemLimit int64  // bytes of values held before a spill
	less     func(a, b *T) bool
	sizeOf   func(*T) int64
	buf      []T
	size     int64
	runs     []string
}

// NewSorter returns an event sorter (timeline order, Less) spilling into
// dir past memLimit bytes.
func NewSorter(dir string, memLimit int64) *Sorter {
	return NewSorterOf(dir, memLimit, Less, eventSize)
}

// NewSorterOf returns a sorter of T ordered by less.
func NewSorterOf[T any](dir string, memLimit int64, less func(a, b *T) bool, size func(*T) int64) *SorterOf[T] {
	if memLimit <= 0 {
		memLimit = 64 << 20
	}
	return &SorterOf[T]{Dir: dir, MemLimit: memLimit, less: less, sizeOf: size}
}

// Len reports how many values were added and not yet read.
func (s *SorterOf[T]) Len() int { return len(s.buf) + len(s.runs) }

// eventSize estimates the memory one buffered event holds: the struct (the
// buffer's slice holds it by value, and grows by doubling, so counted
// twice) and its strings.
func eventSize(e *Event) int64 {
	return 2*int64(unsafe.Sizeof(*e)) + int64(len(e.Text)+len(e.ToolInput)+len(e.SourceFile)+len(e.ProjectPath)+
		len(e.SessionID)+len(e.Host)+len(e.User)+len(e.Agent)+len(e.Model)+len(e.ToolName)+len(e.ToolUseID)+
		len(e.BundleID)+len(e.Parser)+len(e.IsError)+len(e.RecordID)+len(e.ParentSessionID)+len(e.Verified)+len(e.Action))
}

// Add takes one value.
func (s *SorterOf[T]) Add(e T) error {
	s.size += s.sizeOf(&e)
	s.buf = append(s.buf, e)
	if s.size >= s.MemLimit {
		return s.spill()
	}
	return nil
}

func (s *SorterOf[T]) sortBuf() {
	sort.SliceStable(s.buf, func(i, j int) bool { return s.less(&s.buf[i], &s.buf[j]) })
}

func (s *SorterOf[T]) spill() error {
	if len(s.buf) == 0 {
		return nil
	}
	s.sortBuf()
	f, err := os.CreateTemp(s.Dir, "run-*.gob")
	if err != nil {
		return fmt.Errorf("timeline: spill: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	enc := gob.NewEncoder(bw)
	for i := range s.buf {
		if err := enc.Encode(&s.buf[i]); err != nil {
			f.Close()
			return fmt.Errorf("timeline: spill: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("timeline: spill: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	s.runs = append(s.runs, f.Name())
	s.buf = s.buf[:0]
	s.size = 0
	return nil
}

type runReader[T any] struct {
	f   *os.File
	dec *gob.Decoder
	cur T
}

type runHeap[T any] struct {
	r    []*runReader[T]
	less func(a, b *T) bool
}

func (h *runHeap[T]) Len() int           { return len(h.r) }
func (h *runHeap[T]) Less(i, j int) bool { return h.less(&h.r[i].cur, &h.r[j].cur) }
func (h *runHeap[T]) Swap(i, j int)      { h.r[i], h.r[j] = h.r[j], h.r[i] }
func (h *runHeap[T]) Push(x any)         { h.r = append(h.r, x.(*runReader[T])) }
func (h *runHeap[T]) Pop() any {
	x := h.r[len(h.r)-1]
	h.r = h.r[:len(h.r)-1]
	return x
}

// Each calls fn with every value in order, then releases the sorter's
// files. fn must not keep the pointer.
func (s *SorterOf[T]) Each(fn func(*T) error) (err error) {
	defer func() {
		for _, r := range s.runs {
			os.Remove(r)
		}
		s.runs = nil
	}()
	if len(s.runs) == 0 {
		s.sortBuf()
		for i := range s.buf {
			if err := fn(&s.buf[i]); err != nil {
				return err
			}
		}
		s.buf = nil
		return nil
	}
	if err := s.spill(); err != nil {
		return err
	}
	h := &runHeap[T]{less: s.less}
	defer func() {
		for _, r := range h.r {
			r.f.Close()
		}
	}()
	for _, name := range s.runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		r := &runReader[T]{f: f, dec: gob.NewDecoder(bufio.NewReaderSize(f, 1<<20))}
		if err := r.dec.Decode(&r.cur); err != nil {
			f.Close()
			if errors.Is(err, io.EOF) {
				continue
			}
			return err
		}
		heap.Push(h, r)
	}
	var zero T
	for h.Len() > 0 {
		r := h.r[0]
		if err := fn(&r.cur); err != nil {
			return err
		}
		r.cur = zero
		if err := r.dec.Decode(&r.cur); err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			heap.Pop(h)
			r.f.Close()
			continue
		}
		heap.Fix(h, 0)
	}
	return nil
}
