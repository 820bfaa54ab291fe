package inputs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Links in a loose tree follow the collector's link policy
// (collector/docs/usage.md, Links) relative to the tree's own root: a link
// on a catalog path is followed when it resolves inside the tree (an
// absolute target is taken relative to the tree's root; a ".." that would
// climb above it is refused), not into proc, sys or dev at the root, in
// at most 40 links, to a folder or a regular file (a file only where a
// catalog target names one, inside a home of the tree or a volume folder),
// and round no loop (its target neither is nor holds the home, a folder
// followed before, or the link's own folder), under the collector's owner
// rule with the tree's own owners (treeOwnerRule, loose_links.go), so an
// image and its bundle give the same evidence. Everything else is a
// problem row naming the link and its target; a link followed to a folder
// outside every home is a link_outside_homes problem. The files below a
// followed link are read by their real path in the tree, through no link
// (OpenIn), with their path through the link as the agent named it.

// maxTreeLinks bounds the links in one chain.
const maxTreeLinks = 40

// ResolveInTree resolves rel (tree-relative, '/' separated) inside the
// tree at root, following links by the rule above, and returns the
// resolved tree-relative path, on which no component is a link. A
// refusal is an error saying why.
func ResolveInTree(root, rel string) (string, error) {
	comps, err := splitRel(rel)
	if err != nil {
		return "", err
	}
	var done []string
	todo := comps
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", fmt.Errorf("its target climbs out of the tree")
			}
			done = done[:len(done)-1]
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(strings.Join(append(done, c), "/")))
		fi, err := os.Lstat(p)
		if err != nil {
			if os.IsNotExist(err) {
				return "", fmt.Errorf("its target does not exist inside the tree (an absolute target is taken relative to the tree's root)")
			}
			return "", fmt.Errorf("its target cannot be resolved: %v", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		if hops++; hops > maxTreeLinks {
			return "", fmt.Errorf("a loop of links (more than %d links in one chain)", maxTreeLinks)
		}
		t, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		t = filepath.ToSlash(t)
		if strings.HasPrefix(t, "/") {
			done = nil
		}
		todo = append(strings.Split(t, "/"), todo...)
	}
	if len(done) > 0 {
		switch done[0] {
		case "proc", "sys", "dev":
			return "", fmt.Errorf("its target is under /%s", done[0])
		}
	}
	return strings.Join(done, "/"), nil
}

// An extracted collection follows the same policy relative to its own
// root, files/ (which stands for the host's root, as --root does for the
// collector): a manifest row whose archive path passes a link is read
// through it when every link on the way resolves inside files/ (an
// absolute target taken relative to files/, a ".." climbing above it
// refused), not into files/proc, files/sys or files/dev, in at most 40
// links, a link on the way to a folder whose target does not hold the
// link's own folder (a loop), the last to a regular file. The file is
// hashed at its real path against the row of the path the agent used
// (the row's archive path), and that real path is named (verify's
// Followed, the inventory's read_from). Anything else is one problem row
// naming the link and its target. Nothing outside files/ is ever read.

// linkRefused is the error for a link not followed.
type linkRefused struct {
	link, target, why string
}

func (e *linkRefused) Error() string {
	return fmt.Sprintf("%s is a link (to %q): not followed: %s", e.link, e.target, e.why)
}
func (e *linkRefused) Unwrap() error { return ErrUnsafePath }

// ResolveMember resolves an extracted collection's archive path name
// (files/...) under the policy above and returns the archive path to open
// (name itself when no component is a link) and whether a link was
// followed. A path with no link, or one that does not exist, is returned
// as it is, for OpenIn to open or report.
func ResolveMember(root, name string) (string, bool, error) {
	comps, err := splitRel(name)
	if err != nil || len(comps) < 2 || comps[0] != "files" {
		return name, false, nil
	}
	filesRoot := filepath.Join(root, "files")
	if fi, err := os.Lstat(filesRoot); err != nil || !fi.IsDir() {
		return name, false, nil
	}
	within := func(p, dir string) bool { // p (files/-relative) is dir or below it
		return dir == "" || p == dir || strings.HasPrefix(p, dir+"/")
	}
	done := ""
	followed := false
	rest := comps[1:]
	for i, c := range rest {
		p := c
		if done != "" {
			p = done + "/" + c
		}
		fi, err := os.Lstat(filepath.Join(filesRoot, filepath.FromSlash(p)))
		if err != nil {
			return name, false, nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = p
			continue
		}
		link := "files/" + strings.Join(rest[:i+1], "/")
		target, _ := os.Readlink(filepath.Join(filesRoot, filepath.FromSlash(p)))
		refuse := func(why string) (string, bool, error) {
			return name, false, &linkRefused{link, target, why}
		}
		r, err := ResolveInTree(filesRoot, p)
		if err != nil {
			return refuse(strings.ReplaceAll(strings.ReplaceAll(err.Error(), "the tree's root", "files/"), "the tree", "the collection's files/"))
		}
		rfi, err := os.Lstat(filepath.Join(filesRoot, filepath.FromSlash(r)))
		if err != nil {
			return refuse("its target cannot be read: " + err.Error())
		}
		last := i == len(rest)-1
		switch {
		case last && !rfi.Mode().IsRegular():
			return refuse("its target is " + KindOf(rfi.Mode()) + ", not a regular file")
		case !last && !rfi.IsDir():
			return refuse("its target is " + KindOf(rfi.Mode()) + ", not a folder")
		case !last && within(done, r):
			return refuse("a loop: its target holds the link itself")
		}
		done, followed = r, true
	}
	return "files/" + done, followed, nil
}
