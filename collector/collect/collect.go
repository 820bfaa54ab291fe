package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
	"github.com/rs/zerolog"
)

// Version is the collector's version, recorded in every bundle.
const Version = "0.1.0"

// DefaultMaxFileSize is the per-file limit without --full: 256 MiB.
const DefaultMaxFileSize = 256 << 20

// Options configure a collection.
type Options struct {
	// Root is the tree taken as "/": "" or "/" for the live host.
	Root string
	// Host overrides the host name.
	Host string
	// Users limits the run to these account names (empty: all).
	Users []string
	// MaxFileSize is the per-file limit in bytes (0: DefaultMaxFileSize);
	// a catalog target's own MaxSize applies when smaller. Full lifts all
	// size limits.
	MaxFileSize int64
	Full        bool
	// NoSecrets skips files of kind secret (recorded as skipped_secret).
	NoSecrets bool
	// Case and Examiner are recorded in the header.
	Case, Examiner string
	// CommandLine is recorded exactly as invoked.
	CommandLine []string
	// Agents is the catalog to walk (nil: catalog.All()).
	Agents []catalog.Agent
	// Clock and NewID make runs deterministic in tests.
	Clock func() time.Time
	NewID func() string
	// LogWriter receives the collector's log as it runs (stderr, possibly a
	// zerolog.ConsoleWriter); nil for none. The JSON log is also stored in
	// the bundle as log.jsonl.
	LogWriter io.Writer
	// Progress, when set, is called after each artifact.
	Progress func(p Progress)
	// Retries bounds re-reads of a file that changes while read (default 3).
	Retries int
	// SettleDelay is waited between re-reads (default 50ms).
	SettleDelay time.Duration
	// ExcludePaths are walked paths never collected (the output itself).
	ExcludePaths []string
}

// Progress reports how far a collection is.
type Progress struct {
	Files int
	Bytes int64
	Agent string
	User  string
}

// Result summarises a collection.
type Result struct {
	BundleID string
	Header   bundle.Header
	Summary  bundle.Summary
	Homes    []Home
}

// ErrInterrupted is returned when ctx was cancelled; the bundle was still
// closed, marked incomplete.
var ErrInterrupted = errors.New("collection interrupted")

type collector struct {
	opts     Options
	w        *bundle.Writer
	log      zerolog.Logger
	done     map[string]bool
	projects map[string]projectRef
	files    int
	bytes    int64
	exclude  map[string]bool
}

type projectRef struct {
	user, home string
	walkedHome string
}

// Run collects into out. The log written to opts.Log is also kept (up to
// 16 MiB) and stored as the bundle's log.jsonl. A write error (a full disk)
// stops the run: the bundle written so far is closed as far as possible and
// the error returned. A cancelled ctx gives a complete, valid bundle marked
// incomplete, and ErrInterrupted.
func Run(ctx context.Context, out io.Writer, opts Options) (*Result, error) {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Retries <= 0 {
		opts.Retries = 3
	}
	if opts.SettleDelay <= 0 {
		opts.SettleDelay = 50 * time.Millisecond
	}
	if opts.Agents == nil {
		opts.Agents = catalog.All()
	}
	if opts.Root == "" {
		opts.Root = "/"
	}
	logBuf := &limitedBuffer{max: 16 << 20}
	var lw io.Writer = logBuf
	if opts.LogWriter != nil {
		lw = zerolog.MultiLevelWriter(logBuf, opts.LogWriter)
	}
	log := zerolog.New(lw).With().Timestamp().Logger()
	start := opts.Clock().UTC()
	id := ""
	if opts.NewID != nil {
		id = opts.NewID()
	} else {
		id = newBundleID()
	}
	host := hostFacts(opts)
	hdr := bundle.Header{BundleID: id, CollectorVersion: Version, CatalogVersion: catalog.Version,
		StartedUTC: bundle.FormatTimeMillis(start), RootMode: !isLive(opts.Root), Root: opts.Root, Host: host}
	w, err := bundle.NewWriter(out, hdr)
	if err != nil {
		return nil, fmt.Errorf("write bundle header: %w", err)
	}
	c := &collector{opts: opts, w: w, log: log, done: map[string]bool{}, projects: map[string]projectRef{}, exclude: map[string]bool{}}
	for _, p := range opts.ExcludePaths {
		c.exclude[filepath.Clean(p)] = true
	}
	log.Info().Str("bundle_id", id).Str("root", opts.Root).Str("host", host.Hostname).Msg("collection started")

	homes := FindHomes(opts.Root, runtime.GOOS == "windows" && isLive(opts.Root))
	if len(opts.Users) > 0 {
		keep := map[string]bool{}
		for _, u := range opts.Users {
			keep[u] = true
		}
		var h2 []Home
		for _, h := range homes {
			if keep[h.User] {
				h2 = append(h2, h)
			}
		}
		homes = h2
	}
	res := &Result{BundleID: id, Header: hdr, Homes: homes}
	var runErr error
	for _, h := range homes {
		if ctx.Err() != nil {
			break
		}
		log.Info().Str("user", h.User).Str("home", h.Orig).Str("found_by", h.Source).Msg("walking home")
		err := catalog.WalkHome(h.Dir, opts.Agents, func(hit catalog.Hit) error {
			if ctx.Err() != nil {
				return fs.SkipAll
			}
			return c.handle(ctx, h, hit)
		})
		if err != nil {
			runErr = err
			break
		}
	}
	if runErr == nil && ctx.Err() == nil {
		runErr = c.collectProjects(ctx)
	}
	if runErr == nil && ctx.Err() == nil {
		runErr = c.collectVolumes(ctx, homes)
	}
	end := opts.Clock().UTC()
	sum := bundle.Summary{Complete: true, EndedUTC: bundle.FormatTimeMillis(end)}
	switch {
	case runErr != nil:
		sum.Complete, sum.Reason = false, "write error: "+runErr.Error()
	case ctx.Err() != nil:
		sum.Complete, sum.Reason = false, "interrupted"
	}
	log.Info().Int("files", c.files).Int64("bytes", c.bytes).Bool("complete", sum.Complete).Str("reason", sum.Reason).Msg("collection ended")
	cerr := w.Close(sum, logBuf.Bytes())
	res.Summary = sum
	res.Summary.Counts = w.Counts()
	res.Summary.BytesCollected = w.BytesCollected()
	res.Summary.Files = c.files
	if runErr != nil {
		return res, runErr
	}
	if cerr != nil {
		return res, fmt.Errorf("close bundle: %w", cerr)
	}
	if ctx.Err() != nil {
		return res, ErrInterrupted
	}
	return res, nil
}

