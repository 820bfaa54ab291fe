package analyze

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// Input kinds, detected by content.
const (
	KindBundle    = "bundle"
	KindExtracted = "extracted"
	KindLoose     = "loose"
	KindFolder    = "folder" // a folder of bundles (expanded into bundles)
)

// Problem is something wrong found while reading an input; it is written
// to problems.jsonl and counted in the inventory, never silent.
type Problem struct {
	Host       string `json:"host"`
	BundleID   string `json:"bundle_id"`
	Input      string `json:"input"`
	SourceFile string `json:"source_file"`
	SourceLine int64  `json:"source_line"`
	Agent      string `json:"agent"`
	Parser     string `json:"parser"`
	Kind       string `json:"kind"`
	Message    string `json:"message"`
}

// fileRec is one collected file available to parsers.
type fileRec struct {
	sum string // SHA-256 of a spooled member
	parser.File
	local    string // readable path on disk (loose or extracted file); "" when spooled
	verified bool
	// A bundle member is spooled into its source's one spool file, at
	// [off, off+n).
	spooled bool
	off, n  int64
}

// source is one unit of work: one bundle, one extracted collection or one
// loose tree.
type source struct {
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
	files    []*fileRec
	byPath   map[string]*fileRec
	problems []Problem
	tmp      string
	spool    *os.File // bundle members, one after the other
	// seen counts every manifest row (or walked file) per user and agent,
	// collected or not, for detect and the inventory.
	seen []seenFile
	// manifest keeps the manifest rows (or walked files) when the run
	// writes a bodyfile.
	manifest []bundle.Entry
}

type seenFile struct {
	user, agent, status string
	size                int64
	parsable            bool
}

func (s *source) problem(p Problem) {
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

func (s *source) add(r *fileRec) {
	if s.byPath == nil {
		s.byPath = map[string]*fileRec{}
	}
	if _, dup := s.byPath[r.Path]; dup {
		return
	}
	s.byPath[r.Path] = r
	s.files = append(s.files, r)
}

func (s *source) close() {
	if s.spool != nil {
		s.spool.Close()
		s.spool = nil
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
}

// detectInput classifies path by content and returns the sources it holds.
func detectInput(p string) ([]string, string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, "", err
	}
	if !fi.IsDir() {
		if isBundleFile(p) {
			return []string{p}, KindBundle, nil
		}
		return nil, "", fmt.Errorf("%s: not a bundle (no zstd frame) and not a folder", p)
	}
	if isExtracted(p) {
		return []string{p}, KindExtracted, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return nil, "", err
	}
	var bundles []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			fp := filepath.Join(p, e.Name())
			if isBundleFile(fp) {
				bundles = append(bundles, fp)
			}
		}
	}
	if len(bundles) > 0 {
		sort.Strings(bundles)
		return bundles, KindFolder, nil
	}
	return []string{p}, KindLoose, nil
}

func isBundleFile(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 4)
	n, _ := io.ReadFull(f, b)
	return bundle.Sniff(b[:n])
}

func isExtracted(p string) bool {
	b, err := os.ReadFile(filepath.Join(p, bundle.HeaderName))
	if err != nil {
		return false
	}
	var h bundle.Header
	if json.Unmarshal(b, &h) != nil || h.FormatVersion == 0 {
		return false
	}
	_, err = os.Stat(filepath.Join(p, "files"))
	return err == nil
}

// parsedAgents is the set of agents some parser reads.
type router struct {
	parsers []parser.Parser
	agents  map[string]bool
	// secrets are the agents one of whose parsers reads secret-kind files.
	secrets map[string]bool
	// keepManifest asks sources to keep their manifest rows (bodyfile).
	keepManifest bool
}

func newRouter(ps []parser.Parser) *router {
	r := &router{parsers: ps, agents: map[string]bool{}, secrets: map[string]bool{}}
	for _, p := range ps {
		r.agents[p.Agent()] = true
		if readsSecrets(p) {
			r.secrets[p.Agent()] = true
		}
	}
	return r
}

func readsSecrets(p parser.Parser) bool {
	sp, ok := p.(parser.Specced)
	return ok && sp.Spec().ReadsSecretKind
}

// wants reports whether some parser may read a file of agent and kind.
func (r *router) wants(agent string, kind catalog.Kind) bool {
	if !r.agents[agent] {
		return false
	}
	return kind != catalog.KindSecret || r.secrets[agent]
}

