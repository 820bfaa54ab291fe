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
	"slices"
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
	// Progress, when set, is called after each manifest row.
	Progress func(p Progress)
	// Retries bounds re-reads of a file that changes while read (default 3).
	Retries int
	// SettleDelay is waited between re-reads (default 50ms).
	SettleDelay time.Duration
	// ExcludePaths are walked paths never collected (the output itself).
	ExcludePaths []string

	// Test hooks: beforeCopy runs before a file is stat'ed and opened,
	// afterRead after each whole read of a small file (try counts from 0),
	// uidOf gives a walked path's owner (the link policy's owner check).
	beforeCopy func(path string)
	afterRead  func(path string, try int)
	uidOf      func(path string) int64
}

// ErrWrite wraps an error writing the bundle (a full disk): the run stops
// and what was written so far is left as a partial bundle.
var ErrWrite = errors.New("writing the bundle failed")

// Progress reports how far a collection is.
type Progress struct {
	Rows  int // manifest rows so far
	Files int // artifacts copied so far
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
	// HeaderSHA256 and ManifestSHA256 are the SHA-256 of the bundle's
	// bundle.json and manifest.jsonl members, for the .sha256 sidecar
	// (ManifestSHA256 is "" when the manifest could not be written).
	HeaderSHA256, ManifestSHA256 string
}

// ErrInterrupted is returned when ctx was cancelled; the bundle was still
// closed, marked incomplete.
var ErrInterrupted = errors.New("collection interrupted")

// ErrNoHome is returned when no home was found (or none of --users): the
// bundle was still written whole, and records the walk that found nothing
// (and anything the container volumes held).
var ErrNoHome = errors.New("no home was found")

// NoHomeError is the ErrNoHome Run returns (errors.Is matches it), with
// the homes the host names that were not walked (a link resolving nowhere
// inside the root, a path that is not a folder), so the message beside the
// bundle's symlink or error_read count names each, never only "no home".
type NoHomeError struct {
	Users   []string      // --users, when they named the homes looked for
	Skipped []SkippedHome // each with its manifest row
}

func (e *NoHomeError) Is(target error) bool { return target == ErrNoHome }

