package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// Relocated agent folders (catalog.Relocation, catalog.Alternate). The
// collector reads the catalog's relocation variables (CLAUDE_CONFIG_DIR,
// CODEX_HOME, XDG_CONFIG_HOME, ...) from each user's shell start files,
// the host's environment files and, on a live Linux host, the
// environment of the user's running processes; every folder a value
// names is walked as if it stood at the agent's default place, under the
// same rule as a followed link (resolved inside the root, never into
// /proc, /sys or /dev, a folder owned by the home's owner or root, no
// loop), and each of its rows says in found_via where the location came
// from. systemd service units are read too (catalog/units.go): a system
// unit's Environment= reaches the home of its User= (root when none; the
// ollama user of Ollama's installer, whose models folder a drop-in moves
// with OLLAMA_MODELS), a user unit every home it applies to. Only the
// catalog's variables are kept: no other value of a process environment
// is read into the bundle or the log.

// hostEnv reads the host's environment files once.
func (c *collector) hostEnv(want map[string]bool) []catalog.EnvSetting {
	var out []catalog.EnvSetting
	read := func(orig string) {
		plist := strings.HasSuffix(orig, ".plist")
		f, err := openHostFile(c.opts.Root, orig)
		if err != nil {
			if _, lerr := os.Lstat(joinRoot(c.opts.Root, orig)); lerr == nil {
				c.log.Warn().Str("file", orig).Err(err).Msg("environment file not read: relocated agent folders it sets are not found")
			}
			return
		}
		defer f.Close()
		out = append(out, catalog.ReadEnvFile(f, orig, plist, want)...)
	}
	for _, p := range catalog.HostEnvFiles {
		read(p)
	}
	for _, d := range catalog.HostEnvDirs {
		dir, _, err := resolveIn(c.opts.Root, d.Dir)
		if err != nil {
			continue
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), d.Ext) {
				read(d.Dir + "/" + e.Name())
			}
		}
	}
	return out
}

// homeEnv reads a home's shell start files, environment.d and launchd
// agents, each opened by the evidence rule (no link on the way or at the
// end, never a FIFO).
func (c *collector) homeEnv(h Home, want map[string]bool) []catalog.EnvSetting {
	var out []catalog.EnvSetting
	// notRead records a start file that is itself a link or not a regular
	// file (a FIFO planted as .bashrc): never opened, and a manifest row
	// says so, since the agent folders it may move are not looked for.
	notRead := func(rel, p string, fi fs.FileInfo) {
		e := bundle.Entry{Path: h.Orig + "/" + rel, User: h.User, Home: h.Orig, Type: fileType(fi.Mode()), Size: fi.Size()}
		why := "a start file where relocation variables may be set (CLAUDE_CONFIG_DIR, CODEX_HOME, ...)"
		if fi.Mode()&fs.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			e.Status, e.LinkTarget = bundle.StatusSymlink, t
			e.Error = fmt.Sprintf("link to %q not followed: %s, read only as a regular file with no link on the way: the agent folders it may move are not looked for", t, why)
		} else {
			e.Status = bundle.StatusSkippedSpecial
			e.Error = why + ", which is " + specialWord(e.Type) + ": never opened, so the agent folders it may move are not looked for"
		}
		if !c.done.Add("\x00startfile\x00" + p) {
			return
		}
		c.fillMeta(&e, p)
		c.w.AddEntry(e)
		c.tick("", h.User)
	}
	read := func(rel string, plist bool) {
		segs := strings.Split(rel, "/")
		p, link, ok := lstatPath(h.Dir, segs)
		if !ok {
			if link != "" {
				c.log.Warn().Str("user", h.User).Str("file", h.Orig+"/"+rel).Msg("environment file is reached through a link: not read")
				if link == filepath.Join(h.Dir, filepath.FromSlash(rel)) {
					if fi, err := os.Lstat(link); err == nil {
						notRead(rel, link, fi)
					}
				}
			}
			return
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			if err == nil {
				c.log.Warn().Str("user", h.User).Str("file", h.Orig+"/"+rel).Str("type", fileType(fi.Mode())).Msg("environment file is not a regular file: not read")
				if !fi.IsDir() {
					notRead(rel, p, fi)
				}
			}
			return
		}
		f, err := openEvidence(c.opts.Root, p)
		if err != nil {
			c.log.Warn().Str("user", h.User).Str("file", h.Orig+"/"+rel).Err(err).Msg("environment file not read: relocated agent folders it sets are not found")
			return
		}
		defer f.Close()
		out = append(out, catalog.ReadEnvFile(f, h.Orig+"/"+rel, plist, want)...)
	}
	for _, rel := range catalog.HomeEnvFiles {
		read(rel, false)
	}
	for _, d := range catalog.HomeEnvDirs {
		p, ok := lstatDirNoLinks(h.Dir, d.Dir)
		if !ok {
			continue
		}
		ents, _ := os.ReadDir(p)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), d.Ext) {
				read(d.Dir+"/"+e.Name(), d.Ext == ".plist")
			}
		}
	}
	return out
}

