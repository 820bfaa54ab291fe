package inputs

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
	"github.com/doubleagent/doubleagent/analyzer/engine/route"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"

	_ "modernc.org/sqlite" // SQLite driver for parsers' Input.DB (parserInput)
)

// Problem is something wrong found while reading an input; it is written
// to problems.jsonl and counted in the inventory, never silent.
type Problem = problem.Problem

// File is one collected file of a source available to parsers (the
// parse stage's parse.File).
type File struct {
	src *Source // the source it belongs to (set by Source.add)
	sum string  // SHA-256 of a spooled member, or of an extracted file as read
	// member is the file's name in the bundle (files/...), or in the
	// extracted collection; "" for a loose file.
	member string
	// readFrom is the real archive path an extracted file was read at
	// when its member name passes a followed link (loose_links.go);
	// "" otherwise.
	readFrom string
	parser.File
	// A loose or extracted file is read in place: tree/local, by the
	// evidence rule (OpenIn), local being '/' separated under the tree.
	tree, local string
	verified    bool
	// A bundle member is spooled into its source's one spool file, at
	// [off, off+n).
	spooled bool
	off, n  int64
	// lazy: a bundle member parsed as the bundle was read, not spooled
	// (stream.go); ord is its place in the stream (1 for the first member
	// after bundle.json). Set while the source is opened; what follows is
	// guarded by the source's lazyMu (spooled, off and n too, once lazy is
	// set).
	lazy bool
	ord  int
	lz   lazyState
	// A lazy member is parsed as the first read reaches it (stream.go):
	// token stands for its verified until the manifest decides it, pax
	// is the file as its PAX records said, added that it was kept.
	token string
	pax   parser.File
	added bool
	// routes caches the parsers that read the file (Source.Route).
	routes []parser.Parser
	routed bool
}

// Source is one opened unit of work: one bundle, one extracted collection
// or one loose tree (the parse stage's parse.Source). Open makes one.
type Source struct {
	kind     string
	input    string
	host     string
	bundleID string
	header   *bundle.Header
	sum      string // SHA-256 of a bundle file
	summary  *bundle.Summary
	log      []byte // the start of the collector's log
	changed  int    // manifest rows marked changed_during_copy
	inferred bool   // homes and users were inferred (loose tree)
	cut      bool   // a bundle read only in part (cut short or corrupt)
	// unproven: the bundle's .sha256 sidecar names another hash (or
	// cannot be read), so the file is not provably the one acquired and
	// none of its members is verified, whatever the manifest says.
	unproven bool
	files    []*File
	byPath   map[string]*File
	problems []Problem
	tmp      string
	spool    *os.File // bundle members, one after the other
	// A bundle with lazy members (stream.go) keeps its file open, the
	// limits it was read with, the spool's writer and its lazy files in
	// stream order; late holds the problems found after Open returned.
	bf         *os.File
	limits     *bundle.Options
	sw         *spoolWriter
	lazyMu     sync.Mutex
	lazyFiles  []*File
	late       []Problem
	spooledAll bool
	free       chan []byte  // small lazy members' memory, for reuse
	spec       *Speculation // while openBundle reads, else nil
	// seen counts every manifest row (or walked file) per user and agent,
	// collected or not, for detect and the inventory.
	seen []seenFile
	// manifest keeps the manifest rows (or walked files) when the run
	// writes a bodyfile.
	manifest []bundle.Entry
	// index is files sorted by original path, built on the first list.
	index     []*File
	indexOnce sync.Once
	links     *treeLinks // a loose tree's followed links (loose_links.go)
	homeDirs  []string   // a loose tree's homes (a link to a file is followed only into one)
	// dirs holds the folders of each tree files are read from (by tree
	// root), so a folder of many files is opened once (DirCache).
	dirsMu sync.Mutex
	dirs   map[string]*DirCache
}

type seenFile struct {
	user, agent, status string
	size                int64
	parsable            bool
}

// Meta is the file as parsers see it (parse.File).
func (r *File) Meta() *parser.File { return &r.File }

// Verified reports the file's bytes matched the manifest and the collector
// did not see it change while copying it (parse.File).
func (r *File) Verified() bool { return r.verified }

// Open returns the file's content (parse.File).
func (r *File) Open() (io.ReadCloser, error) { return r.src.open(r) }

// ParserInput builds the parser.Input for the file, tmp holding any SQLite
// copy; done closes the copies the parse opened (parse.File).
func (r *File) ParserInput(tmp string) (*parser.Input, func()) {
	var dbs []*dbCloser
	in := r.src.parserInput(r, tmp, &dbs)
	return in, func() {
		for _, db := range dbs {
			db.close()
		}
		if r.lazy {
			r.src.parsedLazy(r)
		}
	}
}

// SHA256 is the file's hash as read (a bundle member's as streamed, an
// extracted file's as hashed), "" for a file read in place.
func (r *File) SHA256() string { return r.sum }

// Member is the file's name in the bundle or extracted collection
// (files/...), "" for a loose file.
func (r *File) Member() string { return r.member }

// ReadFrom is the real archive path an extracted file was read at when
// its member name passes a followed link, else "".
func (r *File) ReadFrom() string { return r.readFrom }

// Input names the input as given (parse.Source).
func (s *Source) Input() string { return s.input }

// Loose reports a tree read in place (parse.Source).
func (s *Source) Loose() bool { return s.kind == KindLoose }

// Files are the source's files parsers may read, in the order found.
func (s *Source) Files() []*File { return s.files }

// Problems are the problem rows found while opening the source.
func (s *Source) Problems() []Problem { return s.problems }

// Label names the source as given (a stream spooled under another name):
// its problems name it too.
func (s *Source) Label(label string) {
	s.input = label
	for i := range s.problems {
		s.problems[i].Input = label
	}
}

// TakeManifest returns the manifest rows kept for the bodyfile (see
// Router.KeepManifest) and forgets them.
func (s *Source) TakeManifest() []bundle.Entry {
	m := s.manifest
	s.manifest = nil
	return m
}

// Seen is one manifest row (or walked file) of a source, collected or
// not, as detect and the inventory count it.
type Seen struct {
	User, Agent, Status string
	Size                int64
	// Parsable: a registered parser reads the agent's files.
	Parsable bool
}

// Facts is what the inventory and detect read of an opened source.
type Facts struct {
	Kind, Input, Host, BundleID string
	// SHA256 is a bundle file's own hash.
	SHA256 string
	// Inferred: homes and users were inferred (a loose tree).
	Inferred bool
	Header   *bundle.Header
	Summary  *bundle.Summary
	// Log is the start of the collector's log.
	Log []byte
	// Changed counts manifest rows marked changed_during_copy.
	Changed int
	// Problems counts the problem rows of opening it; Files the files
	// parsers may read, VerifiedFiles those verified.
	Problems, Files, VerifiedFiles int
	// CutShort: a bundle whose stream ended early (cut short or
	// corrupt), read only as far as it goes; a truncated problem names
	// the member where it stops.
	CutShort bool
	Seen     []Seen
}

