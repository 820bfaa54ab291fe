package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/doubleagent/doubleagent/catalog"
)

// treeLinks is a loose source's state of followed links.
type treeLinks struct {
	followed map[string]bool // real folders followed
	real     map[string]bool // real paths handed to the walk's callback
}

// seenReal reports whether the real path p was handed to the callback
// already (a file reached twice, once through a link), and records it.
func (s *Source) seenReal(p string) bool {
	if s.links == nil {
		s.links = &treeLinks{followed: map[string]bool{}, real: map[string]bool{}}
	}
	if s.links.real[p] {
		return true
	}
	s.links.real[p] = true
	return false
}

// followTreeLink follows, by the link policy (engine/inputs/links.go), the link hit met on a
// catalog path of the loose home h (rel: its path in the tree, orig: its
// host path), handing what lies behind it to visit with its path through
// the link; a refusal is a problem row naming link and target.
func (s *Source) followTreeLink(h looseHome, hit catalog.Hit, rel, orig string, visit func(catalog.Hit) error) error {
	target, _ := os.Readlink(hit.Path)
	refuse := func(why string) error {
		s.problem(Problem{Kind: KindUnsafePath, SourceFile: orig, Agent: hit.Agent, Message: fmt.Sprintf("%s is a link (to %q): not followed: %s", orig, target, why)})
		return nil
	}
	real, err := ResolveInTree(h.tree, rel)
	if err != nil {
		return refuse(err.Error())
	}
	walked := filepath.Join(h.tree, filepath.FromSlash(real))
	fi, err := os.Lstat(walked)
	if err != nil {
		return refuse("its target cannot be read: " + err.Error())
	}
	within := func(p, dir string) bool {
		r, err := filepath.Rel(dir, p)
		return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
	}
	switch {
	case fi.Mode().IsRegular():
		if _, _, ok := catalog.MatchesAt(hit.Rel, catalog.All()); !ok {
			return refuse("its target is a file where the catalog names a folder")
		}
		// As the collector's rule for a root-owned target: a file is an
		// agent's only inside a home (a planted ~/.claude/settings.json ->
		// /etc/shadow in an image is not read).
		inHome := false
		for _, d := range s.homeDirs {
			if within(walked, d) {
				inHome = true
				break
			}
		}
		if !inHome {
			return refuse("its target is a file outside every home of the tree")
		}
		// visit records the real path (seenReal): a file reached
		// twice is read once. (Recording it here too made visit take
		// the file for one already read, and a followed link to a file
		// was never read.)
		return visit(catalog.Hit{Path: walked, Rel: hit.Rel, Agent: hit.Agent, Target: hit.Target, Info: fi})
	case !fi.IsDir():
		return refuse("its target is " + KindOf(fi.Mode()) + ", not a folder or a regular file")
	}
	if s.links == nil {
		s.links = &treeLinks{followed: map[string]bool{}, real: map[string]bool{}}
	}
	if within(h.dir, walked) {
		return refuse("a loop: its target holds the home")
	}
	if within(filepath.Dir(hit.Path), walked) {
		return refuse("a loop: its target holds the link itself")
	}
	for d := range s.links.followed {
		if within(d, walked) || d == walked {
			return refuse("a loop: its target holds a folder followed before")
		}
	}
	s.links.followed[walked] = true
	return catalog.WalkLinked(walked, hit.Rel, catalog.All(), visit)
}
