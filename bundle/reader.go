package bundle

import (
	"archive/tar"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/klauspost/compress/zstd"
)

// Options bound what a Reader will decompress.
type Options struct {
	// MaxMemberSize is the largest artifact accepted, in bytes (default 64 GiB).
	MaxMemberSize int64
	// MaxTotalSize bounds all decompressed bytes (default 4 TiB).
	MaxTotalSize int64
	// MaxRatio, when set, bounds decompressed/compressed bytes once past
	// 256 MiB decompressed. It is off by default: real evidence can be
	// preallocated or sparse files of NULs that compress 30,000:1, and a
	// member can never yield more than its header declares, so the
	// absolute bounds above are what stops a bomb.
	MaxRatio int64
	// MaxManifestSize bounds the manifest member (default 512 MiB) and
	// MaxManifestRows the rows kept from it (default 2,000,000), so a
	// manifest of tiny rows cannot take gigabytes of memory.
	MaxManifestSize int64
	MaxManifestRows int
	// MaxLogSize is how much of log.jsonl is kept (default 16 MiB).
	MaxLogSize int64
	// Identities open an age-encrypted bundle (encrypt.go); without them
	// Open refuses one with ErrEncrypted.
	Identities []age.Identity
}

func (o *Options) withDefaults() Options {
	var x Options
	if o != nil {
		x = *o
	}
	if x.MaxMemberSize <= 0 {
		x.MaxMemberSize = 64 << 30
	}
	if x.MaxTotalSize <= 0 {
		x.MaxTotalSize = 4 << 40
	}
	if x.MaxManifestSize <= 0 {
		x.MaxManifestSize = 512 << 20
	}
	if x.MaxManifestRows <= 0 {
		x.MaxManifestRows = 2_000_000
	}
	if x.MaxLogSize <= 0 {
		x.MaxLogSize = 16 << 20
	}
	return x
}

// Problem kinds a Reader reports.
const (
	ProblemChecksum   = "checksum_mismatch"
	ProblemMissing    = "missing_member"
	ProblemUnlisted   = "unlisted_member"
	ProblemTruncated  = "truncated"
	ProblemNoManifest = "no_manifest"
	ProblemUnsafe     = "unsafe_member"
	ProblemLimit      = "size_limit"
	ProblemManifest   = "bad_manifest"
	ProblemIncomplete = "incomplete_collection"
	ProblemDuplicate  = "duplicate_member"
	// ProblemTrailing: data after the tar's end-of-archive (a second
	// bundle concatenated, appended bytes or frames); it is never read.
	ProblemTrailing = "trailing_data"
	// ProblemPAX: a member's PAX records (version 2: the "comment" record's path,
	// user, ...; version 1: DOUBLEAGENT.path, .user, ...)
	// contradict its manifest row; the manifest wins.
	ProblemPAX = "pax_mismatch"
	// ProblemContradiction: the manifest contradicts itself or the
	// members (a row not collected whose member is present, two rows for
	// one member, the summary not last or repeated).
	ProblemContradiction = "manifest_contradiction"
	// ProblemHeader: bundle.json lacks what every bundle has (bundle_id).
	ProblemHeader = "bad_header"
	// ProblemChanged and ProblemRowError are warnings: the collector
	// recorded that a file kept changing while copied, or an error for a
	// path (unreadable, a short read padded with zeros).
	ProblemChanged  = "changed_during_copy"
	ProblemRowError = "row_error"
	// ProblemLinkOutsideHomes is a warning too: a link the collector
	// followed by its link policy (the target owned by the home's owner)
	// to a target outside every home and container volume folder of the
	// host (a manifest row with outside_homes), whose files are attributed
	// to the home. A tree read in place reports the same.
	ProblemLinkOutsideHomes = "link_outside_homes"
)

// Warning reports whether p is a warning, which does not fail
// verification: the collector itself recorded it (an interrupted
// collection, a file that changed during the copy, an unreadable path).
func (p Problem) Warning() bool {
	switch p.Kind {
	case ProblemIncomplete, ProblemChanged, ProblemRowError, ProblemLinkOutsideHomes:
		return true
	}
	return false
}

