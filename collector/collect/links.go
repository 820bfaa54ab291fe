package collect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// The link policy (collector/docs/usage.md and bundle/docs/format.md,
// Links). A link met on a catalog path is followed only when all of these
// hold, and refused (a symlink row whose error says why) otherwise:
//
//   - it resolves, link by link, the way the examined host would: on the
//     live host an ordinary resolution, under --root inside the root (an
//     absolute target is taken relative to the root and ".." stops at
//     it), so it never leaves the root; at most 40 links in one chain;
//   - its target is not under /proc, /sys or /dev (as the host sees it);
//   - its target is a folder or a regular file (never a FIFO, socket or
//     device), and a file only where a catalog target names a file;
//   - its target is owned by the home's owner or by root, and a
//     root-owned target of a link in a home not owned by root lies inside
//     a home found on the host (not "/") or a container volume folder;
//   - it is no loop: its target neither is nor holds the home, a folder
//     followed on the way there, or the link itself; at most
//     maxLinkDepth followed links deep.
//
// A followed link's row has link_followed and real_path (the resolved
// target); the files below it are recorded at their path through the link
// (as the agent named them) with via_link and their own real_path, and
// are opened by their real path with the same openat(O_NOFOLLOW) chain as
// every other file.

// maxLinkDepth bounds the followed links nested in one another.
const maxLinkDepth = 8

// linkState is where a walk stands with respect to followed links.
type linkState struct {
	walked string   // the followed link's target as walked
	orig   string   // the link's host path (through the links above it)
	chain  []string // the targets followed to get here, outermost first
	// target is set for a link to a file: the file's one row records the
	// link (link_target, link_followed) at the link's path.
	target string
	// outside: the target lies outside every home and container volume
	// folder (the file's row is marked outside_homes).
	outside bool
}

// hostPath is the host path of a walked path: through the followed link
// the walk is under, if any.
func (c *collector) hostPath(h Home, walked string) string {
	if h.link == nil {
		return origPath(c.opts.Root, walked)
	}
	base, orig := h.link.walked, h.link.orig
	if h.link.target != "" && walked != base {
		// A SQLite sidecar beside a linked store: beside the link.
		base, orig = filepath.Dir(base), path.Dir(orig)
	}
	rel, err := filepath.Rel(base, walked)
	if err != nil || rel == "." {
		return orig
	}
	return orig + "/" + filepath.ToSlash(rel)
}

// uidOf is the owner of a walked path (not following a last link).
func (c *collector) uidOf(p string) int64 {
	if c.opts.uidOf != nil {
		return c.opts.uidOf(p)
	}
	m, err := statTimes(p)
	if err != nil {
		return -1
	}
	return m.uid
}

// linkPolicy decides whether the link at the walked path link (home
// relative rel) is followed: it returns the target as walked and as the
// host sees it, its Lstat, and why not ("" when it is followed).
func (c *collector) linkPolicy(h Home, link, rel string) (walked, resolved string, fi fs.FileInfo, why string) {
	return c.targetPolicy(h, origPath(c.opts.Root, link), rel, filepath.Dir(link))
}