// lstatPath is lstatNoLinks over segs below base: the path, or the first
// link on the way.
func lstatPath(base string, segs []string) (string, string, bool) {
	p := base
	for _, s := range segs {
		p = filepath.Join(p, s)
		fi, err := os.Lstat(p)
		if err != nil {
			return "", "", false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", p, false
		}
	}
	return p, "", true
}

// procEnv reads, on a live Linux host, the environment of the running
// processes owned by uid (the home's owner), keeping only the variables
// in want. It returns the settings and the processes read and not read.
func (c *collector) procEnv(uid int64, want map[string]bool) ([]catalog.EnvSetting, int, int) {
	if !isLive(c.opts.Root) || runtime.GOOS != "linux" || uid < 0 {
		return nil, 0, 0
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, 0, 0
	}
	var out []catalog.EnvSetting
	read, failed := 0, 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		m, err := statTimes("/proc/" + e.Name())
		if err != nil || m.uid != uid {
			continue
		}
		f, err := os.Open("/proc/" + e.Name() + "/environ")
		if err != nil {
			failed++
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, catalog.MaxEnvFile))
		f.Close()
		if err != nil {
			failed++
			continue
		}
		read++
		for _, kv := range bytes.Split(b, []byte{0}) {
			k, v, ok := strings.Cut(string(kv), "=")
			if ok && want[k] {
				out = append(out, catalog.EnvSetting{Name: k, Value: v, Where: "/proc/" + e.Name() + "/environ"})
			}
		}
	}
	return out, read, failed
}

// relocation is one folder to walk for a relocated agent folder.
type relocation struct {
	agents []catalog.Agent // whose targets are walked there
	folder string          // the home-relative folder it stands for
	orig   string          // the host path of the folder
	via    string          // found_via
	base   string          // the host path the setting's value names (orig is below it, or it)
}