// Problem is something wrong with a bundle, reported rather than fatal.
type Problem struct {
	Kind   string `json:"kind"`
	Member string `json:"member"`
	Path   string `json:"path"`
	Msg    string `json:"msg"`
}

func (p Problem) String() string {
	s := p.Kind
	if p.Path != "" {
		s += " " + p.Path
	} else if p.Member != "" {
		s += " " + p.Member
	}
	if p.Msg != "" {
		s += ": " + p.Msg
	}
	return s
}

// Member is one artifact being read. Read its content before the next
// call to Reader.Next; the reader hashes it as it goes.
type Member struct {
	// Name is the archive member name.
	Name string
	// Entry holds what the member's PAX records say (Path, Agent, Target,
	// Kind, User, Home, MTime at second precision, Size). The manifest's
	// row, with full times and the hash, is reconciled at the end.
	Entry Entry
	r     io.Reader
	h     ContentHash // in the Member: no allocation of its own
	n     int64
	sum   string
	pax   Entry // the PAX records as written (no defaults) and the tar mtime
	rd    *Reader
}

// Read reads the member's content. An error other than io.EOF is the
// stream's (cut short, corrupt, over a limit): the reader records it at
// once as the problem naming this member, as Next would, so a caller that
// stops reading there still finds it in Result.
func (m *Member) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.n += int64(n)
	if err != nil && err != io.EOF && m.rd != nil && m.rd.cur == m && m.rd.failed == nil {
		m.rd.cur = nil
		m.rd.failIn(m, err)
	}
	return n, err
}

// Reader reads a bundle as a stream.
type Reader struct {
	Header Header
	opts   Options
	cnt    *countReader
	dcnt   *countReader
	zr     *zstd.Decoder
	tr     *tar.Reader
	cur    *Member
	seen   map[string]seenMember
	order  []string
	res    Result
	done   bool
	failed error
	// summaries counts summary rows; rowsAfter counts file rows after
	// the first one; partial is set when any summary says incomplete.
	summaries, rowsAfter int
	partial              bool
	trailingChecked      bool
	// manifests and logs count the manifest.jsonl and log.jsonl members:
	// a second one is reported and read after the first, never in its
	// place.
	manifests, logs int
	// last is the member whose header was read last (bundle.json at
	// first), so a stream that stops between members names where.
	last lastMember
	// lastHash is the content hash of the last artifact read whole
	// (lastName), for a row whose copy the interruption cut.
	lastHash *ContentHash
	lastName string
}

// lastMember is the member a cut between members follows: whole is false
// for a member skipped unread (its content is skipped by the tar reader,
// so a cut there is in or after it).
type lastMember struct {
	name, path string
	whole      bool
}

type seenMember struct {
	sum  string
	size int64
	path string
	dups []string // hashes of earlier members under the same name
	pax  Entry    // what the member's PAX records and tar header say
}

// Result is what a full read established.
type Result struct {
	// Manifest is every file row, nil when the manifest is missing.
	Manifest []Entry
	// Summary is the manifest's closing row, nil when missing.
	Summary *Summary
	// Log is the start of the collector's log.
	Log []byte
	// Problems lists everything wrong, in the order found.
	Problems []Problem
	// Verified maps member names whose hash matched the manifest.
	Verified map[string]bool
	// Members is how many artifact members were read.
	Members int
	// Followed maps a member name that passes a link followed under the
	// link policy to the real path it was read at (an extracted
	// collection only; a bundle holds no link).
	Followed map[string]string
	// Complete is true when the stream ended cleanly after the manifest
	// and the summary says the collection completed.
	Complete bool
	// Truncated is true when the stream was cut short or corrupt.
	Truncated bool
	// Encrypted is true when the bundle was read through its age layer.
	Encrypted bool
}

type countReader struct {
	r   io.Reader
	n   int64
	lim func(n int64) error
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.lim != nil && n > 0 {
		if lerr := c.lim(c.n); lerr != nil {
			return n, lerr
		}
	}
	return n, err
}

