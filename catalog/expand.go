package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Hit is one path a walk met: a file, link or special file matched by a
// target's glob, a directory pruned by an exclude, or a directory that could
// not be read.
type Hit struct {
	// Path is the absolute filesystem path as walked (under --root, the
	// path on the examiner's mount).
	Path string
	// Rel is Path relative to the home, '/' separated.
	Rel string
	// Agent and Target say which catalog entry matched.
	Agent  string
	Target Target
	// Info is from Lstat: links are never followed.
	Info fs.FileInfo
	// Excluded is set for a directory pruned by an exclude rule; the walk
	// does not descend into it.
	Excluded bool
	// Err is set when the directory or entry could not be read.
	Err error
	// SidecarOf is set on the -wal or -journal file of a SQLite target's
	// store that is not there (deleted, or never copied): the walked path
	// of the absent store. Such a side file holds the store's pages (a
	// WAL's frames are whole pages), so it is reported, never passed
	// over because its name is not the target's. A side file beside a
	// store that is there is not a hit: it travels with its store.
	SidecarOf string
}

// orphanSuffixes are the side files that hold a SQLite store's pages
// (the -shm is an index of the WAL, rebuilt from it, holding no record).
var orphanSuffixes = []string{"-wal", "-journal"}

// orphanSidecar reports, for the file p (home-relative rel) of a SQLite
// target whose pattern pat did not match it, the walked path of its absent
// store when p is that store's -wal or -journal.
func orphanSidecar(t Target, pat, p, rel string) (string, bool) {
	if t.Kind != KindSQLite {
		return "", false
	}
	for _, suf := range orphanSuffixes {
		mainRel, ok := strings.CutSuffix(rel, suf)
		if !ok || mainRel == "" {
			continue
		}
		if m, _ := doublestar.Match(pat, mainRel); !m {
			continue
		}
		main := strings.TrimSuffix(p, suf)
		if _, err := os.Lstat(main); errors.Is(err, fs.ErrNotExist) {
			return main, true
		}
	}
	return "", false
}

// WalkHome walks every target of every agent in list under the home
// directory home, trying each OS's root definitions (so a Windows profile
// mounted on Linux is walked with the Windows roots), and calls fn once per
// distinct path. Symbolic links are reported, never followed. fn may return
// fs.SkipAll to stop the walk; any other error stops it and is returned.
func WalkHome(home string, list []Agent, fn func(Hit) error) error {
	seen := NewPathSet()
	own := &linkOwners{list: list}
	sc := statCache{}
	fn = sharedOwner(list, fn)
	for _, a := range list {
		for _, t := range a.Targets {
			for _, pat := range TargetPatterns(t) {
				if err := walkPattern(home, pat, a.Name, t, seen, own, sc, fn); err != nil {
					if errors.Is(err, fs.SkipAll) {
						return nil
					}
					return err
				}
			}
		}
	}
	return nil
}

// TargetPatterns returns the distinct home-relative glob patterns of t over
// every OS it applies to.
func TargetPatterns(t Target) []string {
	var out []string
	dup := map[string]bool{}
	for _, o := range t.OSes() {
		dirs, _ := RootDirs(t.Root, o)
		for _, d := range dirs {
			p := t.Glob
			if d != "." {
				p = d + "/" + t.Glob
			}
			if !dup[p] {
				dup[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Excluded reports whether a directory base name is pruned for target t.
func Excluded(t Target, name string) bool {
	for _, x := range DefaultExcludes {
		if x == name {
			return true
		}
	}
	for _, x := range t.Exclude {
		if ok, _ := doublestar.Match(x, name); ok {
			return true
		}
	}
	return false
}

// linkOwners attributes a link met where a folder is expected (on the way
// to a target's static base) to the agent whose folder it stands for
// (Folders: ~/.gemini is Gemini CLI's, though Antigravity's patterns pass
// through it first), not to whichever pattern met it first.
type linkOwners struct {
	list []Agent
	m    map[string]Folder
}

func (o *linkOwners) at(rel, agent string, t Target) (string, Target) {
	if o.m == nil {
		o.m = map[string]Folder{}
		for _, f := range Folders(o.list) {
			o.m[f.Rel] = f
		}
	}
	if f, ok := o.m[rel]; ok {
		return f.Agent, f.Target
	}
	return agent, t
}

func walkPattern(home, pat, agent string, t Target, seen *PathSet, own *linkOwners, sc statCache, fn func(Hit) error) error {
	// Expand alternatives first so each has its own static base.
	for _, x := range expandPattern(pat) {
		p, segs := x.p, x.segs
		// The static base is the run of literal segments before the first
		// one with glob syntax (all but the last when every one is literal).
		n := 0
		for n < len(segs)-1 && !hasMeta(segs[n]) {
			n++
		}
		if n == len(segs)-1 && !hasMeta(segs[n]) {
			n = len(segs) // a plain path: Lstat it, link or not
		}
		start, link, ok := sc.lstatNoLinks(home, segs[:min(n, len(segs)-1)])
		if ok && n == len(segs) {
			start = filepath.Join(start, segs[n-1])
		}
		if !ok {
			// Missing, or reached only through a link: never followed, but
			// a link standing where the target's folder should be is a
			// path seen, so it is reported once.
			if link != "" && seen.Add(link) {
				info, _ := os.Lstat(link)
				rel := relSlash(home, link)
				la, lt := own.at(rel, agent, t)
				if err := fn(Hit{Path: link, Rel: rel, Agent: la, Target: lt, Info: info}); err != nil {
					return err
				}
			}
			continue
		}
		if err := walkFrom(home, "", start, p, segs, agent, t, seen, fn); err != nil {
			return err
		}
	}
	return nil
}

// expandedPat is one alternative of a pattern and its segments.
type expandedPat struct {
	p    string
	segs []string // read only: shared by every walk of the pattern
}

// patterns caches expandPattern: every home is walked with the same
// catalog patterns, so each is expanded and split once per process, not
// once per home (a few hundred allocations a home). The catalog bounds
// it; past maxPatterns a pattern is expanded each time.
var patterns struct {
	sync.Mutex
	m map[string][]expandedPat
}

const maxPatterns = 1 << 14

// expandPattern is ExpandBraces(pat), each alternative split at "/".
func expandPattern(pat string) []expandedPat {
	patterns.Lock()
	out, ok := patterns.m[pat]
	patterns.Unlock()
	if ok {
		return out
	}
	for _, p := range ExpandBraces(pat) {
		out = append(out, expandedPat{p, strings.Split(p, "/")})
	}
	patterns.Lock()
	if patterns.m == nil {
		patterns.m = map[string][]expandedPat{}
	}
	if len(patterns.m) < maxPatterns {
		patterns.m[pat] = out
	}
	patterns.Unlock()
	return out
}

// lstatNoLinks joins segs below home and reports whether every component
// exists and is a directory, none of them a symbolic link, so a walk never
// starts in a directory reached through a link (os.Lstat follows links in
// all but the last component). When a component is a link or not a
// directory (a FIFO or a file standing where a folder should be), link is
// its path.
func lstatNoLinks(home string, segs []string) (path, link string, ok bool) {
	p := home
	for _, s := range segs {
		if s == "." || s == "" {
			continue
		}
		p = filepath.Join(p, s)
		st, err := os.Lstat(p)
		if err != nil {
			return "", "", false
		}
		if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
			// A link, or a FIFO, socket, device or file where a folder
			// should be: the walk stops there, and the caller reports the
			// path once (a FIFO is never opened), so the agent's folder is
			// not silently absent.
			return "", p, false
		}
	}
	return p, "", true
}

// statCache holds what one WalkHome learnt of the folders on the way to
// each pattern's static base: the catalog's patterns share their first
// folders (.claude, .config, Library/Application Support), which were
// otherwise Lstat'd once per pattern.
type statCache map[string]statOf

type statOf uint8

const (
	statMissing statOf = iota + 1
	statLink           // a link, or a FIFO, socket, device or file where a folder should be
	statDir
)

// lstatNoLinks is lstatNoLinks with each component's Lstat remembered:
// a link or a non-folder stops the walk and is its link path.
func (c statCache) lstatNoLinks(home string, segs []string) (path, link string, ok bool) {
	p := home
	for _, s := range segs {
		if s == "." || s == "" {
			continue
		}
		p = filepath.Join(p, s)
		st, seen := c[p]
		if !seen {
			fi, err := os.Lstat(p)
			switch {
			case err != nil:
				st = statMissing
			case fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir():
				st = statLink
			default:
				st = statDir
			}
			c[p] = st
		}
		switch st {
		case statMissing:
			return "", "", false
		case statLink:
			return "", p, false
		}
	}
	return p, "", true
}

func hasMeta(seg string) bool { return strings.ContainsAny(seg, "*?[{\\") }

// dirState says whether a directory at rel (home-relative segments) can
// hold a path the pattern segs match, and whether its own name was matched
// by a literal pattern segment (a directory the pattern names outright,
// such as .git in .copilot/repos/*/.git/refs/..., is never pruned by an
// exclude).
func dirState(segs, rel []string) (descend, literal bool) {
	for j, name := range rel {
		if j < len(segs) && segs[j] == "**" {
			return true, false // anything below may match
		}
		if j >= len(segs)-1 {
			// The last pattern segment matches files; a directory at or
			// beyond its depth cannot hold a match.
			return false, false
		}
		s := segs[j]
		if ok, _ := doublestar.Match(s, name); !ok {
			return false, false
		}
		literal = !hasMeta(s)
	}
	return true, literal
}

// walkFrom walks start for pattern pat. A path's home-relative name is
// prefix joined with its path relative to base (base is the home and
// prefix "" for an ordinary walk; a followed link's target and the link's
// home-relative name for WalkLinked).
func walkFrom(base, prefix, start, pat string, segs []string, agent string, t Target, seen *PathSet, fn func(Hit) error) error {
	relSlash := func(_, p string) string {
		r := relSlash(base, p)
		switch {
		case prefix == "":
			return r
		case r == "":
			return prefix
		}
		return prefix + "/" + r
	}
	home := base
	st, err := os.Lstat(start)
	if err != nil {
		// Nothing there: not an event, unless it is a SQLite store whose
		// -wal or -journal is left (a plain path names the store).
		if t.Kind == KindSQLite && errors.Is(err, fs.ErrNotExist) {
			for _, suf := range orphanSuffixes {
				sp := start + suf
				sst, serr := os.Lstat(sp)
				if serr != nil {
					continue
				}
				rel := relSlash(home, sp)
				if main, ok := orphanSidecar(t, pat, sp, rel); ok && seen.Add(sp) {
					if err := fn(Hit{Path: sp, Rel: rel, Agent: agent, Target: t, Info: sst, SidecarOf: main}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	rel0 := relSlash(home, start)
	if !st.IsDir() {
		if ok, _ := doublestar.Match(pat, rel0); ok && seen.Add(start) {
			return fn(Hit{Path: start, Rel: rel0, Agent: agent, Target: t, Info: st})
		}
		return nil
	}
	if ok, _ := doublestar.Match(pat, rel0); ok && rel0 != "" {
		if descend, _ := dirState(segs, strings.Split(rel0, "/")); !descend {
			// A folder where a literal pattern names a file: one hit, as
			// below.
			if seen.Add(start) {
				return fn(Hit{Path: start, Rel: rel0, Agent: agent, Target: t, Info: st})
			}
			return nil
		}
	}
	return filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		rel := relSlash(home, p)
		if err != nil {
			if p == start && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if !seen.Add(p) {
				return nil
			}
			info, _ := os.Lstat(p)
			return fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Info: info, Err: err})
		}
		if d.IsDir() {
			if p == start {
				return nil
			}
			descend, literal := dirState(segs, strings.Split(rel, "/"))
			if !descend {
				// A folder where the pattern names a file (an opencode.db, a
				// transcript .jsonl that is a folder): one hit, so it gets
				// a row saying what stands there, never silently absent.
				if ok, _ := doublestar.Match(pat, rel); ok && seen.Add(p) {
					info, _ := d.Info()
					if err := fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Info: info}); err != nil {
						return err
					}
				}
				return filepath.SkipDir
			}
			if !literal && Excluded(t, d.Name()) {
				if !seen.Add(p) {
					return filepath.SkipDir
				}
				info, _ := d.Info()
				if err := fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Info: info, Excluded: true}); err != nil {
					return err
				}
				return filepath.SkipDir
			}
			return nil
		}
		ok, _ := doublestar.Match(pat, rel)
		if !ok && d.Type()&fs.ModeSymlink != 0 {
			// A link where the pattern could still descend may stand for a
			// directory: report it (never followed) so it gets a row.
			ok, _ = dirState(segs, strings.Split(rel, "/"))
		}
		if !ok {
			if main, orphan := orphanSidecar(t, pat, p, rel); orphan && seen.Add(p) {
				info, ierr := d.Info()
				if ierr != nil {
					return fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Err: ierr, SidecarOf: main})
				}
				return fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Info: info, SidecarOf: main})
			}
			return nil
		}
		if !seen.Add(p) {
			return nil
		}
		info, ierr := d.Info()
		if ierr != nil {
			return fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Err: ierr})
		}
		return fn(Hit{Path: p, Rel: rel, Agent: agent, Target: t, Info: info})
	})
}

// WalkLinked walks the folder dir, the resolved target of a link that
// stands at linkRel below a home (home-relative, '/' separated), for every
// target of every agent in list whose pattern can match at or below
// linkRel, as if dir stood there: a Hit's Path is under dir, its Rel is
// linkRel joined with the path below dir. Links below dir are reported,
// never followed (the caller decides, by its link policy). fn may return
// fs.SkipAll to stop the walk; any other error stops it and is returned.
func WalkLinked(dir, linkRel string, list []Agent, fn func(Hit) error) error {
	seen := NewPathSet()
	own := &linkOwners{list: list}
	fn = sharedOwner(list, fn)
	prefix := strings.Split(linkRel, "/")
	for _, a := range list {
		for _, t := range a.Targets {
			for _, pat := range TargetPatterns(t) {
				for _, p := range ExpandBraces(pat) {
					segs := strings.Split(p, "/")
					if descend, _ := dirState(segs, prefix); !descend {
						continue
					}
					start := dir
					if !slices.Contains(segs[:len(prefix)], "**") {
						// Start at the static base below the link, as
						// walkPattern does below a home.
						rest := segs[len(prefix):]
						n := 0
						for n < len(rest)-1 && !hasMeta(rest[n]) {
							n++
						}
						base, link, ok := lstatNoLinks(dir, rest[:n])
						if !ok {
							if link != "" && seen.Add(link) {
								info, _ := os.Lstat(link)
								rel := linkRel + "/" + relSlash(dir, link)
								la, lt := own.at(rel, a.Name, t)
								if err := fn(Hit{Path: link, Rel: rel, Agent: la, Target: lt, Info: info}); err != nil {
									if errors.Is(err, fs.SkipAll) {
										return nil
									}
									return err
								}
							}
							continue
						}
						start = base
					}
					if err := walkFrom(dir, linkRel, start, p, segs, a.Name, t, seen, fn); err != nil {
						if errors.Is(err, fs.SkipAll) {
							return nil
						}
						return err
					}
				}
			}
		}
	}
	return nil
}

