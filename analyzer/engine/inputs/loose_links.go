package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/doubleagent/doubleagent/bundle"
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
	switch {
	case fi.Mode().IsRegular():
		if _, _, ok := catalog.MatchesAt(hit.Rel, catalog.All()); !ok {
			return refuse("its target is a file where the catalog names a folder")
		}
	case !fi.IsDir():
		return refuse("its target is " + KindOf(fi.Mode()) + ", not a folder or a regular file")
	}
	if why := s.treeOwnerRule(h, walked); why != "" {
		return refuse(why)
	}
	inside := s.insideHomeOrVolumes(h, walked)
	if fi.Mode().IsRegular() {
		// A file is an agent's only inside a home or a volume folder,
		// whoever owns it (a planted ~/.claude/settings.json ->
		// /etc/shadow in an examiner's copy, where one account owns
		// everything, is not read).
		if !inside {
			return refuse("its target is a file outside every home of the tree and the container volume folders")
		}
		// visit records the real path (seenReal): a file reached
		// twice is read once. (Recording it here too made visit take
		// the file for one already read, and a followed link to a file
		// was never read.)
		return visit(catalog.Hit{Path: walked, Rel: hit.Rel, Agent: hit.Agent, Target: hit.Target, Info: fi})
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
	if !inside {
		// Followed as the collector follows it (the owner rule allowed
		// it), but never silently: the examiner reads where its files
		// came from.
		why := "no owners are recorded here to compare"
		if uid := ownerOf(walked); uid >= 0 {
			why = fmt.Sprintf("its target /%s is owned by uid %d, as the home is", real, uid)
		}
		s.problem(Problem{Kind: KindLinkOutsideHomes, SourceFile: orig, Agent: hit.Agent, Message: fmt.Sprintf("%s is a link (to %q): followed by the link policy (%s), though its target lies outside every home of the tree and the container volume folders: its files are read as %s's", orig, target, why, h.user)})
	}
	return catalog.WalkLinked(walked, hit.Rel, catalog.All(), visit)
}

// KindLinkOutsideHomes is the problem of a link the link policy followed
// to a folder outside every home and container volume folder of a tree.
const KindLinkOutsideHomes = bundle.ProblemLinkOutsideHomes

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// treeOwnerRule is the collector's owner rule (collector/collect/links.go),
// with the tree's own owners, so that an image read in place and its
// bundle give the same evidence: the target walked must be owned by the
// owner of the home h or by root, and a root-owned target of a link in a
// home not owned by root must lie inside a home of the tree or a
// container volume folder. It returns why not, or "". Where files carry
// no owner (Windows) it has nothing to compare and says "".
func (s *Source) treeOwnerRule(h looseHome, walked string) string {
	owner, uid := ownerOf(h.dir), ownerOf(walked)
	if owner < 0 || uid < 0 {
		return ""
	}
	if uid != owner && uid != 0 {
		return fmt.Sprintf("its target is owned by uid %d, neither the home's owner (uid %d) nor root", uid, owner)
	}
	if uid == 0 && owner != 0 && !s.insideHomeOrVolumes(h, walked) {
		return "its target is owned by root and lies outside every home and the container volume folders"
	}
	return ""
}

// insideHomeOrVolumes reports whether the walked path p lies inside a home
// of the tree or a container volume folder at the tree's root.
func (s *Source) insideHomeOrVolumes(h looseHome, p string) bool {
	for _, d := range s.homeDirs {
		if within(p, d) {
			return true
		}
	}
	for _, v := range catalog.VolumeDirs {
		if within(p, filepath.Join(h.tree, filepath.FromSlash(v))) {
			return true
		}
	}
	return false
}
