package inputs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
)

// A bundle member one streamable parser reads (route.Streams) is parsed as
// the reader reaches it, not spooled: a member of up to streamBuffer bytes
// is read into memory and parsed beside the reading (at most the parse
// stage's Jobs at once), a bigger one is parsed from the stream while the
// reader waits. Its rows go to the store as they come, stamped with its
// file as the PAX records say it and with a verdict token in place of
// verified (Verdicts), which the output pass replaces once the manifest,
// read last, has decided it.
//
// That is the speculation: when the manifest is read, each such member
// must have been parsed exactly as it would have been from the spool: one
// member under its name, kept (status collected, wanted, first under its
// path), and attributed by the manifest as its PAX records said (the
// mtime apart, which a streamable parser does not read). A member cut by
// the end of the stream while its parser read it, or opened a second time
// while it was read, fails it too. A failed speculation is reported to the
// caller (Speculation.Failed), which must then read the bundle again with
// every member spooled (the rows it handed on are already mixed with
// others'): the engine runs the whole analysis again so, and a bad bundle
// gives the same rows and problem rows as it did spooled.
//
// After openBundle, a lazy member is not in the spool: a later open (a
// second parser, OpenRelated, DB) spools every lazy member in one more
// read of the bundle file, from the descriptor held since, each checked
// against its SHA-256 from the first read (materialize).

// streamBuffer is the largest lazy member read into memory before it is
// parsed; a bigger one is parsed from the stream.
const streamBuffer = 4 << 20

// Speculation is what openBundle needs to parse lazy members as it reads
// them (OpenParsing).
type Speculation struct {
	// Parse starts parsing f of s; with wait it returns only when the
	// parse has ended (f's content is then the stream itself).
	Parse func(s *Source, f *File, wait bool)
	// Wait returns when every parse Parse started has ended.
	Wait func()
	// Verdicts holds the verified of the members parsed so.
	Verdicts *Verdicts
	// Label is the input's name as given (Source.Label), which the rows
	// parsed while reading carry.
	Label string

	mu     sync.Mutex
	failed string
}

// Failed says why the speculation failed ("" when it held): the source's
// rows must then be withdrawn and the bundle read again spooled.
func (sp *Speculation) Failed() string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.failed
}

func (sp *Speculation) fail(why string) {
	sp.mu.Lock()
	if sp.failed == "" {
		sp.failed = why
	}
	sp.mu.Unlock()
}

// Verdicts maps verdict tokens, which rows carry in their verified field
// until their member is decided, to "true" or "false".
type Verdicts struct {
	mu sync.Mutex
	v  []string
}

// New returns a fresh token, undecided ("false" until Set).
func (v *Verdicts) New() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.v = append(v.v, "false")
	return "\x00" + strconv.Itoa(len(v.v)-1)
}

// Set decides a token.
func (v *Verdicts) Set(tok string, verified bool) {
	i, err := strconv.Atoi(tok[1:])
	if err != nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if i >= 0 && i < len(v.v) {
		v.v[i] = strconv.FormatBool(verified)
	}
}

// Resolve returns a row's verified with its token, if any, replaced.
func (v *Verdicts) Resolve(s string) string {
	if s == "" || s[0] != 0 {
		return s
	}
	i, err := strconv.Atoi(s[1:])
	v.mu.Lock()
	defer v.mu.Unlock()
	if err != nil || i < 0 || i >= len(v.v) {
		return "false"
	}
	return v.v[i]
}

// lazyState is a lazy file's content while it is parsed.
type lazyState struct {
	buf    []byte    // a small member, read whole
	opens  int       // how many times buf was opened
	stream io.Reader // a big member at the reader, until opened once
	broken error     // why its bytes cannot be had
}

// VerdictToken is the token the file's rows carry for verified, "" when
// verified is known as it is parsed (parse stage).
func (r *File) VerdictToken() string { return r.token }

// speculate parses lazy member r as m is read and returns its size.
func (s *Source) speculate(r *File, m *bundle.Member) (int64, error) {
	sp := s.spec
	b := s.buffer()
	for {
		if len(b) == cap(b) {
			if len(b) > streamBuffer {
				break
			}
			b = append(b, 0)[:len(b)]
		}
		n, err := m.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			s.lazyMu.Lock()
			r.lz.buf = b
			s.lazyMu.Unlock()
			sp.Parse(s, r, false)
			return int64(len(b)), nil
		}
		if err != nil {
			return 0, err // cut or over a limit: not parsed, as when spooled
		}
	}
	s.lazyMu.Lock()
	r.lz.stream = io.MultiReader(bytes.NewReader(b), m)
	s.lazyMu.Unlock()
	sp.Parse(s, r, true)
	s.lazyMu.Lock()
	r.lz.stream = nil
	s.lazyMu.Unlock()
	n, err := io.Copy(io.Discard, m)
	if err != nil {
		sp.fail(fmt.Sprintf("member %s ended early while it was parsed from the stream: %v", r.member, err))
		return 0, err
	}
	s.release(b, 1)
	return int64(len(b)) + n, nil
}

