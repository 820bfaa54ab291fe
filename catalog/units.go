package catalog

import (
	"io"
	"sort"
	"strconv"
	"strings"
)

// Relocation variables set in systemd service units. Ollama's Linux
// installer (ollama/ollama scripts/install.sh) runs the server as the
// system user ollama from /etc/systemd/system/ollama.service, and its
// documentation moves the models folder with `systemctl edit
// ollama.service`, a drop-in holding [Service] Environment="OLLAMA_MODELS=
// /path" (docs/faq.md, "How do I set them on Linux?"). A shell start file
// never sees that value; the unit is where it is set. The syntax read is
// systemd.syntax(7) and systemd.exec(7): sections, "#" and ";" comments,
// a trailing backslash joining lines; in [Service], Environment= (a
// space-separated list of quoted or bare NAME=value assignments; an empty
// one resets the list), EnvironmentFile= (a "-" prefix: optional; empty
// resets) and User=. Values are taken as systemd takes them: no $
// expansion; the %h and %% specifiers are expanded (ExpandUnitValue).

// SystemUnitDirs are the folders of system service units, highest
// precedence first (systemd.unit(7), "System Unit Search Path"): a unit
// file in an earlier folder hides one of the same name in a later one;
// drop-in folders (<unit>.d/*.conf) of every folder apply.
var SystemUnitDirs = []string{"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"}

// HostUserUnitDirs are the folders of user units every user's manager
// loads (systemd.unit(7), "User Unit Search Path").
var HostUserUnitDirs = []string{"/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user", "/lib/systemd/user"}

// HomeUnitDirs are the folders of a user's own units, below the home; they
// come before the host's user units.
var HomeUnitDirs = []string{".config/systemd/user"}

// UnitSource is one service unit and the files that define it, in the
// order systemd applies them: the unit file, then its drop-ins sorted by
// file name (a drop-in name in an earlier folder hides the same name in
// a later one).
type UnitSource struct {
	Name  string   // "ollama.service"
	Files []string // host paths
}

// UnitSources lists the service units of dirs (highest precedence first),
// given list, which returns the file names in a folder (nil when it cannot
// be read). A unit with drop-ins but no unit file is still listed (a
// drop-in may set a variable of a unit defined elsewhere).
func UnitSources(dirs []string, list func(dir string) []string) []UnitSource {
	main := map[string]string{}
	drop := map[string]map[string]string{} // unit -> conf name -> path
	var names []string
	seen := map[string]bool{}
	note := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, d := range dirs {
		for _, f := range list(d) {
			if strings.HasSuffix(f, ".service") && !strings.Contains(f, "/") {
				note(f)
				if _, ok := main[f]; !ok {
					main[f] = d + "/" + f
				}
			}
			if unit, ok := strings.CutSuffix(f, ".service.d"); ok && unit != "" {
				u := unit + ".service"
				for _, c := range list(d + "/" + f) {
					if !strings.HasSuffix(c, ".conf") {
						continue
					}
					note(u)
					if drop[u] == nil {
						drop[u] = map[string]string{}
					}
					if _, ok := drop[u][c]; !ok {
						drop[u][c] = d + "/" + f + "/" + c
					}
				}
			}
		}
	}
	sort.Strings(names)
	var out []UnitSource
	for _, n := range names {
		s := UnitSource{Name: n}
		if p, ok := main[n]; ok {
			s.Files = append(s.Files, p)
		}
		var confs []string
		for c := range drop[n] {
			confs = append(confs, c)
		}
		sort.Strings(confs)
		for _, c := range confs {
			s.Files = append(s.Files, drop[n][c])
		}
		out = append(out, s)
	}
	return out
}

// UnitEnv is what a service unit's files set for the relocation
// variables.
type UnitEnv struct {
	Unit string
	// User is the last User= of [Service] ("" when none: a system unit then
	// runs as root, a user unit as its user).
	User string
	// Settings are the wanted variables of Environment=, in order, each
	// Where naming the file and line; Systemd is set on each.
	Settings []EnvSetting
	// EnvFiles are the EnvironmentFile= paths (a "-" prefix removed), each
	// with the file and line that named it.
	EnvFiles []EnvSetting
}

// Read adds what the unit file or drop-in f, named where, sets to u.
func (u *UnitEnv) Read(f io.Reader, where string, want map[string]bool) {
	section := ""
	var acc strings.Builder
	start := 0
	_ = ScanLines(io.LimitReader(f, MaxEnvFile), 64<<10, func(n int, line []byte, tooLong bool) {
		if tooLong {
			acc.Reset()
			return
		}
		s := strings.TrimSpace(string(line))
		if acc.Len() == 0 {
			start = n
			if s == "" || s[0] == '#' || s[0] == ';' {
				return
			}
		}
		if cont, ok := strings.CutSuffix(s, "\\"); ok {
			acc.WriteString(cont)
			acc.WriteByte(' ')
			return
		}
		acc.WriteString(s)
		s = acc.String()
		acc.Reset()
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			section = s[1 : len(s)-1]
			return
		}
		if section != "Service" {
			return
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		at := where + ":" + strconv.Itoa(start)
		switch k {
		case "User":
			u.User = v
		case "Environment":
			if v == "" {
				u.Settings = nil
				return
			}
			for _, w := range unitWords(v) {
				if name, val, ok := strings.Cut(w, "="); ok && want[name] {
					u.Settings = append(u.Settings, EnvSetting{Name: name, Value: val, Where: at, Systemd: true})
				}
			}
		case "EnvironmentFile":
			if v == "" {
				u.EnvFiles = nil
				return
			}
			u.EnvFiles = append(u.EnvFiles, EnvSetting{Name: "EnvironmentFile", Value: strings.TrimPrefix(v, "-"), Where: at})
		}
	})
}

// unitWords splits an Environment= value into its words: white space
// separates them, double or single quotes group, a backslash escapes the
// next character.
func unitWords(v string) []string {
	var out []string
	var b strings.Builder
	in := false
	var q byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q, in = c, true
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
			in = true
		case q == 0 && (c == ' ' || c == '\t'):
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// ExpandUnitValue expands the systemd specifiers %h (the home of the
// unit's user, home) and %% in a value; it reports false for any other
// specifier, which is logged, never guessed. $ is literal (systemd does
// not expand variables in Environment=).
func ExpandUnitValue(v, home string) (string, bool) {
	if !strings.Contains(v, "%") {
		return v, true
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '%' {
			b.WriteByte(v[i])
			continue
		}
		if i+1 >= len(v) {
			return v, false
		}
		i++
		switch v[i] {
		case 'h':
			b.WriteString(home)
		case '%':
			b.WriteByte('%')
		default:
			return v, false
		}
	}
	return b.String(), true
}