func isLive(root string) bool { return root == "" || root == "/" }

func (c *collector) baseEntry(h Home, hit catalog.Hit, walked string) bundle.Entry {
	return bundle.Entry{
		Path: origPath(c.opts.Root, walked), User: h.User, Home: h.Orig,
		Agent: hit.Agent, Target: hit.Target.ID, Kind: string(hit.Target.Kind),
		Secret: hit.Target.Kind == catalog.KindSecret, UID: -1, GID: -1,
	}
}

func fileType(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "device"
	}
	return "other"
}

func (c *collector) handle(ctx context.Context, h Home, hit catalog.Hit) error {
	if c.done[hit.Path] || c.exclude[filepath.Clean(hit.Path)] {
		return nil
	}
	c.done[hit.Path] = true
	e := c.baseEntry(h, hit, hit.Path)
	if hit.Info != nil {
		e.Type = fileType(hit.Info.Mode())
		e.Size = hit.Info.Size()
	}
	switch {
	case hit.Err != nil:
		e.Status, e.Error = bundle.StatusErrorRead, hit.Err.Error()
		if errors.Is(hit.Err, fs.ErrNotExist) {
			e.Status = bundle.StatusVanished
		}
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		c.log.Warn().Str("path", e.Path).Err(hit.Err).Msg("unreadable")
		return nil
	case hit.Excluded:
		e.Type = "dir"
		e.Status = bundle.StatusSkippedExcluded
		e.Size = dirSize(ctx, hit.Path)
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	}
	mode := hit.Info.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		e.Status = bundle.StatusSymlink
		t, err := os.Readlink(hit.Path)
		if err != nil {
			e.Error = err.Error()
		}
		e.LinkTarget = t
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	case !mode.IsRegular():
		e.Status = bundle.StatusSkippedSpecial
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	}
	if e.Secret && c.opts.NoSecrets {
		e.Status = bundle.StatusSkippedSecret
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	}
	limit := c.opts.MaxFileSize
	if hit.Target.MaxSize > 0 && hit.Target.MaxSize < limit {
		limit = hit.Target.MaxSize
	}
	if !c.opts.Full && e.Size > limit {
		e.Status = bundle.StatusSkippedSize
		e.Error = fmt.Sprintf("%d bytes over the %d-byte limit (--full lifts it)", e.Size, limit)
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	}
	var scan *projectScanner
	if hit.Target.Projects != catalog.ProjectsNone {
		scan = newProjectScanner(hit.Target.Projects)
	}
	if err := c.copyFile(e, hit.Path, scan); err != nil {
		return err
	}
	if scan != nil {
		for _, p := range scan.Paths() {
			if _, ok := c.projects[p]; !ok {
				c.projects[p] = projectRef{user: h.User, home: h.Orig, walkedHome: h.Dir}
			}
		}
	}
	if hit.Target.Kind == catalog.KindSQLite {
		for _, s := range catalog.Sidecars {
			sp := hit.Path + s
			fi, err := os.Lstat(sp)
			if err != nil {
				continue
			}
			c.done[sp] = true
			se := c.baseEntry(h, hit, sp)
			se.SidecarOf = e.Path
			se.Type = fileType(fi.Mode())
			se.Size = fi.Size()
			if !fi.Mode().IsRegular() {
				se.Status = bundle.StatusSkippedSpecial
				if fi.Mode()&fs.ModeSymlink != 0 {
					se.Status = bundle.StatusSymlink
					se.LinkTarget, _ = os.Readlink(sp)
				}
				c.fillMeta(&se, sp)
				c.w.AddEntry(se)
				continue
			}
			if err := c.copyFile(se, sp, nil); err != nil {
				return err
			}
		}
	}
	if c.opts.Progress != nil {
		c.opts.Progress(Progress{Files: c.files, Bytes: c.bytes, Agent: hit.Agent, User: h.User})
	}
	return nil
}