// Open starts reading a bundle from r and reads its header. It returns
// ErrNotBundle when r is not a zstd tar stream beginning with bundle.json
// and ErrUnsupportedVersion for a version outside the supported range.
func Open(r io.Reader, opts *Options) (*Reader, error) {
	o := opts.withDefaults()
	br := &Reader{opts: o, seen: map[string]seenMember{}}
	src, enc, err := decryptLayer(bufio.NewReaderSize(r, 1<<20), o.Identities)
	if err != nil {
		return nil, err
	}
	br.res.Encrypted = enc
	br.cnt = &countReader{r: src}
	zr, err := zstd.NewReader(br.cnt, zstd.WithDecoderMaxMemory(1<<31), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	br.zr = zr
	br.dcnt = &countReader{r: zr, lim: func(n int64) error {
		if n > o.MaxTotalSize {
			return fmt.Errorf("%w: more than %d bytes decompressed", ErrLimit, o.MaxTotalSize)
		}
		if o.MaxRatio > 0 && n > 256<<20 && br.cnt.n > 0 && n/br.cnt.n > o.MaxRatio {
			return fmt.Errorf("%w: decompressed/compressed ratio over %d (decompression bomb?)", ErrLimit, o.MaxRatio)
		}
		return nil
	}}
	br.tr = tar.NewReader(br.dcnt)
	h, err := br.tr.Next()
	if err != nil {
		zr.Close()
		if enc && errors.Is(err, ErrCiphertext) {
			// age delivers a 64 KiB chunk only once it authenticates: a
			// cut or a changed byte in the first chunk, which holds
			// bundle.json, leaves nothing to read. A damaged bundle, as a
			// plain one cut inside bundle.json.
			return nil, headerCut(err, "encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds %s (age delivers a chunk only once it authenticates: without it nothing can be read): %v", HeaderName, err)
		}
		if br.dcnt.n > 0 || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, headerCut(err, "cut short or corrupt in %s, its first member (the header: without it nothing can be read): %v", HeaderName, err)
		}
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	if h.Name != HeaderName || h.Typeflag != tar.TypeReg {
		zr.Close()
		return nil, fmt.Errorf("%w: first member is %q, not %s", ErrNotBundle, h.Name, HeaderName)
	}
	if h.Size > 1<<20 {
		zr.Close()
		return nil, &FormatError{Member: HeaderName, Msg: "header larger than 1 MiB"}
	}
	b, err := io.ReadAll(br.tr)
	if err != nil {
		zr.Close()
		return nil, headerCut(err, "cut short or corrupt in %s, its first member, after %d of its %d bytes (the header: without it nothing can be read): %v", HeaderName, len(b), h.Size, err)
	}
	br.last = lastMember{name: HeaderName, whole: true}
	if br.Header, err = DecodeHeader(b); err != nil {
		zr.Close()
		return nil, err
	}
	if why := HeaderProblem(&br.Header); why != "" {
		br.problem(ProblemHeader, HeaderName, "", why)
	}
	return br, nil
}

// HeaderProblem says what is wrong with a header that parsed ("" when
// nothing): a bundle always has a bundle_id.
func HeaderProblem(h *Header) string {
	if strings.TrimSpace(h.BundleID) == "" {
		return "bundle_id is empty: rows from this bundle cannot be told from another's"
	}
	return ""
}

func (r *Reader) problem(kind, member, path, msg string) {
	r.res.Problems = append(r.res.Problems, Problem{Kind: kind, Member: member, Path: path, Msg: msg})
}

// finishMember drains and records the current member.
func (r *Reader) finishMember() error {
	m := r.cur
	if m == nil {
		return nil
	}
	r.cur = nil
	if _, err := io.Copy(io.Discard, m); err != nil {
		return err
	}
	m.sum = m.h.Sum()
	sm := seenMember{sum: m.sum, size: m.n, path: m.Entry.Path, pax: m.pax}
	// The last artifact's hash is kept whole: a collection interrupted
	// inside a file ends with it, and its row (interrupted_at, read with
	// the manifest) is checked against its first bytes.
	r.lastHash, r.lastName = &m.h, m.Name
	if prev, dup := r.seen[m.Name]; dup {
		// Two members under one name: a forged copy may shadow the genuine
		// one. Neither is trusted; both hashes are kept for the report.
		r.problem(ProblemDuplicate, m.Name, m.Entry.Path, "member name appears more than once in the bundle: no copy is verified")
		sm.dups = append(prev.dups, prev.sum)
	}
	r.seen[m.Name] = sm
	r.order = append(r.order, m.Name)
	r.res.Members++
	r.last = lastMember{name: m.Name, path: m.Entry.Path, whole: true}
	return nil
}

// Sum returns the SHA-256 of the member's bytes read so far: its hash
// once it has been read to the end.
func (m *Member) Sum() string {
	if m.sum != "" {
		return m.sum
	}
	return m.h.Sum()
}

// Next returns the next artifact member, or io.EOF once the artifacts are
// over (the manifest and log have then been read; call Result). Any other
// error means the stream is cut short or corrupt: what was read so far
// stays valid and Result says what is missing.
func (r *Reader) Next() (*Member, error) {
	if r.done {
		return nil, io.EOF
	}
	if r.failed != nil {
		return nil, r.failed
	}
	if cut := r.cur; cut != nil {
		if err := r.finishMember(); err != nil {
			return nil, r.failIn(cut, err)
		}
	}
	for {
		h, err := r.tr.Next()
		if err == io.EOF {
			r.done = true
			return nil, io.EOF
		}
		if err != nil {
			return nil, r.failAfter(err)
		}
		switch {
		case h.Name == ManifestName:
			mr := &countReader{r: r.tr}
			rows := len(r.res.Manifest)
			if err := r.readManifest(h, mr); err != nil {
				return nil, r.failInMeta(ManifestName, mr.n, h.Size, fmt.Sprintf("%d manifest rows read, the rest and the summary row lost", len(r.res.Manifest)-rows), err)
			}
			r.last = lastMember{name: ManifestName, whole: true}
			continue
		case h.Name == LogName:
			if r.logs++; r.logs == 2 {
				r.problem(ProblemDuplicate, LogName, "", "member name appears more than once in the bundle: every copy is kept, one after the other")
			}
			lr := &countReader{r: r.tr}
			lim := io.LimitReader(lr, max(r.opts.MaxLogSize-int64(len(r.res.Log)), 0))
			b, err := io.ReadAll(lim)
			r.res.Log = append(r.res.Log, b...)
			if err == nil {
				_, err = io.Copy(io.Discard, lr)
			}
			if err != nil {
				return nil, r.failInMeta(LogName, lr.n, h.Size, "the collector's log is kept up to the cut", err)
			}
			r.last = lastMember{name: LogName, whole: true}
			continue
		}
		if h.Typeflag != tar.TypeReg {
			r.problem(ProblemUnsafe, h.Name, "", fmt.Sprintf("member of type %q is not a regular file: skipped", string(h.Typeflag)))
			r.last = lastMember{name: h.Name}
			continue
		}
		if why := UnsafeName(h.Name); why != "" {
			r.problem(ProblemUnsafe, h.Name, "", why+": skipped, never written")
			r.last = lastMember{name: h.Name}
			continue
		}
		if !strings.HasPrefix(h.Name, FilesPrefix) {
			r.problem(ProblemUnlisted, h.Name, "", "unexpected member: skipped")
			r.last = lastMember{name: h.Name}
			continue
		}
		meta := r.memberMeta(h)
		if h.Size > r.opts.MaxMemberSize || h.Size < 0 {
			r.problem(ProblemLimit, h.Name, meta.Path, fmt.Sprintf("member of %d bytes over the %d-byte limit: skipped", h.Size, r.opts.MaxMemberSize))
			r.last = lastMember{name: h.Name, path: meta.Path}
			continue
		}
		e := Entry{Record: RecordFile, Path: meta.Path, ArchivePath: h.Name,
			Agent: meta.Agent, Target: meta.Target, Kind: meta.Kind,
			User: meta.User, Home: meta.Home, Type: "file", Size: h.Size,
			MTime: FormatTime(h.ModTime), Status: StatusCollected}
		if e.Path == "" {
			e.Path = "/" + strings.TrimPrefix(h.Name, FilesPrefix)
		}
		m := &Member{Name: h.Name, Entry: e, h: ContentHash{h: sha256.New()}, rd: r}
		m.pax = Entry{Path: meta.Path, Agent: e.Agent, Target: e.Target, Kind: e.Kind, User: e.User, Home: e.Home, MTime: e.MTime}
		m.r = io.TeeReader(r.tr, &m.h)
		r.cur = m
		return m, nil
	}
}

// memberMeta reads what an artifact member's PAX records say it is: the
// DOUBLEAGENT.* records of a version 1 bundle, the JSON object of the
// "comment" record from version 2. Missing or unreadable metadata is
// empty: the manifest then disagrees with it, and that is reported.
func (r *Reader) memberMeta(h *tar.Header) memberMeta {
	if r.Header.FormatVersion < 2 {
		return memberMeta{Path: h.PAXRecords[paxPath], User: h.PAXRecords[paxUser], Home: h.PAXRecords[paxHome],
			Agent: h.PAXRecords[paxAgent], Target: h.PAXRecords[paxTarget], Kind: h.PAXRecords[paxKind]}
	}
	var m memberMeta
	if c, ok := h.PAXRecords[paxComment]; ok {
		if err := json.Unmarshal([]byte(c), &m); err != nil {
			return memberMeta{}
		}
	}
	return m
}

// metaNames are the names a problem message gives the member metadata
// fields, per format version.
func metaNames(version int) [6]string {
	if version < 2 {
		return [6]string{paxPath, paxUser, paxHome, paxAgent, paxTarget, paxKind}
	}
	return [6]string{"comment.path", "comment.user", "comment.home", "comment.agent", "comment.target", "comment.kind"}
}

// failAfter is fail for a stream that stops between members (in the
// tar header of the next one, or the end-of-archive): the problem names
// the member it stops after.
func (r *Reader) failAfter(err error) error {
	what := "after this member, whose bytes came whole,"
	if !r.last.whole {
		what = "in or after this member, skipped unread,"
	}
	return r.failWith(r.last.name, r.last.path, fmt.Sprintf("bundle cut short or corrupt %s before the next member's header or the end of the archive (%d whole artifacts): %s", what, r.res.Members, err), err)
}

// failIn is fail for a stream that ends inside the member cut: the
// problem names the member and its path, so the file whose bytes stop
// short is never left unnamed.
func (r *Reader) failIn(cut *Member, err error) error {
	return r.failWith(cut.Name, cut.Entry.Path, fmt.Sprintf("bundle cut short or corrupt inside this member after %d of its %d bytes (and %d whole artifacts): its content is incomplete, never verified: %s", cut.n, cut.Entry.Size, r.res.Members, err), err)
}

// failInMeta is failIn for the manifest or the log, read by the reader
// itself: what says what was kept.
func (r *Reader) failInMeta(name string, n, size int64, what string, err error) error {
	return r.failWith(name, "", fmt.Sprintf("bundle cut short or corrupt inside this member after %d of its %d bytes (and %d whole artifacts): %s: %s", n, size, r.res.Members, what, err), err)
}

// failWith records the stream's end as a problem naming member and path
// and makes the reader fail from now on.
func (r *Reader) failWith(member, path, msg string, err error) error {
	r.res.Truncated = true
	kind := ProblemTruncated
	if errors.Is(err, ErrLimit) {
		kind = ProblemLimit
	}
	r.problem(kind, member, path, msg)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: %v", ErrTruncated, err)
	}
	r.failed = err
	return err
}

