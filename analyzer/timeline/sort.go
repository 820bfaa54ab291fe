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

// Sorter orders events of any volume with bounded memory: it keeps up to
// MemLimit bytes of events in memory, spills sorted runs to files in Dir,
// and merges them. The zero value is not usable; use NewSorter.
type Sorter struct {
	Dir      string // where runs are spilled (a private temp folder)
	MemLimit int64  // bytes of event text held before a spill
	buf      []Event
	size     int64
	runs     []string
}

// NewSorter returns a sorter spilling into dir past memLimit bytes.
func NewSorter(dir string, memLimit int64) *Sorter {
	if memLimit <= 0 {
		memLimit = 64 << 20
	}
	return &Sorter{Dir: dir, MemLimit: memLimit}
}

// eventSize estimates the memory one buffered event holds: the struct (the
// buffer's slice holds it by value, and grows by doubling, so counted
// twice) and its strings.
func eventSize(e *Event) int64 {
	return 2*int64(unsafe.Sizeof(*e)) + int64(len(e.Text)+len(e.ToolInput)+len(e.SourceFile)+len(e.ProjectPath)+
		len(e.SessionID)+len(e.Host)+len(e.User)+len(e.Agent)+len(e.Model)+len(e.ToolName)+len(e.ToolUseID)+
		len(e.BundleID)+len(e.Parser)+len(e.IsError))
}

// Add takes one event.
func (s *Sorter) Add(e Event) error {
	s.size += eventSize(&e)
	s.buf = append(s.buf, e)
	if s.size >= s.MemLimit {
		return s.spill()
	}
	return nil
}

func (s *Sorter) sortBuf() {
	sort.SliceStable(s.buf, func(i, j int) bool { return Less(&s.buf[i], &s.buf[j]) })
}

func (s *Sorter) spill() error {
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

type runReader struct {
	f   *os.File
	dec *gob.Decoder
	cur Event
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return Less(&h[i].cur, &h[j].cur) }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Each calls fn with every event in order, then releases the sorter's
// files. fn must not keep the pointer.
func (s *Sorter) Each(fn func(*Event) error) (err error) {
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
	h := &runHeap{}
	defer func() {
		for _, r := range *h {
			r.f.Close()
		}
	}()
	for _, name := range s.runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		r := &runReader{f: f, dec: gob.NewDecoder(bufio.NewReaderSize(f, 1<<20))}
		if err := r.dec.Decode(&r.cur); err != nil {
			f.Close()
			if errors.Is(err, io.EOF) {
				continue
			}
			return err
		}
		heap.Push(h, r)
	}
	for h.Len() > 0 {
		r := (*h)[0]
		if err := fn(&r.cur); err != nil {
			return err
		}
		r.cur = Event{}
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
