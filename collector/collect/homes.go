package collect

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Home is one user home found on the host or image.
type Home struct {
	User string // account name (or the directory name)
	Dir  string // absolute path as walked (under Root in root mode)
	Orig string // the path as the host sees it ("/home/alice", "C:/Users/carol")
	// Source says how it was found: passwd, home-dir, users-dir, root,
	// windows-users, wsl.
	Source string
}

var windowsSkip = map[string]bool{"All Users": true, "Default User": true, "Public": true, "desktop.ini": true}

// FindHomes lists the homes under root ("/" on a live host): /etc/passwd
// entries (homes outside /home too), /home/*, /Users/* (macOS, and a
// Windows image's C:\Users\*), /root, /var/root, and /mnt/*/Users/* (WSL's
// view of Windows drives). A live Windows host uses C:\Users\*. Links are
// not followed: a home that is a symbolic link is skipped.
func FindHomes(root string, windowsLive bool) []Home {
	var out []Home
	seen := map[string]bool{}
	add := func(user, orig, source string) {
		dir := joinRoot(root, orig)
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return
		}
		if seen[dir] {
			return
		}
		seen[dir] = true
		out = append(out, Home{User: user, Dir: dir, Orig: orig, Source: source})
	}
	if windowsLive {
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
		return out
	}
	if f, err := os.Open(joinRoot(root, "/etc/passwd")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), ":")
			if len(fs) < 7 || strings.HasPrefix(fs[0], "#") {
				continue
			}
			h := fs[5]
			if !strings.HasPrefix(h, "/") || h == "/" || strings.HasPrefix(h, "/proc") || strings.HasPrefix(h, "/dev") || strings.HasPrefix(h, "/sys") || h == "/nonexistent" || h == "/bin" || h == "/usr/sbin" || h == "/sbin" {
				continue
			}
			add(fs[0], h, "passwd")
		}
		f.Close()
	}
	for _, d := range []struct{ dir, source string }{{"/home", "home-dir"}, {"/Users", "users-dir"}} {
		ents, _ := os.ReadDir(joinRoot(root, d.dir))
		for _, e := range ents {
			if e.IsDir() && !windowsSkip[e.Name()] && e.Name() != "Shared" && e.Name() != "Default" {
				add(e.Name(), d.dir+"/"+e.Name(), d.source)
			}
		}
	}
	add("root", "/root", "root")
	add("root", "/var/root", "root")
	drives, _ := filepath.Glob(joinRoot(root, "/mnt/*/Users"))
	sort.Strings(drives)
	for _, d := range drives {
		ents, _ := os.ReadDir(d)
		rel := strings.TrimPrefix(filepath.ToSlash(d), filepath.ToSlash(strings.TrimRight(root, "/")))
		for _, e := range ents {
			if e.IsDir() && !windowsSkip[e.Name()] && e.Name() != "Default" {
				add(e.Name(), rel+"/"+e.Name(), "wsl")
			}
		}
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