// matches reports whether p reads f: secret-kind files only go to parsers
// that declare ReadsSecretKind.
func matches(p parser.Parser, f *parser.File) bool {
	if f.Kind == catalog.KindSecret && !readsSecrets(p) {
		return false
	}
	return p.Match(f)
}

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
func openBundle(ctx context.Context, p, tmpRoot string, rt *router, limits *bundle.Options) (*source, error) {
	s := &source{kind: KindBundle, input: p}
	if sc, err := bundle.CheckSidecar(p); err != nil {
		s.problem(Problem{Kind: "sidecar", Message: "cannot check " + p + ".sha256: " + err.Error()})
	} else if sc.Present && !sc.OK {
		s.problem(Problem{Kind: "sidecar_mismatch", Message: sc.Msg})
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The bundle file's own SHA-256, for run.json: hashed as it is read,
	// and the rest (anything after what the reader consumed) at the end.
	fh := sha256.New()
	defer func() {
		if _, err := io.Copy(fh, f); err == nil {
			s.sum = hex.EncodeToString(fh.Sum(nil))
		}
	}()
	br, err := bundle.Open(io.TeeReader(f, fh), limits)
	if err != nil {
		return nil, err
	}
	s.header = &br.Header
	s.host, s.bundleID = br.Header.Host.Hostname, br.Header.BundleID
	tmp, err := os.MkdirTemp(tmpRoot, "doubleagent-bundle-*")
	if err != nil {
		return nil, err
	}
	s.tmp = tmp
	// Every member goes into one spool file: creating a file per member
	// cost more than copying it on filesystems where creation is slow.
	sp, err := os.OpenFile(filepath.Join(tmp, "spool"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		s.close()
		return nil, err
	}
	s.spool = sp
	sw := &spoolWriter{f: sp}
	dups := map[string][]*fileRec{}
	for {
		if ctx.Err() != nil {
			s.close()
			return nil, ctx.Err()
		}
		m, err := br.Next()
		if err != nil {
			break
		}
		e := m.Entry
		if !rt.wants(e.Agent, catalog.Kind(e.Kind)) {
			continue // drained by the reader, hashed, never written
		}
		off, n, err := sw.copy(m)
		if err != nil {
			if errors.Is(err, bundle.ErrLimit) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			s.close()
			return nil, fmt.Errorf("spool %s: %w", e.Path, err)
		}
		rec := &fileRec{File: parser.File{Path: e.Path, Rel: relToHome(e.Path, e.Home), Agent: e.Agent, Target: e.Target,
			Kind: catalog.Kind(e.Kind), Size: e.Size, MTime: bundle.MemberMTime(e), Host: s.host, User: e.User, BundleID: s.bundleID}, spooled: true, off: off, n: n, sum: m.Sum()}
		if prev, dup := s.byPath[e.Path]; dup {
			// A second member for one path: keep the copy the manifest's
			// hash vouches for (decided below); the reader reports both.
			dups[e.Path] = append(dups[e.Path], prev, rec)
			continue
		}
		s.add(rec)
	}
	if err := sw.flush(); err != nil {
		s.close()
		return nil, fmt.Errorf("spool: %w", err)
	}
	res := br.Result()
	s.summary, s.log = res.Summary, res.Log
	for _, e := range res.Manifest {
		if e.ChangedDuringCopy {
			s.changed++
		}
	}
	for _, pr := range res.Problems {
		s.problem(Problem{Kind: pr.Kind, SourceFile: pr.Path, Message: pr.String()})
	}
	byArchive := map[string]bundle.Entry{}
	for _, e := range res.Manifest {
		if e.ArchivePath != "" {
			byArchive[e.Path] = e
		}
		if cands, ok := dups[e.Path]; ok {
			for _, c := range cands {
				if c.sum == e.SHA256 {
					*s.byPath[e.Path] = *c // the copy the manifest names; still unverified
					break
				}
			}
		}
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.agents[e.Agent]})
		if rt.keepManifest {
			s.manifest = append(s.manifest, e)
		}
	}
	if res.Manifest == nil {
		for _, r := range s.files {
			s.seen = append(s.seen, seenFile{user: r.User, agent: r.Agent, status: bundle.StatusCollected, size: r.Size, parsable: true})
		}
	}
	for _, r := range s.files {
		if e, ok := byArchive[r.Path]; ok {
			r.verified = res.Verified[e.ArchivePath]
			if t := bundle.MemberMTime(e); !t.IsZero() {
				r.MTime = t
			}
		}
	}
	return s, nil
}

