package inputs

import (
	"github.com/doubleagent/doubleagent/bundle"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// KindHostname is the problem kind of a host name that is not one line
// of printable text.
const KindHostname = "bad_hostname"

// MaxHostnameChars bounds a host name as the outputs show it: the
// 4096 bytes the collector and imageHostname read.
const MaxHostnameChars = maxHostnameBytes

// cleanHostname makes a host name as recorded (etc/hostname, bundle.json's
// host.hostname) one line of printable text: surrounding spaces and
// newlines are trimmed (as hostname(1) writes the file); a name that is
// then not valid UTF-8, holds a control, format or line-breaking
// character, or is longer than MaxHostnameChars is kept as its raw bytes
// escaped (Go's quoted form without the quotes: "a\nb" becomes a\nb, 0xff
// becomes \xff), and ok is false so the caller writes a problem row
// naming the raw value.
func cleanHostname(raw string) (name string, ok bool) {
	name = strings.TrimSpace(raw)
	if printableLine(name) && utf8.RuneCountInString(name) <= MaxHostnameChars {
		return name, true
	}
	q := strconv.QuoteToASCII(name)
	q = q[1 : len(q)-1]
	if r := []rune(q); len(r) > MaxHostnameChars {
		q = string(r[:MaxHostnameChars]) + "…"
	}
	return q, false
}

func printableLine(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// hostnameProblem is the problem row of a host name cleanHostname
// escaped.
func hostnameProblem(from, raw, name string) Problem {
	q := strconv.QuoteToASCII(raw)
	if len(q) > 600 {
		q = q[:600] + "…"
	}
	return Problem{Kind: KindHostname, SourceFile: from, Message: "the host name is not one line of printable text: its raw bytes " + q + " are kept escaped as the host " + strconv.Quote(name)}
}

// checkHostname cleans the host name a bundle's header recorded
// (cleanHostname), with a problem row when it had to be escaped. A bundle
// that records no host name (or the collector's bundle.UnknownHost) is the host "unnamed:<bundle id>", with a
// problem row saying so: two machines whose bundles name no host are
// never taken for one (their sessions, inventory and findings stay apart).
func (s *Source) checkHostname() {
	if h := strings.TrimSpace(s.host); h == "" || h == bundle.UnknownHost {
		id := s.bundleID
		if id == "" {
			id = filepath.Base(s.input)
		}
		s.host = "unnamed:" + id
		s.problem(Problem{Kind: KindHostname, SourceFile: "bundle.json", Message: "the bundle records no host name: its rows are under the host " + strconv.Quote(s.host) + ", so that two machines whose bundles name no host are never taken for one"})
		return
	}
	name, ok := cleanHostname(s.host)
	if !ok {
		raw := s.host
		s.host = name
		s.problem(hostnameProblem("bundle.json", raw, name))
	} else {
		s.host = name
	}
}
