package inputs

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// Relocated agent folders in a loose tree. As the collector does
// (collector/collect/relocate.go), the catalog's relocation variables
// (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, ...) are read from the
// home's start files (catalog.HomeEnvFiles, HomeEnvDirs), its systemd
// user units (catalog.HomeUnitDirs) and, in an image, the image's
// environment files (HostEnvFiles, HostEnvDirs) and service units
// (SystemUnitDirs, of the home's user by User= or root's without one;
// HostUserUnitDirs), each opened by the evidence rule (OpenIn); the folder a value names is read as if it
// stood at the agent's default place, its rows named at its own path. A
// folder is looked for in the tree only: inside the home (a copied home
// or folder of homes) or, in an image, anywhere in the image, resolved by
// the tree's link policy (ResolveInTree). A value naming a folder outside
// the tree, or one the policy refuses, is a problem row; a value naming
// nothing is skipped. The catalog's alternate places (~/.config/claude
// for ~/.claude) are read when they exist. The running processes'
// environment, which only a live collection sees, is not there.

// looseReloc is one relocated folder to walk.
type looseReloc struct {
	walked, folder, orig string
	agents               []catalog.Agent
}

var relocVars = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, v := range catalog.RelocationVars(catalog.All()) {
		m[v] = true
	}
	return m
})

// looseRelocations lists the relocated folders of the loose home h.
func (s *Source) looseRelocations(h looseHome) []looseReloc {
	if h.only != "" {
		return nil // a lone agent folder: no start files with it
	}
	homeRel, err := filepath.Rel(h.tree, h.dir)
	if err != nil {
		return nil
	}
	homeRel = filepath.ToSlash(homeRel)
	if homeRel == "." {
		homeRel = ""
	}
	image := homeRel != "" && homeRel == strings.TrimPrefix(h.orig, "/")
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "/" + b
	}
	want := relocVars()
	var settings []catalog.EnvSetting
	read := func(treeRel, where string) {
		f, err := OpenIn(h.tree, treeRel)
		if err != nil {
			// A start file that is itself a link or not a regular file (a
			// FIFO planted as .bashrc) is named, as the collector's row for
			// it: the agent folders it may move are not looked for.
			if fi, lerr := os.Lstat(filepath.Join(h.tree, filepath.FromSlash(treeRel))); lerr == nil && !fi.IsDir() && (!fi.Mode().IsRegular() || fi.Mode()&os.ModeSymlink != 0) {
				what := KindOf(fi.Mode())
				if fi.Mode()&os.ModeSymlink != 0 {
					t, _ := os.Readlink(filepath.Join(h.tree, filepath.FromSlash(treeRel)))
					what += fmt.Sprintf(" (to %q)", t)
				}
				s.problem(Problem{Kind: KindUnsafePath, SourceFile: where, Message: where + " is " + what + ": a start file where relocation variables may be set, not read: the agent folders it may move are not looked for"})
			}
			return
		}
		defer f.Close()
		settings = append(settings, catalog.ReadEnvFile(f, where, strings.HasSuffix(where, ".plist"), want)...)
	}
	readDir := func(treeRel, where, ext string) {
		ents, _ := os.ReadDir(filepath.Join(h.tree, filepath.FromSlash(treeRel)))
		for _, e := range ents {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ext) {
				read(treeRel+"/"+e.Name(), where+"/"+e.Name())
			}
		}
	}
	for _, f := range catalog.HomeEnvFiles {
		read(join(homeRel, f), h.orig+"/"+f)
	}
	for _, d := range catalog.HomeEnvDirs {
		readDir(join(homeRel, d.Dir), h.orig+"/"+d.Dir, d.Ext)
	}
	if image {
		for _, f := range catalog.HostEnvFiles {
			read(strings.TrimPrefix(f, "/"), f)
		}
		for _, d := range catalog.HostEnvDirs {
			readDir(strings.TrimPrefix(d.Dir, "/"), d.Dir, d.Ext)
		}
	}
	var out []looseReloc
	done := map[string]bool{}
	// treeRelOf maps a host path onto the tree ("", false outside it).
	treeRelOf := func(host string) (string, bool) {
		switch {
		case host == h.orig || strings.HasPrefix(host, h.orig+"/"):
			return join(homeRel, strings.TrimPrefix(strings.TrimPrefix(host, h.orig), "/")), true
		case image:
			return strings.TrimPrefix(host, "/"), true
		}
		return "", false
	}
	settings = append(settings, s.looseUnits(h, image, treeRelOf, want)...)
	said := map[string]bool{}
	// base is the folder the setting names (host is it, or a sub-folder of
	// it an agent keeps there); "" for the catalog's alternate places.
	add := func(agents []catalog.Agent, folder, host, base, via string, quiet bool) {
		host = path.Clean(host)
		treeRel, in := treeRelOf(host)
		if !in {
			s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: host, Message: "relocated agent folder (" + via + ") lies outside the tree read in place: not read (collector --root reads it)"})
			return
		}
		real, err := ResolveInTree(h.tree, treeRel)
		if err != nil {
			switch {
			case !strings.Contains(err.Error(), "does not exist"):
				if !quiet {
					s.problem(Problem{Kind: KindUnsafePath, SourceFile: host, Message: "relocated agent folder (" + via + ") not read: " + err.Error()})
				}
			case !quiet && base != "" && !said[base]:
				// As the collector's error_read row: the folder the setting
				// names is not there at all (a sub-folder of one that is,
				// such as a goose root without data/, is not said).
				b := path.Clean(base)
				if bRel, _ := treeRelOf(b); bRel != "" {
					if _, berr := ResolveInTree(h.tree, bRel); berr == nil {
						return
					}
				}
				said[base] = true
				s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: b, Message: "relocated agent folder (" + via + ") named but not there: " + err.Error()})
			}
			return
		}
		walked := filepath.Join(h.tree, filepath.FromSlash(real))
		fi, err := os.Lstat(walked)
		if err != nil {
			return
		}
		if !fi.IsDir() {
			if !quiet {
				s.problem(Problem{Kind: bundle.StatusErrorRead, SourceFile: host, Message: "relocated agent folder (" + via + ") not read: it is not a folder"})
			}
			return
		}
		if walked == filepath.Join(h.dir, filepath.FromSlash(folder)) || done[walked+"\x00"+folder] {
			return // the default place itself, walked already; or twice named
		}
		done[walked+"\x00"+folder] = true
		out = append(out, looseReloc{walked: walked, folder: folder, orig: host, agents: agents})
	}
	all := catalog.All()
	for _, st := range settings {
		via := st.Name + "=" + st.Value + " in " + st.Where
		v, why := catalog.ExpandRelocation(st.Value, h.orig)
		if st.Systemd {
			// As the collector takes a unit's value: %h is the home, no $
			// expansion, and only an absolute path names a folder.
			var ok bool
			v, ok = catalog.ExpandUnitValue(st.Value, h.orig)
			why = ""
			switch {
			case !ok:
				v, why = "", "its value uses a systemd specifier other than %h (or a lone %): the folder it names is not walked, never guessed"
			case !strings.HasPrefix(v, "/"):
				v, why = "", "its value is not an absolute path (it would be taken from whatever folder the agent starts in): the folder it names is not walked, never guessed"
			}
		}
		if why != "" {
			// As the collector's error_read row for it: the setting is
			// named, never left to a log.
			pr := Problem{Kind: bundle.StatusErrorRead, SourceFile: st.Value, Message: "relocation variable " + via + " not followed: " + why}
			var names []string
			for _, a := range all {
				for _, r := range a.Relocations {
					if r.Var == st.Name && !slices.Contains(names, a.Name) {
						names = append(names, a.Name)
					}
				}
			}
			if len(names) == 1 {
				pr.Agent = names[0]
			}
			s.problem(pr)
			continue
		}
		for _, a := range all {
			for _, r := range a.Relocations {
				if r.Var == st.Name {
					add([]catalog.Agent{a}, r.Folder, joinSub(v, r.Sub), v, via, false)
				}
			}
		}
		for _, r := range catalog.XDGRelocations {
			if r.Var == st.Name {
				add(all, r.Folder, joinSub(v, r.Sub), v, via, false)
			}
		}
	}
	for _, a := range all {
		for _, al := range a.Alternates {
			add([]catalog.Agent{a}, al.Folder, h.orig+"/"+al.At, "", "the catalog's alternate place of ~/"+al.Folder, true)
		}
	}
	return out
}