// spoolWriter appends members to a source's spool file through one
// buffer (a fresh 1 MiB buffer per member cost more than the copy for a
// bundle of small files).
type spoolWriter struct {
	f   *os.File
	bw  *bufio.Writer
	end int64
}

// copy appends r and returns where its bytes start and how many there are.
// After an error the bytes written count for nothing.
func (w *spoolWriter) copy(r io.Reader) (off, n int64, err error) {
	if w.bw == nil {
		w.bw = bufio.NewWriterSize(writerOnly{w.f}, 1<<20)
	}
	off = w.end
	n, err = io.Copy(w.bw, r)
	w.end += n
	return off, n, err
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
func (s *source) open(r *fileRec) (io.ReadCloser, error) {
	if r.spooled {
		return io.NopCloser(io.NewSectionReader(s.spool, r.off, r.n)), nil
	}
	return os.Open(r.local)
}

// openExtracted reads a bundle already unpacked into a folder: its
// bundle.json, manifest.jsonl and files/. Each file is hashed against the
// manifest before use.
func openExtracted(ctx context.Context, dir string, rt *router) (*source, error) {
	s := &source{kind: KindExtracted, input: dir}
	b, err := os.ReadFile(filepath.Join(dir, bundle.HeaderName))
	if err != nil {
		return nil, err
	}
	var h bundle.Header
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("%s: %w", bundle.HeaderName, err)
	}
	if h.FormatVersion < bundle.MinFormatVersion || h.FormatVersion > bundle.MaxFormatVersion {
		return nil, fmt.Errorf("%w: %d", bundle.ErrUnsupportedVersion, h.FormatVersion)
	}
	s.header = &h
	s.host, s.bundleID = h.Host.Hostname, h.BundleID
	mf, err := os.Open(filepath.Join(dir, bundle.ManifestName))
	if err != nil {
		s.problem(Problem{Kind: bundle.ProblemNoManifest, Message: "extracted collection has no manifest.jsonl: files cannot be verified or attributed"})
		return s, nil
	}
	defer mf.Close()
	dec := json.NewDecoder(bufio.NewReader(mf))
	root, _ := filepath.Abs(dir)
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var e bundle.Entry
		if err := dec.Decode(&e); err != nil {
			if err != io.EOF {
				s.problem(Problem{Kind: bundle.ProblemManifest, Message: err.Error()})
			}
			break
		}
		if e.Record != bundle.RecordFile {
			if e.Record == bundle.RecordSummary {
				continue
			}
			continue
		}
		s.seen = append(s.seen, seenFile{user: e.User, agent: e.Agent, status: e.Status, size: e.Size, parsable: rt.agents[e.Agent]})
		if rt.keepManifest {
			s.manifest = append(s.manifest, e)
		}
		if e.ArchivePath == "" || !rt.wants(e.Agent, catalog.Kind(e.Kind)) {
			continue
		}
		if why := bundle.UnsafeName(e.ArchivePath); why != "" {
			s.problem(Problem{Kind: bundle.ProblemUnsafe, SourceFile: e.Path, Message: why})
			continue
		}
		local := filepath.Join(root, filepath.FromSlash(e.ArchivePath))
		fi, err := os.Lstat(local)
		if err != nil || !fi.Mode().IsRegular() {
			s.problem(Problem{Kind: bundle.ProblemMissing, SourceFile: e.Path, Message: "listed as collected but missing (or not a regular file) in the extracted folder"})
			continue
		}
		sum, err := fileSHA256(local)
		if err != nil || sum != e.SHA256 {
			s.problem(Problem{Kind: bundle.ProblemChecksum, SourceFile: e.Path, Message: fmt.Sprintf("manifest sha256 %s, file %s", e.SHA256, sum)})
		}
		s.add(&fileRec{File: parser.File{Path: e.Path, Rel: relToHome(e.Path, e.Home), Agent: e.Agent, Target: e.Target, Kind: catalog.Kind(e.Kind),
			Size: e.Size, MTime: bundle.MemberMTime(e), Host: s.host, User: e.User, BundleID: s.bundleID}, local: local, verified: err == nil && sum == e.SHA256})
	}
	return s, nil
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// looseHome is a home found in a loose tree.
type looseHome struct {
	user, dir, orig string
	only            string // when set, only hits under this walked dir count
}