func (e *NoHomeError) Error() string {
	if len(e.Skipped) == 0 {
		if len(e.Users) > 0 {
			return "no home of these users was found"
		}
		return ErrNoHome.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no home was walked: the host names %d home(s) or homes folder(s) that were not (each a manifest row)", len(e.Skipped))
	for _, sh := range e.Skipped {
		b.WriteString("; ")
		b.WriteString(sh.Reason)
	}
	return b.String()
}

type collector struct {
	opts Options
	// skippedHomes are the homes the host names that were not walked
	// (kept by --users), each a manifest row.
	skippedHomes []SkippedHome
	w            sink
	log          zerolog.Logger
	done         *catalog.PathSet // every walked path handled, across homes
	projects     map[string]projectRef
	rbuf         []byte
	rows         int
	files        int
	bytes        int64
	exclude      map[string]bool
	followed     map[string]string // a followed link's target as walked -> the link's path
	folders      []catalog.Folder
	// relocVars are the catalog's relocation variables; relocated the
	// relocated folders walked (walked path and the folder it stands for).
	relocVars map[string]bool
	relocated map[string]bool
	// homeDirs are the walked folders of every home found (before
	// --users), but a home of "/": the link policy follows a root-owned
	// target only inside one of them or a container volume folder.
	homeDirs []string
	// dry: --inventory's walk. A file is opened and checked as for a
	// copy, but the sink reads only its head, once.
	dry bool
	// ctx is the walk's: a file copied from the stream stops at the next
	// chunk once it is done (SIGINT, SIGTERM), whatever its size.
	ctx context.Context
}

type projectRef struct {
	user, home string
	walkedHome string
}

// defaults fills in what the caller left unset.
func (opts *Options) defaults() {
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
}

// newCollector is the collector of one walk, its rows handed to w.
func newCollector(opts Options, w sink, log zerolog.Logger) *collector {
	c := &collector{opts: opts, w: w, log: log, done: catalog.NewPathSet(), projects: map[string]projectRef{}, exclude: map[string]bool{}, followed: map[string]string{}, folders: catalog.Folders(opts.Agents),
		relocVars: relocVarSet(opts.Agents), relocated: map[string]bool{}}
	for _, p := range opts.ExcludePaths {
		c.exclude[filepath.Clean(p)] = true
	}
	return c
}

// sink takes the rows of a walk: a bundle.Writer for a collection, the
// inventory's tally for --inventory.
type sink interface {
	AddEntry(e bundle.Entry)
	AddFile(e bundle.Entry, size int64, r io.Reader) (bundle.Entry, error)
	FlagLast(fn func(e *bundle.Entry))
}

// Run collects into out. The log written to opts.Log is also kept (up to
// 16 MiB) and stored as the bundle's log.jsonl. A write error (a full disk)
// stops the run: the bundle written so far is closed as far as possible and
// the error returned. A cancelled ctx gives a complete, valid bundle marked
// incomplete, and ErrInterrupted.
func Run(ctx context.Context, out io.Writer, opts Options) (*Result, error) {
	opts.defaults()
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
	c := newCollector(opts, w, log)
	log.Info().Str("bundle_id", id).Str("root", opts.Root).Str("host", host.Hostname).Msg("collection started")

	homes, noHome, runErr := c.walk(ctx, host)
	res := &Result{BundleID: id, Header: hdr, Homes: homes}
	if runErr != nil && !errors.Is(runErr, ErrWrite) {
		runErr = fmt.Errorf("%w: %w", ErrWrite, runErr)
	}
	end := opts.Clock().UTC()
	sum := bundle.Summary{Complete: true, EndedUTC: bundle.FormatTimeMillis(end)}
	switch {
	case runErr != nil:
		sum.Complete, sum.Reason = false, "write error: "+runErr.Error()
		log.Error().Err(runErr).Msg("stopped: the bundle could not be written; what was written is a partial bundle without its manifest")
	case ctx.Err() != nil:
		sum.Complete, sum.Reason = false, "interrupted"
	}
	log.Info().Int("files", c.files).Int64("bytes", c.bytes).Bool("complete", sum.Complete).Str("reason", sum.Reason).Msg("collection ended")
	cerr := w.Close(sum, logBuf.Bytes())
	res.HeaderSHA256, res.ManifestSHA256 = w.HeaderSHA256(), w.ManifestSHA256()
	res.Summary = sum
	res.Summary.Counts = w.Counts()
	res.Summary.BytesCollected = w.BytesCollected()
	res.Summary.Files = c.files
	if runErr != nil {
		return res, runErr
	}
	if cerr != nil {
		return res, fmt.Errorf("%w: closing it: %w", ErrWrite, cerr)
	}
	if ctx.Err() != nil {
		return res, ErrInterrupted
	}
	if noHome {
		return res, &NoHomeError{Users: opts.Users, Skipped: c.skippedHomes}
	}
	return res, nil
}

// walk finds the homes and walks them (their relocated folders too), the
// project folders their state names and the container volumes, handing
// every path to handle. It is the one walk of a collection and of
// --inventory.
func (c *collector) walk(ctx context.Context, host bundle.Host) (homes []Home, noHome bool, runErr error) {
	c.ctx = ctx
	homes, skippedHomes := findHomes(c.opts.Root, runtime.GOOS == "windows" && isLive(c.opts.Root), c.log)
	for _, h := range homes {
		if h.Orig != "/" {
			c.homeDirs = append(c.homeDirs, h.Dir)
		}
	}
	if len(c.opts.Users) > 0 {
		keep := map[string]bool{}
		for _, u := range c.opts.Users {
			keep[u] = true
		}
		var h2 []Home
		found := map[string]bool{}
		for _, h := range homes {
			if keep[h.User] {
				h2 = append(h2, h)
				found[h.User] = true
			}
		}
		homes = h2
		var missing []string
		for _, u := range c.opts.Users {
			if !found[u] {
				missing = append(missing, u)
				if len(homes) > 0 {
					c.log.Warn().Str("user", u).Msg("--users names an account with no home found on this host: nothing collected for it")
				}
			}
		}
		c.log.Info().Str("source", "--users").Strs("users", c.opts.Users).Int("homes_kept", len(homes)).Strs("not_found", missing).Msg("homes kept by --users")
	}
	for _, sh := range skippedHomes {
		if len(c.opts.Users) == 0 || slices.Contains(c.opts.Users, sh.User) {
			c.skippedHomes = append(c.skippedHomes, sh)
		}
	}
	noHome = len(homes) == 0
	if noHome {
		// Said at error level (stderr at every --log-level) and in the
		// bundle's log; Run ends with ErrNoHome once the bundle is closed.
		ev := c.log.Error().Str("root", c.opts.Root)
		msg := "no home was found: nothing under a home was collected (homes are read from /etc/passwd, /home/*, /Users/*, /root, /var/root, /mnt/*/Users/*)"
		if len(c.opts.Users) > 0 {
			ev = ev.Strs("users", c.opts.Users)
			msg = "no home of these users was found: nothing under a home was collected"
		}
		if len(c.skippedHomes) > 0 {
			msg = (&NoHomeError{Skipped: c.skippedHomes}).Error() + ": nothing under a home was collected"
		}
		ev.Msg(msg)
	}
	if c.opts.Host == "" && host.Hostname == unknownHost {
		where := "the host gives no name"
		if !isLive(c.opts.Root) {
			where = "the image has no readable /etc/hostname"
		}
		c.log.Warn().Str("host", host.Hostname).Msg(where + ": recorded as " + unknownHost + " (give --host NAME)")
	}
	for _, sh := range c.skippedHomes {
		// A home the host names but that is not walked (a link resolving
		// outside the image or nowhere): recorded, never followed.
		e := bundle.Entry{Path: sh.Orig, User: sh.User, Home: sh.Orig, Type: "dir", UID: -1, GID: -1, Error: sh.Reason, LinkTarget: sh.LinkTarget}
		e.Status = bundle.StatusErrorRead
		if sh.LinkTarget != "" {
			e.Type, e.Status = "symlink", bundle.StatusSymlink
		}
		c.fillMeta(&e, joinRoot(c.opts.Root, sh.Orig))
		c.w.AddEntry(e)
		c.log.Warn().Str("user", sh.User).Str("home", sh.Orig).Str("link_target", sh.LinkTarget).Str("reason", sh.Reason).Msg("home not walked")
	}
	hostEnv := c.hostEnv(c.relocVars)
	c.log.Info().Int("settings", len(hostEnv)).Msg("relocation variables read from the host's environment files")
	hostUnits := c.hostUnits(c.relocVars)
	c.log.Info().Int("settings", len(hostUnits)).Msg("relocation variables read from the host's service units")
	for _, h := range homes {
		if ctx.Err() != nil {
			break
		}
		c.log.Info().Str("user", h.User).Str("home", h.Orig).Str("found_by", h.Source).Msg("walking home")
		c.catalogFolders(h, h.Dir, "")
		err := catalog.WalkHome(h.Dir, c.opts.Agents, func(hit catalog.Hit) error {
			if ctx.Err() != nil {
				return fs.SkipAll
			}
			return c.handle(ctx, h, hit)
		})
		if err == nil && ctx.Err() == nil {
			err = c.collectRelocated(ctx, h, hostEnv, hostUnits)
		}
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
	return homes, noHome, runErr
}

func isLive(root string) bool { return root == "" || root == "/" }

func (c *collector) baseEntry(h Home, hit catalog.Hit, walked string) bundle.Entry {
	e := bundle.Entry{
		Path: c.hostPath(h, walked), User: h.User, Home: h.Orig,
		Agent: hit.Agent, Target: hit.Target.ID, Kind: string(hit.Target.Kind),
		Secret: hit.Target.Kind == catalog.KindSecret, UID: -1, GID: -1,
		FoundVia: h.foundVia,
	}
	if h.link != nil {
		e.ViaLink, e.RealPath = h.link.orig, origPath(c.opts.Root, walked)
		if h.link.target != "" {
			e.ViaLink = ""
			if walked == h.link.walked {
				e.LinkTarget, e.LinkFollowed, e.OutsideHomes = h.link.target, true, h.link.outside
			}
		}
	}
	return e
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
	if !c.done.Add(hit.Path) {
		return nil
	}
	if hit.Err == nil && !hit.Excluded && hit.Info != nil && hit.Info.Mode()&fs.ModeSymlink != 0 && !c.exclude[filepath.Clean(hit.Path)] {
		return c.link(ctx, h, hit) // it ticks for the rows it adds
	}
	defer c.tick(hit.Agent, h.User)
	e := c.baseEntry(h, hit, hit.Path)
	if hit.Info != nil {
		e.Type = fileType(hit.Info.Mode())
		e.Size = hit.Info.Size()
	}
	if hit.SidecarOf != "" {
		// The -wal or -journal of a store that is gone: its pages are
		// the store's records, so it is collected as the side file of
		// the absent store, which no row names (the analyzer says so).
		e.SidecarOf = strings.TrimSuffix(e.Path, strings.TrimPrefix(hit.Path, hit.SidecarOf))
		c.log.Warn().Str("path", e.Path).Str("store", e.SidecarOf).Msg("SQLite side file whose store is not there: collected")
	}
	switch {
	case c.exclude[filepath.Clean(hit.Path)]:
		e.Status, e.Error = bundle.StatusSkippedExcluded, "the collector's own output"
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		return nil
	case hit.Err != nil:
		e.Status, e.Error = bundle.StatusErrorRead, rowError(hit.Err)
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
	case hit.Info == nil:
		e.Status, e.Error = bundle.StatusErrorRead, "no file information"
		c.w.AddEntry(e)
		return nil
	}
	if !hit.Info.Mode().IsRegular() {
		c.addNonRegular(e, hit.Path, hit.Info.Mode())
		if hit.Target.Kind == catalog.KindSQLite && hit.Info.Mode()&fs.ModeSymlink == 0 {
			// A store that is a FIFO, socket or device: its side files
			// are recorded (never copied, a FIFO never opened), not
			// silently passed over.
			c.sidecars(h, hit, e, c.limit(hit.Target), bundle.StatusSkippedSpecial)
		}
		return nil
	}
	limit := c.limit(hit.Target)
	if skip := c.skipReason(&e, limit); skip {
		c.fillMeta(&e, hit.Path)
		c.w.AddEntry(e)
		c.sidecars(h, hit, e, limit, e.Status)
		return nil
	}
	var scan *projectScanner
	if hit.Target.Projects != catalog.ProjectsNone {
		scan = newProjectScanner(hit.Target.Projects)
	}
	isSQLite, err := c.copyFile(e, hit.Path, scan)
	if err != nil {
		return err
	}
	if scan != nil {
		if t, ok := c.w.(*tally); ok {
			t.namedProjects(h, hit.Agent, scan.Paths())
		}
		for _, p := range scan.Paths() {
			if _, ok := c.projects[p]; !ok {
				c.projects[p] = projectRef{user: h.User, home: h.Orig, walkedHome: h.Dir}
			}
		}
	}
	if (hit.Target.Kind == catalog.KindSQLite || isSQLite) && hit.SidecarOf == "" {
		return c.sidecars(h, hit, e, limit, "")
	}
	return nil
}

// tick reports progress after every manifest row.
func (c *collector) tick(agent, user string) {
	c.rows++
	if c.opts.Progress != nil {
		c.opts.Progress(Progress{Rows: c.rows, Files: c.files, Bytes: c.bytes, Agent: agent, User: user})
	}
}

func (c *collector) limit(t catalog.Target) int64 {
	limit := c.opts.MaxFileSize
	if t.MaxSize > 0 && t.MaxSize < limit {
		limit = t.MaxSize
	}
	return limit
}

// skipReason sets e's status when a regular file is not to be copied
// (--no-secrets, size limit) and reports whether it is skipped.
func (c *collector) skipReason(e *bundle.Entry, limit int64) bool {
	switch {
	case e.Secret && c.opts.NoSecrets:
		e.Status = bundle.StatusSkippedSecret
		return true
	case !c.opts.Full && e.Size > limit:
		e.Status = bundle.StatusSkippedSize
		e.Error = fmt.Sprintf("%d bytes over the %d-byte limit (--full lifts it)", e.Size, limit)
		return true
	}
	return false
}

// addNonRegular records a link (its target read, never followed: a SQLite
// side file, or a file that became a link since the walk), or a FIFO,
// socket or device (never opened).
func (c *collector) addNonRegular(e bundle.Entry, path string, mode fs.FileMode) {
	e.Type = fileType(mode)
	if mode&fs.ModeSymlink != 0 {
		e.Status = bundle.StatusSymlink
		t, err := os.Readlink(path)
		if err != nil {
			e.Error = rowError(err)
		} else if e.SidecarOf != "" {
			e.Error = fmt.Sprintf("link to %q not followed: a SQLite side file is read only beside its store, never through a link", t)
		} else {
			e.Error = fmt.Sprintf("link to %q not followed: it became a link after the walk", t)
		}
		e.LinkTarget = t
	} else {
		e.Status = bundle.StatusSkippedSpecial
		if e.Type == "dir" {
			e.Error = "a directory where a file was expected"
		}
	}
	c.fillMeta(&e, path)
	c.w.AddEntry(e)
}

// specialWord names, for a message, what a path that is not a regular
// file was (fileType's word): "a FIFO", "a socket", "a device".
func specialWord(typ string) string {
	switch typ {
	case "fifo":
		return "a FIFO"
	case "socket":
		return "a socket"
	case "device":
		return "a device"
	case "dir":
		return "a directory"
	}
	return "not a regular file"
}

// sidecars records the -wal, -shm and -journal files of the SQLite store
// main right after it, each with sidecar_of. skipped is the store's own
// skip status ("" when it was copied): a sidecar of a store not copied is
// not copied either.
func (c *collector) sidecars(h Home, hit catalog.Hit, main bundle.Entry, limit int64, skipped string) error {
	for _, s := range catalog.Sidecars {
		sp := hit.Path + s
		fi, err := os.Lstat(sp)
		if err != nil || !c.done.Add(sp) {
			continue
		}
		se := c.baseEntry(h, hit, sp)
		se.SidecarOf = main.Path
		se.Type = fileType(fi.Mode())
		se.Size = fi.Size()
		switch {
		case c.exclude[filepath.Clean(sp)]:
			continue
		case !fi.Mode().IsRegular():
			c.addNonRegular(se, sp, fi.Mode())
		case skipped != "":
			se.Status = skipped
			if skipped == bundle.StatusSkippedSize {
				se.Error = "its store " + main.Path + " is over the size limit"
			}
			if skipped == bundle.StatusSkippedSpecial {
				se.Error = "side file of " + main.Path + ", which is " + specialWord(main.Type) + ": not collected"
			}
			c.fillMeta(&se, sp)
			c.w.AddEntry(se)
		case c.skipReason(&se, limit):
			c.fillMeta(&se, sp)
			c.w.AddEntry(se)
		default:
			if _, err := c.copyFile(se, sp, nil); err != nil {
				return err
			}
		}
		c.tick(hit.Agent, h.User)
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

// errSwapped: a folder on the way to a walked file is no longer a folder
// (a link swapped in since the walk): nothing behind it is read.
var errSwapped = errors.New("a folder on the way is no longer a folder (a link swapped in since the walk?): not followed")

// openEvidence opens a walked file under root, never through a link on
// the way (openUnder) nor at its end (O_NOFOLLOW), never blocking on a
// FIFO (O_NONBLOCK).
func openEvidence(root, path string) (*os.File, error) {
	if noatime != 0 {
		f, err := openUnder(root, path, openFlags|noatime)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EPERM) {
			return nil, err
		}
	}
	return openUnder(root, path, openFlags)
}

// copyFile copies one regular file into the bundle and reports whether it
// starts with the SQLite header. Errors returned are write errors (the
// bundle cannot go on); read problems become rows. MACB times and owner
// are read before the file is opened.
func (c *collector) copyFile(e bundle.Entry, path string, scan *projectScanner) (bool, error) {
	if c.opts.beforeCopy != nil {
		c.opts.beforeCopy(path)
	}
	readErr := func(err error, msg string) (bool, error) {
		e.Status = bundle.StatusErrorRead
		if errors.Is(err, fs.ErrNotExist) {
			e.Status = bundle.StatusVanished
		}
		e.Error = rowError(err)
		c.w.AddEntry(e)
		c.log.Warn().Str("path", e.Path).Err(err).Msg(msg)
		return false, nil
	}
	before, err := statTimes(path)
	if err != nil {
		return readErr(err, "cannot stat")
	}
	before.apply(&e)
	f, err := openEvidence(c.opts.Root, path)
	if err != nil {
		if errors.Is(err, errSwapped) {
			// The metadata read by path went through the link too.
			e.UID, e.GID, e.Mode, e.MTime, e.ATime, e.CTime, e.BTime = 0, 0, "", "", "", "", ""
			return readErr(err, "a folder on the way became a link since the walk: not followed")
		}
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			// Replaced by a link or special file since the walk.
			c.addNonRegular(e, path, fi.Mode())
			return false, nil
		}
		return readErr(err, "cannot open")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return readErr(err, "cannot stat the open file")
	}
	if !fi.Mode().IsRegular() {
		e.Type = fileType(fi.Mode())
		e.Status = bundle.StatusSkippedSpecial
		e.Error = "no longer a regular file when opened"
		c.w.AddEntry(e)
		return false, nil
	}
	e.Type = "file"
	size := fi.Size()
	head := &headBuffer{}
	var src io.Reader
	if size <= smallFile && !c.dry {
		var data []byte
		changed := true
		for try := 0; try < c.opts.Retries; try++ {
			if try > 0 {
				time.Sleep(c.opts.SettleDelay)
				if _, err := f.Seek(0, io.SeekStart); err != nil {
					break
				}
			}
			data, err = c.readAll(f, fi.Size())
			if err != nil {
				return readErr(err, "read failed")
			}
			if c.opts.afterRead != nil {
				c.opts.afterRead(path, try)
			}
			after, serr := f.Stat()
			if serr != nil {
				break
			}
			if after.Size() == int64(len(data)) && after.Size() == fi.Size() && after.ModTime().Equal(fi.ModTime()) {
				changed = false
				break
			}
			fi = after
		}
		if changed {
			e.ChangedDuringCopy = true
			c.log.Warn().Str("path", e.Path).Int("tries", c.opts.Retries).Msg("file kept changing while read; flagged changed_during_copy")
		}
		if int64(len(data)) > smallFile {
			// It grew past the in-memory bound between tries: stream it as
			// sized now.
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return readErr(err, "seek failed")
			}
			if fi, err = f.Stat(); err != nil {
				return readErr(err, "cannot stat the open file")
			}
			data, src, size = nil, f, fi.Size()
		} else {
			src, size = bytes.NewReader(data), int64(len(data))
		}
	} else {
		src = f
	}
	if _, inMemory := src.(*bytes.Reader); !inMemory && c.ctx != nil {
		// Streamed: the copy looks at the context before every chunk,
		// so an interrupt stops it within one read, not at its end.
		src = stopReader{ctx: c.ctx, r: src}
	}
	src = io.TeeReader(src, head)
	if scan != nil {
		src = io.TeeReader(src, scan)
	}
	got, err := c.w.AddFile(e, size, src)
	if errors.Is(err, bundle.ErrStopped) {
		// Interrupted inside this file: the member is padded and its row
		// says how much is the file's (interrupted_at); the walk stops.
		c.files++
		c.bytes += got.Size
		var copied int64
		if got.InterruptedAt != nil {
			copied = *got.InterruptedAt
		}
		c.log.Warn().Str("path", e.Path).Int64("copied", copied).Int64("size", got.Size).Msg("interrupted while this file was copied: its member holds the bytes copied, then zero padding (interrupted_at in its manifest row)")
		return false, nil
	}
	if err != nil && !errors.Is(err, bundle.ErrShortRead) {
		return false, fmt.Errorf("%w: %w", ErrWrite, err)
	}
	if !c.dry && (err != nil || (size > smallFile && !e.ChangedDuringCopy)) {
		// Streamed: a change shows as a short read or in a new stat.
		if after, serr := f.Stat(); err != nil || (serr == nil && (after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()))) {
			c.log.Warn().Str("path", e.Path).Msg("file changed while copied: the bundle holds its bytes as sized when opened")
			c.flagLastChanged()
		}
	}
	c.files++
	c.bytes += got.Size
	return head.isSQLite(), nil
}