// ErrTruncated marks a stream that ends early.
var ErrTruncated = errors.New("bundle: stream cut short")

// readManifest reads the manifest member's rows from mr (the tar reader
// counted); an error is the stream's (cut short or corrupt, or over a
// limit), never the manifest's syntax, which is a problem.
func (r *Reader) readManifest(h *tar.Header, mr *countReader) error {
	// A second manifest member adds its rows to the first one's: a copy
	// that re-lists a forged member then contradicts the genuine row
	// instead of silently replacing it.
	if r.manifests++; r.manifests == 2 {
		r.problem(ProblemDuplicate, ManifestName, "", "member name appears more than once in the bundle: the rows of every copy are read, so rows that disagree are reported")
	}
	if r.res.Manifest == nil {
		r.res.Manifest = []Entry{}
	}
	if h.Size > r.opts.MaxManifestSize {
		r.problem(ProblemLimit, ManifestName, "", fmt.Sprintf("manifest of %d bytes over the %d-byte limit: not read, nothing can be verified", h.Size, r.opts.MaxManifestSize))
		r.res.Manifest = nil
		_, err := io.Copy(io.Discard, mr)
		return err
	}
	src := &errReader{r: mr}
	dec := NewManifestDecoder(src)
	for {
		if len(r.res.Manifest) >= r.opts.MaxManifestRows {
			r.problem(ProblemLimit, ManifestName, "", fmt.Sprintf("manifest has more than %d rows: the rest is not read", r.opts.MaxManifestRows))
			_, err := io.Copy(io.Discard, mr)
			return err
		}
		row, err := dec.Next()
		if err != nil {
			if err == io.EOF {
				break
			}
			if src.err != nil {
				return src.err // the stream's end, not the manifest's syntax
			}
			r.problem(ProblemManifest, ManifestName, "", err.Error())
			if _, derr := io.Copy(io.Discard, mr); derr != nil {
				return derr
			}
			break
		}
		switch {
		case row.Err != nil:
			r.problem(ProblemManifest, ManifestName, "", row.Err.Error())
		case row.Summary != nil:
			r.res.Summary = row.Summary
			r.summaries++
			if !row.Summary.Complete {
				r.partial = true
			}
		case row.Entry != nil:
			if r.summaries > 0 {
				r.rowsAfter++
			}
			r.res.Manifest = append(r.res.Manifest, *row.Entry)
		default:
			r.problem(ProblemManifest, ManifestName, "", row.UnknownRecord())
		}
	}
	return nil
}