// Facts returns what the inventory and detect read of the source.
func (s *Source) Facts() Facts {
	f := Facts{Kind: s.kind, Input: s.input, Host: s.host, BundleID: s.bundleID, SHA256: s.sum, Inferred: s.inferred,
		Header: s.header, Summary: s.summary, Log: s.log, Changed: s.changed, Problems: len(s.problems), Files: len(s.files), CutShort: s.cut}
	for _, r := range s.files {
		if r.verified {
			f.VerifiedFiles++
		}
	}
	f.Seen = make([]Seen, len(s.seen))
	for i, x := range s.seen {
		f.Seen[i] = Seen{User: x.user, Agent: x.agent, Status: x.status, Size: x.size, Parsable: x.parsable}
	}
	return f
}

// TimeRef is the time the plausible window of this input's rows ends a
// day after: the collection's start from the bundle header, else (a loose
// tree, a header without a readable time) the run's start (parse.Source).
func (s *Source) TimeRef(run time.Time) time.Time {
	if s.header != nil {
		if t, ok := parser.ParseTime(s.header.StartedUTC); ok {
			return t
		}
	}
	return run
}

func (s *Source) problem(p Problem) {
	if p.Host == "" {
		p.Host = s.host
	}
	if p.BundleID == "" {
		p.BundleID = s.bundleID
	}
	if p.Input == "" {
		p.Input = s.input
	}
	s.problems = append(s.problems, p)
}

func (s *Source) add(r *File) bool {
	r.src = s
	if s.byPath == nil {
		s.byPath = map[string]*File{}
	}
	if _, dup := s.byPath[r.Path]; dup {
		s.problem(Problem{Kind: bundle.ProblemContradiction, SourceFile: r.Path, Agent: r.Agent, Message: "a second file for this path: only the first is parsed"})
		return false
	}
	s.byPath[r.Path] = r
	s.files = append(s.files, r)
	return true
}