// collectRelocated walks every relocated folder of home h.
func (c *collector) collectRelocated(ctx context.Context, h Home, hostEnv []catalog.EnvSetting, units []unitSetting) error {
	want := c.relocVars
	settings := append(c.homeEnv(h, want), hostEnv...)
	settings = append(settings, c.homeUnits(h, want)...)
	owner := c.uidOf(h.Dir)
	for _, u := range units {
		if u.user == "" || u.user == h.User || owner >= 0 && u.user == strconv.FormatInt(owner, 10) {
			settings = append(settings, u.s)
		}
	}
	pe, nread, nfail := c.procEnv(owner, want)
	settings = append(settings, pe...)
	if nread+nfail > 0 {
		c.log.Info().Str("user", h.User).Int("processes_read", nread).Int("processes_not_read", nfail).Int("settings", len(pe)).Msg("relocation variables read from the environment of the user's processes")
	}
	var todo []relocation
	for _, s := range settings {
		via := s.Name + "=" + s.Value + " in " + s.Where
		var v, why string
		if s.Systemd {
			var ok bool
			v, ok = catalog.ExpandUnitValue(s.Value, h.Orig)
			switch {
			case !ok:
				v, why = "", "its value uses a systemd specifier other than %h (or a lone %): the folder it names is not walked, never guessed"
			case !strings.HasPrefix(v, "/"):
				v, why = "", "its value is not an absolute path (it would be taken from whatever folder the agent starts in): the folder it names is not walked, never guessed"
			}
		} else {
			v, why = catalog.ExpandRelocation(s.Value, h.Orig)
		}
		if why != "" {
			c.log.Warn().Str("user", h.User).Str("var", s.Name).Str("value", s.Value).Str("where", s.Where).Msg("relocation variable's value is not an absolute path the collector can expand without a shell: its folder is not walked")
			c.unexpandedRow(h, s.Name, s.Value, via, why)
			continue
		}
		for _, a := range c.opts.Agents {
			for _, r := range a.Relocations {
				if r.Var == s.Name {
					todo = append(todo, relocation{agents: []catalog.Agent{a}, folder: r.Folder, orig: joinSub(v, r.Sub), via: via, base: path.Clean(v)})
				}
			}
		}
		for _, r := range catalog.XDGRelocations {
			if r.Var == s.Name {
				todo = append(todo, relocation{agents: c.opts.Agents, folder: r.Folder, orig: joinSub(v, r.Sub), via: via, base: path.Clean(v)})
			}
		}
	}
	for _, a := range c.opts.Agents {
		for _, al := range a.Alternates {
			todo = append(todo, relocation{agents: []catalog.Agent{a}, folder: al.Folder, orig: h.Orig + "/" + al.At, via: "the catalog's alternate place of ~/" + al.Folder + " (" + al.At + ")"})
		}
	}
	sort.SliceStable(todo, func(i, j int) bool { return todo[i].orig < todo[j].orig })
	for _, r := range todo {
		if ctx.Err() != nil {
			return nil
		}
		if err := c.walkRelocated(ctx, h, r); err != nil {
			return err
		}
	}
	return nil
}

func joinSub(v, sub string) string {
	v = path.Clean(v)
	if sub == "" {
		return v
	}
	return path.Join(v, sub)
}

// walkRelocated walks one relocated folder under the link policy's rule.
func (c *collector) walkRelocated(ctx context.Context, h Home, r relocation) error {
	walked, resolved, fi, why := c.targetPolicy(h, r.orig, "", "")
	alternate := strings.HasPrefix(r.via, "the catalog's alternate")
	if why != "" {
		switch {
		case alternate && fi == nil && strings.Contains(why, "does not exist"):
			return nil // the catalog's guess, not a setting: nothing named
		case fi == nil && strings.Contains(why, "does not exist"):
			c.log.Info().Str("user", h.User).Str("folder", r.orig).Str("found_via", r.via).Msg("relocated agent folder named but not there")
			if _, _, err := resolveIn(c.opts.Root, r.base); err != nil {
				// The folder the setting names is not there at all (a
				// sub-folder of one that is, such as a goose root
				// without data/, is not recorded).
				r2 := r
				if r.base != r.orig {
					r2.orig, r2.folder = r.base, ""
				}
				c.unwalkedRow(h, r2, "", "relocated agent folder named but not there: "+why)
			}
		default:
			c.log.Warn().Str("user", h.User).Str("folder", r.orig).Str("found_via", r.via).Str("reason", why).Msg("relocated agent folder not walked")
			c.unwalkedRow(h, r, resolved, "relocated agent folder not walked: "+why)
		}
		return nil
	}
	if !fi.IsDir() {
		c.log.Warn().Str("user", h.User).Str("folder", r.orig).Str("found_via", r.via).Msg("relocated agent folder is not a folder: not walked")
		c.unwalkedRow(h, r, resolved, "relocated agent folder not walked: it is "+fileType(fi.Mode())+", not a folder")
		return nil
	}
	key := walked + "\x00" + r.folder
	if c.relocated[key] {
		return nil
	}
	c.relocated[key] = true
	c.log.Info().Str("user", h.User).Str("folder", resolved).Str("stands_for", "~/"+r.folder).Str("found_via", r.via).Msg("walking a relocated agent folder")
	h2 := h
	h2.foundVia = r.via
	for _, f := range c.folders {
		if f.Rel == r.folder && len(r.agents) == 1 && f.Agent == r.agents[0].Name {
			c.folderRow(h2, f.Agent, f.Target, walked, resolved)
		}
	}
	c.catalogFolders(h2, walked, r.folder)
	return catalog.WalkLinked(walked, r.folder, r.agents, func(hit catalog.Hit) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		return c.handle(ctx, h2, hit)
	})
}

