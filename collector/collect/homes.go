package collect

import (
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
		return windowsHomes(), nil
	}
	var out []Home
	var skipped []SkippedHome
	seen := map[string]bool{}
	skippedSeen := map[string]bool{}
	skip := func(user, orig, reason string) {
		p := joinRoot(root, orig)
		fi, err := os.Lstat(p)
		if err != nil || skippedSeen[orig] {
			return // nothing there at all: not a path seen
		}
		skippedSeen[orig] = true
		sh := SkippedHome{User: user, Orig: orig, Reason: reason}
		if fi.Mode()&os.ModeSymlink != 0 {
			sh.LinkTarget, _ = os.Readlink(p)
		}
		skipped = append(skipped, sh)
	}
	add := func(user, orig, source string) {
		dir, resolved, err := resolveIn(root, orig)
		if err != nil {
			skip(user, orig, "home not walked: "+err.Error())
			return
		}
		if resolved == "/" {
			return
		}
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			if err != nil {
				skip(user, orig, "home not walked: "+err.Error())
			} else {
				skip(user, orig, "home not walked: not a directory")
			}
			return
		}
		if seen[dir] {
			return
		}
		seen[dir] = true
		out = append(out, Home{User: user, Dir: dir, Orig: resolved, Source: source})
	}
	// list returns the names of the entries of the host directory orig that
	// may be homes (directories, or links to be resolved by add).
	list := func(orig string) []string {
		dir, _, err := resolveIn(root, orig)
		if err != nil {
			return nil
		}
		ents, _ := os.ReadDir(dir)
		var names []string
		for _, e := range ents {
			if (e.IsDir() || e.Type()&os.ModeSymlink != 0) && !windowsSkip[e.Name()] {
				names = append(names, e.Name())
			}
		}
		return names
	}
	if f, err := openHostFile(root, "/etc/passwd"); err == nil {
		// Line by line, every line: a hostile first line of 70 KB once
		// ended a bufio.Scanner here, and the accounts after it were never
		// walked.
		err := scanLines(f, maxHostLine, func(n int, line []byte, tooLong bool) {
			text := string(line)
			if tooLong {
				log.Warn().Int("line", n).Msg("/etc/passwd line longer than 1 MiB: skipped")
				return
			}
			if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
				return
			}
			fs := strings.Split(text, ":")
			if len(fs) < 7 {
				log.Warn().Int("line", n).Int("fields", len(fs)).Msg("/etc/passwd line is not name:password:uid:gid:gecos:home:shell: skipped")
				return
			}
			if h := fs[5]; passwdHome(h) {
				add(fs[0], h, "passwd")
			}
		})
		f.Close()
		if err != nil {
			log.Warn().Err(err).Msg("/etc/passwd could not be read to its end")
		}
	}
	for _, d := range []struct{ dir, source string }{{"/home", "home-dir"}, {"/Users", "users-dir"}} {
		for _, n := range list(d.dir) {
			if n != "Shared" {
				add(n, d.dir+"/"+n, d.source)
			}
		}
	}
	add("root", "/root", "root")
	add("root", "/var/root", "root")
	drives := list("/mnt")
	sort.Strings(drives)
	for _, drv := range drives {
		for _, n := range list("/mnt/" + drv + "/Users") {
			add(n, "/mnt/"+drv+"/Users/"+n, "wsl")
		}
	}
	return out, skipped
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