// list returns the files of the whole source (every home) whose original
// path matches a doublestar pattern, in path order. It looks only at the
// paths that start with the pattern's literal prefix, in a sorted index
// built once, so a parser calling it for each of its files does not scan
// the source each time.
func (s *Source) list(pattern string) []parser.File {
	s.indexOnce.Do(func() {
		s.index = make([]*File, len(s.files))
		copy(s.index, s.files)
		sort.Slice(s.index, func(i, j int) bool { return s.index[i].Path < s.index[j].Path })
	})
	prefix := pattern
	if i := strings.IndexAny(pattern, `*?[{\`); i >= 0 {
		prefix = pattern[:i]
	}
	var out []parser.File
	for i := sort.Search(len(s.index), func(i int) bool { return s.index[i].Path >= prefix }); i < len(s.index) && strings.HasPrefix(s.index[i].Path, prefix); i++ {
		if ok, _ := doublestar.Match(pattern, s.index[i].Path); ok {
			out = append(out, s.index[i].File)
		}
	}
	return out
}

// Close releases the source's folders and spool.
func (s *Source) Close() {
	s.dirsMu.Lock()
	for _, d := range s.dirs {
		d.Close()
	}
	s.dirs = nil
	s.dirsMu.Unlock()
	if s.bf != nil {
		s.bf.Close()
		s.bf = nil
	}
	if s.spool != nil {
		s.spool.Close()
		s.spool = nil
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
}

// DetectInput classifies path by content and returns the sources it holds
// (a folder of evidence: its bundles and extracted collections, with
// KindFolder; see expandFolder).
func DetectInput(p string) ([]string, string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, "", err
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			// Never opened: a FIFO would block the sniff.
			return nil, "", fmt.Errorf("%s: %s, not a bundle file or a folder: not read", p, KindOf(fi.Mode()))
		}
		if IsBundleFile(p) {
			return []string{p}, KindBundle, nil
		}
		return []string{p}, KindLoose, nil
	}
	if IsExtracted(p) {
		return []string{p}, KindExtracted, nil
	}
	x := &Expansion{}
	x.ExpandFolder(p)
	if len(x.Units) == 1 && x.Units[0].Kind == KindLoose && x.Units[0].Path == p {
		return []string{p}, KindLoose, nil
	}
	var paths []string
	for _, u := range x.Units {
		paths = append(paths, u.Path)
	}
	return paths, KindFolder, nil
}

// Router is the route stage's Router with what the inputs stage is told
// beside it.
type Router struct {
	*route.Router
	// KeepManifest asks sources to keep their manifest rows (bodyfile).
	KeepManifest bool
	// Loose labels loose inputs from --host, --user and --agent (loose.go).
	Loose LooseLabels
}

// NewRouter routes to the parsers ps.
func NewRouter(ps []parser.Parser) *Router { return &Router{Router: route.New(ps)} }

func relToHome(orig, home string) string {
	if home == "" {
		return strings.TrimPrefix(orig, "/")
	}
	h := strings.TrimRight(home, "/") + "/"
	if strings.HasPrefix(orig, h) {
		return orig[len(h):]
	}
	return strings.TrimPrefix(orig, "/")
}

// openBundle streams a bundle, spooling the members some parser may read
// into a private temporary folder.
// headerCut makes s the source of a bundle cut short or corrupt inside
// its bundle.json (a plain bundle past its zstd magic, an encrypted one in
// its age header or first chunk): a bundle read only in part, of which
// nothing could be read, so that it counts among the cut bundles (exit 3,
// run.json's cut_short_inputs), as a cut anywhere after its header does,
// with a truncated problem naming bundle.json and why. Its host and bundle
// id are unknown: it has no rows.
func (s *Source) headerCut(err error) {
	s.cut = true
	s.problem(Problem{Kind: bundle.ProblemTruncated, Message: "truncated " + bundle.HeaderName + ": " + strings.TrimPrefix(err.Error(), bundle.ErrNotBundle.Error()+": ")})
}

func openBundle(ctx context.Context, p, tmpRoot string, rt *Router, limits *bundle.Options, sp *Speculation) (*Source, error) {
	s := &Source{kind: KindBundle, input: p, free: make(chan []byte, 4)}
	if sp != nil && sp.Label != "" {
		s.input = sp.Label // the rows parsed while reading name it
	}
	if sc, err := bundle.CheckSidecar(p); err != nil {
		s.problem(Problem{Kind: KindSidecar, Message: "cannot check " + p + ".sha256: " + err.Error() + ": its rows are marked verified:false"})
		s.unproven = true
	} else if sc.Present && !sc.OK {
		s.problem(Problem{Kind: KindSidecarMismatch, Message: sc.Msg + ": the file is not provably the one acquired, so its rows are marked verified:false"})
		s.unproven = true
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() {
		if s.bf != f {
			f.Close()
		}
	}()
	// The bundle file's own SHA-256, for run.json: hashed as it is read,
	// and the rest (anything after what the reader consumed) at the end.
	fh := sha256.New()
	defer func() {
		if _, err := io.Copy(fh, f); err == nil {
			s.sum = hex.EncodeToString(fh.Sum(nil))
		}
	}()
	br, err := bundle.Open(io.TeeReader(f, fh), limits)
	if errors.Is(err, bundle.ErrHeaderCut) {
		s.headerCut(err)
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s.header = &br.Header
	s.host, s.bundleID = br.Header.Host.Hostname, br.Header.BundleID
	s.checkHostname()
	tmp, err := os.MkdirTemp(tmpRoot, "doubleagent-bundle-*")
	if err != nil {
		return nil, err
	}
	s.tmp = tmp
	// Every member goes into one spool file: creating a file per member
	// cost more than copying it on filesystems where creation is slow.
	spf, err := os.OpenFile(filepath.Join(tmp, "spool"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.spool = spf
	sw := &spoolWriter{f: spf}
	s.sw = sw
	// Members as their PAX records describe them, by member name; the
	// manifest, read at the end, decides what they are (below).
	var names []string
	byName := map[string][]*File{}
	ord := 0
	for {
		if ctx.Err() != nil {
			s.Close()
			return nil, ctx.Err()
		}
		m, err := br.Next()
		if err != nil {
			break
		}
		ord++
		e := m.Entry
		owned(&e) // as the manifest row will be (said there)
		if !rt.Wants(e.Agent, catalog.Kind(e.Kind)) {
			continue // drained by the reader, hashed, never written
		}
		rec := &File{File: parser.File{Path: e.Path, Rel: relToHome(e.Path, e.Home), Agent: e.Agent, Target: e.Target,
			Kind: catalog.Kind(e.Kind), Size: e.Size, MTime: bundle.MemberMTime(e), Host: s.host, User: e.User, BundleID: s.bundleID}, member: m.Name, ord: ord}
		// A member one streamable parser reads is parsed as it is read
		// here, not spooled (stream.go).
		rec.routes, rec.routed = rt.For(&rec.File), true
		var off, n int64
		if sp != nil && route.Streams(rec.routes, &rec.File) {
			s.spec = sp
			rec.src, rec.lazy, rec.token, rec.pax = s, true, sp.Verdicts.New(), rec.File
			n, err = s.speculate(rec, m)
		} else {
			rec.spooled = true
			off, n, err = sw.copy(m)
		}
		if err != nil {
			var we *spoolWriteError
			if !errors.As(err, &we) {
				// The bundle's stream stopped inside this member: cut short,
				// corrupt (a damaged zstd frame, an age chunk that does not
				// authenticate) or over a limit. It is a cut from here: the
				// reader named the member (a truncated or limit problem), and
				// what came before it is kept.
				break
			}
			// The spool could not be written (our disk, not the bundle).
			if sp != nil {
				sp.Wait()
			}
			s.Close()
			return nil, fmt.Errorf("spool %s: %w", e.Path, err)
		}
		rec.off, rec.n, rec.sum = off, n, m.Sum()
		if _, ok := byName[m.Name]; !ok {
			names = append(names, m.Name)
		}
		byName[m.Name] = append(byName[m.Name], rec)
	}
	if sp != nil {
		// Every parse of a lazy member ends before the manifest can change
		// its file (below).
		sp.Wait()
	}
	if err := sw.flush(); err != nil {
		s.Close()
		return nil, fmt.Errorf("spool: %w", err)
	}
	res := br.Result()
	s.summary, s.log, s.cut = res.Summary, res.Log, res.Truncated
	for _, e := range res.Manifest {
		if e.ChangedDuringCopy {
			s.changed++
		}
	}
	for i := range res.Manifest {
		if was, ok := owned(&res.Manifest[i]); ok {
			s.problem(sharedPathProblem(res.Manifest[i], was))
		}
	}
	agentOf := manifestAgents(res.Manifest)
	for _, pr := range res.Problems {
		s.problem(Problem{Kind: pr.Kind, SourceFile: pr.Path, Agent: agentOf[pr.Path], Message: pr.String()})
	}
	rowOf := map[string]bundle.Entry{} // member name -> its (first) manifest row
	storeRows := map[string]bool{}     // the paths the manifest has a row for
	for _, e := range res.Manifest {
		storeRows[e.Path] = true
		if _, ok := rowOf[e.ArchivePath]; e.ArchivePath != "" && !ok {
			rowOf[e.ArchivePath] = e
		}
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.Reads(e.Agent)})
		if rt.KeepManifest {
			s.manifest = append(s.manifest, e)
		}
		s.notCollectedProblem(e)
	}
	for _, name := range names {
		cands := byName[name]
		rec := cands[0]
		e, listed := rowOf[name]
		if !listed {
			// No manifest, or a member it does not list (reported): parsed
			// as its PAX records say, unverified.
			if res.Manifest == nil {
				s.seen = append(s.seen, seenFile{user: rec.User, agent: rec.Agent, status: bundle.StatusCollected, size: rec.Size, parsable: true})
			}
			rec.added = s.add(rec)
			continue
		}
		for _, c := range cands {
			if c.sum == e.SHA256 {
				rec = c // of two members under one name, the copy the manifest's hash names; still unverified
				break
			}
		}
		if e.Status != bundle.StatusCollected {
			continue // the manifest says it was not collected (reported): not parsed
		}
		if e.SidecarOf != "" {
			if _, ok := storeRows[e.SidecarOf]; !ok {
				// The side file of a store the bundle does not hold: named,
				// not parsed (no parser reads a side file on its own).
				s.problem(Problem{Kind: KindOrphanSidecar, SourceFile: e.Path, Agent: e.Agent, Message: orphanSidecarMsg(e.Path, e.SidecarOf, e.Size)})
				continue
			}
		}
		// The manifest wins over the PAX records (a mismatch is reported):
		// a file is attributed as its manifest row says.
		mt := bundle.MemberMTime(e)
		if mt.IsZero() {
			mt = rec.MTime
		}
		was := rec.File
		rec.File = parser.File{Path: e.Path, Rel: relToHome(e.Path, e.Home), Agent: e.Agent, Target: e.Target,
			Kind: catalog.Kind(e.Kind), Size: rec.Size, MTime: mt, Host: s.host, User: e.User, BundleID: s.bundleID}
		if rec.File != was {
			rec.routes, rec.routed = nil, false // routed again as the manifest says
		}
		// Verified only when the hash matched and the collector did not
		// see the file change while copying it, and the bundle is the
		// file its sidecar names.
		rec.verified = res.Verified[name] && !e.ChangedDuringCopy && !s.unproven
		if !rt.Wants(rec.Agent, rec.Kind) {
			continue
		}
		rec.added = s.add(rec)
	}
	s.settle(byName, f, limits)
	return s, nil
}

// spoolWriter appends members to a source's spool file through one
// buffer (a fresh 1 MiB buffer per member cost more than the copy for a
// bundle of small files).
type spoolWriter struct {
	f   *os.File
	bw  *bufio.Writer
	end int64
	// buf is the one copy buffer every member goes through: io.Copy
	// made a fresh 32 KiB one per member (spoolDest has no ReadFrom,
	// the member reader no WriteTo), a third of what a bundle of
	// 60,000 tiny files allocated (BENCHMARKS.md, many small files).
	buf []byte
}

// copy appends r and returns where its bytes start and how many there are.
// After an error the bytes written count for nothing.
func (w *spoolWriter) copy(r io.Reader) (off, n int64, err error) {
	if w.bw == nil {
		w.bw = bufio.NewWriterSize(writerOnly{w.f}, 1<<20)
		w.buf = make([]byte, 32<<10)
	}
	off = w.end
	n, err = io.CopyBuffer(spoolDest{w.bw}, r, w.buf)
	w.end += n
	return off, n, err
}

// spoolWriteError is a failure to write the spool, told apart from a
// failure to read the bundle (a cut).
type spoolWriteError struct{ err error }

func (e *spoolWriteError) Error() string { return e.err.Error() }
func (e *spoolWriteError) Unwrap() error { return e.err }

// spoolDest marks the spool's write errors (spoolWriteError).
type spoolDest struct{ w io.Writer }

func (d spoolDest) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	if err != nil {
		err = &spoolWriteError{err}
	}
	return n, err
}

func (w *spoolWriter) flush() error {
	if w.bw == nil {
		return nil
	}
	return w.bw.Flush()
}

// writerOnly hides *os.File's ReadFrom, so bufio.Writer fills its own
// buffer rather than handing the copy to a 32 KiB one.
type writerOnly struct{ io.Writer }

// open returns the content of one collected file.
func (s *Source) open(r *File) (io.ReadCloser, error) {
	if r.lazy {
		return s.openLazy(r)
	}
	if r.spooled {
		return io.NopCloser(io.NewSectionReader(s.spool, r.off, r.n)), nil
	}
	return s.openIn(r.tree, r.local)
}

// openIn opens rel in the tree at root by the evidence rule (OpenIn),
// through the source's folder cache of that tree.
func (s *Source) openIn(root, rel string) (*os.File, error) {
	s.dirsMu.Lock()
	d := s.dirs[root]
	if d == nil {
		if s.dirs == nil {
			s.dirs = map[string]*DirCache{}
		}
		d = &DirCache{}
		s.dirs[root] = d
	}
	s.dirsMu.Unlock()
	return d.OpenIn(root, rel)
}

// openExtracted reads a bundle already unpacked into a folder: its
// bundle.json, manifest.jsonl and files/, each opened by the evidence rule
// (OpenIn). Each file is hashed against the manifest before use; one whose
// hash fails, or that the collector saw change while copying it, is still
// parsed, its rows marked verified:false, with a problem row.
func openExtracted(ctx context.Context, dir string, rt *Router) (*Source, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	s := &Source{kind: KindExtracted, input: dir}
	h, err := ReadExtractedHeader(root)
	if err != nil {
		return nil, err
	}
	s.header = &h
	s.host, s.bundleID = h.Host.Hostname, h.BundleID
	s.checkHostname()
	if why := bundle.HeaderProblem(&h); why != "" {
		s.problem(Problem{Kind: bundle.ProblemHeader, SourceFile: bundle.HeaderName, Message: why})
	}
	mf, err := OpenIn(root, bundle.ManifestName)
	if err != nil {
		kind, msg := bundle.ProblemNoManifest, "extracted collection has no manifest.jsonl: files cannot be verified or attributed"
		if errors.Is(err, ErrUnsafePath) {
			kind, msg = KindUnsafePath, err.Error()+": files cannot be verified or attributed"
		}
		s.problem(Problem{Kind: kind, SourceFile: bundle.ManifestName, Message: msg})
		return s, nil
	}
	defer mf.Close()
	dec := bundle.NewManifestDecoder(bufio.NewReader(mf))
	var summaries, rowsAfter int
	partial := false
	listed := map[string]bool{}
	for {
		if ctx.Err() != nil {
			s.Close()
			return nil, ctx.Err()
		}
		row, err := dec.Next()
		if err != nil {
			if err != io.EOF {
				s.problem(Problem{Kind: bundle.ProblemManifest, SourceFile: bundle.ManifestName, Message: err.Error()})
			}
			break
		}
		if row.Summary != nil {
			summaries++
			if !row.Summary.Complete && !partial {
				partial = true
				msg := "the collector marked this collection incomplete"
				if row.Summary.Reason != "" {
					msg += ": " + row.Summary.Reason
				}
				s.problem(Problem{Kind: bundle.ProblemIncomplete, SourceFile: bundle.ManifestName, Message: msg})
			}
			continue
		}
		if row.Entry == nil {
			if row.Err != nil {
				s.problem(Problem{Kind: bundle.ProblemManifest, SourceFile: bundle.ManifestName, Message: row.Err.Error()})
			} else {
				s.problem(Problem{Kind: bundle.ProblemManifest, SourceFile: bundle.ManifestName, Message: row.UnknownRecord()})
			}
			continue
		}
		e := *row.Entry
		if was, ok := owned(&e); ok {
			s.problem(sharedPathProblem(e, was))
		}
		if summaries > 0 {
			rowsAfter++
		}
		for _, pr := range bundle.RowProblems(e) {
			s.problem(Problem{Kind: pr.Kind, SourceFile: e.Path, Agent: e.Agent, Message: pr.String()})
		}
		if e.ChangedDuringCopy {
			s.changed++
		}
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.Reads(e.Agent)})
		if rt.KeepManifest {
			s.manifest = append(s.manifest, e)
		}
		s.notCollectedProblem(e)
		if e.ArchivePath == "" {
			if e.Status == bundle.StatusCollected {
				s.problem(Problem{Kind: bundle.ProblemMissing, SourceFile: e.Path, Agent: e.Agent, Message: "listed as collected but names no file"})
			}
			continue
		}
		if e.Status != bundle.StatusCollected {
			s.problem(Problem{Kind: bundle.ProblemContradiction, SourceFile: e.Path, Agent: e.Agent, Message: "row with status " + e.Status + " names a file (" + e.ArchivePath + "): not parsed"})
			continue
		}
		if listed[e.ArchivePath] {
			s.problem(Problem{Kind: bundle.ProblemContradiction, SourceFile: e.Path, Agent: e.Agent, Message: "a second manifest row names " + e.ArchivePath + ": not parsed again"})
			continue
		}
		listed[e.ArchivePath] = true
		if !rt.Wants(e.Agent, catalog.Kind(e.Kind)) {
			continue
		}
		if why := bundle.UnsafeName(e.ArchivePath); why != "" {
			s.problem(Problem{Kind: bundle.ProblemUnsafe, SourceFile: e.Path, Message: why})
			continue
		}
		local, followed, err := ResolveMember(root, e.ArchivePath)
		if err != nil {
			s.problem(Problem{Kind: KindUnsafePath, SourceFile: e.Path, Agent: e.Agent, Message: err.Error()})
			continue
		}
		ch, err := s.fileHash(root, local)
		var sum, mismatch string
		if err == nil {
			sum, mismatch = ch.Sum(), ch.Check(e)
		}
		switch {
		case errors.Is(err, ErrUnsafePath):
			s.problem(Problem{Kind: KindUnsafePath, SourceFile: e.Path, Agent: e.Agent, Message: err.Error()})
			continue
		case errors.Is(err, fs.ErrNotExist):
			s.problem(Problem{Kind: bundle.ProblemMissing, SourceFile: e.Path, Agent: e.Agent, Message: "listed as collected but missing in the extracted folder"})
			continue
		case err != nil:
			s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: e.Path, Agent: e.Agent, Message: "not read: " + reasonOf(err)})
			continue
		case mismatch != "" && e.InterruptedAt != nil:
			s.problem(Problem{Kind: bundle.ProblemChecksum, SourceFile: e.Path, Agent: e.Agent, Message: mismatch + ": parsed, its rows marked verified:false"})
		case mismatch != "":
			s.problem(Problem{Kind: bundle.ProblemChecksum, SourceFile: e.Path, Agent: e.Agent, Message: fmt.Sprintf("manifest sha256 %s, file %s: parsed, its rows marked verified:false", e.SHA256, sum)})
		}
		s.add(&File{File: parser.File{Path: e.Path, Rel: relToHome(e.Path, e.Home), Agent: e.Agent, Target: e.Target, Kind: catalog.Kind(e.Kind),
			Size: e.Size, MTime: bundle.MemberMTime(e), Host: s.host, User: e.User, BundleID: s.bundleID},
			tree: root, local: local, verified: mismatch == "" && !e.ChangedDuringCopy && e.InterruptedAt == nil, sum: sum, member: e.ArchivePath, readFrom: readFrom(followed, local)})
	}
	switch {
	case summaries == 0:
		s.problem(Problem{Kind: bundle.ProblemManifest, SourceFile: bundle.ManifestName, Message: "manifest has no closing summary row"})
	case summaries > 1:
		s.problem(Problem{Kind: bundle.ProblemContradiction, SourceFile: bundle.ManifestName, Message: fmt.Sprintf("manifest has %d summary rows, where the format has exactly one, last", summaries)})
	case rowsAfter > 0:
		s.problem(Problem{Kind: bundle.ProblemContradiction, SourceFile: bundle.ManifestName, Message: fmt.Sprintf("manifest has %d file rows after its summary row, which must be last", rowsAfter)})
	}
	return s, nil
}

// KindUnsafePath is the problem kind for a path of the evidence the
// analyzer refused to open: a link on the way or at the end, a FIFO, a
// device, a socket (see evidence.go).
const KindUnsafePath = "unsafe_path"

// KindOrphanSidecar: the -wal or -journal of a SQLite store that is not
// there (the collector collected it as the side file of the absent store,
// or a loose tree holds it alone). Its pages are the store's records, but
// SQLite discards a WAL or journal without its database, so nothing of it
// is read as rows: the problem names it, never passed over.
const KindOrphanSidecar = "orphan_sidecar"

// orphanSidecarMsg is the orphan_sidecar message for the side file path of
// size bytes whose store is not there.
func orphanSidecarMsg(path, store string, size int64) string {
	what := "journal"
	if strings.HasSuffix(path, "-wal") {
		what = "WAL"
	}
	return fmt.Sprintf("SQLite %s %s (%d bytes) of the store %s, which is not there (deleted, or never copied): its pages are the store's records, but SQLite discards a %s without its database, so none is read as a row; the file is kept as evidence (carve or rebuild the store from it by hand)", what, path, size, store, what)
}

// KindSidecar and KindSidecarMismatch: a bundle's .sha256 sidecar could
// not be read, or names another hash than the bundle file's; the bundle
// is read, every row of it verified:false.
const (
	KindSidecar         = "sidecar"
	KindSidecarMismatch = "sidecar_mismatch"
)

// KindSkippedSize and KindSkippedSecret are the problem kinds of a path
// the collector saw and did not collect, over its size limit or under
// --no-secrets: the manifest statuses of the same names
// (notCollectedProblem).
const (
	KindSkippedSize   = "skipped_size"
	KindSkippedSecret = "skipped_secret"
)

// fileHash hashes the file rel of the tree root (a bundle.ContentHash:
// its SHA-256, and that of a first part a manifest row names).
func (s *Source) fileHash(root, rel string) (*bundle.ContentHash, error) {
	f, err := s.openIn(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ch := bundle.NewContentHash()
	if _, err := io.Copy(ch, f); err != nil {
		return nil, err
	}
	return ch, nil
}

// notCollectedProblem names a manifest row for a path the collector saw
// but did not collect, so that problems.jsonl (and the report's Problems)
// says so once per path, whatever the status:
//   - skipped_special (a FIFO, a device, a socket, a folder where a file
//     was expected): an unsafe_path problem, as a loose tree read in
//     place names the same path (specialProblem);
//   - skipped_size: a skipped_size problem with the collector's reason
//     (the size and the limit);
//   - skipped_secret: a skipped_secret problem (--no-secrets);
//   - error_read, vanished and a link not followed: the collector records
//     why in the row's error, which bundle.RowProblems reports as
//     row_error; a row of these with no error gets one here, so that none
//     is silent.
//
// skipped_excluded is not a problem: the catalog's exclusions (caches,
// the collector's own output) are collected by no run, and counted in
// inventory.json.
func (s *Source) notCollectedProblem(e bundle.Entry) {
	switch e.Status {
	case bundle.StatusSkippedSpecial:
		s.specialProblem(e)
	case bundle.StatusSkippedSize:
		why := e.Error
		if why == "" {
			why = fmt.Sprintf("%d bytes, over the collector's size limit", e.Size)
		}
		s.problem(Problem{Kind: KindSkippedSize, SourceFile: e.Path, Agent: e.Agent, Message: "not collected, not read: " + why})
	case bundle.StatusSkippedSecret:
		msg := "not collected, not read: a file that holds secrets, left out by --no-secrets"
		if e.Error != "" {
			msg += " (" + e.Error + ")"
		}
		s.problem(Problem{Kind: KindSkippedSecret, SourceFile: e.Path, Agent: e.Agent, Message: msg})
	case bundle.StatusErrorRead, bundle.StatusVanished:
		if e.Error == "" {
			s.problem(Problem{Kind: bundle.ProblemRowError, SourceFile: e.Path, Agent: e.Agent, Message: e.Status + ": not collected, not read (the collector recorded no reason)"})
		}
	case bundle.StatusSymlink:
		if e.Error == "" && !e.LinkFollowed {
			msg := "a link not followed: not collected, not read"
			if e.LinkTarget != "" {
				msg = fmt.Sprintf("a link to %q not followed: not collected, not read", e.LinkTarget)
			}
			s.problem(Problem{Kind: KindUnsafePath, SourceFile: e.Path, Agent: e.Agent, Message: msg})
		}
	}
}

// specialProblem names a manifest row the collector skipped as not a
// regular file (skipped_special: a FIFO, a device, a socket, a folder
// where a file was expected) as an unsafe_path problem, as a loose tree
// read in place names the same path: the evidence path held something
// that is not a file, and nothing of it was collected.
func (s *Source) specialProblem(e bundle.Entry) {
	if e.Status != bundle.StatusSkippedSpecial {
		return
	}
	what := e.Type
	if what == "" {
		what = "not a regular file"
	}
	msg := fmt.Sprintf("%s on the host was %s: not collected, not read", e.Path, what)
	switch {
	case e.SidecarOf != "" && e.Type == "file" && strings.HasPrefix(e.Error, "side file of "):
		// A regular side file of a store that is not a regular file (a
		// FIFO): the collector recorded it and never opened it; the
		// collector's words say why.
		msg = e.Error + ", not read"
	case e.SidecarOf != "" && e.Type == "file":
		// The same row from a collector before those words.
		msg = "side file of " + e.SidecarOf + ", which is not a regular file: not collected, not read"
	case e.Error != "":
		msg += " (" + e.Error + ")"
	}
	s.problem(Problem{Kind: KindUnsafePath, SourceFile: e.Path, Agent: e.Agent, Message: msg})
}

// looseHome is a home found in a loose tree.
type looseHome struct {
	user, dir, orig string
	only            string // when set, only hits under this walked dir count
	tree            string // the tree the evidence rule confines reads to
	// copied: a copied home or a lone agent folder, whose user is only
	// the folder's name (not an image's home/NAME): --user may name it.
	copied bool
	// relocOrig is set for the walk of a relocated folder (looseReloc):
	// the host path of the folder that stands for the home-relative
	// relocFolder.
	relocFolder, relocOrig string
}

// origOf is the host path of the home-relative path rel of a walk of h.
func (h looseHome) origOf(rel string) string {
	if h.relocOrig != "" {
		return h.relocOrig + strings.TrimPrefix(rel, h.relocFolder)
	}
	return h.orig + "/" + rel
}

// findLooseHomes infers homes in a loose tree: an image root (home/*,
// Users/*, root, var/root, mnt/*/Users/*), a single home (it holds agent
// state), or a lone agent folder such as a copied .claude (its parent is
// the home, and only that folder is read). In an image, a link where a
// folder on the way to a home is expected (home, Users, mnt/c, a home
// itself) is never followed: it is a problem row, and what lies behind it
// is not read.
func findLooseHomes(dir string) ([]looseHome, []Problem) {
	abs, _ := filepath.Abs(dir)
	var out []looseHome
	var probs []Problem
	image := false
	// entry looks at rel (an image path): a folder, a link (a problem) or
	// nothing.
	entry := func(rel string) (isDir bool) {
		fi, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(rel)))
		if err != nil {
			return false
		}
		image = true
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(filepath.Join(abs, filepath.FromSlash(rel)))
			probs = append(probs, Problem{Kind: KindUnsafePath, SourceFile: "/" + rel,
				Message: fmt.Sprintf("/%s in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)", rel, target)})
			return false
		}
		return fi.IsDir()
	}
	list := func(rel string) []string {
		ents, err := os.ReadDir(filepath.Join(abs, filepath.FromSlash(rel)))
		if err != nil {
			// What cannot be listed is named: the homes under it are not
			// read, and "nothing of any agent" must not stand alone.
			why := err.Error()
			if errors.Is(err, fs.ErrPermission) {
				why = "permission denied (this account cannot read it)"
			}
			probs = append(probs, Problem{Kind: bundle.StatusErrorRead, SourceFile: "/" + rel,
				Message: fmt.Sprintf("/%s in the image could not be listed whole (%d entries read): %s: the homes under it are not read", rel, len(ents), why)})
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return names
	}
	homesIn := func(rel string) {
		if !entry(rel) {
			return
		}
		for _, n := range list(rel) {
			h := rel + "/" + n
			fi, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(h)))
			if err != nil {
				continue
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				entry(h) // the problem row
				continue
			}
			if fi.IsDir() {
				out = append(out, looseHome{user: n, dir: filepath.Join(abs, filepath.FromSlash(h)), orig: "/" + h, tree: abs})
			}
		}
	}
	homesIn("home")
	homesIn("Users")
	if entry("mnt") {
		for _, d := range list("mnt") {
			if fi, err := os.Lstat(filepath.Join(abs, "mnt", d)); err == nil && (fi.IsDir() || fi.Mode()&os.ModeSymlink != 0) && entry("mnt/"+d) {
				if _, err := os.Lstat(filepath.Join(abs, "mnt", d, "Users")); err == nil {
					homesIn("mnt/" + d + "/Users")
				}
			}
		}
	}
	if entry("root") {
		out = append(out, looseHome{user: "root", dir: filepath.Join(abs, "root"), orig: "/root", tree: abs})
	}
	if fi, err := os.Lstat(filepath.Join(abs, "var")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// macOS's /var is a link to private/var: /var/root is not read.
		entry("var")
	} else if entry("var/root") {
		out = append(out, looseHome{user: "root", dir: filepath.Join(abs, "var", "root"), orig: "/var/root", tree: abs})
	}
	if image || len(out) > 0 {
		return out, probs
	}
	if hs := homesFolder(abs); len(hs) > 0 {
		return hs, nil
	}
	base := filepath.Base(abs)
	if strings.HasPrefix(base, ".") {
		parent := filepath.Dir(abs)
		return []looseHome{{user: filepath.Base(parent), dir: parent, orig: filepath.ToSlash(parent), only: abs, tree: parent, copied: true}}, nil
	}
	return []looseHome{{user: base, dir: abs, orig: filepath.ToSlash(abs), tree: abs, copied: true}}, nil
}

// ImageHomes are the folders of the homes findLooseHomes infers in a
// loose tree that are an image's or a folder of homes' (home/NAME,
// Users/NAME, root), not a copied home or a lone agent folder.
func ImageHomes(dir string) []string {
	homes, _ := findLooseHomes(dir)
	var out []string
	for _, h := range homes {
		if !h.copied {
			out = append(out, h.dir)
		}
	}
	return out
}

// homesFolder reads dir as a folder of homes (an image's home or Users
// folder copied on its own): dir holds no dot-entry, Library or AppData of
// its own (it would be a home), and at least one of its sub-folders (not
// a link) holds a catalog folder that starts a home-relative path
// (.claude, .codex, .gemini, ...: homeDotNames). Each sub-folder is then a
// home named after it, at /home/NAME (/Users/NAME when dir is named
// Users). Otherwise it returns nil and dir is read as one home.
func homesFolder(dir string) []looseHome {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	parent := "/home/"
	if strings.EqualFold(filepath.Base(dir), "Users") {
		parent = "/Users/"
	}
	names := homeDotNames()
	var out []looseHome
	found := false
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, ".") || n == "Library" || n == "AppData" {
			return nil
		}
		if e.Type()&os.ModeSymlink != 0 || !e.IsDir() {
			continue
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, f := range sub {
			if names[f.Name()] {
				found = true
				break
			}
		}
		out = append(out, looseHome{user: e.Name(), dir: filepath.Join(dir, e.Name()), orig: parent + e.Name(), tree: dir})
	}
	if !found {
		return nil
	}
	return out
}

// homeDotNames is the set of literal first path components, starting with
// ".", of the catalog's home-relative patterns (.claude, .codex, .config),
// a leading brace list's alternatives and relocated folders included.
var homeDotNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	add := func(p string) {
		first, _, _ := strings.Cut(p, "/")
		if strings.HasPrefix(first, ".") && !strings.ContainsAny(first, "*?[{\\") {
			names[first] = true
		}
	}
	for _, a := range catalog.All() {
		for _, r := range a.Relocations {
			add(r.Folder)
		}
		for _, t := range a.Targets {
			for _, p := range catalog.TargetPatterns(t) {
				if alts, _, ok := strings.Cut(strings.TrimPrefix(p, "{"), "}"); ok && strings.HasPrefix(p, "{") {
					for _, alt := range strings.Split(alts, ",") {
						add(alt)
					}
					continue
				}
				add(p)
			}
		}
	}
	return names
})

// openLoose walks a loose tree with the catalog, reading files in place
// (read-only, by the evidence rule: see evidence.go). An image root's
// etc/hostname names the host, as the collector does; otherwise the host
// is loose:<folder>, or --host (see LooseLabels). A single file is read as
// the file of the agent --agent names (openLooseFile).
func openLoose(ctx context.Context, dir string, rt *Router) (*Source, error) {
	abs, _ := filepath.Abs(dir)
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return openLooseFile(ctx, abs, dir, rt)
	}
	s := &Source{kind: KindLoose, input: dir, inferred: true, host: "loose:" + filepath.Base(abs)}
	name, ownHost, hp := imageHostname(abs)
	if hp != nil {
		s.problem(*hp)
	}
	if ownHost {
		s.host = name
	}
	homes, probs := findLooseHomes(abs)
	for _, h := range homes {
		s.homeDirs = append(s.homeDirs, h.dir)
	}
	for _, p := range probs {
		s.problem(p)
	}
	if !ownHost && len(homes) == 1 && homes[0].only != "" {
		// A lone agent folder: named after its home, as a single file
		// is, so two agent folders of one home, or a home given with its
		// own agent folder, are one host.
		s.host = "loose:" + filepath.Base(homes[0].dir)
	}
	s.labelLoose(rt.Loose, homes, ownHost)
	var stores []*File
	mkVisit := func(h looseHome) func(catalog.Hit) error {
		var visit func(hit catalog.Hit) error
		visit = func(hit catalog.Hit) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// The path as named (through any followed link) decides.
			if named := filepath.Join(h.dir, filepath.FromSlash(hit.Rel)); h.relocOrig == "" && h.only != "" && named != h.only && !strings.HasPrefix(named, h.only+string(filepath.Separator)) {
				return nil
			}
			if s.seenReal(hit.Path) {
				return nil
			}
			orig := h.origOf(hit.Rel)
			if hit.Err != nil {
				s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: orig, Agent: hit.Agent, Message: "not read: " + reasonOf(hit.Err)})
				return nil
			}
			if hit.Excluded || hit.Info == nil {
				return nil
			}
			status := bundle.StatusCollected
			if !hit.Info.Mode().IsRegular() {
				status = bundle.StatusSkippedSpecial
				if hit.Info.Mode()&os.ModeSymlink != 0 {
					status = bundle.StatusSymlink
				}
			}
			// A file this account cannot open (permission denied) is an
			// error_read row, as the collector's is, not a parse failure.
			var openErr error
			if status == bundle.StatusCollected {
				if rel, err := filepath.Rel(h.tree, hit.Path); err == nil {
					// Through the tree's folder cache: the parse opens
					// the file again from the folders held.
					if f, err := s.openIn(h.tree, filepath.ToSlash(rel)); err != nil {
						openErr, status = err, bundle.StatusErrorRead
					} else {
						f.Close()
					}
				}
			}
			s.seen = append(s.seen, seenFile{user: h.user, agent: hit.Agent, status: status, size: hit.Info.Size(), parsable: rt.Reads(hit.Agent)})
			if rt.KeepManifest {
				// A loose tree has no manifest: the walk's own view (no
				// hash, the modification time only).
				s.manifest = append(s.manifest, bundle.Entry{Record: bundle.RecordFile, Path: orig, User: h.user, Agent: hit.Agent, Type: "file",
					Size: hit.Info.Size(), Mode: fmt.Sprintf("%o", hit.Info.Mode().Perm()), MTime: bundle.FormatTime(hit.Info.ModTime()), Status: status})
			}
			if openErr != nil {
				kind := bundle.StatusErrorRead
				if errors.Is(openErr, ErrUnsafePath) {
					kind = KindUnsafePath
				}
				s.problem(Problem{Kind: kind, SourceFile: orig, Agent: hit.Agent, Message: "not read: " + reasonOf(openErr)})
				return nil
			}
			if !rt.Wants(hit.Agent, hit.Target.Kind) {
				return nil
			}
			rel, err := filepath.Rel(h.tree, hit.Path)
			if err != nil {
				return nil
			}
			if status == bundle.StatusSymlink {
				return s.followTreeLink(h, hit, filepath.ToSlash(rel), orig, visit)
			}
			if status != bundle.StatusCollected {
				what := KindOf(hit.Info.Mode())
				if status == bundle.StatusSymlink {
					target, _ := os.Readlink(hit.Path)
					what += fmt.Sprintf(" (to %q)", target)
				}
				s.problem(Problem{Kind: KindUnsafePath, SourceFile: orig, Agent: hit.Agent, Message: orig + " is " + what + ": not read"})
				return nil
			}
			if hit.SidecarOf != "" {
				s.problem(Problem{Kind: KindOrphanSidecar, SourceFile: orig, Agent: hit.Agent, Message: orphanSidecarMsg(orig, strings.TrimSuffix(orig, strings.TrimPrefix(hit.Path, hit.SidecarOf)), hit.Info.Size())})
				return nil
			}
			r := &File{File: parser.File{Path: orig, Rel: hit.Rel, Agent: hit.Agent, Target: hit.Target.ID, Kind: hit.Target.Kind,
				Size: hit.Info.Size(), MTime: hit.Info.ModTime().UTC(), Host: s.host, User: h.user}, tree: h.tree, local: filepath.ToSlash(rel), verified: false}
			s.add(r)
			if r.Kind == catalog.KindSQLite {
				stores = append(stores, r)
			}
			return nil
		}
		return visit
	}
	for _, h := range homes {
		s.looseFolders(h, rt)
		if err := catalog.WalkHome(h.dir, catalog.All(), mkVisit(h)); err != nil {
			s.Close() // the folders the walk held open
			return nil, err
		}
		for _, r := range s.looseRelocations(h) {
			h2 := h
			h2.relocFolder, h2.relocOrig = r.folder, r.orig
			if err := catalog.WalkLinked(r.walked, r.folder, r.agents, mkVisit(h2)); err != nil {
				s.Close()
				return nil, err
			}
		}
	}
	// A store's -wal, -shm and -journal travel with it, as the collector
	// copies them, whether or not a target of the catalog walks them.
	for _, r := range stores {
		s.addSidecars(r, rt)
	}
	return s, nil
}

// input builds the parser.Input for one file of the source.
func (s *Source) parserInput(r *File, tmpRoot string, dbs *[]*dbCloser) *parser.Input {
	in := &parser.Input{File: r.File}
	in.OpenFunc = func() (io.ReadCloser, error) { return s.open(r) }
	in.RelatedFunc = func(orig string) (io.ReadCloser, error) {
		o, ok := s.byPath[orig]
		if !ok {
			return nil, parser.ErrNotCollected
		}
		return s.open(o)
	}
	in.ListFunc = s.list
	in.DBFunc = func(ctx context.Context) (*sql.DB, error) {
		dir, err := os.MkdirTemp(tmpRoot, "doubleagent-db-*")
		if err != nil {
			return nil, err
		}
		name := path.Base(r.Path)
		if name == "" || name == "." || name == "/" {
			name = "store.db"
		}
		dst := filepath.Join(dir, name)
		if err := s.copyFile(r, dst); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		for _, sc := range catalog.Sidecars {
			if o, ok := s.byPath[r.Path+sc]; ok {
				if err := s.copyFile(o, dst+sc); err != nil {
					os.RemoveAll(dir)
					return nil, err
				}
			}
		}
		db, err := sql.Open("sqlite", "file:"+dst+"?_pragma=query_only(1)&_pragma=busy_timeout(1000)")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("SQLite store %s: %w", r.Path, err)
		}
		// A few connections, not one: a parser that runs a query while
		// another's rows are open waits for a free connection without
		// regard to its context, which with one connection is a hang no
		// budget ends (the tests' stores keep one, so such a parser fails
		// its own tests instead).
		db.SetMaxOpenConns(4)
		// Read the schema now: a store whose header or schema is corrupt
		// (a valid magic, a page size of 0) fails here, naming the store,
		// rather than reading as a database without tables.
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			db.Close()
			os.RemoveAll(dir)
			return nil, fmt.Errorf("SQLite store %s cannot be read: %w", r.Path, err)
		}
		*dbs = append(*dbs, &dbCloser{DB: db, dir: dir})
		return db, nil
	}
	return in
}

type dbCloser struct {
	*sql.DB
	dir string
}

func (d *dbCloser) close() {
	d.DB.Close()
	os.RemoveAll(d.dir)
}

func (s *Source) copyFile(src *File, dst string) error {
	in, err := s.open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// readFrom is local when a link was followed to reach it, else "".
func readFrom(followed bool, local string) string {
	if followed {
		return local
	}
	return ""
}

// reasonOf is plainReason's text alone.
func reasonOf(err error) string {
	why, _ := plainReason(err)
	return why
}

// manifestAgents maps each path of the manifest to the agent its rows
// name, so a bundle's problem about a path (a row's error, a checksum
// mismatch) is counted under its agent as an extracted collection's is;
// a path two rows give two agents maps to none.
func manifestAgents(rows []bundle.Entry) map[string]string {
	m := map[string]string{}
	for _, e := range rows {
		if a, ok := m[e.Path]; ok && a != e.Agent {
			m[e.Path] = ""
			continue
		}
		m[e.Path] = e.Agent
	}
	return m
}

// owned gives a manifest row the owner's agent, target and kind when its
// agent's target names a path the catalog gives another agent, or it is
// the folder row of a folder several agents name (catalog.SharedFolderOwner)
// (catalog.SharedOwner: a collector before catalog 2026.12.03.4 named a
// path two agents' targets match by the first agent in name order), and
// returns the agent/target the row named.
func owned(e *bundle.Entry) (string, bool) {
	if e.Agent == "" || e.Target == "" {
		return "", false
	}
	rel := relToHome(e.Path, e.Home)
	if e.Status == bundle.StatusFolder {
		f, ok := catalog.SharedFolderOwner(rel)
		if !ok || f.Agent == e.Agent {
			return "", false
		}
		was := e.Agent + "/" + e.Target
		e.Agent, e.Target, e.Kind = f.Agent, f.Target.ID, string(f.Target.Kind)
		return was, true
	}
	a, t, ok := catalog.SharedOwner(rel, e.Agent, e.Target)
	if !ok {
		return "", false
	}
	was := e.Agent + "/" + e.Target
	e.Agent, e.Target, e.Kind = a, t.ID, string(t.Kind)
	return was, true
}

// sharedPathProblem says that e, re-attributed by owned, was named was
// by its manifest.
func sharedPathProblem(e bundle.Entry, was string) Problem {
	what, how := "file", "match"
	if e.Status == bundle.StatusFolder {
		what, how = "folder", "name"
	}
	return Problem{Kind: KindSharedPath, SourceFile: e.Path, Agent: e.Agent,
		Message: "the manifest names this " + what + " " + was + "; the catalog gives the path to " + e.Agent + "/" + e.Target + " (catalog/shared.go: two agents' targets " + how + " it, and a collector before catalog 2026.12.03.4 named it by the first agent by name): read as " + e.Agent + "'s"}
}