// targetPolicy applies the link policy to the host path orig (a link's
// path, or a relocated folder's): rel is the home-relative place it
// stands at ("" for a relocated folder, which must be a folder), linkDir
// the walked folder holding the link ("" for none).
func (c *collector) targetPolicy(h Home, orig, rel, linkDir string) (walked, resolved string, fi fs.FileInfo, why string) {
	walked, resolved, err := resolveIn(c.opts.Root, orig)
	switch {
	case errors.Is(err, errLinkLoop):
		return "", "", nil, "a loop of links (more than 40 links in one chain)"
	case errors.Is(err, fs.ErrNotExist):
		if !isLive(c.opts.Root) {
			return "", "", nil, "its target does not exist inside --root (an absolute target is taken relative to the root)"
		}
		return "", "", nil, "its target does not exist"
	case err != nil:
		return "", "", nil, "its target cannot be resolved: " + rowError(err)
	}
	for _, p := range []string{"/proc", "/sys", "/dev"} {
		if resolved == p || strings.HasPrefix(resolved, p+"/") {
			return walked, resolved, nil, "its target is under " + p
		}
	}
	if !isLive(c.opts.Root) && !within(walked, c.opts.Root) {
		return walked, resolved, nil, "its target is outside --root"
	}
	fi, err = os.Lstat(walked)
	if err != nil {
		return walked, resolved, nil, "its target cannot be read: " + rowError(err)
	}
	switch {
	case fi.IsDir():
	case fi.Mode().IsRegular():
		if _, _, ok := catalog.MatchesAt(rel, c.opts.Agents); rel == "" || !ok {
			return walked, resolved, fi, "its target is a file where the catalog names a folder"
		}
	default:
		return walked, resolved, fi, "its target is " + fileType(fi.Mode()) + ", not a folder or a regular file"
	}
	owner := c.uidOf(h.Dir)
	uid := c.uidOf(walked)
	if uid != owner && uid != 0 {
		return walked, resolved, fi, fmt.Sprintf("its target is owned by uid %d, neither the home's owner (uid %d) nor root", uid, owner)
	}
	if uid == 0 && owner != 0 && linkDir != "" && !c.insideHomeOrVolumes(walked) {
		// A planted ~/.claude/settings.json -> /etc/shadow: root owns it,
		// but it is no agent's file.
		return walked, resolved, fi, "its target is owned by root and lies outside every home and the container volume folders"
	}
	var chain []string
	chain = append(chain, h.Dir)
	if h.link != nil {
		chain = append(chain, h.link.chain...)
	}
	if linkDir != "" {
		chain = append(chain, linkDir)
	}
	for _, d := range chain {
		if d == walked || within(d, walked) {
			return walked, resolved, fi, "a loop: its target " + resolved + " holds " + origPath(c.opts.Root, d) + ", already on the way"
		}
	}
	if h.link != nil && len(h.link.chain) >= maxLinkDepth {
		return walked, resolved, fi, fmt.Sprintf("more than %d followed links deep", maxLinkDepth)
	}
	return walked, resolved, fi, ""
}

// insideHomeOrVolumes reports whether the walked path p lies inside a home
// found on the host (not a home of "/") or a container volume folder.
func (c *collector) insideHomeOrVolumes(p string) bool {
	for _, d := range c.homeDirs {
		if within(p, d) {
			return true
		}
	}
	for _, v := range catalog.VolumeDirs {
		if within(p, joinRoot(c.opts.Root, "/"+v)) {
			return true
		}
	}
	return false
}

