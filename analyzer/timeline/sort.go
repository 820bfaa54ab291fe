package timeline

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"unsafe"
)

// Sorter orders values of any volume with bounded memory: it keeps up to
// MemLimit bytes of values in memory, spills sorted runs to files in Dir,
// and merges them. The zero value is not usable; use NewSorter or
// NewSorterOf.
type Sorter = SorterOf[Event]

// Codec writes and reads one value of a spilled run. Values are framed by
// the sorter (a length before each), so Decode gets exactly the bytes
// Append wrote.
type Codec[T any] struct {
	Append func(buf []byte, v *T) []byte
	Decode func(b []byte, v *T) error
	// WriteFramed, when set, writes one value with its length frame
	// straight to w (no record-sized buffer); DecodeOwned, when set,
	// decodes b keeping it as the strings' memory (b is never reused).
	// Both keep a long row (a 50 MB tool output) from being held twice.
	WriteFramed func(w *bufio.Writer, v *T) error
	DecodeOwned func(b []byte, v *T) error
	// Reuse says Decode sets every field of v and may keep a string v
	// already holds when the bytes are the same: a run's reader then
	// hands it the run's previous value rather than a zero one, so the
	// host, user, file and session strings that repeat record after
	// record are not allocated again.
	Reuse bool
}

// SorterOf sorts values of type T by less, estimating each one's memory
// with size. Values are held in fixed chunks (never copied as the buffer
// grows), sorted through an index of positions (never moved while
// sorting), and spilled through a Codec (gob when none is given).
type SorterOf[T any] struct {
	Dir      string // where runs are spilled (a private temp folder)
	MemLimit int64  // bytes of values held before a spill
	less     func(a, b *T) bool
	sizeOf   func(*T) int64
	codec    *Codec[T]
	chunks   [][]T
	free     [][]T // chunks of spilled batches, for reuse
	n        int
	size     int64
	runs     []string
}

const chunkLen = 1024

// NewSorter returns an event sorter (timeline order, Less) spilling into
// dir past memLimit bytes, with the event codec.
func NewSorter(dir string, memLimit int64) *Sorter {
	s := NewSorterOf(dir, memLimit, Less, eventSize)
	s.codec = &Codec[Event]{Append: AppendEventBinary, Decode: DecodeEventBinary, WriteFramed: WriteEventFramed, DecodeOwned: DecodeEventOwned}
	return s
}

// NewSorterOf returns a sorter of T ordered by less. A memLimit of 0 or
// less takes TargetBudget.
func NewSorterOf[T any](dir string, memLimit int64, less func(a, b *T) bool, size func(*T) int64) *SorterOf[T] {
	if memLimit <= 0 {
		memLimit = TargetBudget()
	}
	return &SorterOf[T]{Dir: dir, MemLimit: memLimit, less: less, sizeOf: size}
}

// TargetBudget is the budget of a sorter given none: a 24th of the
// process's soft memory target (GOMEMLIMIT, or debug.SetMemoryLimit: the
// analyzer's command line sets 192 MiB unless GOMEMLIMIT is set, so 8 MiB),
// between 8 MiB and 1 GiB; 8 MiB when no target is set. The rest of the
// target is for the other sorters, the sessions and findings state, the
// lines being parsed (a long line and its text) and the runtime, and the
// garbage collector lets the heap reach about twice what is live. A
// quarter (48 MiB) bought no CPU on 328 MB of Claude Code transcripts
// (75,605 rows, 4 runs alternated: 6.2 s either way) and cost 40 MB of
// peak RSS (133-137 MB against 90-93 MB): the rows a run holds past what
// fits are spilled and merged, which is cheap next to parsing them. A
// twelfth (16 MiB) held the parse stage's live heap at 27-31 MB on the
// same input, the largest of the run, and peak RSS at 88-95 MB; at 8 MiB it
// is 21-22 MB and 69-76 MB, the CPU unchanged (BENCHMARKS.md, branch mem).
func TargetBudget() int64 {
	lim := debug.SetMemoryLimit(-1)
	if lim <= 0 || lim == math.MaxInt64 {
		return 8 << 20
	}
	return min(max(lim/24, 8<<20), 1<<30)
}

// WithCodec sets the codec runs are spilled with.
func (s *SorterOf[T]) WithCodec(c Codec[T]) *SorterOf[T] {
	s.codec = &c
	return s
}

// Len reports how many values are held in memory and how many runs were
// spilled.
func (s *SorterOf[T]) Len() int { return s.n + len(s.runs) }

// eventSize estimates the memory one buffered event holds: the struct
// and its strings.
func eventSize(e *Event) int64 {
	return int64(unsafe.Sizeof(*e)) + 4 + int64(len(e.Text)+len(e.ToolInput)+len(e.SourceFile)+len(e.ProjectPath)+
		len(e.SessionID)+len(e.Host)+len(e.User)+len(e.Agent)+len(e.Model)+len(e.ToolName)+len(e.ToolUseID)+
		len(e.BundleID)+len(e.Parser)+len(e.IsError)+len(e.RecordID)+len(e.ParentSessionID)+len(e.Verified)+len(e.Action)+len(e.Recovered)+len(e.Provenance))
}

func (s *SorterOf[T]) at(i int32) *T { return &s.chunks[i/chunkLen][i%chunkLen] }

// Add takes one value, spilling when the budget is reached.
func (s *SorterOf[T]) Add(e T) error {
	s.AddHeld(e)
	if s.Full() {
		return s.spill()
	}
	return nil
}

// Batch is a sorter's held values taken out to be spilled by the caller
// outside its lock (TakeFull, then Spill, then PutRun).
type Batch[T any] struct {
	s      *SorterOf[T]
	chunks [][]T
	n      int
	run    string
	err    error
}

// Full reports whether the held values reached the memory budget.
func (s *SorterOf[T]) Full() bool { return s.size >= s.MemLimit }

// AddHeld takes one value without spilling; the caller checks Full and
// spills through TakeFull. Add spills itself.
func (s *SorterOf[T]) AddHeld(e T) {
	if s.n == len(s.chunks)*chunkLen {
		if k := len(s.free); k > 0 {
			s.chunks, s.free = append(s.chunks, s.free[k-1]), s.free[:k-1]
		} else {
			s.chunks = append(s.chunks, make([]T, chunkLen))
		}
	}
	p := s.at(int32(s.n))
	*p = e
	s.n++
	// Sized from its place in the chunk: &e handed to sizeOf (a func
	// value) moved every value added to the heap (an Event a row).
	s.size += s.sizeOf(p)
}

// TakeFull hands the held values over as a Batch and starts empty.
func (s *SorterOf[T]) TakeFull() *Batch[T] {
	b := &Batch[T]{s: s, chunks: s.chunks, n: s.n}
	s.chunks, s.n, s.size = nil, 0, 0
	return b
}

// Spill sorts the batch and writes it as a run; safe to call without the
// lock that guards the sorter (it touches only the batch).
func (b *Batch[T]) Spill() {
	v := &SorterOf[T]{Dir: b.s.Dir, less: b.s.less, codec: b.s.codec, chunks: b.chunks, n: b.n}
	b.run, b.err = v.writeSorted()
	v.reset()
}

// PutRun records the batch's run in its sorter (under the caller's lock)
// and keeps its chunks for reuse.
func (b *Batch[T]) PutRun() error {
	if b.err != nil {
		return b.err
	}
	b.s.runs = append(b.s.runs, b.run)
	if len(b.s.free) < 64 {
		b.s.free = append(b.s.free, b.chunks...)
	}
	return nil
}

// order returns the positions of the held values in sorted order (stable).
func (s *SorterOf[T]) order() []int32 {
	idx := make([]int32, s.n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		x, y := s.at(a), s.at(b)
		switch {
		case s.less(x, y):
			return -1
		case s.less(y, x):
			return 1
		}
		return 0
	})
	return idx
}

// reset forgets the held values, keeping the chunks for reuse.
func (s *SorterOf[T]) reset() {
	var zero T
	for i := 0; i < s.n; i++ {
		*s.at(int32(i)) = zero // drop references (strings) for the GC
	}
	s.n, s.size = 0, 0
}

func (s *SorterOf[T]) spill() error {
	if s.n == 0 {
		return nil
	}
	name, err := s.writeSorted()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, name)
	s.reset()
	return nil
}

// mergeBuf is the most a run's read buffer holds in the merge.
const mergeBuf = 128 << 10

// spillWriters are the runs' 1 MiB write buffers, kept from spill to
// spill (a run's own was 10 MB of the allocations on 328 MB of input).
var spillWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 1<<20) }}

// writeSorted writes the held values, sorted, as a new run file.
func (s *SorterOf[T]) writeSorted() (string, error) {
	idx := s.order()
	f, err := os.CreateTemp(s.Dir, "run-*")
	if err != nil {
		return "", fmt.Errorf("timeline: spill: %w", err)
	}
	bw := spillWriters.Get().(*bufio.Writer)
	bw.Reset(f)
	defer func() {
		bw.Reset(nil)
		spillWriters.Put(bw)
	}()
	if err := s.writeRun(bw, idx); err != nil {
		f.Close()
		return "", fmt.Errorf("timeline: spill: %w", err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return "", fmt.Errorf("timeline: spill: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

func (s *SorterOf[T]) writeRun(w *bufio.Writer, idx []int32) error {
	if s.codec == nil {
		enc := gob.NewEncoder(w)
		for _, i := range idx {
			if err := enc.Encode(s.at(i)); err != nil {
				return err
			}
		}
		return nil
	}
	if s.codec.WriteFramed != nil {
		for _, i := range idx {
			if err := s.codec.WriteFramed(w, s.at(i)); err != nil {
				return err
			}
		}
		return nil
	}
	var buf []byte
	var hdr [binary.MaxVarintLen64]byte
	for _, i := range idx {
		buf = s.codec.Append(buf[:0], s.at(i))
		n := binary.PutUvarint(hdr[:], uint64(len(buf)))
		if _, err := w.Write(hdr[:n]); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		if cap(buf) > 1<<20 {
			buf = nil // a long row's buffer is not kept
		}
	}
	return nil
}

// runReader reads one spilled run.
type runReader[T any] struct {
	f     *os.File
	br    *bufio.Reader
	dec   *gob.Decoder
	codec *Codec[T]
	buf   []byte
	cur   T
}

func (r *runReader[T]) next() error {
	if r.codec == nil || !r.codec.Reuse {
		var zero T
		r.cur = zero
	}
	if r.codec == nil {
		return r.dec.Decode(&r.cur)
	}
	n, err := binary.ReadUvarint(r.br)
	if err != nil {
		return err
	}
	if n > 1<<20 && r.codec.DecodeOwned != nil {
		// A long record: read into memory of its own that its strings
		// keep, rather than into the buffer and then a copy. Past 16 MiB
		// the garbage is collected first, so the memory the record's
		// earlier copies left (its line, its text before the spill) is
		// reused, not added to.
		if n > 16<<20 {
			runtime.GC()
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r.br, b); err != nil {
			return io.ErrUnexpectedEOF
		}
		return r.codec.DecodeOwned(b, &r.cur)
	}
	if uint64(cap(r.buf)) < n {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.br, r.buf); err != nil {
		return io.ErrUnexpectedEOF
	}
	err = r.codec.Decode(r.buf, &r.cur)
	if cap(r.buf) > 1<<20 {
		r.buf = nil
	}
	return err
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
// memory and files. fn must not keep the pointer.
func (s *SorterOf[T]) Each(fn func(*T) error) (err error) {
	defer func() {
		for _, r := range s.runs {
			os.Remove(r)
		}
		s.runs = nil
		s.chunks, s.free, s.n, s.size = nil, nil, 0, 0
	}()
	if len(s.runs) == 0 {
		for _, i := range s.order() {
			if err := fn(s.at(i)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := s.spill(); err != nil {
		return err
	}
	s.chunks, s.free = nil, nil // every value is in a run now
	h := &runHeap[T]{less: s.less}
	defer func() {
		for _, r := range h.r {
			r.f.Close()
		}
	}()
	// The runs' read buffers share the memory budget, so a big input's
	// many runs do not grow the merge's memory, and each is at most
	// mergeBuf: the runs are read front to back from the page cache, where
	// a bigger buffer saves no time and its memory stays live through the
	// whole output pass.
	bufSize := int(min(max(s.MemLimit/int64(len(s.runs)), 32<<10), mergeBuf))
	for _, name := range s.runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		r := &runReader[T]{f: f, br: bufio.NewReaderSize(f, bufSize), codec: s.codec}
		if s.codec == nil {
			r.dec = gob.NewDecoder(r.br)
		}
		if err := r.next(); err != nil {
			f.Close()
			if errors.Is(err, io.EOF) {
				continue
			}
			return err
		}
		heap.Push(h, r)
	}
	for h.Len() > 0 {
		r := h.r[0]
		if err := fn(&r.cur); err != nil {
			return err
		}
		if err := r.next(); err != nil {
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
