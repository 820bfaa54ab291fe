package bundle

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// frozenV1 is testdata/v1/fake-home.tar.zst, written by the collector of
// 2026-12-01 (scripts/gen-bundle-fixtures.sh, see testdata/v1/README.md)
// and never rewritten: every test run proves that today's reader reads a
// version 1 bundle as it was collected, not only what today's writer makes.
// frozenV2 is the same fake home collected as format version 2
// (testdata/v2/README.md).
const (
	frozenV1       = "testdata/v1/fake-home.tar.zst"
	frozenV1SHA256 = "6e6d2ed7c02814f65f1568a544370cf830ee31a3953950533fb313fa32268ec8"
	frozenV1ID     = "01a2321c-407f-7758-875e-a19022cf4a23"
	frozenV2       = "testdata/v2/fake-home.tar.zst"
	frozenV2SHA256 = "8f69ba23e4951a931614564c739cbf8df347a43862bbff56ea5edef6f5bdf3a7"
	frozenV2ID     = "01a23248-ba40-75c1-987e-adbff74d307f"
	// frozenAge is the same fake home collected encrypted
	// (--encrypt-to testdata/age/recipients.txt; testdata/age/README.md),
	// read with the committed TEST-ONLY identity beside it.
	frozenAge         = "testdata/age/fake-home.tar.zst.age"
	frozenAgeSHA256   = "de651c62624acd1312c0078f9db9cea9b763370e907eb79fc1117c66f50e0d04"
	frozenAgeID       = "01a23341-ecba-7265-8220-3a6ff3931936"
	frozenAgeIdentity = "testdata/age/TEST-ONLY-identity.txt"
)

type frozenRow struct{ status, path, sha, size string }

// frozenV1Rows is every manifest file row: status, original path, sha256
// and size.
var frozenV1Rows = []frozenRow{
	{"collected", "/home/alice/.claude/projects/-home-alice-demo/0b1c2d3e-0000-4000-8000-000000000001.jsonl", "4a20c989e45aea45e69f3245fd785cccc4b3bd65dcbb2e28286cbc6730f0fca8", "846"},
	{"symlink", "/home/alice/.claude/projects/-home-alice-demo/link.jsonl", "", "19"},
	{"collected", "/home/alice/.claude/projects/-home-alice-demo/odd%25name-%FF.jsonl", "8b790d43d129739c2c78954665e2d299a1eed50549ed80762604b7d0278af9a6", "40"},
	{"skipped_special", "/home/alice/.claude/projects/-home-alice-demo/pipe.jsonl", "", "0"},
	{"skipped_size", "/home/alice/.claude/projects/-home-alice-demo/too-big.jsonl", "", "50000"},
	{"collected", "/home/alice/.claude/history.jsonl", "e973f4423bf33f7f5b596e2bb3c7a6889e9a78e4ecb790fa44f2c0fbfac4fdf8", "84"},
	{"collected", "/home/alice/.claude/settings.json", "7236d89b88a8521fb4fdbfb9ec75f0f47fd0875c6658ce90252737a375c0364a", "58"},
	{"collected", "/home/alice/.claude/.credentials.json", "760b2528a70bc861f3fce16c8791e0225ff3a140a5490aa5d8872beed2f95fe8", "60"},
	{"collected", "/home/alice/.codex/history.jsonl", "9a3c36954514693e12fe5fa0ccba2e19704147cc9a56446f6fcb40c4d19921d8", "64"},
	{"collected", "/home/alice/.codex/state_5.sqlite", "44e9b382070d7cf97c2d422aaa250eee7edbe9a9fa39516c42c54ccea43cae81", "4096"},
	{"collected", "/home/alice/.codex/state_5.sqlite-wal", "82be0c09a21204c3ad8e8c419d83ed212d445a25d36763a77a4f44ae2e2751e6", "20632"},
	{"collected", "/home/alice/.codex/state_5.sqlite-shm", "d82b47f09b199ff375ae3277cd3a0f446a51d3312fece1564121f5957b2d3789", "32768"},
}

