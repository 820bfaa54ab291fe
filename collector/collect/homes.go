package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rs/zerolog"
)

// Home is one user home found on the host or image.
type Home struct {
	User string // account name (or the directory name)
	Dir  string // absolute path as walked (under Root in root mode)
	Orig string // the path as the host sees it ("/home/alice", "C:/Users/carol")
	// Source says how it was found: passwd, home-dir, users-dir, root,
	// windows-users, profile-list, wsl.
	Source string

	link     *linkState // set below a followed link
	foundVia string     // where a relocated folder's location came from
}

var windowsSkip = map[string]bool{"All Users": true, "Default User": true, "Default": true, "Public": true, "desktop.ini": true}

// FindHomes lists the homes under root ("/" on a live host): /etc/passwd
// entries (homes outside /home too), /home/*, /Users/* (macOS, and a
// Windows image's C:\Users\*), /root, /var/root, and /mnt/*/Users/* (WSL's
// view of Windows drives). A live Windows host uses C:\Users\* and the
// registry's ProfileList. Links on the way to a home (an image's /home ->
// /data/home, a home that is itself a link) are resolved inside root, never
// on the examiner's machine; each home is listed once, under its resolved
// path.
func FindHomes(root string, windowsLive bool) []Home {
	homes, _ := findHomes(root, windowsLive, zerolog.Nop())
	return homes
}

// SkippedHome is a home named by the host (passwd, /home/*) that is not
// walked: a link that resolves nowhere inside root, or not a directory. It
// still gets a manifest row.
type SkippedHome struct {
	User, Orig, LinkTarget, Reason string
}

func findHomes(root string, windowsLive bool, log zerolog.Logger) ([]Home, []SkippedHome) {
	if windowsLive {
		homes := windowsHomes()
		log.Info().Int("homes", len(homes)).Msg("homes listed from C:\\Users and the registry's ProfileList")
		return homes, nil
	}
	var out []Home
	var skipped []SkippedHome
	seen := map[string]int{} // walked dir -> index in out
	skippedSeen := map[string]bool{}
	skip := func(user, orig, reason string, cause error) {
		p := joinRoot(root, orig)
		fi, err := os.Lstat(p)
		if err != nil || skippedSeen[orig] {
			return // nothing there at all: not a path seen
		}
		skippedSeen[orig] = true
		sh := SkippedHome{User: user, Orig: orig, Reason: reason}
		if fi.Mode()&os.ModeSymlink != 0 {
			sh.LinkTarget, _ = os.Readlink(p)
			sh.Reason = linkHomeReason(root, orig, sh.LinkTarget, strings.TrimPrefix(reason, "home not walked: "), cause)
		}
		skipped = append(skipped, sh)
	}
	// add lists the home orig of user; it reports whether it is a new home.
	add := func(user, orig, source string) bool {
		dir, resolved, err := resolveIn(root, orig)
		if err != nil {
			skip(user, orig, "home not walked: "+rowError(err), err)
			return false
		}
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			if err != nil {
				skip(user, orig, "home not walked: "+rowError(err), err)
			} else {
				skip(user, orig, "home not walked: not a directory", nil)
			}
			return false
		}
		if i, ok := seen[dir]; ok {
			if out[i].User != user {
				log.Debug().Str("user", user).Str("home", resolved).Str("source", source).Str("walked_as", out[i].User).Msg("home already listed for another account: walked once")
			}
			return false
		}
		seen[dir] = len(out)
		out = append(out, Home{User: user, Dir: dir, Orig: resolved, Source: source})
		return true
	}
	// list returns the names of the entries of the host directory orig that
	// may be homes (directories, or links to be resolved by add), and logs
	// what it read or why it could not.
	list := func(orig, source string) []string {
		dir, _, err := resolveIn(root, orig)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Lstat(dir); err == nil && !fi.IsDir() {
				err = fmt.Errorf("%s: not a directory", orig)
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			log.Debug().Str("source", source).Str("dir", orig).Msg("no such folder: no homes listed from it")
			return nil
		}
		if err != nil {
			log.Warn().Str("source", source).Str("dir", orig).Err(err).Msg("homes folder could not be listed: homes under it are found only through /etc/passwd")
			return nil
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			log.Warn().Str("source", source).Str("dir", orig).Int("entries", len(ents)).Err(err).Msg("homes folder could not be listed whole")
			// A manifest row too: the homes under it that /etc/passwd does
			// not name are not walked, and the examiner reads why.
			why := rowError(err)
			if errors.Is(err, fs.ErrPermission) {
				why = "permission denied (the collector's account cannot list it)"
			}
			skip("", orig, fmt.Sprintf("homes folder could not be listed whole (%d entries read): %s: homes under it are found only through /etc/passwd", len(ents), why), err)
		}
		var names []string
		for _, e := range ents {
			if (e.IsDir() || e.Type()&os.ModeSymlink != 0) && !windowsSkip[e.Name()] {
				names = append(names, e.Name())
			}
		}
		return names
	}
	passwdHomes(root, log, add)
	for _, d := range []struct{ dir, source string }{{"/home", "home-dir"}, {"/Users", "users-dir"}} {
		names := list(d.dir, d.source)
		n := 0
		for _, name := range names {
			if name != "Shared" && add(name, d.dir+"/"+name, d.source) {
				n++
			}
		}
		if names != nil {
			log.Info().Str("source", d.source).Str("dir", d.dir).Int("entries", len(names)).Int("new_homes", n).Msg("homes listed from the folder")
		}
	}
	for _, r := range []string{"/root", "/var/root"} {
		if add("root", r, "root") {
			log.Info().Str("source", "root").Str("home", r).Msg("root's home listed")
		}
	}
	drives := list("/mnt", "wsl")
	sort.Strings(drives)
	for _, drv := range drives {
		names := list("/mnt/"+drv+"/Users", "wsl")
		n := 0
		for _, name := range names {
			if add(name, "/mnt/"+drv+"/Users/"+name, "wsl") {
				n++
			}
		}
		if names != nil {
			log.Info().Str("source", "wsl").Str("dir", "/mnt/"+drv+"/Users").Int("entries", len(names)).Int("new_homes", n).Msg("homes listed from the folder")
		}
	}
	return out, skipped
}