func (c *collector) fillMeta(e *bundle.Entry, path string) {
	m, err := statTimes(path)
	if err != nil {
		return
	}
	m.apply(e)
}

type fileMeta struct {
	uid, gid                   int64
	mode                       uint32
	size                       int64
	mtime, atime, ctime, btime time.Time
}

func (m fileMeta) apply(e *bundle.Entry) {
	e.UID, e.GID = m.uid, m.gid
	e.Mode = fmt.Sprintf("%07o", m.mode)
	e.MTime, e.ATime, e.CTime, e.BTime = bundle.FormatTime(m.mtime), bundle.FormatTime(m.atime), bundle.FormatTime(m.ctime), bundle.FormatTime(m.btime)
}

// smallFile is read whole into memory so a change can be retried before
// anything is written into the bundle.
const smallFile = 8 << 20

func openEvidence(path string) (*os.File, error) {
	if noatime != 0 {
		f, err := os.OpenFile(path, openFlags|noatime, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EPERM) {
			return nil, err
		}
	}
	return os.OpenFile(path, openFlags, 0)
}

// copyFile copies one regular file into the bundle. Errors returned are
// write errors (the bundle cannot go on); read problems become rows.
func (c *collector) copyFile(e bundle.Entry, path string, scan *projectScanner) error {
	before, err := statTimes(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			e.Status = bundle.StatusVanished
		} else {
			e.Status = bundle.StatusErrorRead
		}
		e.Error = err.Error()
		c.w.AddEntry(e)
		return nil
	}
	before.apply(&e)
	e.Type = fileType(fs.FileMode(0)) // set below from the open file
	f, err := openEvidence(path)
	if err != nil {
		e.Type = "file"
		if errors.Is(err, fs.ErrNotExist) {
			e.Status = bundle.StatusVanished
		} else {
			e.Status = bundle.StatusErrorRead
		}
		e.Error = err.Error()
		c.w.AddEntry(e)
		c.log.Warn().Str("path", e.Path).Err(err).Msg("cannot open")
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		e.Type = "other"
		if fi != nil {
			e.Type = fileType(fi.Mode())
		}
		e.Status = bundle.StatusSkippedSpecial
		if err != nil {
			e.Status, e.Error = bundle.StatusErrorRead, err.Error()
		}
		c.w.AddEntry(e)
		return nil
	}
	e.Type = "file"
	size := fi.Size()
	var src io.Reader
	if size <= smallFile {
		var data []byte
		changed := true
		for try := 0; try < c.opts.Retries; try++ {
			if try > 0 {
				time.Sleep(c.opts.SettleDelay)
				if _, err := f.Seek(0, io.SeekStart); err != nil {
					break
				}
			}
			data, err = io.ReadAll(io.LimitReader(f, smallFile+1))
			if err != nil {
				e.Status, e.Error = bundle.StatusErrorRead, err.Error()
				c.w.AddEntry(e)
				return nil
			}
			after, serr := f.Stat()
			if serr == nil && after.Size() == int64(len(data)) && after.ModTime().Equal(fi.ModTime()) && after.Size() == fi.Size() {
				changed = false
				break
			}
			if serr == nil {
				fi = after
			}
		}
		if changed {
			e.ChangedDuringCopy = true
			c.log.Warn().Str("path", e.Path).Int("tries", c.opts.Retries).Msg("file kept changing while read; flagged changed_during_copy")
		}
		if int64(len(data)) > smallFile {
			// It grew past the in-memory bound between tries: stream instead.
			if _, err := f.Seek(0, io.SeekStart); err == nil {
				fi, _ = f.Stat()
				data = nil
				src = f
				size = fi.Size()
			}
		}
		if data != nil {
			src = bytes.NewReader(data)
			size = int64(len(data))
		}
	} else {
		src = f
	}
	if scan != nil {
		src = io.TeeReader(src, scan)
	}
	got, err := c.w.AddFile(e, size, src)
	if err != nil && !errors.Is(err, bundle.ErrShortRead) {
		return err
	}
	if size > smallFile {
		if after, serr := f.Stat(); serr == nil && (after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime())) {
			c.log.Warn().Str("path", e.Path).Msg("large file changed while copied: the bundle holds its first bytes as sized at open")
			// The entry is already recorded; flag it.
			c.flagLastChanged()
		}
	}
	c.files++
	c.bytes += got.Size
	return nil
}