// settle checks the speculation once the manifest has decided every file
// (see above), decides the verdict tokens, and keeps what a later open of
// a lazy file needs; f is the bundle file, kept open.
func (s *Source) settle(byName map[string][]*File, f *os.File, limits *bundle.Options) {
	if s.spec == nil {
		return
	}
	for _, cands := range byName {
		for _, r := range cands {
			if !r.lazy {
				continue
			}
			s.lazyFiles = append(s.lazyFiles, r)
			got, want := r.File, r.pax
			got.MTime, want.MTime = time0, time0
			switch {
			case len(cands) > 1:
				s.spec.fail("two members named " + r.member)
			case !r.added:
				s.spec.fail("member " + r.member + " was parsed but is not kept")
			case got != want:
				s.spec.fail("member " + r.member + ": the manifest attributes it otherwise than its PAX records")
			}
			s.spec.Verdicts.Set(r.token, r.verified)
		}
	}
	s.spec = nil
	if len(s.lazyFiles) > 0 {
		s.bf, s.limits = f, limits
	}
}

var time0 = parser.File{}.MTime

// Lazy returns the source's files parsed while the bundle was read, which
// Eager leaves out.
func (s *Source) Lazy() []*File {
	var out []*File
	for _, r := range s.files {
		if r.lazy {
			out = append(out, r)
		}
	}
	return out
}

// Eager returns the source's files still to parse: read from the spool
// or in place.
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

// reread is the problem of a lazy member whose second read differs.
func (s *Source) reread(r *File, what string) {
	p := Problem{Kind: bundle.ProblemChecksum, SourceFile: r.Path, Agent: r.Agent, Host: s.host, BundleID: s.bundleID, Input: s.input,
		Message: fmt.Sprintf("member %s read again from the bundle file %s: the file changed while it was read", r.member, what)}
	s.late = append(s.late, p)
}

// LateProblems returns the problems found after Open returned (a lazy
// member read again) and forgets them.
func (s *Source) LateProblems() []Problem {
	s.lazyMu.Lock()
	defer s.lazyMu.Unlock()
	ps := s.late
	s.late = nil
	return ps
}

// openLazy opens a lazy file's content: in memory or the stream (once)
// while it is parsed, else the spool, spooling every lazy member first.
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
	case s.spec != nil:
		// Opened again while the bundle is read: the speculation fails,
		// and the bundle will be read again spooled.
		s.spec.fail("member " + r.member + " was opened twice while it was parsed from the stream")
		return nil, errors.New("opened twice while read from the bundle stream")
	default:
		if err := s.materialize(); err != nil {
			return nil, err
		}
		if !r.spooled {
			return nil, errors.New("the bundle file changed while it was read")
		}
	}
	return io.NopCloser(io.NewSectionReader(s.spool, r.off, r.n)), nil
}

// parsedLazy drops a small lazy member's bytes once its parse is done.
func (s *Source) parsedLazy(r *File) {
	s.lazyMu.Lock()
	b, opens := r.lz.buf, r.lz.opens
	r.lz.buf = nil
	s.lazyMu.Unlock()
	s.release(b, opens)
}

// release gives b back for the next member when opens readers (at most
// one: a second one may still hold it) had it.
func (s *Source) release(b []byte, opens int) {
	if b == nil || opens > 1 {
		return
	}
	select {
	case s.free <- b[:0]:
	default:
	}
}

// buffer returns an empty buffer for a small lazy member, reusing the
// memory of a member parsed already.
func (s *Source) buffer() []byte {
	select {
	case b := <-s.free:
		return b
	default:
	}
	return make([]byte, 0, 64<<10)
}

// materialize spools every lazy member not spooled yet, in one more read
// of the bundle file; called with lazyMu held. A member whose bytes differ
// from the first read's is left out, with a problem.
func (s *Source) materialize() error {
	if s.spooledAll {
		return nil
	}
	s.spooledAll = true
	if s.bf == nil {
		return errors.New("the bundle file is closed")
	}
	br, err := bundle.Open(io.NewSectionReader(s.bf, 0, 1<<62), s.limits)
	if err != nil {
		return fmt.Errorf("the bundle file could not be read again: %w", err)
	}
	sortByOrd(s.lazyFiles)
	ord := 0
	for _, r := range s.lazyFiles {
		if r.spooled {
			continue
		}
		var m *bundle.Member
		for ord < r.ord {
			if m, err = br.Next(); err != nil {
				s.reread(r, "ended before it")
				return nil
			}
			ord++
		}
		if m.Name != r.member {
			s.reread(r, fmt.Sprintf("had %s at its place", m.Name))
			continue
		}
		off, n, err := s.sw.copy(m)
		if err == nil {
			err = s.sw.flush()
		}
		if err != nil {
			return fmt.Errorf("spool %s: %w", r.Path, err)
		}
		if m.Sum() != r.sum {
			s.reread(r, "gave other bytes")
			continue
		}
		r.spooled, r.off, r.n = true, off, n
	}
	return nil
}

func sortByOrd(fs []*File) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].ord < fs[j].ord })
}
