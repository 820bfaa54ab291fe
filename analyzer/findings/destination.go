package findings

import (
	"net/netip"
	"net/url"
	"regexp"
	"strings"
)

// Destination classes, from the least to the most exposed. A row's
// destination_class is the most exposed class of the hosts its text names
// ("" when it names none the classifier recognises).
const (
	DestLoopback = "loopback" // this machine: localhost, *.localhost, 127.0.0.0/8, ::1, 0.0.0.0, ::
	DestPrivate  = "private"  // this site's networks: RFC 1918, 100.64.0.0/10, link-local, ULA fc00::/7, *.local, *.internal, *.lan, *.home.arpa, single-label names
	DestPublic   = "public"   // anything else
)

// Destination is one host a text names.
type Destination struct {
	Host  string // as written, lower-cased, without brackets, port or user info
	Class string
}

var (
	// scheme://authority: the URL forms curl, wget, git, ssh and the rest accept.
	urlRe = regexp.MustCompile(`(?i)\b(?:https?|ftps?|wss?|ssh|sftp|scp|git|rsync|telnet|tcp|udp|smtp|smtps|ldaps?|mqtt|redis|postgres(?:ql)?|mysql|mongodb(?:\+srv)?|amqps?)://[^\s'"<>(){}|;` + "`" + `\\]+`)
	// bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT.
	devTCPRe = regexp.MustCompile(`/dev/(?:tcp|udp)/([^/\s'"]+)/`)
	// scp-style user@host:path (git@github.com:org/repo.git).
	scpRe = regexp.MustCompile(`(?:^|[\s'"=])[A-Za-z0-9._-]+@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):`)
	// the host argument of netcat, socat-less raw socket tools and telnet:
	// the first word after the command that is neither a flag nor a number.
	sockToolRe = regexp.MustCompile(`(?i)(?:^|[\s|;&(])(?:nc|ncat|netcat|telnet)((?:\s+[^\s|;&<>]+)+)`)
	// socat's TCP:host:port, TCP4-CONNECT:host:port, UDP:host:port.
	socatRe = regexp.MustCompile(`(?i)\b(?:tcp|tcp4|tcp6|udp|udp4|udp6|openssl)(?:-connect)?:(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d+`)
	// a bare host with a port or a path, as curl and wget take it without
	// a scheme (127.0.0.1:9/x, evil.example/upload, [::1]:80).
	bareRe = regexp.MustCompile(`(?i)(?:^|[\s'"=])(\[[0-9a-f:.]+\]|(?:\d{1,3}\.){3}\d{1,3}|localhost|(?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*)(?::\d{1,5})?(?:/[^\s'"]*)?(?:$|[\s'"])`)
)

// Destinations returns the hosts text names, in order, each once: the
// authority of every URL, the host of /dev/tcp and /dev/udp paths, of
// user@host: (scp and git over ssh), of netcat, telnet and socat
// addresses, and bare IP addresses, localhost and host:port or host/path
// words (curl and wget accept URLs without a scheme). A bare dotted word
// without a port or path (notes.txt) is not taken for a host.
func Destinations(text string) []Destination {
	var out []Destination
	seen := map[string]bool{}
	add := func(h string) {
		h = strings.ToLower(strings.Trim(h, "[]."))
		if h == "" || seen[h] {
			return
		}
		seen[h] = true
		out = append(out, Destination{Host: h, Class: HostClass(h)})
	}
	for _, m := range urlRe.FindAllString(text, -1) {
		if u, err := url.Parse(m); err == nil && u.Host != "" {
			add(u.Hostname())
			continue
		}
		// Not a URL Go can read (a bad escape): take the authority by hand.
		rest := m[strings.Index(m, "://")+3:]
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.LastIndex(rest, "@"); i >= 0 {
			rest = rest[i+1:]
		}
		add(hostOfHostPort(rest))
	}
	for _, m := range devTCPRe.FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, m := range scpRe.FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, m := range socatRe.FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, m := range sockToolRe.FindAllStringSubmatch(text, -1) {
		for _, w := range strings.Fields(m[1]) {
			w = strings.Trim(w, `'"`)
			if w == "" || strings.HasPrefix(w, "-") || isDigits(w) {
				continue
			}
			if strings.Contains(w, "/") { // nc -e /bin/sh host port
				continue
			}
			add(hostOfHostPort(w))
			break
		}
	}
	for _, m := range bareRe.FindAllStringSubmatch(text, -1) {
		w := m[0]
		h := m[1]
		// a dotted name is a host only with a port or a path after it
		if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err != nil && !strings.EqualFold(h, "localhost") {
			rest := strings.TrimRight(w[strings.Index(strings.ToLower(w), strings.ToLower(h))+len(h):], ` '"`)
			if rest == "" {
				continue
			}
		}
		add(h)
	}
	return out
}

// DestinationClass is the most exposed class among the hosts text names
// (public over private over loopback), or "" when it names none.
func DestinationClass(text string) string { return mostExposed(Destinations(text)) }

func mostExposed(ds []Destination) string {
	best := ""
	rank := map[string]int{"": 0, DestLoopback: 1, DestPrivate: 2, DestPublic: 3}
	for _, d := range ds {
		if rank[d.Class] > rank[best] {
			best = d.Class
		}
	}
	return best
}

// HostClass classifies one host name or address. Names are classified by
// what they say, not resolved: an examiner reads the record on another
// machine, and a name that resolves to a private address today is a
// public name (a DNS-rebinding or nip.io name like 127.0.0.1.nip.io is
// public for this reason).
func HostClass(h string) string {
	h = strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
	if i := strings.IndexByte(h, '%'); i >= 0 { // fe80::1%eth0
		h = h[:i]
	}
	if a, err := netip.ParseAddr(h); err == nil {
		a = a.Unmap()
		switch {
		case a.IsLoopback(), a.IsUnspecified():
			return DestLoopback
		case a.IsPrivate(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), cgnat.Contains(a):
			return DestPrivate
		}
		return DestPublic
	}
	switch {
	case h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "localhost.localdomain" || h == "ip6-localhost" || h == "ip6-loopback":
		return DestLoopback
	case !strings.Contains(h, "."), // a single-label name resolves on the local network only
		strings.HasSuffix(h, ".local"), strings.HasSuffix(h, ".internal"), strings.HasSuffix(h, ".lan"),
		strings.HasSuffix(h, ".home.arpa"), strings.HasSuffix(h, ".intranet"), strings.HasSuffix(h, ".corp"):
		return DestPrivate
	}
	return DestPublic
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func hostOfHostPort(s string) string {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i > 0 {
			return s[1:i]
		}
	}
	if strings.Count(s, ":") == 1 {
		return s[:strings.IndexByte(s, ':')]
	}
	return s
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