// errReader keeps the first error other than io.EOF its reader returned.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// Result reads anything left (without returning members), reconciles the
// artifacts read with the manifest, and closes the decompressor. It is
// safe to call after Next returned an error.
func (r *Reader) Result() *Result {
	if r.res.Verified != nil {
		return &r.res
	}
	for r.failed == nil && !r.done {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	if r.failed == nil {
		_ = r.finishMember()
	}
	if r.done && !r.trailingChecked {
		r.checkTrailing()
	}
	r.zr.Close()
	r.res.Verified = map[string]bool{}
	if r.res.Manifest == nil {
		r.problem(ProblemNoManifest, ManifestName, "", fmt.Sprintf("the bundle was cut short before its manifest: %d artifacts read cannot be verified", r.res.Members))
		return &r.res
	}
	listed := map[string]int{} // member name -> manifest rows naming it
	for _, e := range r.res.Manifest {
		r.rowWarnings(e)
		if e.ArchivePath == "" {
			if e.Status == StatusCollected {
				r.problem(ProblemMissing, "", e.Path, "listed as collected but names no member")
			}
			continue
		}
		listed[e.ArchivePath]++
		if listed[e.ArchivePath] == 2 {
			r.problem(ProblemContradiction, e.ArchivePath, e.Path, "two manifest rows name this member: it is not verified")
		}
		s, ok := r.seen[e.ArchivePath]
		if e.Status != StatusCollected {
			// Only a collected row has content; the writer never names a
			// member for any other status.
			what := "names a member that is not in the bundle"
			if ok {
				what = "but its member is present: the member is not verified"
			}
			r.problem(ProblemContradiction, e.ArchivePath, e.Path, fmt.Sprintf("row with status %s %s", e.Status, what))
			continue
		}
		if !ok {
			r.problem(ProblemMissing, e.ArchivePath, e.Path, "listed as collected but not in the bundle")
			continue
		}
		if len(s.dups) > 0 {
			continue // reported as duplicate_member: never verified
		}
		if e.InterruptedAt != nil {
			// The member holds the file's first bytes, then zero padding:
			// they are checked, and the member is never verified (it is
			// not the whole file); the row's error is the warning.
			switch {
			case e.ArchivePath != r.lastName || r.lastHash == nil:
				r.problem(ProblemContradiction, e.ArchivePath, e.Path, "row says the collection was interrupted while this file was copied, yet it is not the last artifact of the bundle: it is not verified")
			default:
				if msg := r.lastHash.Check(e); msg != "" {
					r.problem(ProblemChecksum, e.ArchivePath, e.Path, msg)
				}
			}
			if diff := paxDiff(r.Header.FormatVersion, s.pax, e); diff != "" {
				r.problem(ProblemPAX, e.ArchivePath, e.Path, "the member's PAX records contradict its manifest row ("+diff+"): the manifest's values are used and the member is not verified")
			}
			continue
		}
		if s.sum != e.SHA256 || s.size != e.Size {
			r.problem(ProblemChecksum, e.ArchivePath, e.Path, fmt.Sprintf("manifest sha256 %s (%d bytes), content %s (%d bytes)", e.SHA256, e.Size, s.sum, s.size))
			continue
		}
		if diff := paxDiff(r.Header.FormatVersion, s.pax, e); diff != "" {
			r.problem(ProblemPAX, e.ArchivePath, e.Path, "the member's PAX records contradict its manifest row ("+diff+"): the manifest's values are used and the member is not verified")
			continue
		}
		r.res.Verified[e.ArchivePath] = true
	}
	for name, n := range listed {
		if n > 1 {
			delete(r.res.Verified, name)
		}
	}
	for _, name := range r.order {
		if listed[name] == 0 {
			r.problem(ProblemUnlisted, name, r.seen[name].path, "member not in the manifest")
		}
	}
	switch {
	case r.res.Summary == nil:
		r.problem(ProblemManifest, ManifestName, "", "manifest has no closing summary row")
	case r.summaries > 1:
		r.problem(ProblemContradiction, ManifestName, "", fmt.Sprintf("manifest has %d summary rows, where the format has exactly one, last", r.summaries))
	case r.rowsAfter > 0:
		r.problem(ProblemContradiction, ManifestName, "", fmt.Sprintf("manifest has %d file rows after its summary row, which must be last", r.rowsAfter))
	}
	if r.res.Summary != nil {
		if r.partial {
			msg := "the collector marked this bundle incomplete"
			if r.res.Summary.Reason != "" {
				msg += ": " + r.res.Summary.Reason
			}
			r.problem(ProblemIncomplete, ManifestName, "", msg)
		}
		r.res.Complete = !r.partial && r.summaries == 1 && r.rowsAfter == 0 && !r.res.Truncated
	}
	return &r.res
}

// rowWarnings reports what the collector itself recorded about a row: a
// file that kept changing while it was copied, an error for the path. A
// skipped_* row's error is the reason it was skipped by design (over the
// size limit, a FIFO, --no-secrets), counted in the summary: not a warning.
func (r *Reader) rowWarnings(e Entry) {
	r.res.Problems = append(r.res.Problems, RowProblems(e)...)
}

// RowProblems returns the warnings a manifest row carries (see
// rowWarnings), for readers of an extracted collection too.
func RowProblems(e Entry) []Problem {
	var out []Problem
	if e.ChangedDuringCopy {
		out = append(out, Problem{Kind: ProblemChanged, Member: e.ArchivePath, Path: e.Path, Msg: "the file kept changing while it was copied: its content may be torn or padded"})
	}
	if e.Error != "" && !strings.HasPrefix(e.Status, "skipped_") {
		msg := e.Status + ": " + e.Error
		if e.FoundVia != "" && !strings.Contains(e.Error, e.FoundVia) {
			// A path a setting named (a relocated agent folder, or a file
			// under one): the setting and the file holding it, as a tree
			// read in place names them (once: a "relocation variable ...
			// not followed" error names them already).
			msg += " (found via " + e.FoundVia + ")"
		}
		out = append(out, Problem{Kind: ProblemRowError, Member: e.ArchivePath, Path: e.Path, Msg: msg})
	}
	if e.LinkFollowed && e.OutsideHomes {
		target := e.RealPath
		if target == "" {
			target = e.LinkTarget
		}
		out = append(out, Problem{Kind: ProblemLinkOutsideHomes, Member: e.ArchivePath, Path: e.Path,
			Msg: fmt.Sprintf("a link (to %q) followed by the link policy (its target %s is owned by the home's owner), though its target lies outside every home of the host and the container volume folders: its files are read as %s's", e.LinkTarget, target, e.User)})
	}
	return out
}

// paxDiff names the PAX records (and the tar mtime) of a member that
// differ from its manifest row, "" when they agree.
func paxDiff(version int, p, e Entry) string {
	var d []string
	n := metaNames(version)
	for _, f := range []struct{ name, pax, man string }{
		{n[0], p.Path, e.Path}, {n[1], p.User, e.User}, {n[2], p.Home, e.Home},
		{n[3], p.Agent, e.Agent}, {n[4], p.Target, e.Target}, {n[5], p.Kind, e.Kind},
	} {
		if f.pax != f.man {
			d = append(d, fmt.Sprintf("%s %q, manifest %q", f.name, clip(f.pax), clip(f.man)))
		}
	}
	mt := func(s string) time.Time {
		t := parseTime(s)
		if t.IsZero() {
			t = time.Unix(0, 0)
		}
		return t.Truncate(time.Second)
	}
	if !mt(p.MTime).Equal(mt(e.MTime)) {
		d = append(d, fmt.Sprintf("tar mtime %s, manifest %s", FormatTime(mt(p.MTime)), e.MTime))
	}
	return strings.Join(d, "; ")
}

// clip bounds a value quoted in a problem message.
func clip(s string) string {
	if len(s) > 256 {
		return s[:256] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}

// tarRecord is the tar blocking unit: a writer may pad the end of the
// archive with zeros up to it.
const tarRecord = 10240

// checkTrailing reads what follows the tar's end-of-archive: nothing, or
// at most one tar record of zero padding. Anything else (a second bundle
// concatenated, appended bytes, further frames) is reported and never
// read as part of this bundle.
func (r *Reader) checkTrailing() {
	r.trailingChecked = true
	var (
		buf     = make([]byte, 64<<10)
		total   int64
		nonzero = int64(-1) // offset of the first non-zero byte
		head    []byte      // bytes from the block holding it
	)
	for {
		n, err := r.dcnt.Read(buf)
		if n > 0 {
			if nonzero < 0 {
				for i, c := range buf[:n] {
					if c != 0 {
						nonzero = total + int64(i)
						start := i - i%512
						head = append([]byte(nil), buf[start:min(n, start+4096)]...)
						break
					}
				}
			} else if len(head) < 4096 {
				head = append(head, buf[:min(n, 4096-len(head))]...)
			}
			total += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := "bytes after the end of the archive that are not a zstd frame"
			if errors.Is(err, ErrLimit) {
				msg = "data after the end of the archive beyond the decompression limit"
			} else if errors.Is(err, ErrCiphertext) {
				msg = "the encrypted stream does not authenticate after the end of the archive"
			}
			r.problem(ProblemTrailing, "", "", fmt.Sprintf("%s (%v), after %d decompressed bytes: not read", msg, err, total))
			return
		}
	}
	switch {
	case nonzero >= 0:
		what := fmt.Sprintf("%d bytes of data after the end of the archive", total)
		if h, err := tar.NewReader(bytes.NewReader(head)).Next(); err == nil && h.Name == HeaderName {
			what += " (a second bundle appended)"
		}
		r.problem(ProblemTrailing, "", "", what+": not read; split it off and read it on its own")
	case total > tarRecord:
		r.problem(ProblemTrailing, "", "", fmt.Sprintf("%d bytes of zeros after the end of the archive, more than a tar record of padding", total))
	}
}

// Verify reads a whole bundle, re-hashing every artifact, and returns the
// header and the reconciliation. The error is non-nil only when r is not a
// bundle at all; everything else is in Result.Problems.
func Verify(r io.Reader, opts *Options) (*Header, *Result, error) {
	br, err := Open(r, opts)
	if err != nil {
		return nil, nil, err
	}
	for {
		if _, err := br.Next(); err != nil {
			break
		}
	}
	return &br.Header, br.Result(), nil
}

// MemberMTime is a helper for readers: the entry's mtime or zero.
func MemberMTime(e Entry) time.Time { return parseTime(e.MTime) }