// passwdHomes lists the homes /etc/passwd names, through add, and logs
// what it read: the lines and accounts, the homes it gave, and why it
// could not be read (missing, a link to /dev/zero, a FIFO, unreadable, cut
// short). A home of "/" (container users keep /.claude) is walked once,
// as the first account with a login shell that names it.
func passwdHomes(root string, log zerolog.Logger, add func(user, orig, source string) bool) {
	f, err := openHostFile(root, "/etc/passwd")
	if err != nil {
		ev := log.Warn()
		msg := "/etc/passwd could not be read: homes outside /home, /Users and /root are not found"
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(joinRoot(root, "/etc/passwd")); lerr != nil {
				ev, msg = log.Info(), "no /etc/passwd: homes are listed from the folders only"
			}
		}
		if lt, lerr := os.Readlink(joinRoot(root, "/etc/passwd")); lerr == nil {
			ev = ev.Str("link_target", lt)
		}
		ev.Str("source", "passwd").Err(err).Msg(msg)
		return
	}
	defer f.Close()
	type rootUser struct{ name, shell string }
	var slash []rootUser
	lines, accounts, homes, placeholders := 0, 0, 0, 0
	// Line by line, every line: a hostile first line of 70 KB once ended a
	// bufio.Scanner here, and the accounts after it were never walked.
	err = scanLines(f, maxHostLine, func(n int, line []byte, tooLong bool) {
		lines = n
		text := string(line)
		if tooLong {
			log.Warn().Int("line", n).Msg("/etc/passwd line longer than 1 MiB: skipped")
			return
		}
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			return
		}
		fields := strings.Split(text, ":")
		if len(fields) < 7 {
			log.Warn().Int("line", n).Int("fields", len(fields)).Msg("/etc/passwd line is not name:password:uid:gid:gecos:home:shell: skipped")
			return
		}
		accounts++
		h := fields[5]
		switch {
		case filepath.ToSlash(filepath.Clean(h)) == "/" && strings.HasPrefix(h, "/"):
			slash = append(slash, rootUser{fields[0], fields[6]})
		case passwdHome(h):
			if add(fields[0], h, "passwd") {
				homes++
			}
		default:
			placeholders++
		}
	})
	if err != nil {
		log.Warn().Str("source", "passwd").Int("lines", lines).Err(err).Msg("/etc/passwd could not be read to its end: accounts after the last line read are not found")
	}
	if len(slash) > 0 {
		pick := slash[0]
		var names []string
		for _, u := range slash {
			names = append(names, u.name)
		}
		for _, u := range slash {
			if !strings.HasSuffix(u.shell, "nologin") && !strings.HasSuffix(u.shell, "/false") {
				pick = u
				break
			}
		}
		if add(pick.name, "/", "passwd") {
			homes++
			log.Info().Str("source", "passwd").Strs("accounts", names).Str("walked_as", pick.name).Msg("home / is walked once (container users keep /.claude)")
		}
	}
	log.Info().Str("source", "passwd").Int("lines", lines).Int("accounts", accounts).Int("new_homes", homes).Int("placeholder_homes", placeholders).Msg("homes read from /etc/passwd")
}