// unwalkedRow records a relocated folder that is named but not walked
// (not there, or refused by the link policy's rule): an error_read row at
// the path the setting names, with found_via, the reason, real_path when
// it resolved and, when the path is a link, its target. Nothing below it
// is read. The agent is the relocated folder's when one agent's variable
// named it ("" for an XDG variable, which moves every agent's folders).
func (c *collector) unwalkedRow(h Home, r relocation, resolved, why string) {
	p := joinRoot(c.opts.Root, r.orig)
	if !c.done.Add(p) {
		return
	}
	e := bundle.Entry{Path: r.orig, User: h.User, Home: h.Orig, UID: -1, GID: -1, FoundVia: r.via, Status: bundle.StatusErrorRead, Error: why}
	if resolved != r.orig {
		e.RealPath = resolved
	}
	if len(r.agents) == 1 {
		e.Agent = r.agents[0].Name
		for _, f := range c.folders {
			if f.Rel == r.folder && f.Agent == e.Agent {
				e.Target, e.Kind = f.Target.ID, string(f.Target.Kind)
				break
			}
		}
	}
	if fi, err := os.Lstat(p); err == nil {
		e.Type = fileType(fi.Mode())
		if fi.Mode()&fs.ModeSymlink != 0 {
			e.LinkTarget, _ = os.Readlink(p)
		}
		c.fillMeta(&e, p)
	}
	c.w.AddEntry(e)
	c.tick(e.Agent, h.User)
}

// unexpandedRow records a relocation variable whose value names no folder
// that can be walked ($UNSET/x, ~otheruser/x, a relative path): an
// error_read row at the value as written (it is no host path), naming the
// setting, its place and why, with the agent when the variable is one
// agent's, so the examiner reads it in the manifest and the inventory,
// not in the log alone.
func (c *collector) unexpandedRow(h Home, name, value, via, why string) {
	var agents []string
	for _, a := range c.opts.Agents {
		for _, r := range a.Relocations {
			if r.Var == name && !slices.Contains(agents, a.Name) {
				agents = append(agents, a.Name)
			}
		}
	}
	key := "\x00unexpanded\x00" + h.Orig + "\x00" + via
	if !c.done.Add(key) {
		return
	}
	e := bundle.Entry{Path: value, User: h.User, Home: h.Orig, UID: -1, GID: -1, FoundVia: via, Status: bundle.StatusErrorRead,
		Error: "relocation variable " + via + " not followed: " + why}
	if len(agents) == 1 {
		e.Agent = agents[0]
	}
	c.w.AddEntry(e)
	c.tick(e.Agent, h.User)
}

// relocVarSet is the set of the catalog's relocation variables.
func relocVarSet(list []catalog.Agent) map[string]bool {
	m := map[string]bool{}
	for _, v := range catalog.RelocationVars(list) {
		m[v] = true
	}
	return m
}

// unitSetting is a relocation variable a systemd service unit sets, and
// the account whose processes get it: the unit's User= (root when a
// system unit names none), "" for every user (a user unit of the host's
// folders).
type unitSetting struct {
	user string
	s    catalog.EnvSetting
}