func joinSub(v, sub string) string {
	if sub == "" {
		return path.Clean(v)
	}
	return path.Join(v, sub)
}

// looseUnits reads the service units that may set relocation variables
// for the loose home h, as the collector reads them
// (collector/collect/relocate.go, hostUnits and homeUnits): the home's
// user units and, in an image, the system units whose User= is the home's
// user (root's when none) and the host's user units; each unit file,
// drop-in and EnvironmentFile= is opened by the evidence rule (OpenIn),
// never through a link; a unit masked by a link is not read. treeRelOf
// maps a host path onto the tree.
func (s *Source) looseUnits(h looseHome, image bool, treeRelOf func(string) (string, bool), want map[string]bool) []catalog.EnvSetting {
	list := func(dir string) []string {
		rel, ok := treeRelOf(dir)
		if !ok {
			return nil
		}
		ents, _ := os.ReadDir(filepath.Join(h.tree, filepath.FromSlash(rel)))
		var names []string
		for _, e := range ents {
			if e.Type()&os.ModeSymlink == 0 {
				names = append(names, e.Name())
			}
		}
		return names
	}
	open := func(host string) (*os.File, error) {
		rel, ok := treeRelOf(host)
		if !ok {
			return nil, os.ErrNotExist
		}
		return OpenIn(h.tree, rel)
	}
	read := func(srcs []catalog.UnitSource, ok func(unitUser string) bool) []catalog.EnvSetting {
		var out []catalog.EnvSetting
		for _, src := range srcs {
			u := catalog.UnitEnv{Unit: src.Name}
			for _, p := range src.Files {
				if f, err := open(p); err == nil {
					u.Read(f, p, want)
					f.Close()
				}
			}
			for _, ef := range u.EnvFiles {
				f, err := open(ef.Value)
				if err != nil {
					continue
				}
				for _, st := range catalog.ReadEnvFile(f, ef.Value, false, want) {
					st.Systemd = true
					st.Where += " (EnvironmentFile= of " + ef.Where + ")"
					u.Settings = append(u.Settings, st)
				}
				f.Close()
			}
			if len(u.Settings) == 0 || !ok(u.User) {
				continue
			}
			desc := src.Name
			if u.User != "" {
				desc += ", User=" + u.User
			}
			for i := range u.Settings {
				u.Settings[i].Where += " (" + desc + ")"
			}
			out = append(out, u.Settings...)
		}
		return out
	}
	var dirs []string
	for _, d := range catalog.HomeUnitDirs {
		dirs = append(dirs, h.orig+"/"+d)
	}
	out := read(catalog.UnitSources(dirs, list), func(string) bool { return true })
	if image {
		out = append(out, read(catalog.UnitSources(catalog.SystemUnitDirs, list), func(u string) bool {
			if u == "" {
				u = "root"
			}
			return u == h.user
		})...)
		out = append(out, read(catalog.UnitSources(catalog.HostUserUnitDirs, list), func(string) bool { return true })...)
	}
	return out
}