// passwdHome reports whether a passwd home field names a directory worth
// walking: absolute, and not a system placeholder.
func passwdHome(h string) bool {
	if !strings.HasPrefix(h, "/") {
		return false
	}
	h = filepath.ToSlash(filepath.Clean(h))
	switch h {
	case "/", "/nonexistent", "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/dev/null", "/var/empty":
		return false
	}
	for _, p := range []string{"/proc", "/dev", "/sys"} {
		if h == p || strings.HasPrefix(h, p+"/") {
			return false
		}
	}
	return true
}

// windowsHomes lists a live Windows host's profiles: every directory of
// %SystemDrive%\Users, then every ProfileImagePath of the registry's
// ProfileList (profiles on other drives or in renamed folders, and the
// service accounts' profiles).
func windowsHomes() []Home {
	var out []Home
	seen := map[string]bool{}
	add := func(user, dir, source string) {
		key := strings.ToLower(filepath.Clean(dir))
		if seen[key] {
			return
		}
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return
		}
		seen[key] = true
		out = append(out, Home{User: user, Dir: dir, Orig: filepath.ToSlash(dir), Source: source})
	}
	sys := os.Getenv("SystemDrive")
	if sys == "" {
		sys = "C:"
	}
	ents, _ := os.ReadDir(sys + `\Users`)
	for _, e := range ents {
		if e.IsDir() && !windowsSkip[e.Name()] {
			add(e.Name(), sys+`\Users\`+e.Name(), "windows-users")
		}
	}
	for _, p := range profileListHomes() {
		add(filepath.Base(p), p, "profile-list")
	}
	return out
}

// joinRoot maps a host path onto the walked tree.
func joinRoot(root, orig string) string {
	if root == "" || root == "/" {
		return filepath.FromSlash(orig)
	}
	return filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(orig, "/")))
}

// origPath maps a walked path back to the host's view.
func origPath(root, walked string) string {
	if root == "" || root == "/" {
		return filepath.ToSlash(walked)
	}
	rel, err := filepath.Rel(root, walked)
	if err != nil {
		return filepath.ToSlash(walked)
	}
	return "/" + filepath.ToSlash(rel)
}

// linkHomeReason says why a home that is a link was not walked, in the
// host's terms and naming the rule that decided: the link policy resolves
// a link under --root inside the root (collector/docs/usage.md, Links), so
// a target that exists only on the examiner's machine resolves to nothing.
func linkHomeReason(root, orig, target, why string, cause error) string {
	where := "as the host resolves it"
	host := func(p string) string { return p }
	if !isLive(root) {
		where = "inside the image, as the link policy resolves every link under --root (an absolute target taken relative to the root, `..` stopping at it; never on the examiner's machine)"
		// The error names the examiner's path under root: say the host's.
		r := filepath.Clean(root)
		host = func(p string) string {
			if rel, err := filepath.Rel(r, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return "/" + filepath.ToSlash(strings.TrimPrefix(rel, "."))
			}
			return p
		}
		why = strings.ReplaceAll(why, r+"/", "/")
	}
	var pe *fs.PathError
	switch {
	case errors.Is(cause, errLinkLoop):
		why = "a loop of links (more than 40 in one chain)"
	case errors.As(cause, &pe) && errors.Is(cause, fs.ErrNotExist):
		why = host(pe.Path) + " does not exist there"
	case cause == nil:
		why = "its target is not a folder"
	}
	return fmt.Sprintf("home not walked: %s is a link to %q, resolved %s: %s", orig, target, where, why)
}
