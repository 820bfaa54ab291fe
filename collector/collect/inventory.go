package collect

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
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

// InventoryRow is one user × agent line of --inventory output.
type InventoryRow struct {
	Record     string   `json:"record"` // "agent"
	Host       string   `json:"host"`
	User       string   `json:"user"`
	Home       string   `json:"home"`
	Agent      string   `json:"agent"`
	Status     string   `json:"status"`
	Files      int      `json:"files"`
	Bytes      int64    `json:"bytes"`
	FirstMTime string   `json:"first_mtime"`
	LastMTime  string   `json:"last_mtime"`
	Projects   []string `json:"projects"`
}

// Inventory walks like Run but copies nothing and writes nothing but w: one
// JSON line for the host and one per user and agent with files, bytes,
// first and last mtime, and the project directories named in state (read
// from the first MiB of each naming file).
func Inventory(w io.Writer, opts Options) error {
	if opts.Root == "" {
		opts.Root = "/"
	}
	host := hostFacts(opts)
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
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(InventoryHost{Record: "host", Host: host.Hostname, OS: host.OS, Root: opts.Root, Users: len(homes), Collector: Version, TakenUTC: bundle.FormatTimeMillis(time.Now())}); err != nil {
		return err
	}
	agents := catalog.All()
	status := map[string]string{}
	for _, a := range agents {
		status[a.Name] = string(a.Status)
	}
	for _, h := range homes {
		rows := map[string]*InventoryRow{}
		projects := map[string]map[string]bool{}
		var first, last = map[string]time.Time{}, map[string]time.Time{}
		sidecarSeen := map[string]bool{}
		_ = catalog.WalkHome(h.Dir, agents, func(hit catalog.Hit) error {
			if hit.Err != nil || hit.Excluded || hit.Info == nil || !hit.Info.Mode().IsRegular() || sidecarSeen[hit.Path] {
				return nil
			}
			r := rows[hit.Agent]
			if r == nil {
				r = &InventoryRow{Record: "agent", Host: host.Hostname, User: h.User, Home: h.Orig, Agent: hit.Agent, Status: status[hit.Agent], Projects: []string{}}
				rows[hit.Agent] = r
				projects[hit.Agent] = map[string]bool{}
			}
			r.Files++
			r.Bytes += hit.Info.Size()
			if hit.Target.Kind == catalog.KindSQLite {
				// The collection copies the store's sidecars with it.
				for _, sc := range catalog.Sidecars {
					if fi, err := os.Lstat(hit.Path + sc); err == nil && fi.Mode().IsRegular() && !sidecarSeen[hit.Path+sc] {
						sidecarSeen[hit.Path+sc] = true
						r.Files++
						r.Bytes += fi.Size()
					}
				}
			}
			mt := hit.Info.ModTime().UTC()
			if first[hit.Agent].IsZero() || mt.Before(first[hit.Agent]) {
				first[hit.Agent] = mt
			}
			if mt.After(last[hit.Agent]) {
				last[hit.Agent] = mt
			}
			if hit.Target.Projects != catalog.ProjectsNone {
				if f, err := openEvidence(opts.Root, hit.Path); err == nil {
					s := newProjectScanner(hit.Target.Projects)
					_, _ = io.Copy(s, io.LimitReader(f, 1<<20))
					f.Close()
					for _, p := range s.Paths() {
						projects[hit.Agent][p] = true
					}
				}
			}
			return nil
		})
		var names []string
		for n := range rows {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			r := rows[n]
			r.FirstMTime, r.LastMTime = bundle.FormatTimeMillis(first[n]), bundle.FormatTimeMillis(last[n])
			for p := range projects[n] {
				r.Projects = append(r.Projects, p)
			}
			sort.Strings(r.Projects)
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}