// frozenV2Rows: the same fake home; the SQLite WAL and shared-memory
// files differ (SQLite writes a fresh salt each time).
var frozenV2Rows = func() []frozenRow {
	rows := append([]frozenRow(nil), frozenV1Rows...)
	rows[10].sha = "5bef49a9b7204f19153250a2045d222db39ba19ec84ccd003a759eec6e7113c4"
	rows[11].sha = "16c1ce153eb0f1605bb177b79d421af5f2b21d3298afe93d7d08d5e388e39c6e"
	return rows
}()

// frozenAgeRows: the same fake home again; a fresh WAL salt.
var frozenAgeRows = func() []frozenRow {
	rows := append([]frozenRow(nil), frozenV1Rows...)
	rows[10].sha = "e03340a73c820d1108930f1252a31f38837e5122b9eca4db23ba8141dc49ccf3"
	rows[11].sha = "bd1ba8c05c3bcbe9306111f786fcf25f35907e8513a4c6da7c260adaeb1303fd"
	return rows
}()

type frozenBundle struct {
	path, sha, id  string
	version        int
	started, ended string
	host, caseID   string
	rows           []frozenRow
	args           int      // words of the collector's command line
	identities     []string // identity files, for an encrypted bundle
	catalog        string   // catalog version (default 2026.11.29)
}

func TestFrozenV1Bundle(t *testing.T) {
	checkFrozen(t, frozenBundle{path: frozenV1, sha: frozenV1SHA256, id: frozenV1ID, version: 1,
		started: "2026-12-01T14:57:22.047Z", ended: "2026-12-01T14:57:22.080Z", host: "fixture-v1", caseID: "CASE-V1", rows: frozenV1Rows, args: 15})
}

func TestFrozenV2Bundle(t *testing.T) {
	checkFrozen(t, frozenBundle{path: frozenV2, sha: frozenV2SHA256, id: frozenV2ID, version: 2,
		started: "2026-12-01T15:45:56.800Z", ended: "2026-12-01T15:45:56.814Z", host: "fixture-v2", caseID: "CASE-V2", rows: frozenV2Rows, args: 15})
}

// TestFrozenEncryptedBundle reads the frozen age-encrypted sample with its
// TEST-ONLY identity: the sidecar hashes the ciphertext, and inside is a
// version 2 bundle read with the same exact values as the plain ones.
func TestFrozenEncryptedBundle(t *testing.T) {
	checkFrozen(t, frozenBundle{path: frozenAge, sha: frozenAgeSHA256, id: frozenAgeID, version: 2,
		started: "2026-12-01T20:18:08.186Z", ended: "2026-12-01T20:18:08.316Z", host: "fixture-age", caseID: "CASE-AGE", rows: frozenAgeRows, args: 17,
		identities: []string{frozenAgeIdentity}, catalog: "2026.12.01"})
}