// findLooseHomes infers homes in a loose tree: an image root (home/*,
// Users/*, root, mnt/*/Users/*), a single home (it holds agent state), or a
// lone agent folder such as a copied .claude (its parent is the home, and
// only that folder is read).
func findLooseHomes(dir string) []looseHome {
	abs, _ := filepath.Abs(dir)
	var out []looseHome
	for _, pat := range []string{"home/*", "Users/*", "mnt/*/Users/*"} {
		ms, _ := filepath.Glob(filepath.Join(abs, pat))
		sort.Strings(ms)
		for _, m := range ms {
			if fi, err := os.Lstat(m); err == nil && fi.IsDir() {
				rel, _ := filepath.Rel(abs, m)
				out = append(out, looseHome{user: filepath.Base(m), dir: m, orig: "/" + filepath.ToSlash(rel)})
			}
		}
	}
	for _, r := range []string{"root", "var/root"} {
		m := filepath.Join(abs, r)
		if fi, err := os.Lstat(m); err == nil && fi.IsDir() {
			out = append(out, looseHome{user: "root", dir: m, orig: "/" + r})
		}
	}
	if len(out) > 0 {
		return out
	}
	base := filepath.Base(abs)
	if strings.HasPrefix(base, ".") {
		parent := filepath.Dir(abs)
		return []looseHome{{user: filepath.Base(parent), dir: parent, orig: filepath.ToSlash(parent), only: abs}}
	}
	return []looseHome{{user: base, dir: abs, orig: filepath.ToSlash(abs)}}
}

// openLoose walks a loose tree with the catalog, reading files in place
// (read-only).
func openLoose(ctx context.Context, dir string, rt *router) (*source, error) {
	abs, _ := filepath.Abs(dir)
	s := &source{kind: KindLoose, input: dir, inferred: true, host: "loose:" + filepath.Base(abs)}
	for _, h := range findLooseHomes(abs) {
		err := catalog.WalkHome(h.dir, catalog.All(), func(hit catalog.Hit) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if h.only != "" && hit.Path != h.only && !strings.HasPrefix(hit.Path, h.only+string(filepath.Separator)) {
				return nil
			}
			orig := h.orig + "/" + hit.Rel
			if hit.Err != nil {
				s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: orig, Agent: hit.Agent, Message: hit.Err.Error()})
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
			s.seen = append(s.seen, seenFile{user: h.user, agent: hit.Agent, status: status, size: hit.Info.Size(), parsable: rt.agents[hit.Agent]})
			if rt.keepManifest {
				// A loose tree has no manifest: the walk's own view (no
				// hash, the modification time only).
				s.manifest = append(s.manifest, bundle.Entry{Record: bundle.RecordFile, Path: orig, User: h.user, Agent: hit.Agent, Type: "file",
					Size: hit.Info.Size(), Mode: fmt.Sprintf("%o", hit.Info.Mode().Perm()), MTime: bundle.FormatTime(hit.Info.ModTime()), Status: status})
			}
			if status != bundle.StatusCollected || !rt.wants(hit.Agent, hit.Target.Kind) {
				return nil
			}
			s.add(&fileRec{File: parser.File{Path: orig, Rel: hit.Rel, Agent: hit.Agent, Target: hit.Target.ID, Kind: hit.Target.Kind,
				Size: hit.Info.Size(), MTime: hit.Info.ModTime().UTC(), Host: s.host, User: h.user}, local: hit.Path, verified: false})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// input builds the parser.Input for one file of the source.
func (s *source) parserInput(r *fileRec, tmpRoot string, dbs *[]*dbCloser) *parser.Input {
	in := &parser.Input{File: r.File}
	in.OpenFunc = func() (io.ReadCloser, error) { return s.open(r) }
	in.RelatedFunc = func(orig string) (io.ReadCloser, error) {
		o, ok := s.byPath[orig]
		if !ok {
			return nil, parser.ErrNotCollected
		}
		return s.open(o)
	}
	in.ListFunc = func(pattern string) []parser.File {
		var out []parser.File
		for _, f := range s.files {
			if ok, _ := doublestar.Match(pattern, f.Path); ok {
				out = append(out, f.File)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out
	}
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
			return nil, err
		}
		db.SetMaxOpenConns(1)
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

func (s *source) copyFile(src *fileRec, dst string) error {
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

var _ = bytes.NewReader
var _ = time.Now
