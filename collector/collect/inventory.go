package collect

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
	"github.com/rs/zerolog"
)

// HostName returns the host name a collection of root would record.
func HostName(root string) string {
	return hostFacts(Options{Root: root}).Hostname
}

// OutputInsideEvidence says why writing the bundle at abs would change
// evidence ("" when it would not): in root mode anything under the root;
// on a live host anything inside a directory a catalog target walks below
// a home (a home's top level, the usual working folder, is allowed), or
// inside a Docker or Podman volume directory. Links in the output's folder
// and in the root are resolved first.
func OutputInsideEvidence(abs, root string) string {
	abs = realPath(filepath.Clean(abs))
	if !isLive(root) {
		r := realPath(filepath.Clean(root))
		if within(abs, r) {
			return "the output would be inside the image being collected (" + root + ")"
		}
		return ""
	}
	for _, v := range catalog.VolumeDirs {
		if dir := realPath(joinRoot(root, "/"+v)); within(abs, dir) {
			return "the output would be inside " + dir + ", which the collector reads (container volumes)"
		}
	}
	for _, h := range FindHomes(root, runtime.GOOS == "windows") {
		home := realPath(h.Dir)
		if !within(abs, home) {
			continue
		}
		rel, err := filepath.Rel(home, filepath.Dir(abs))
		if err != nil || rel == "." {
			continue
		}
		dir := strings.Split(filepath.ToSlash(rel), "/")
		if strings.HasPrefix(filepath.ToSlash(rel)+"/", catalog.HomeVolumeDir+"/") {
			return "the output would be inside " + filepath.Join(home, filepath.FromSlash(catalog.HomeVolumeDir)) + ", which the collector reads (container volumes)"
		}
		for _, a := range catalog.All() {
			for _, t := range a.Targets {
				for _, pat := range catalog.TargetPatterns(t) {
					for _, alt := range catalog.ExpandBraces(pat) {
						if walksDir(strings.Split(alt, "/"), dir) {
							return "the output would be inside " + filepath.Dir(abs) + ", which the collector reads (" + a.Name + " " + t.ID + ")"
						}
					}
				}
			}
		}
	}
	return ""
}

// realPath resolves the links of p's existing leading part (the output file
// itself need not exist yet).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || base == "" {
		return p
	}
	return filepath.Join(realPath(dir), base)
}