func checkFrozen(t *testing.T, fb frozenBundle) {
	raw, err := os.ReadFile(fb.path)
	if err != nil {
		t.Fatalf("frozen fixture: %v", err)
	}
	if s := sha256.Sum256(raw); hex.EncodeToString(s[:]) != fb.sha {
		t.Fatalf("%s changed (sha256 %x): frozen fixtures are never rewritten; add a new one instead", fb.path, s)
	}
	side, err := os.ReadFile(fb.path + ".sha256")
	if err != nil || string(side) != fb.sha+"  "+filepath.Base(fb.path)+"\n" {
		t.Fatalf("sidecar %q %v", side, err)
	}
	f, err := os.Open(fb.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var opts *Options
	if fb.identities != nil {
		ids, err := ReadIdentities(fb.identities)
		if err != nil {
			t.Fatal(err)
		}
		opts = &Options{Identities: ids}
	}
	r, err := Open(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header
	if fb.catalog == "" {
		fb.catalog = "2026.11.29"
	}
	if h.FormatVersion != fb.version || h.BundleID != fb.id || h.CollectorVersion != "0.1.0" || h.CatalogVersion != fb.catalog ||
		h.StartedUTC != fb.started || !h.RootMode || h.Host.Hostname != fb.host || h.Host.Case != fb.caseID ||
		h.Host.Examiner != "frozen format fixture" || h.Host.User != "root" || h.Host.UID != "0" || !h.Host.Privileged || len(h.Host.CommandLine) != fb.args {
		t.Fatalf("header %+v", h)
	}
	// Members in collection order, each hashed while read.
	var members []string
	sums := map[string]string{}
	for {
		m, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		hs := sha256.New()
		if _, err := io.Copy(hs, m); err != nil {
			t.Fatal(err)
		}
		members = append(members, m.Name)
		sums[m.Entry.Path] = hex.EncodeToString(hs.Sum(nil))
		if m.Entry.Agent == "" || m.Entry.User != "alice" || m.Entry.Home != "/home/alice" {
			t.Errorf("%s: PAX records %+v", m.Name, m.Entry)
		}
	}
	res := r.Result()
	if res.Encrypted != (fb.identities != nil) {
		t.Fatalf("encrypted %v", res.Encrypted)
	}
	if len(res.Problems) != 0 || !res.Complete || res.Truncated || res.Members != 9 || len(res.Verified) != 9 {
		t.Fatalf("result: problems %v complete %v truncated %v members %d verified %d", res.Problems, res.Complete, res.Truncated, res.Members, len(res.Verified))
	}
	if members[0] != "files/home/alice/.claude/projects/-home-alice-demo/0b1c2d3e-0000-4000-8000-000000000001.jsonl" ||
		members[1] != "files/home/alice/.claude/projects/-home-alice-demo/odd%25name-%FF.jsonl" ||
		members[6] != "files/home/alice/.codex/state_5.sqlite" || members[7] != "files/home/alice/.codex/state_5.sqlite-wal" {
		t.Fatalf("members %q", members)
	}
	if len(res.Manifest) != len(fb.rows) {
		t.Fatalf("%d manifest rows, want %d", len(res.Manifest), len(fb.rows))
	}
	for i, want := range fb.rows {
		e := res.Manifest[i]
		if e.Status != want.status || e.Path != want.path || e.SHA256 != want.sha || strconv.FormatInt(e.Size, 10) != want.size {
			t.Errorf("row %d: %s %s %s %d, want %+v", i+1, e.Status, e.Path, e.SHA256, e.Size, want)
		}
		if want.sha != "" && sums[e.Path] != want.sha {
			t.Errorf("row %d: member hashed %s, manifest %s", i+1, sums[e.Path], want.sha)
		}
		if e.MTime != "2026-11-29T12:00:00Z" || e.UID != 1000 || e.GID != 1000 {
			t.Errorf("row %d: mtime %s uid %d gid %d", i+1, e.MTime, e.UID, e.GID)
		}
	}
	// Escaping, links, sidecars and secrets as format.md states them.
	odd := res.Manifest[2]
	if b, _ := base64.StdEncoding.DecodeString(odd.PathB64); string(b) != "/home/alice/.claude/projects/-home-alice-demo/odd%name-\xff.jsonl" || odd.ArchivePath != members[1] {
		t.Errorf("escaped row %+v", odd)
	}
	if l := res.Manifest[1]; l.LinkTarget != "../../settings.json" || l.ArchivePath != "" || l.Type != "symlink" {
		t.Errorf("link row %+v", l)
	}
	if w := res.Manifest[10]; w.SidecarOf != "/home/alice/.codex/state_5.sqlite" || w.Kind != "sqlite" {
		t.Errorf("wal row %+v", w)
	}
	if c := res.Manifest[7]; !c.Secret || c.Kind != "secret" || c.Target != "credentials" {
		t.Errorf("secret row %+v", c)
	}
	s := res.Summary
	if s == nil || !s.Complete || s.Files != 9 || s.BytesCollected != 58648 || s.EndedUTC != fb.ended {
		t.Fatalf("summary %+v", s)
	}
	var counts []string
	for k, v := range s.Counts {
		counts = append(counts, k+"="+strconv.Itoa(v))
	}
	sort.Strings(counts)
	if strings.Join(counts, " ") != "collected=9 skipped_size=1 skipped_special=1 symlink=1" {
		t.Fatalf("counts %v", counts)
	}
	if !strings.Contains(string(res.Log), `"message":"collection ended"`) {
		t.Fatalf("log %q", res.Log)
	}
}
