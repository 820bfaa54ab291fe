package catalog

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// The files where the relocation variables (Relocation, XDGRelocations)
// are set, and how a setting is read from them: shared by the collector
// (collector/collect/relocate.go) and the analyzer's loose trees.

// HomeEnvFiles are the shell start files read below each home.
var HomeEnvFiles = []string{".profile", ".bash_profile", ".bash_login", ".bashrc", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".pam_environment", ".config/fish/config.fish"}

// HomeEnvDirs are folders below a home whose files are read too.
var HomeEnvDirs = []EnvDir{{".config/environment.d", ".conf"}, {"Library/LaunchAgents", ".plist"}}

// HostEnvFiles are the host's own environment files (every user's).
var HostEnvFiles = []string{"/etc/environment", "/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshenv", "/etc/zsh/zshenv", "/etc/fish/config.fish"}

var HostEnvDirs = []EnvDir{{"/etc/profile.d", ".sh"}, {"/etc/environment.d", ".conf"}, {"/Library/LaunchAgents", ".plist"}, {"/Library/LaunchDaemons", ".plist"}}

// MaxEnvFile bounds what is read of one environment file.
const MaxEnvFile = 1 << 20

// EnvSetting is one value of a relocation variable and where it was set.
type EnvSetting struct {
	Name, Value, Where string
	// Systemd: the value is from a systemd unit's Environment=, taken
	// literally but for %h and %% (ExpandUnitValue), not by the shell's
	// rules (ExpandEnvValue).
	Systemd bool
}

// EnvDir is a folder whose files of one extension are read for settings.
type EnvDir struct{ Dir, Ext string }

var (
	reAssign   = regexp.MustCompile(`^(?:export\s+|declare\s+-x\s+|typeset\s+-x\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)
	reFishSet  = regexp.MustCompile(`^set\s+(?:-[A-Za-z]+\s+)+([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$`)
	reSetenv   = regexp.MustCompile(`^(?:setenv|launchctl\s+setenv)\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$`)
	rePlistVar = regexp.MustCompile(`<key>\s*([A-Za-z_][A-Za-z0-9_]*)\s*</key>\s*<string>([^<]*)</string>`)
)

// shellValue takes the first word of a shell value: quotes removed, an
// unquoted comment or command separator ending it.
func shellValue(v string) string {
	v = strings.TrimSpace(v)
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch ch := v[i]; ch {
		case '\'':
			j := strings.IndexByte(v[i+1:], '\'')
			if j < 0 {
				return b.String() + v[i+1:]
			}
			b.WriteString(v[i+1 : i+1+j])
			i += j + 1
		case '"':
			j := strings.IndexByte(v[i+1:], '"')
			if j < 0 {
				return b.String() + v[i+1:]
			}
			b.WriteString(v[i+1 : i+1+j])
			i += j + 1
		case ' ', '\t', ';', '#', '&', '|':
			return b.String()
		case '\\':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i])
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// ParseEnvLine returns the variable a line of a shell start file, fish
// config, environment.d file or /etc/environment sets, and its value.
func ParseEnvLine(line string) (string, string, bool) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return "", "", false
	}
	for _, re := range []*regexp.Regexp{reAssign, reFishSet, reSetenv} {
		if m := re.FindStringSubmatch(line); m != nil {
			return m[1], shellValue(m[2]), true
		}
	}
	return "", "", false
}

// ExpandEnvValue expands ~, $HOME, ${HOME} and ${VAR:-word} (to word) in a
// value, for the home home; it reports false for any other expansion (a
// value that needs the shell to run), which is logged, never guessed.
func ExpandEnvValue(v, home string) (string, bool) {
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = home + v[1:]
	}
	for {
		i := strings.IndexByte(v, '$')
		if i < 0 {
			return v, true
		}
		rest := v[i+1:]
		switch {
		case strings.HasPrefix(rest, "HOME") && (len(rest) == 4 || !isNameByte(rest[4])):
			v = v[:i] + home + rest[4:]
		case strings.HasPrefix(rest, "{HOME}"):
			v = v[:i] + home + rest[6:]
		case strings.HasPrefix(rest, "{"):
			end := strings.IndexByte(rest, '}')
			k := strings.Index(rest, ":-")
			if end < 0 || k < 0 || k > end {
				return v, false
			}
			word := rest[k+2 : end]
			if strings.Contains(word, "{") {
				return v, false
			}
			v = v[:i] + word + rest[end+1:]
		default:
			return v, false
		}
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// ReadEnvFile collects the settings of the variables in want from the
// file f (already opened by the evidence rule), named where.
func ReadEnvFile(f io.Reader, where string, plist bool, want map[string]bool) []EnvSetting {
	var out []EnvSetting
	r := io.LimitReader(f, MaxEnvFile)
	if plist {
		b, _ := io.ReadAll(r)
		for _, m := range rePlistVar.FindAllSubmatch(b, -1) {
			if want[string(m[1])] {
				out = append(out, EnvSetting{Name: string(m[1]), Value: strings.TrimSpace(string(m[2])), Where: where})
			}
		}
		return out
	}
	_ = ScanLines(r, 64<<10, func(n int, line []byte, tooLong bool) {
		if tooLong {
			return
		}
		if k, v, ok := ParseEnvLine(string(line)); ok && want[k] {
			out = append(out, EnvSetting{Name: k, Value: v, Where: where + ":" + strconv.Itoa(n)})
		}
	})
	return out
}

// ScanLines calls fn with every line of r (without its "\n" or "\r\n")
// and its 1-based number. Unlike bufio.Scanner it has no line-length
// trap: a line over max bytes is read to its end and passed as tooLong
// with only its first max bytes, and the lines after it are still read.
func ScanLines(r io.Reader, max int, fn func(n int, line []byte, tooLong bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var acc []byte
	n, size := 0, 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if room := max + 2 - len(acc); room > 0 {
			acc = append(acc, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if size > 0 {
			n++
			line := bytes.TrimRight(acc, "\r\n")
			long := size-(len(acc)-len(line)) > max
			if long && len(line) > max {
				line = line[:max]
			}
			fn(n, line, long)
		}
		acc, size = acc[:0], 0
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ExpandRelocation expands a relocation variable's value for the home
// home (ExpandEnvValue) and says why it names no folder that can be walked
// ("" when it is an absolute path), in the words the collector's manifest
// row and the analyzer's problem row both use: the value is recorded,
// never guessed at.
func ExpandRelocation(value, home string) (folder, why string) {
	v, ok := ExpandEnvValue(value, home)
	switch {
	case !ok:
		return "", "its value needs a shell to expand (a variable other than HOME, or a command): the folder it names is not walked, never guessed"
	case strings.HasPrefix(v, "~"):
		return "", "its value names another account's home (" + strings.SplitN(v, "/", 2)[0] + "), which only the host's account database resolves: the folder it names is not walked, never guessed"
	case !strings.HasPrefix(v, "/"):
		return "", "its value is not an absolute path (it would be taken from whatever folder the agent starts in): the folder it names is not walked, never guessed"
	}
	return v, ""
}