// hostUnits reads the host's service units once (catalog.SystemUnitDirs,
// HostUserUnitDirs): each unit file and drop-in, and the EnvironmentFile=
// files they name, opened by the host-file rule (resolved inside the root,
// regular files only, never a FIFO). A unit masked by a link to /dev/null
// is not read.
func (c *collector) hostUnits(want map[string]bool) []unitSetting {
	list := func(dir string) []string {
		p, _, err := resolveIn(c.opts.Root, dir)
		if err != nil {
			return nil
		}
		ents, _ := os.ReadDir(p)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	open := func(orig string) (io.ReadCloser, error) { return openHostFile(c.opts.Root, orig) }
	var out []unitSetting
	for _, u := range c.readUnits(catalog.UnitSources(catalog.SystemUnitDirs, list), open, want) {
		user := u.User
		if user == "" {
			user = "root"
		}
		for _, s := range u.Settings {
			out = append(out, unitSetting{user, s})
		}
	}
	for _, u := range c.readUnits(catalog.UnitSources(catalog.HostUserUnitDirs, list), open, want) {
		for _, s := range u.Settings {
			out = append(out, unitSetting{"", s})
		}
	}
	return out
}

// homeUnits reads the user units below the home h (catalog.HomeUnitDirs),
// by the evidence rule of the home's start files (no link on the way).
func (c *collector) homeUnits(h Home, want map[string]bool) []catalog.EnvSetting {
	var out []catalog.EnvSetting
	for _, d := range catalog.HomeUnitDirs {
		list := func(dir string) []string {
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, h.Orig), "/")
			p, ok := lstatDirNoLinks(h.Dir, rel)
			if !ok {
				return nil
			}
			ents, _ := os.ReadDir(p)
			var names []string
			for _, e := range ents {
				if e.Type()&fs.ModeSymlink == 0 {
					names = append(names, e.Name())
				}
			}
			return names
		}
		open := func(orig string) (io.ReadCloser, error) {
			if rel, ok := strings.CutPrefix(orig, h.Orig+"/"); ok {
				p, link, ok := lstatPath(h.Dir, strings.Split(rel, "/"))
				if !ok {
					if link != "" {
						return nil, errors.New("reached through a link")
					}
					return nil, fs.ErrNotExist
				}
				return openEvidence(c.opts.Root, p)
			}
			return openHostFile(c.opts.Root, orig)
		}
		for _, u := range c.readUnits(catalog.UnitSources([]string{h.Orig + "/" + d}, list), open, want) {
			out = append(out, u.Settings...)
		}
	}
	return out
}

// readUnits reads each unit's files, and the EnvironmentFile= files they
// name, keeping the wanted variables; each setting's Where names the file
// and line, the unit and its User=.
func (c *collector) readUnits(srcs []catalog.UnitSource, open func(string) (io.ReadCloser, error), want map[string]bool) []catalog.UnitEnv {
	var out []catalog.UnitEnv
	for _, src := range srcs {
		u := catalog.UnitEnv{Unit: src.Name}
		for _, p := range src.Files {
			f, err := open(p)
			if err != nil {
				if lt, lerr := os.Readlink(joinRoot(c.opts.Root, p)); lerr == nil && lt == "/dev/null" {
					continue // masked
				}
				c.log.Debug().Str("file", p).Err(err).Msg("service unit file not read: relocated agent folders it sets are not found")
				continue
			}
			u.Read(f, p, want)
			f.Close()
		}
		for _, ef := range u.EnvFiles {
			f, err := open(ef.Value)
			if err != nil {
				c.log.Warn().Str("unit", src.Name).Str("file", ef.Value).Str("named_in", ef.Where).Err(err).Msg("service unit's EnvironmentFile= not read: relocated agent folders it sets are not found")
				continue
			}
			for _, s := range catalog.ReadEnvFile(f, ef.Value, false, want) {
				s.Systemd = true
				s.Where += " (EnvironmentFile= of " + ef.Where + ")"
				u.Settings = append(u.Settings, s)
			}
			f.Close()
		}
		if len(u.Settings) == 0 {
			continue
		}
		desc := src.Name
		if u.User != "" {
			desc += ", User=" + u.User
		}
		for i := range u.Settings {
			u.Settings[i].Where += " (" + desc + ")"
		}
		c.log.Info().Str("unit", src.Name).Str("unit_user", u.User).Int("settings", len(u.Settings)).Msg("relocation variables read from a service unit")
		out = append(out, u)
	}
	return out
}