// link records the link hit met on a catalog path and follows it when the
// link policy allows.
func (c *collector) link(ctx context.Context, h Home, hit catalog.Hit) error {
	e := c.baseEntry(h, hit, hit.Path)
	e.Type, e.Status = "symlink", bundle.StatusSymlink
	t, err := os.Readlink(hit.Path)
	if err != nil {
		e.Error = rowError(err)
	}
	e.LinkTarget = t
	c.fillMeta(&e, hit.Path)
	walked, resolved, fi, why := c.linkPolicy(h, hit.Path, hit.Rel)
	e.RealPath = resolved
	if err == nil && why != "" {
		e.Error = fmt.Sprintf("link to %q not followed: %s", t, why)
	}
	if err != nil || why != "" {
		c.w.AddEntry(e)
		c.tick(hit.Agent, h.User)
		c.log.Warn().Str("path", e.Path).Str("link_target", t).Str("resolved", resolved).Str("reason", why).Msg("link not followed")
		return nil
	}
	e.LinkFollowed = true
	// Followed (the owner rule allowed it), but never silently: a target
	// outside every home and container volume folder is marked, so the
	// analyzer names it as it does reading the tree in place.
	e.OutsideHomes = !c.insideHomeOrVolumes(walked)
	if e.OutsideHomes {
		c.log.Warn().Str("path", e.Path).Str("link_target", t).Str("resolved", resolved).Msg("link followed by the link policy to a target outside every home and container volume folder: its files are attributed to the home (outside_homes)")
	}
	if fi.Mode().IsRegular() {
		// One row: the file's, at the link's path, naming the link.
		agent, tg, _ := catalog.MatchesAt(hit.Rel, c.opts.Agents)
		c.log.Info().Str("path", e.Path).Str("link_target", t).Str("resolved", resolved).Msg("link followed by the link policy")
		h2 := h
		h2.link = &linkState{walked: walked, orig: e.Path, target: t, outside: e.OutsideHomes}
		if h.link != nil {
			h2.link.chain = h.link.chain
		}
		return c.handle(ctx, h2, catalog.Hit{Path: walked, Rel: hit.Rel, Agent: agent, Target: tg, Info: fi})
	}
	if prev, ok := c.followed[walked]; ok {
		// Its real_path is that of the first link: nothing to walk again.
		c.w.AddEntry(e)
		c.tick(hit.Agent, h.User)
		c.log.Info().Str("path", e.Path).Str("resolved", resolved).Str("first_through", prev).Msg("link followed: target already collected")
		return nil
	}
	c.followed[walked] = e.Path
	c.w.AddEntry(e)
	c.tick(hit.Agent, h.User)
	c.log.Info().Str("path", e.Path).Str("link_target", t).Str("resolved", resolved).Msg("link followed by the link policy")
	h2 := h
	st := &linkState{walked: walked, orig: e.Path}
	if h.link != nil {
		st.chain = append(st.chain, h.link.chain...)
	}
	st.chain = append(st.chain, walked)
	h2.link = st
	c.folderRow(h2, hit.Agent, hit.Target, walked, origPath(c.opts.Root, walked))
	c.catalogFolders(h2, walked, hit.Rel)
	return catalog.WalkLinked(walked, hit.Rel, c.opts.Agents, func(hit catalog.Hit) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		return c.handle(ctx, h2, hit)
	})
}

// folderRow records a folder that exists (a catalog folder, or a followed
// link's target) with its MACB times, once per walked path: status
// folder, nothing copied.
func (c *collector) folderRow(h Home, agent string, t catalog.Target, walked, path string) {
	if !c.done.Add(walked) {
		return
	}
	e := c.baseEntry(h, catalog.Hit{Agent: agent, Target: t}, walked)
	e.Path, e.Type, e.Status = path, "dir", bundle.StatusFolder
	if e.RealPath == e.Path {
		e.RealPath = ""
	}
	c.fillMeta(&e, walked)
	// A folder that exists but cannot be listed is not "present, nothing
	// kept": its row says it could not be read (the walk below it, which
	// meets the same error, finds this row already written).
	if f, err := openEvidence(c.opts.Root, walked); err != nil {
		e.Status, e.Error = bundle.StatusErrorRead, rowError(err)
		c.log.Warn().Str("path", e.Path).Err(err).Msg("unreadable")
	} else {
		f.Close()
	}
	c.w.AddEntry(e)
	c.tick(agent, h.User)
}

// catalogFolders records every catalog folder (catalog.Folders) that
// exists below base, reached through no link: base is a home (prefix "")
// or a followed link's target standing at the home-relative prefix.
func (c *collector) catalogFolders(h Home, base, prefix string) {
	for _, f := range c.folders {
		rest := f.Rel
		if prefix != "" {
			if !strings.HasPrefix(f.Rel, prefix+"/") {
				continue
			}
			rest = f.Rel[len(prefix)+1:]
		}
		p, ok := lstatDirNoLinks(base, rest)
		if !ok {
			continue
		}
		c.folderRow(h, f.Agent, f.Target, p, c.hostPath(h, p))
	}
}
