package bundle

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format versions this package writes and reads. Version 2 moved each
// artifact's metadata from DOUBLEAGENT.* PAX records (which GNU tar warns
// about, six lines per member) into one PAX "comment" record, which POSIX
// tells every pax reader to ignore; version 1 bundles are still read.
const (
	FormatVersion    = 2
	MinFormatVersion = 1
	MaxFormatVersion = 2
)

// Member names.
const (
	HeaderName   = "bundle.json"
	ManifestName = "manifest.jsonl"
	LogName      = "log.jsonl"
	FilesPrefix  = "files/"
)

// UnknownHost is the host name a collector records when it knows none
// (no --host, no readable /etc/hostname): a reader must not take two
// bundles that record it for one host.
const UnknownHost = "unknown-host"

// PAX record keys carried by artifact members: in version 1, one record
// per field; from version 2, one "comment" record holding memberMeta as a
// JSON object.
const (
	paxComment = "comment"

	paxPath   = "DOUBLEAGENT.path"
	paxAgent  = "DOUBLEAGENT.agent"
	paxTarget = "DOUBLEAGENT.target"
	paxKind   = "DOUBLEAGENT.kind"
	paxUser   = "DOUBLEAGENT.user"
	paxHome   = "DOUBLEAGENT.home"
)

// memberMeta is what a version 2 artifact member's "comment" PAX record
// holds, a JSON object with the manifest's names for these fields.
type memberMeta struct {
	Path   string `json:"path"`
	User   string `json:"user"`
	Home   string `json:"home"`
	Agent  string `json:"agent"`
	Target string `json:"target"`
	Kind   string `json:"kind"`
}

// ErrUnsupportedVersion is returned for a bundle whose format version is
// outside [MinFormatVersion, MaxFormatVersion].
var ErrUnsupportedVersion = errors.New("bundle: unsupported format version")

// ErrChecksumMismatch marks a member whose bytes do not hash to the manifest's value.
var ErrChecksumMismatch = errors.New("bundle: checksum mismatch")

// ErrNotBundle is returned when the input is not a zstd tar stream starting with bundle.json.
var ErrNotBundle = errors.New("bundle: not a DoubleAgent bundle")

// ErrHeaderCut is an ErrNotBundle (errors.Is matches both) for a stream
// that begins as a bundle, a zstd frame, but is cut short or corrupt
// inside bundle.json, its first member: nothing of it can be read, yet it
// is a damaged bundle, not some other file (verify fails it with exit 1).
var ErrHeaderCut = errors.New("bundle: cut short or corrupt in bundle.json")

// headerCutError carries ErrHeaderCut and ErrNotBundle with its own text.
type headerCutError struct {
	msg   string
	cause error
}

func (e *headerCutError) Error() string { return e.msg }
func (e *headerCutError) Unwrap() error { return e.cause }
func (e *headerCutError) Is(target error) bool {
	return target == ErrNotBundle || target == ErrHeaderCut
}

func headerCut(cause error, format string, args ...any) error {
	return &headerCutError{msg: ErrNotBundle.Error() + ": " + fmt.Sprintf(format, args...), cause: cause}
}

// ErrLimit is returned when a size bound is exceeded (decompression bomb).
var ErrLimit = errors.New("bundle: size limit exceeded")

// FormatError describes malformed bundle content.
type FormatError struct {
	Member string
	Msg    string
}

func (e *FormatError) Error() string {
	if e.Member == "" {
		return "bundle: " + e.Msg
	}
	return fmt.Sprintf("bundle: %s: %s", e.Member, e.Msg)
}

// EscapePath renders a raw original path as valid UTF-8: control bytes, '%',
// '\' and bytes not part of valid UTF-8 become %XX. It reports whether
// anything was escaped.
func EscapePath(raw string) (string, bool) {
	var b strings.Builder
	changed := false
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRuneInString(raw[i:])
		c := raw[i]
		if (r == utf8.RuneError && size <= 1) || c < 0x20 || c == 0x7f || c == '%' || c == '\\' {
			fmt.Fprintf(&b, "%%%02X", c)
			changed = true
			i++
			continue
		}
		b.WriteString(raw[i : i+size])
		i += size
	}
	return b.String(), changed
}

// ArchiveName returns the member name for an original path: FilesPrefix
// plus the escaped path without its leading '/', with a Windows drive
// "C:" written "C".
func ArchiveName(orig string) string {
	esc, _ := EscapePath(orig)
	p := strings.TrimLeft(esc, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = p[:1] + p[2:]
	}
	// Drop empty, "." and ".." elements so a name can never climb.
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		switch s {
		case "", ".":
			continue
		case "..":
			out = append(out, "%2E%2E")
		default:
			out = append(out, s)
		}
	}
	return FilesPrefix + strings.Join(out, "/")
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// UnsafeName reports why a member name must not be written to disk, or "".
func UnsafeName(name string) string {
	switch {
	case name == "":
		return "empty name"
	case strings.HasPrefix(name, "/"):
		return "absolute name"
	case strings.Contains(name, "\\"):
		return "backslash in name"
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return "drive letter in name"
	}
	for _, s := range strings.Split(name, "/") {
		switch s {
		case "..":
			return "'..' element in name"
		case ".":
			return "'.' element in name"
		case "":
			return "empty element in name (// or a trailing /)"
		}
	}
	return ""
}