// walksDir reports whether the catalog walker, matching the pattern segs,
// would read the home-relative directory dir (non-empty): it does when
// every element matches its pattern segment and a deeper segment remains,
// or once a "**" is reached.
func walksDir(segs, dir []string) bool {
	for j, name := range dir {
		if j < len(segs) && segs[j] == "**" {
			return true
		}
		if j >= len(segs)-1 {
			return false
		}
		if ok, _ := doublestar.Match(segs[j], name); !ok {
			return false
		}
	}
	return true
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// InventoryHost is the first line of --inventory output.
type InventoryHost struct {
	Record    string `json:"record"` // "host"
	Host      string `json:"host"`
	OS        string `json:"os"`
	Root      string `json:"root"`
	Users     int    `json:"users"`
	Collector string `json:"collector_version"`
	TakenUTC  string `json:"taken_utc"`
}

// InventoryRow is one user × agent line of --inventory output: what a
// collection with the same options would record for them.
type InventoryRow struct {
	Record     string   `json:"record"` // "agent"
	Host       string   `json:"host"`
	User       string   `json:"user"`
	Home       string   `json:"home"`
	Agent      string   `json:"agent"`
	Status     string   `json:"status"` // the catalog's status of the agent
	Files      int      `json:"files"`  // files a collection copies (manifest status collected)
	Bytes      int64    `json:"bytes"`  // their bytes
	FirstMTime string   `json:"first_mtime"`
	LastMTime  string   `json:"last_mtime"`
	Projects   []string `json:"projects"`
	// Statuses counts the manifest rows a collection writes, per status
	// (folder, symlink, skipped_size, error_read, ...).
	Statuses map[string]int `json:"statuses"`
	// Presence is "files kept", "present, nothing kept" (only the agent's
	// folders exist) or "present, nothing collected" (paths seen, none
	// copied: refused links, unreadable or skipped files), as in the
	// analyzer's inventory.json.
	Presence string `json:"presence"`
	// FoundVia lists where the locations of relocated folders came from
	// (a variable and the file setting it, a catalog alternate place).
	FoundVia []string `json:"found_via"`
}

// Presence values of InventoryRow.
const (
	PresenceFilesKept        = "files kept"
	PresenceNothingKept      = "present, nothing kept"
	PresenceNothingCollected = "present, nothing collected"
)

// tally is --inventory's sink: the rows a collection would write, with
// nothing copied (a file's head is read, for the projects it names and
// the SQLite header, and nothing else), summed per home, user and agent
// as they come (memory grows with the agents, not the files).
type tally struct {
	keep     bool           // keep every row (tests compare them with a collection's)
	rows     []bundle.Entry // the rows, when keep
	order    []tallyKey     // home and user (agent ""), in walk order
	groups   map[tallyKey]*tallyGroup
	projects map[tallyKey]map[string]bool
}

type tallyKey struct{ home, user, agent string }

type tallyGroup struct {
	rows        map[string]*InventoryRow
	first, last map[string]time.Time
	via         map[string]map[string]bool
}

// inventoryHead is what --inventory reads of a file: the first MiB.
const inventoryHead = 1 << 20

func (t *tally) AddEntry(e bundle.Entry) { t.add(bundle.PrepareEntry(e)) }

func (t *tally) AddFile(e bundle.Entry, size int64, r io.Reader) (bundle.Entry, error) {
	_, _ = io.CopyN(io.Discard, r, min(size, inventoryHead))
	e = bundle.PrepareEntry(e)
	e.Size, e.Status = size, bundle.StatusCollected
	t.add(e)
	return e, nil
}

// FlagLast amends the last row kept; the sums do not depend on what a
// collection flags after a copy (changed_during_copy), which a walk that
// copies nothing never does.
func (t *tally) FlagLast(fn func(e *bundle.Entry)) {
	if len(t.rows) > 0 {
		fn(&t.rows[len(t.rows)-1])
	}
}

// add sums the row e into its home, user and agent's line. A row of no
// agent (a home not walked) is kept (keep) but not summed.
func (t *tally) add(e bundle.Entry) {
	if t.keep {
		t.rows = append(t.rows, e)
	}
	if e.Agent == "" {
		return
	}
	if t.groups == nil {
		t.groups = map[tallyKey]*tallyGroup{}
	}
	hk := tallyKey{e.Home, e.User, ""}
	g := t.groups[hk]
	if g == nil {
		g = &tallyGroup{rows: map[string]*InventoryRow{}, first: map[string]time.Time{}, last: map[string]time.Time{}, via: map[string]map[string]bool{}}
		t.groups[hk] = g
		t.order = append(t.order, hk)
	}
	r := g.rows[e.Agent]
	if r == nil {
		r = &InventoryRow{Record: "agent", User: e.User, Home: e.Home, Agent: e.Agent, Projects: []string{}, Statuses: map[string]int{}, FoundVia: []string{}}
		g.rows[e.Agent] = r
		g.via[e.Agent] = map[string]bool{}
	}
	r.Statuses[e.Status]++
	if e.FoundVia != "" {
		g.via[e.Agent][e.FoundVia] = true
	}
	if e.Status == bundle.StatusCollected {
		r.Files++
		r.Bytes += e.Size
	}
	if e.Type != "file" || e.SidecarOf != "" {
		return
	}
	if mt, err := time.Parse(time.RFC3339Nano, e.MTime); err == nil {
		mt = mt.UTC()
		if f := g.first[e.Agent]; f.IsZero() || mt.Before(f) {
			g.first[e.Agent] = mt
		}
		if mt.After(g.last[e.Agent]) {
			g.last[e.Agent] = mt
		}
	}
}

// namedProjects records the project folders a file of agent named.
func (t *tally) namedProjects(h Home, agent string, paths []string) {
	if t.projects == nil {
		t.projects = map[tallyKey]map[string]bool{}
	}
	k := tallyKey{h.Orig, h.User, agent}
	if t.projects[k] == nil {
		t.projects[k] = map[string]bool{}
	}
	for _, p := range paths {
		t.projects[k][p] = true
	}
}

// inventoryWalk is the collection's walk with nothing copied: the homes
// walked and the sums (and, with keep, the rows) a collection with opts
// would write.
func inventoryWalk(ctx context.Context, opts Options, keep bool) (bundle.Host, []Home, *tally, error) {
	opts.defaults()
	host := hostFacts(opts)
	t := &tally{keep: keep}
	log := zerolog.Nop()
	if opts.LogWriter != nil {
		log = zerolog.New(opts.LogWriter).With().Timestamp().Logger()
	}
	c := newCollector(opts, t, log)
	c.dry = true
	homes, _, err := c.walk(ctx, host)
	return host, homes, t, err
}

// Inventory walks as Run does (the same homes, --users, relocated folders,
// link policy, size limit, --no-secrets, project folders and volumes) but
// copies nothing and writes nothing but w: one JSON line for the host and
// one per user and agent with the files a collection copies, their bytes,
// first and last mtime, the rows per status, the presence, where relocated
// folders were found, and the project directories named in state (read
// from the first MiB of each naming file). Rows of no agent (a home that
// is not walked) are not printed.
func Inventory(w io.Writer, opts Options) error {
	host, homes, t, err := inventoryWalk(context.Background(), opts, false)
	if err != nil {
		return err
	}
	if opts.Root == "" {
		opts.Root = "/"
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(InventoryHost{Record: "host", Host: host.Hostname, OS: host.OS, Root: opts.Root, Users: len(homes), Collector: Version, TakenUTC: bundle.FormatTimeMillis(time.Now())}); err != nil {
		return err
	}
	status := map[string]string{}
	for _, a := range catalog.All() {
		status[a.Name] = string(a.Status)
	}
	for _, hk := range t.order {
		g := t.groups[hk]
		var names []string
		for n := range g.rows {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			r := g.rows[n]
			r.Host, r.Status = host.Hostname, status[n]
			r.FirstMTime, r.LastMTime = bundle.FormatTimeMillis(g.first[n]), bundle.FormatTimeMillis(g.last[n])
			for p := range t.projects[tallyKey{hk.home, hk.user, n}] {
				r.Projects = append(r.Projects, p)
			}
			sort.Strings(r.Projects)
			for v := range g.via[n] {
				r.FoundVia = append(r.FoundVia, v)
			}
			sort.Strings(r.FoundVia)
			r.Presence = presenceOf(r.Statuses)
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// presenceOf is an agent's presence from its rows per status.
func presenceOf(st map[string]int) string {
	switch {
	case st[bundle.StatusCollected] > 0:
		return PresenceFilesKept
	case len(st) == 1 && st[bundle.StatusFolder] > 0:
		return PresenceNothingKept
	}
	return PresenceNothingCollected
}
