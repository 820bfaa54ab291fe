package inputs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"os"
	"sort"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
)

// A bundle is read twice when some of its members are lazy. The first
// read (openBundle) is the one that decides everything, exactly as when
// every member was spooled: the member's hash, which copy of a duplicated
// name counts, the manifest's attribution, verified, cut short. It only
// leaves out of the spool the members one streamable parser reads
// (route.Streams), hashing them as it drains them. Stream then reads the
// bundle file a second time, from the file descriptor held since, and
// hands each lazy member to its parser as the reader reaches it: a small
// one read into memory first (so parses run in parallel, at most the
// parse stage's Jobs held), a big one read by the parser from the stream
// while the reader waits. Each member's bytes are hashed again and
// compared with the first read's hash; a member that differs is a
// checksum_mismatch problem (the file changed between the reads), and a
// small one is then not parsed at all.
//
// Nothing depends on a parser keeping its promise: a second Open of a
// lazy file, or another parser opening it by path (OpenRelated, DB, a
// listed file), spools every lazy member of the bundle in one more read
// (materialize) and reads from the spool as before.

// streamBuffer is the largest lazy member read into memory before it is
// parsed; a bigger one is parsed from the stream.
const streamBuffer = 4 << 20

// lazyState is a lazy file's content while the second read holds it.
type lazyState struct {
	buf    []byte    // a small member, read whole
	opens  int       // how many times buf was opened
	stream io.Reader // a big member at the reader, until opened once
	broken error     // why its bytes cannot be had
	// quick is the member's keyed hash (quickHash) from the first read,
	// which the second must match.
	quick string
}

// quickHash is the hash a lazy member's two reads are compared with: a
// keyed hash (hash/maphash, its seed drawn for each source and never
// shown), so a file changed between the reads cannot be made to match,
// at a fraction of SHA-256's cost; the member's SHA-256, the one the
// manifest names, is taken on the first read as for any member.
func (s *Source) quickHash() hash.Hash {
	var h maphash.Hash
	h.SetSeed(s.seed)
	return &h
}

// rereadOptions are the bundle's limits with the quick hash.
func (s *Source) rereadOptions() *bundle.Options {
	var o bundle.Options
	if s.limits != nil {
		o = *s.limits
	}
	o.MemberHash = s.quickHash
	return &o
}

// keepLazy keeps what the second read needs, when some file is lazy; f is
// the bundle file, kept open.
func (s *Source) keepLazy(f *os.File, limits *bundle.Options) {
	for _, r := range s.files {
		if r.lazy {
			s.lazyFiles = append(s.lazyFiles, r)
		}
	}
	if len(s.lazyFiles) == 0 {
		return
	}
	sort.Slice(s.lazyFiles, func(i, j int) bool { return s.lazyFiles[i].ord < s.lazyFiles[j].ord })
	s.bf, s.limits = f, limits
	s.free = make(chan []byte, 8)
}

// Lazy reports whether the source has files Stream must still read.
func (s *Source) Lazy() bool {
	s.lazyMu.Lock()
	defer s.lazyMu.Unlock()
	return len(s.lazyFiles) > 0 && !s.spooledAll
}

// Eager returns the source's files that are read from the spool or in
// place, the ones Files gives but Stream does not.
func (s *Source) Eager() []*File {
	var out []*File
	for _, r := range s.files {
		if !r.lazy {
			out = append(out, r)
		}
	}
	return out
}

// Route returns the parsers that read r (rt.For), computed once.
func (s *Source) Route(rt *Router, r *File) []parser.Parser {
	if !r.routed {
		r.routes, r.routed = rt.For(&r.File), true
	}
	return r.routes
}

// LateProblems returns the problems found after Open returned (by Stream
// or a read of a lazy file) and forgets them.
func (s *Source) LateProblems() []Problem {
	s.lazyMu.Lock()
	defer s.lazyMu.Unlock()
	ps := s.late
	s.late = nil
	return ps
}

func (s *Source) lateProblem(p Problem) {
	if p.Host == "" {
		p.Host = s.host
	}
	if p.BundleID == "" {
		p.BundleID = s.bundleID
	}
	if p.Input == "" {
		p.Input = s.input
	}
	s.late = append(s.late, p)
}

// reread is the problem of a member whose second read differs.
func (s *Source) reread(r *File, what string) {
	s.lateProblem(Problem{Kind: bundle.ProblemChecksum, SourceFile: r.Path, Agent: r.Agent,
		Message: fmt.Sprintf("member %s read again from the bundle file %s: the file changed while it was read", r.member, what)})
}

// Stream reads the bundle a second time and calls parse for each lazy
// file as the reader reaches it. With inline false, parse may return at
// once (the content is in memory until the file's ParserInput is done);
// with inline true the content is the stream itself, and parse must return
// only when every parse it started has ended. Files spooled meanwhile
// (materialize) are handed on with inline false.
func (s *Source) Stream(ctx context.Context, parse func(r *File, inline bool)) {
	if !s.Lazy() {
		for _, r := range s.lazyFiles {
			parse(r, false)
		}
		return
	}
	pending := s.lazyFiles
	fail := func(err error) {
		s.lazyMu.Lock()
		for _, r := range pending {
			if !r.spooled {
				r.lz.broken = err
			}
		}
		s.lazyMu.Unlock()
		for _, r := range pending {
			parse(r, false)
		}
	}
	br, err := bundle.Open(io.NewSectionReader(s.bf, 0, 1<<62), s.rereadOptions())
	if err != nil {
		s.lazyMu.Lock()
		s.lateProblem(Problem{Kind: bundle.ProblemChecksum, Message: "the bundle file could not be read a second time: " + err.Error()})
		s.lazyMu.Unlock()
		fail(fmt.Errorf("the bundle file could not be read a second time: %w", err))
		return
	}
	ord := 0
	for len(pending) > 0 {
		if ctx.Err() != nil {
			return
		}
		m, err := br.Next()
		if err != nil {
			s.lazyMu.Lock()
			s.lateProblem(Problem{Kind: bundle.ProblemChecksum, SourceFile: pending[0].Path, Message: fmt.Sprintf("the bundle file ended before member %s when read a second time: it changed while it was read", pending[0].member)})
			s.lazyMu.Unlock()
			fail(errors.New("the bundle file changed while it was read"))
			return
		}
		ord++
		r := pending[0]
		if ord < r.ord {
			continue
		}
		pending = pending[1:]
		s.lazyMu.Lock()
		if r.spooled {
			s.lazyMu.Unlock()
			parse(r, false)
			continue
		}
		if m.Name != r.member {
			s.reread(r, fmt.Sprintf("was %s at its place", m.Name))
			r.lz.broken = errors.New("the bundle file changed while it was read")
			s.lazyMu.Unlock()
			parse(r, false)
			continue
		}
		if r.n <= streamBuffer {
			s.lazyMu.Unlock()
			buf := s.buffer(r.n)
			_, err := io.ReadFull(m, buf)
			if err == nil {
				_, err = io.Copy(io.Discard, m)
			}
			s.lazyMu.Lock()
			if r.spooled {
				// spooled meanwhile
			} else if err != nil || m.Sum() != r.lz.quick {
				s.reread(r, "gave other bytes")
				r.lz.broken = errors.New("the bundle file changed while it was read")
			} else {
				r.lz.buf = buf
			}
			s.lazyMu.Unlock()
			parse(r, false)
			continue
		}
		r.lz.stream = m
		s.lazyMu.Unlock()
		parse(r, true)
		s.lazyMu.Lock()
		r.lz.stream = nil
		s.lazyMu.Unlock()
		_, err = io.Copy(io.Discard, m)
		if err != nil || m.Sum() != r.lz.quick {
			s.lazyMu.Lock()
			s.reread(r, "gave other bytes than the ones its rows were parsed from")
			s.lazyMu.Unlock()
		}
	}
}

// openLazy opens a lazy file's content: in memory, the stream (once), or
// the spool, spooling every lazy member first when it is none of these.
func (s *Source) openLazy(r *File) (io.ReadCloser, error) {
	s.lazyMu.Lock()
	defer s.lazyMu.Unlock()
	switch {
	case r.spooled:
	case r.lz.broken != nil:
		return nil, r.lz.broken
	case r.lz.buf != nil:
		r.lz.opens++
		return io.NopCloser(bytes.NewReader(r.lz.buf)), nil
	case r.lz.stream != nil:
		st := r.lz.stream
		r.lz.stream = nil
		return io.NopCloser(st), nil
	default:
		if err := s.materialize(); err != nil {
			return nil, err
		}
		if !r.spooled {
			if r.lz.broken != nil {
				return nil, r.lz.broken
			}
			return nil, errors.New("the bundle file changed while it was read")
		}
	}
	return io.NopCloser(io.NewSectionReader(s.spool, r.off, r.n)), nil
}

// parsedLazy drops a small lazy member's bytes once its parse is done.
func (s *Source) parsedLazy(r *File) {
	s.lazyMu.Lock()
	if r.lz.buf != nil && r.lz.opens <= 1 {
		// Read by its one parse only (a second reader may still hold it
		// otherwise): its memory serves the next member.
		select {
		case s.free <- r.lz.buf[:0]:
		default:
		}
	}
	r.lz.buf = nil
	s.lazyMu.Unlock()
}

// buffer returns n bytes for a small lazy member, reusing the memory of a
// member parsed already.
func (s *Source) buffer(n int64) []byte {
	select {
	case b := <-s.free:
		if int64(cap(b)) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n, max(n, 256<<10))
}

// materialize spools every lazy member not spooled yet, in one more read
// of the bundle file; called with lazyMu held. A member whose bytes differ
// from the first read's is left out, with a problem.
func (s *Source) materialize() error {
	if s.spooledAll {
		return nil
	}
	s.spooledAll = true
	br, err := bundle.Open(io.NewSectionReader(s.bf, 0, 1<<62), s.rereadOptions())
	if err != nil {
		return fmt.Errorf("the bundle file could not be read again: %w", err)
	}
	ord := 0
	for _, r := range s.lazyFiles {
		if r.spooled {
			continue
		}
		var m *bundle.Member
		for ord < r.ord {
			if m, err = br.Next(); err != nil {
				s.lateProblem(Problem{Kind: bundle.ProblemChecksum, SourceFile: r.Path, Message: fmt.Sprintf("the bundle file ended before member %s when read again: it changed while it was read", r.member)})
				return nil
			}
			ord++
		}
		if m.Name != r.member {
			s.reread(r, fmt.Sprintf("was %s at its place", m.Name))
			continue
		}
		off, n, err := s.sw.copy(m)
		if err == nil {
			err = s.sw.flush()
		}
		if err != nil {
			return fmt.Errorf("spool %s: %w", r.Path, err)
		}
		if m.Sum() != r.lz.quick {
			s.reread(r, "gave other bytes")
			continue
		}
		r.spooled, r.off, r.n = true, off, n
	}
	return nil
}

// RouteFunc is rt.For for the parse stage, with each of the source's files
// routed once (Route).
func (s *Source) RouteFunc(rt *Router) func(*parser.File) []parser.Parser {
	return func(m *parser.File) []parser.Parser {
		if r := s.byPath[m.Path]; r != nil && &r.File == m {
			return s.Route(rt, r)
		}
		return rt.For(m)
	}
}
