package bundle

import (
	"time"
)

// Header is bundle.json, the first member.
type Header struct {
	FormatVersion    int    `json:"format_version"`
	BundleID         string `json:"bundle_id"`
	CollectorVersion string `json:"collector_version"`
	CatalogVersion   string `json:"catalog_version"`
	StartedUTC       string `json:"started_utc"`
	RootMode         bool   `json:"root_mode"`
	Root             string `json:"root"`
	Host             Host   `json:"host"`
}

// Host holds the host facts recorded at the start of a collection.
type Host struct {
	Hostname    string   `json:"hostname"`
	OS          string   `json:"os"`
	OSVersion   string   `json:"os_version"`
	Kernel      string   `json:"kernel"`
	Arch        string   `json:"arch"`
	Timezone    string   `json:"timezone"`
	UTCOffset   string   `json:"utc_offset"`
	BootTimeUTC string   `json:"boot_time_utc"`
	User        string   `json:"user"`
	UID         string   `json:"uid"`
	Privileged  bool     `json:"privileged"`
	CommandLine []string `json:"command_line"`
	Case        string   `json:"case"`
	Examiner    string   `json:"examiner"`
}

// Statuses of manifest file rows.
const (
	StatusCollected       = "collected"
	StatusSymlink         = "symlink"
	StatusSkippedExcluded = "skipped_excluded"
	StatusSkippedSize     = "skipped_size"
	StatusSkippedSecret   = "skipped_secret"
	StatusSkippedSpecial  = "skipped_special"
	StatusErrorRead       = "error_read"
	StatusVanished        = "vanished"
	// StatusFolder: a catalog folder (or a followed link's target folder)
	// that exists; the row holds its MACB times, nothing is copied. An
	// agent folder with no other row is "present, nothing kept".
	StatusFolder = "folder"
)

// Statuses lists every status in a fixed order.
var Statuses = []string{StatusCollected, StatusSymlink, StatusSkippedExcluded, StatusSkippedSize, StatusSkippedSecret, StatusSkippedSpecial, StatusErrorRead, StatusVanished, StatusFolder}

// Record kinds of manifest rows.
const (
	RecordFile    = "file"
	RecordSummary = "summary"
)

// Entry is one manifest file row: one path the collector saw.
type Entry struct {
	Record            string `json:"record"`
	Path              string `json:"path"`
	PathB64           string `json:"path_b64"`
	ArchivePath       string `json:"archive_path"`
	User              string `json:"user"`
	Home              string `json:"home"`
	Agent             string `json:"agent"`
	Target            string `json:"target"`
	Kind              string `json:"kind"`
	Type              string `json:"type"`
	Size              int64  `json:"size"`
	Mode              string `json:"mode"`
	UID               int64  `json:"uid"`
	GID               int64  `json:"gid"`
	MTime             string `json:"mtime"`
	ATime             string `json:"atime"`
	CTime             string `json:"ctime"`
	BTime             string `json:"btime"`
	SHA256            string `json:"sha256"`
	Status            string `json:"status"`
	Error             string `json:"error"`
	LinkTarget        string `json:"link_target"`
	Secret            bool   `json:"secret"`
	ChangedDuringCopy bool   `json:"changed_during_copy"`
	SidecarOf         string `json:"sidecar_of"`
	// LinkFollowed is set on a symlink row the collector followed under
	// the link policy (format.md, Links); RealPath is then where the link
	// resolves. On a row reached through a followed link, ViaLink is the
	// link's path and RealPath the file's own resolved path (Path is the
	// path through the link, as the agent named it).
	LinkFollowed bool   `json:"link_followed,omitempty"`
	RealPath     string `json:"real_path,omitempty"`
	ViaLink      string `json:"via_link,omitempty"`
	// FoundVia says where a relocated agent folder's location came from
	// ("CLAUDE_CONFIG_DIR=/data/claude in /home/alice/.bashrc"); "" for the
	// catalog's default locations.
	FoundVia string `json:"found_via,omitempty"`
	// OutsideHomes is set on a link the collector followed (LinkFollowed)
	// whose target lies outside every home and container volume folder
	// of the host: the owner rule allowed it (the home's owner owns the
	// target), and a reader names it (link_outside_homes), as a tree read
	// in place does.
	OutsideHomes bool `json:"outside_homes,omitempty"`
	// InterruptedAt is set on a collected row whose copy the collection's
	// interruption (SIGINT, SIGTERM) cut: the member holds the file's
	// first InterruptedAt bytes, then zero padding to Size, and SHA256 is
	// the hash of those first bytes (format.md, Interrupted copies).
	InterruptedAt *int64 `json:"interrupted_at,omitempty"`
}

// Summary is the manifest's closing row.
type Summary struct {
	Record         string         `json:"record"`
	Complete       bool           `json:"complete"`
	Reason         string         `json:"reason"`
	EndedUTC       string         `json:"ended_utc"`
	Counts         map[string]int `json:"counts"`
	BytesCollected int64          `json:"bytes_collected"`
	Files          int            `json:"files"`
}

// MTimeValue parses the entry's mtime; zero when absent or malformed.
func (e *Entry) MTimeValue() time.Time { return parseTime(e.MTime) }

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// FormatTime renders t as RFC 3339 UTC with nanoseconds, "" when zero.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// FormatTimeMillis renders t as RFC 3339 UTC with milliseconds and Z.
func FormatTimeMillis(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