// stopReader reads r until ctx is done, then returns an error wrapping
// bundle.ErrStopped.
type stopReader struct {
	ctx context.Context
	r   io.Reader
}

func (s stopReader) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, fmt.Errorf("%w: %w", bundle.ErrStopped, err)
	}
	return s.r.Read(p)
}

// readAll reads f whole, up to smallFile+1 bytes, into a buffer reused from
// file to file (its content is written into the bundle before the next
// read), sized from hint.
func (c *collector) readAll(f *os.File, hint int64) ([]byte, error) {
	need := int(min(max(hint, 0), smallFile)) + 512
	if cap(c.rbuf) < need {
		c.rbuf = make([]byte, 0, need)
	}
	b := c.rbuf[:0]
	r := io.LimitReader(f, smallFile+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			c.rbuf = b[:0]
			if err == io.EOF {
				return b, nil
			}
			return b, err
		}
	}
}

// headBuffer keeps the first bytes written through it.
type headBuffer struct{ b []byte }

func (h *headBuffer) Write(p []byte) (int, error) {
	if n := 16 - len(h.b); n > 0 {
		h.b = append(h.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) isSQLite() bool { return string(h.b) == "SQLite format 3\x00" }

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

// maxProjects bounds the project directories visited in one run.
const maxProjects = 20000

// collectProjects gathers the project artifacts of every agent from each
// project directory that collected state named. A directory is reached
// through links the way the host would, confined to the root (resolveIn);
// one named by drive letter (C:/...) is looked for as /mnt/c/... (WSL) and,
// on an image of a Windows drive, at the root.
func (c *collector) collectProjects(ctx context.Context) error {
	var dirs []string
	for p := range c.projects {
		dirs = append(dirs, p)
	}
	sort.Strings(dirs)
	if len(dirs) > maxProjects {
		c.log.Warn().Int("named", len(dirs)).Int("visited", maxProjects).Msg("too many project directories named: only the first are visited")
		dirs = dirs[:maxProjects]
	}
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
	visited := map[string]bool{}
	for _, d := range dirs {
		if ctx.Err() != nil {
			return nil
		}
		ref := c.projects[d]
		walked, resolved, ok := c.projectDir(d)
		if !ok || visited[walked] {
			continue
		}
		visited[walked] = true
		c.log.Info().Str("project", resolved).Str("named_as", d).Str("named_by_user", ref.user).Msg("collecting project artifacts")
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

// projectDir finds the directory a project path names on the examined
// host: the path to walk and its resolved host path.
func (c *collector) projectDir(d string) (string, string, bool) {
	cands := []string{d}
	if len(d) >= 2 && d[1] == ':' {
		drive, rest := strings.ToLower(d[:1]), d[2:]
		switch {
		case isLive(c.opts.Root) && runtime.GOOS == "windows":
			cands = []string{d}
		case isLive(c.opts.Root):
			cands = []string{"/mnt/" + drive + rest}
		default:
			cands = []string{"/mnt/" + drive + rest, rest}
		}
	}
	for _, cand := range cands {
		walked, resolved, err := resolveIn(c.opts.Root, cand)
		if err != nil || resolved == "/" {
			continue
		}
		if fi, err := os.Lstat(walked); err == nil && fi.IsDir() {
			return walked, resolved, true
		}
	}
	return "", "", false
}

// collectVolumes gathers Docker and Podman named volumes of self-hosted
// agents: the host's volume directories (not with --users) and each
// home's rootless Podman volumes.
func (c *collector) collectVolumes(ctx context.Context, homes []Home) error {
	var dirs []string
	if len(c.opts.Users) == 0 {
		for _, v := range catalog.VolumeDirs {
			if walked, _, err := resolveIn(c.opts.Root, "/"+v); err == nil {
				dirs = append(dirs, walked)
			}
		}
	}
	for _, h := range homes {
		if _, ok := lstatDirNoLinks(h.Dir, catalog.HomeVolumeDir); ok {
			dirs = append(dirs, filepath.Join(h.Dir, filepath.FromSlash(catalog.HomeVolumeDir)))
		}
	}
	for _, vd := range dirs {
		ents, err := os.ReadDir(vd)
		if err != nil {
			continue
		}
		for _, ent := range ents {
			if !ent.IsDir() {
				continue
			}
			for _, a := range c.opts.Agents {
				for _, g := range a.Volumes {
					if ok, _ := filepath.Match(g, ent.Name()); !ok {
						continue
					}
					data := filepath.Join(vd, ent.Name(), "_data")
					if fi, err := os.Lstat(data); err != nil || !fi.IsDir() {
						continue
					}
					va := catalog.Agent{Name: a.Name, Targets: []catalog.Target{{ID: catalog.VolumeTarget, Root: catalog.RootHome, Glob: "**", Kind: catalog.KindOther}}}
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

// lstatDirNoLinks reports whether rel ('/' separated) below base is a
// directory reached through no link.
func lstatDirNoLinks(base, rel string) (string, bool) {
	p := base
	for _, s := range strings.Split(rel, "/") {
		p = filepath.Join(p, s)
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return "", false
		}
	}
	fi, _ := os.Lstat(p)
	return p, fi != nil && fi.IsDir()
}

// limitedBuffer keeps the start of the log, up to max bytes, for the
// bundle's log.jsonl. Once a line does not fit, it keeps no more lines (so
// the kept log has no gaps) and ends with one line saying so.
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	full bool
}

const logTruncated = `{"level":"warn","message":"log truncated here: the rest went only to the collector's stderr"}` + "\n"

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.full {
		return len(p), nil
	}
	if b.buf.Len()+len(p)+len(logTruncated) > b.max {
		b.full = true
		b.buf.WriteString(logTruncated)
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

func (b *limitedBuffer) WriteLevel(_ zerolog.Level, p []byte) (int, error) { return b.Write(p) }

func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }
