package inputs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/engine/route"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
	"github.com/rs/zerolog"
)

// LooseLabels are what the examiner's --host, --user and --agent say about
// loose inputs, which carry no host, no account and (a single file) no
// agent of their own:
//
//   - host: the one --host value, when exactly one is given. It names every
//     loose input that has no host name of its own (no etc/hostname at its
//     root): a copied home, a lone agent folder, a single file, an image
//     without etc/hostname. An image's own etc/hostname is never
//     overridden. --host still filters as for bundles.
//   - user: the one --user value, when exactly one is given. It names the
//     user of a loose input whose one home was inferred from a folder's name
//     (a copied home, a lone agent folder, a single file); the homes of an
//     image (home/NAME, Users/NAME, root) keep their names. --user still
//     filters.
//   - agent: the one --agent value, when exactly one is given: a single file
//     given as INPUT is read as that agent's file (see openLooseFile).
//
// Every label applied is logged at info level.
type LooseLabels struct {
	host, user, agent string
	nAgents           int
	log               zerolog.Logger
}

// NewLooseLabels reads the labels from a run's --host, --user and
// --agent values.
func NewLooseLabels(log zerolog.Logger, hosts, users, agents []string) LooseLabels {
	l := LooseLabels{log: log, nAgents: len(agents)}
	if len(hosts) == 1 {
		l.host = hosts[0]
	}
	if len(users) == 1 {
		l.user = users[0]
	}
	if len(agents) == 1 {
		l.agent = agents[0]
	}
	return l
}

// maxHostnameBytes bounds the etc/hostname read, as the collector does.
const maxHostnameBytes = 4096

// imageHostname reads the host name of an image root at abs from its
// etc/hostname, as the collector does with --root: the file's first 4096
// bytes, spaces and newlines trimmed. It is read by the evidence rule (a
// regular file only, no link on the way or at the end, opened
// non-blocking), so a link or a FIFO there is a problem, never followed
// or opened. ok is false when there is no usable name.
func imageHostname(abs string) (name string, ok bool, prob *Problem) {
	if _, err := os.Lstat(filepath.Join(abs, "etc", "hostname")); err != nil {
		return "", false, nil
	}
	f, err := OpenIn(abs, "etc/hostname")
	if err != nil {
		kind := bundle.StatusErrorRead
		if errors.Is(err, ErrUnsafePath) {
			kind = KindUnsafePath
		}
		return "", false, &Problem{Kind: kind, SourceFile: "/etc/hostname", Message: "the image's host name is not read: " + err.Error()}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHostnameBytes))
	if err != nil {
		return "", false, &Problem{Kind: bundle.StatusErrorRead, SourceFile: "/etc/hostname", Message: "the image's host name is not read: " + err.Error()}
	}
	name, clean := cleanHostname(string(b))
	if !clean {
		p := hostnameProblem("/etc/hostname", string(b), name)
		return name, true, &p
	}
	return name, name != "", nil
}

// labelLoose names a loose tree's host and its one inferred user from the
// examiner's --host and --user (see LooseLabels).
func (s *Source) labelLoose(l LooseLabels, homes []looseHome, ownHost bool) {
	if l.host != "" && !ownHost && s.host != l.host {
		l.log.Info().Str("input", s.input).Str("host", l.host).Str("was", s.host).Msg("loose input has no host name of its own: named by --host")
		s.host = l.host
	}
	if l.user != "" && len(homes) == 1 && homes[0].copied && homes[0].user != l.user {
		l.log.Info().Str("input", s.input).Str("user", l.user).Str("was", homes[0].user).Msg("loose input's one home was named after its folder: its user named by --user")
		homes[0].user = l.user
	}
}

// openLooseFile reads one file the examiner named as INPUT, as the file of
// the agent named by the one --agent. Its catalog target is chosen by the
// file's name (chooseTarget); the choice is logged. Its home is the folder
// above the part of its path the target's pattern matches (the file's own
// folder when only the name matches), which names its user (or --user) and
// its host, loose:<home folder> (or --host), as a copied home would. A
// SQLite store travels with its -wal, -shm and -journal files beside it.
// The file itself is read by the evidence rule: the examiner's argument
// may be a link (resolved first), what it resolves to must be a regular
// file.
func openLooseFile(ctx context.Context, abs, input string, rt *Router) (*Source, error) {
	l := rt.Loose
	if l.agent == "" {
		why := "give --agent NAME to read it as that agent's file"
		if l.nAgents > 1 {
			why = fmt.Sprintf("--agent was given %d times: give exactly one to read it as that agent's file", l.nAgents)
		}
		return nil, fmt.Errorf("a single file that is not a bundle (no zstd frame): %s", why)
	}
	a, ok := catalog.Lookup(l.agent)
	if !ok {
		return nil, fmt.Errorf("a single file, and --agent %s is not a catalog agent (doubleagent catalog lists them)", l.agent)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	orig := filepath.ToSlash(real)
	ch, alts, err := chooseTarget(a, orig, rt)
	if err != nil {
		return nil, fmt.Errorf("a single file read as %s's: %w", a.Name, err)
	}
	// At warning level, so the default log shows what the file was taken
	// for: the analyzer chose it from the name.
	ev := l.log.Warn().Str("input", input).Str("agent", a.Name).Str("target", ch.target.ID).Str("pattern", ch.pattern).Str("rel", ch.rel)
	if len(alts) > 0 {
		ev = ev.Strs("also_matching", alts)
	}
	ev.Msg("single file read as this agent's target")
	home := ch.home
	if home == "" {
		home = path.Dir(orig)
	}
	s := &Source{kind: KindLoose, input: input, inferred: true, host: "loose:" + path.Base(home)}
	homes := []looseHome{{user: path.Base(home), copied: true}}
	s.labelLoose(l, homes, false)
	user := homes[0].user
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	dir, base := filepath.Dir(real), filepath.Base(real)
	fi, err := os.Lstat(real)
	if err != nil {
		return nil, err
	}
	p := path.Join(path.Dir(orig), base)
	s.seen = append(s.seen, seenFile{user: user, agent: a.Name, status: bundle.StatusCollected, size: fi.Size(), parsable: rt.Reads(a.Name)})
	if rt.KeepManifest {
		s.manifest = append(s.manifest, bundle.Entry{Record: bundle.RecordFile, Path: p, User: user, Agent: a.Name, Target: ch.target.ID, Type: "file",
			Size: fi.Size(), Mode: fmt.Sprintf("%o", fi.Mode().Perm()), MTime: bundle.FormatTime(fi.ModTime()), Status: bundle.StatusCollected})
	}
	r := &File{File: parser.File{Path: p, Rel: ch.rel, Agent: a.Name, Target: ch.target.ID, Kind: ch.target.Kind,
		Size: fi.Size(), MTime: fi.ModTime().UTC(), Host: s.host, User: user}, tree: dir, local: base}
	if !fi.Mode().IsRegular() {
		// Swapped since it was resolved: never opened.
		s.problem(Problem{Kind: KindUnsafePath, SourceFile: p, Agent: a.Name, Message: p + " is " + KindOf(fi.Mode()) + ": not read"})
		return s, nil
	}
	if rt.Wants(a.Name, ch.target.Kind) {
		s.add(r)
	}
	if ch.target.Kind == catalog.KindSQLite {
		s.addSidecars(r, rt)
	}
	return s, nil
}

// addSidecars adds the -wal, -shm and -journal files beside a loose
// SQLite store r, which travel with it (Input.DB copies them beside its
// private copy) as the collector copies them: not parsed on their own,
// counted as the store's agent's files. One already found by the walk is
// left as it is; one that is a link or a FIFO is a problem, never opened.
func (s *Source) addSidecars(r *File, rt *Router) {
	for _, suf := range catalog.Sidecars {
		p := r.Path + suf
		if _, ok := s.byPath[p]; ok {
			continue
		}
		local := r.local + suf
		fi, err := os.Lstat(filepath.Join(r.tree, filepath.FromSlash(local)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: p, Agent: r.Agent, Message: "not read: " + reasonOf(err)})
			continue
		}
		status := bundle.StatusCollected
		if !fi.Mode().IsRegular() {
			status = bundle.StatusSkippedSpecial
			if fi.Mode()&os.ModeSymlink != 0 {
				status = bundle.StatusSymlink
			}
		}
		s.seen = append(s.seen, seenFile{user: r.User, agent: r.Agent, status: status, size: fi.Size(), parsable: rt.Reads(r.Agent)})
		if rt.KeepManifest {
			s.manifest = append(s.manifest, bundle.Entry{Record: bundle.RecordFile, Path: p, User: r.User, Agent: r.Agent, Target: r.Target, Type: "file",
				Size: fi.Size(), Mode: fmt.Sprintf("%o", fi.Mode().Perm()), MTime: bundle.FormatTime(fi.ModTime()), Status: status, SidecarOf: r.Path})
		}
		if status != bundle.StatusCollected {
			s.problem(Problem{Kind: KindUnsafePath, SourceFile: p, Agent: r.Agent, Message: p + " is " + KindOf(fi.Mode()) + ": not read"})
			continue
		}
		sc := *r
		sc.Path, sc.Rel, sc.local, sc.Size, sc.MTime = p, r.Rel+suf, local, fi.Size(), fi.ModTime().UTC()
		if s.byPath == nil {
			s.byPath = map[string]*File{}
		}
		s.byPath[p] = &sc
	}
}

// targetChoice is the catalog target a single file is read as.
type targetChoice struct {
	target  catalog.Target
	pattern string // the home-relative pattern that matched
	rel     string // the file's path relative to its home
	home    string // the home's path, "" when only the name matched
	tier    int
	parsed  bool // a parser reads files of this target and name
}

// chooseTarget picks the target of agent a that the file at orig (an
// absolute '/' separated path) is: a target whose pattern's last element
// matches the file's name. Of several, the first of: one whose whole
// pattern matches the end of the path (which then gives the home and the
// path relative to it), one whose pattern's last element is the name
// itself, one whose last element matches it as a wildcard (not * or **,
// which match any name); within each,
// one a parser reads before one none reads, then catalog order. alts lists
// the other targets that matched. None matching is an error listing the
// agent's targets and their patterns.
func chooseTarget(a catalog.Agent, orig string, rt *Router) (best targetChoice, alts []string, err error) {
	name := path.Base(orig)
	comps := strings.Split(strings.TrimPrefix(orig, "/"), "/")
	var cands []targetChoice
	var all []string
	for _, t := range a.Targets {
		var tc *targetChoice
		for _, pat := range catalog.TargetPatterns(t) {
			all = append(all, t.ID+" ("+pat+")")
			for _, alt := range catalog.ExpandBraces(pat) {
				c := targetChoice{target: t, pattern: alt, rel: name, tier: 3}
				// The shortest end of the path (two elements or more) the
				// whole pattern matches: the home is the folder above it.
				for i := len(comps) - 2; i >= 0 && c.tier > 0; i-- {
					suffix := strings.Join(comps[i:], "/")
					if ok, _ := doublestar.Match(alt, suffix); ok {
						c.tier, c.rel, c.home = 0, suffix, "/"+strings.Join(comps[:i], "/")
					}
				}
				if last := path.Base(alt); c.tier > 0 && last == name {
					c.tier = 1
				} else if c.tier > 0 && strings.Trim(last, "*") != "" && strings.ContainsAny(last, "*?[") {
					// A wildcard last element (*.jsonl), but not one that
					// matches any name (* or **: a folder of anything).
					if ok, _ := doublestar.Match(last, name); ok {
						c.tier = 2
					}
				}
				if c.tier < 3 && (tc == nil || c.tier < tc.tier) {
					cc := c
					tc = &cc
				}
			}
		}
		if tc != nil {
			f := parser.File{Path: orig, Rel: tc.rel, Agent: a.Name, Target: t.ID, Kind: t.Kind}
			for _, p := range rt.Parsers() {
				if p.Agent() == a.Name && route.Matches(p, &f) {
					tc.parsed = true
					break
				}
			}
			cands = append(cands, *tc)
		}
	}
	if len(cands) == 0 {
		return best, nil, fmt.Errorf("its name %q matches no target of %s: %s", name, a.Name, strings.Join(all, ", "))
	}
	bi := 0
	for i, c := range cands {
		b := cands[bi]
		if c.tier < b.tier || (c.tier == b.tier && c.parsed && !b.parsed) {
			bi = i
		}
	}
	for i, c := range cands {
		if i != bi {
			alts = append(alts, c.target.ID)
		}
	}
	return cands[bi], alts, nil
}

// catalogFolders are the folders the catalog names outright (catalog.Folders).
var catalogFolders = sync.OnceValue(func() []catalog.Folder { return catalog.Folders(catalog.All()) })

// looseFolders records every catalog folder that exists in the loose home
// h, reached through no link (and, for a lone agent folder, inside it), as
// the collector's folder rows do: an agent folder that holds nothing is
// "present, nothing kept" in the inventory, not absent.
func (s *Source) looseFolders(h looseHome, rt *Router) {
	for _, f := range catalogFolders() {
		p := h.dir
		ok := true
		for _, seg := range strings.Split(f.Rel, "/") {
			p = filepath.Join(p, seg)
			fi, err := os.Lstat(p)
			if err != nil || !fi.IsDir() {
				ok = false
				break
			}
		}
		if !ok || (h.only != "" && p != h.only && !strings.HasPrefix(p, h.only+string(filepath.Separator))) {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		s.seen = append(s.seen, seenFile{user: h.user, agent: f.Agent, status: bundle.StatusFolder, parsable: rt.Reads(f.Agent)})
		if rt.KeepManifest {
			s.manifest = append(s.manifest, bundle.Entry{Record: bundle.RecordFile, Path: h.orig + "/" + f.Rel, User: h.user, Agent: f.Agent, Target: f.Target.ID, Type: "dir",
				Mode: fmt.Sprintf("%o", fi.Mode().Perm()), MTime: bundle.FormatTime(fi.ModTime()), Status: bundle.StatusFolder})
		}
	}
}