func (c *collector) flagLastChanged() {
	c.w.FlagLast(func(e *bundle.Entry) { e.ChangedDuringCopy = true })
}

func dirSize(ctx context.Context, dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return nil
		}
		if !d.IsDir() {
			if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// collectProjects gathers the project artifacts of every agent from each
// project directory that collected state named.
func (c *collector) collectProjects(ctx context.Context) error {
	var dirs []string
	for p := range c.projects {
		dirs = append(dirs, p)
	}
	sort.Strings(dirs)
	var proj []catalog.Agent
	for _, a := range c.opts.Agents {
		pa := catalog.Agent{Name: a.Name}
		for i, pf := range a.ProjectFiles {
			pa.Targets = append(pa.Targets, catalog.Target{ID: fmt.Sprintf("project-%d", i+1), Root: catalog.RootHome, Glob: pf.Glob, Kind: pf.Kind})
		}
		if len(pa.Targets) > 0 {
			proj = append(proj, pa)
		}
	}
	for _, d := range dirs {
		if ctx.Err() != nil {
			return nil
		}
		ref := c.projects[d]
		walked := joinRoot(c.opts.Root, d)
		if fi, err := os.Lstat(walked); err != nil || !fi.IsDir() {
			continue
		}
		c.log.Info().Str("project", d).Str("named_by_user", ref.user).Msg("collecting project artifacts")
		h := Home{User: ref.user, Dir: walked, Orig: ref.home}
		err := catalog.WalkHome(walked, proj, func(hit catalog.Hit) error {
			if ctx.Err() != nil {
				return fs.SkipAll
			}
			hit.Target.ID = "project"
			return c.handle(ctx, h, hit)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// collectVolumes gathers Docker and Podman named volumes of self-hosted
// agents.
func (c *collector) collectVolumes(ctx context.Context, homes []Home) error {
	var dirs []string
	for _, v := range catalog.VolumeDirs {
		dirs = append(dirs, joinRoot(c.opts.Root, "/"+v))
	}
	for _, h := range homes {
		dirs = append(dirs, filepath.Join(h.Dir, filepath.FromSlash(catalog.HomeVolumeDir)))
	}
	for _, vd := range dirs {
		ents, err := os.ReadDir(vd)
		if err != nil {
			continue
		}
		for _, ent := range ents {
			for _, a := range c.opts.Agents {
				for _, g := range a.Volumes {
					if ok, _ := filepath.Match(g, ent.Name()); !ok || !ent.IsDir() {
						continue
					}
					data := filepath.Join(vd, ent.Name(), "_data")
					va := catalog.Agent{Name: a.Name, Targets: []catalog.Target{{ID: "volume", Root: catalog.RootHome, Glob: "**", Kind: catalog.KindOther}}}
					h := Home{User: "", Dir: data, Orig: origPath(c.opts.Root, data)}
					c.log.Info().Str("volume", ent.Name()).Str("agent", a.Name).Msg("collecting volume")
					err := catalog.WalkHome(data, []catalog.Agent{va}, func(hit catalog.Hit) error {
						if ctx.Err() != nil {
							return fs.SkipAll
						}
						return c.handle(ctx, h, hit)
					})
					if err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

type limitedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) <= b.max {
		b.buf.Write(p)
	}
	return len(p), nil
}

func (b *limitedBuffer) WriteLevel(_ zerolog.Level, p []byte) (int, error) { return b.Write(p) }

func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }

var _ = strings.TrimSpace