// MatchesAt reports whether some target of an agent in list matches the
// home-relative path rel itself (a link to a file standing at rel is then
// that target's file), and returns the first such agent and target (the
// owner's, when two agents' targets match it: SharedTargets).
func MatchesAt(rel string, list []Agent) (string, Target, bool) {
	for _, a := range list {
		for _, t := range a.Targets {
			for _, pat := range TargetPatterns(t) {
				for _, p := range ExpandBraces(pat) {
					if ok, _ := doublestar.Match(p, rel); ok {
						an, at := newOwners(list).of(rel, a.Name, t)
						return an, at, true
					}
				}
			}
		}
	}
	return "", Target{}, false
}

// sharedOwner wraps a walk's fn so that a path two agents' targets match
// is reported as its owner's (SharedTargets), whichever target's walk
// meets it first.
func sharedOwner(list []Agent, fn func(Hit) error) func(Hit) error {
	o := newOwners(list)
	if len(o.by) == 0 {
		return fn
	}
	return func(h Hit) error {
		if !h.Excluded {
			h.Agent, h.Target = o.of(h.Rel, h.Agent, h.Target)
		}
		return fn(h)
	}
}

func relSlash(home, p string) string {
	r, err := filepath.Rel(home, p)
	if err != nil || r == "." {
		return ""
	}
	return filepath.ToSlash(r)
}

// ExpandBraces expands {a,b} alternatives (nested allowed, \{ escaped)
// into plain cleaned patterns, so each gets its own static base directory
// for the walk. The collector uses it too (where its output may go).
func ExpandBraces(p string) []string {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 && open >= 0 {
				var alts []string
				d, last := 0, open+1
				for j := open + 1; j < i; j++ {
					switch p[j] {
					case '{':
						d++
					case '}':
						d--
					case ',':
						if d == 0 {
							alts = append(alts, p[last:j])
							last = j + 1
						}
					}
				}
				alts = append(alts, p[last:i])
				var out []string
				for _, a := range alts {
					out = append(out, ExpandBraces(p[:open]+a+p[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{path.Clean(p)}
}
