package bundle_test

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/klauspost/compress/zstd"
)

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

func readAll(t *testing.T, data []byte, opts *bundle.Options) (*bundle.Reader, map[string][]byte, *bundle.Result) {
	t.Helper()
	r, err := bundle.Open(bytes.NewReader(data), opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	got := map[string][]byte{}
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		b, err := io.ReadAll(m)
		if err != nil {
			break
		}
		got[m.Entry.Path] = b
	}
	return r, got, r.Result()
}

func TestRoundTrip(t *testing.T) {
	mt := time.Date(2026, 3, 4, 5, 6, 7, 890123456, time.UTC)
	data := bundletest.Build(t, []bundletest.File{
		{Path: "/home/alice/.claude/history.jsonl", Agent: "claude-code", Target: "history", User: "alice", Data: []byte("{\"a\":1}\n"), MTime: mt},
		{Path: "C:/Users/carol/.codex/history.jsonl", Agent: "codex-cli", Target: "history", User: "carol", Data: []byte("x")},
		{Path: "/home/bob/odd\nname\xff%.jsonl", Agent: "claude-code", Target: "projects", User: "bob", Data: []byte("")},
	})
	r, got, res := readAll(t, data, nil)
	if r.Header.FormatVersion != 2 || r.Header.BundleID == "" || r.Header.Host.Hostname != "testhost" {
		t.Fatalf("header %+v", r.Header)
	}
	if len(res.Problems) != 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	if string(got["/home/alice/.claude/history.jsonl"]) != "{\"a\":1}\n" || string(got["C:/Users/carol/.codex/history.jsonl"]) != "x" {
		t.Fatalf("content %q", got)
	}
	if _, ok := got["/home/bob/odd%0Aname%FF%25.jsonl"]; !ok {
		t.Fatalf("escaped name missing: %v", keys(got))
	}
	if len(res.Manifest) != 3 || res.Summary == nil || !res.Summary.Complete || !res.Complete {
		t.Fatalf("manifest %d summary %+v", len(res.Manifest), res.Summary)
	}
	e := res.Manifest[0]
	if e.SHA256 != sum([]byte("{\"a\":1}\n")) || e.Size != 8 || e.MTime != "2026-03-04T05:06:07.890123456Z" || e.ArchivePath != "files/home/alice/.claude/history.jsonl" {
		t.Fatalf("entry %+v", e)
	}
	if res.Manifest[1].ArchivePath != "files/C/Users/carol/.codex/history.jsonl" {
		t.Fatalf("drive letter name %q", res.Manifest[1].ArchivePath)
	}
	if res.Manifest[2].ArchivePath != "files/home/bob/odd%0Aname%FF%25.jsonl" {
		t.Fatalf("odd name archived as %q (escaped once expected)", res.Manifest[2].ArchivePath)
	}
	if res.Manifest[2].PathB64 == "" || res.Summary.Counts["collected"] != 3 || res.Summary.BytesCollected != 9 {
		t.Fatalf("path_b64/summary: %+v %+v", res.Manifest[2], res.Summary)
	}
	if len(res.Verified) != 3 {
		t.Fatalf("verified %v", res.Verified)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestArchiveNameNeverClimbs(t *testing.T) {
	for in, want := range map[string]string{
		"/home/a/../../etc/passwd": "files/home/a/%2E%2E/%2E%2E/etc/passwd",
		"C:/Users/x/y":             "files/C/Users/x/y",
		"//double//slash":          "files/double/slash",
		"/a\\b":                    "files/a%5Cb",
	} {
		if got := bundle.ArchiveName(in); got != want {
			t.Errorf("ArchiveName(%q) = %q, want %q", in, got, want)
		}
		if why := bundle.UnsafeName(bundle.ArchiveName(in)); why != "" {
			t.Errorf("ArchiveName(%q) unsafe: %s", in, why)
		}
	}
}

// TestUnsafeNames: a member name whose elements are not canonical (empty,
// "." or "..") is never written to disk, so two names cannot clean to one
// path and shadow each other.
func TestUnsafeNames(t *testing.T) {
	for name, want := range map[string]string{
		"files/home/a/b":        "",
		"files/home/a/...":      "",
		"files/home/a/.b":       "",
		"files/home/a/%2E%2E/b": "",
		"files/home/../etc":     "'..' element in name",
		"files/home/./a":        "'.' element in name",
		"files//home/a":         "empty element in name (// or a trailing /)",
		"files/home/a/":         "empty element in name (// or a trailing /)",
		"/files/a":              "absolute name",
		"files\\a":              "backslash in name",
		"C:/files":              "drive letter in name",
		"":                      "empty name",
	} {
		if got := bundle.UnsafeName(name); got != want {
			t.Errorf("UnsafeName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestShortReadPadsAndReports(t *testing.T) {
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := w.AddFile(bundle.Entry{Path: "/h/f"}, 10, strings.NewReader("abc"))
	if !errors.Is(err, bundle.ErrShortRead) {
		t.Fatalf("want ErrShortRead, got %v", err)
	}
	want := sum([]byte("abc\x00\x00\x00\x00\x00\x00\x00"))
	if e.SHA256 != want || e.Size != 10 || !strings.Contains(e.Error, "read 3 of 10") {
		t.Fatalf("entry %+v", e)
	}
	if err := w.Close(bundle.Summary{Complete: true}, nil); err != nil {
		t.Fatal(err)
	}
	_, _, res := readAll(t, buf.Bytes(), nil)
	// The padded member verifies (the hash covers what was written) and
	// the row's error is a warning.
	if len(res.Problems) != 1 || res.Problems[0].Kind != bundle.ProblemRowError || !res.Problems[0].Warning() ||
		res.Problems[0].String() != "row_error /h/f: collected: source shorter than declared size: read 3 of 10 bytes" || !res.Verified["files/h/f"] {
		t.Fatalf("problems %v", res.Problems)
	}
}

func TestTruncatedBundleReadsWhatIsThere(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB, poorly compressible? no: repeated; fine
	data := bundletest.Build(t, []bundletest.File{
		{Path: "/h/a", Data: []byte("first")},
		{Path: "/h/b", Data: big},
	})
	cut := data[:len(data)/2]
	r, err := bundle.Open(bytes.NewReader(cut), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		names = append(names, m.Entry.Path)
		io.Copy(io.Discard, m)
	}
	res := r.Result()
	if len(names) == 0 || names[0] != "/h/a" {
		t.Fatalf("first artifact not read: %v", names)
	}
	if !res.Truncated || res.Manifest != nil {
		t.Fatalf("truncated=%v manifest=%v", res.Truncated, res.Manifest != nil)
	}
	var kinds []string
	for _, p := range res.Problems {
		kinds = append(kinds, p.Kind)
	}
	if !strings.Contains(strings.Join(kinds, ","), bundle.ProblemTruncated) || !strings.Contains(strings.Join(kinds, ","), bundle.ProblemNoManifest) {
		t.Fatalf("problems %v", res.Problems)
	}
}

func TestCorruptFrame(t *testing.T) {
	data := bundletest.Build(t, []bundletest.File{{Path: "/h/a", Data: bytes.Repeat([]byte("hello world "), 5000)}})
	bad := append([]byte(nil), data...)
	for i := len(bad) / 2; i < len(bad)/2+64 && i < len(bad); i++ {
		bad[i] ^= 0xff
	}
	r, err := bundle.Open(bytes.NewReader(bad), nil)
	if err != nil {
		return // header frame itself broken: a clean error is fine
	}
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		io.Copy(io.Discard, m)
	}
	res := r.Result()
	if len(res.Problems) == 0 {
		t.Fatal("a corrupt frame gave no problem")
	}
}

func TestWrongHashIsReported(t *testing.T) {
	man := bundletest.ManifestLine(t,
		bundle.Entry{Record: "file", Path: "/h/a", ArchivePath: "files/h/a", Size: 5, SHA256: sum([]byte("other")), Status: "collected"},
		bundle.Entry{Record: "file", Path: "/h/gone", ArchivePath: "files/h/gone", Size: 1, SHA256: sum([]byte("x")), Status: "collected"},
		bundle.Summary{Record: "summary", Complete: true},
	)
	data := bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "files/h/a", Data: []byte("hello")},
		{Name: "files/h/extra", Data: []byte("!")},
		{Name: bundle.ManifestName, Data: man},
	}, false)
	_, _, res := readAll(t, data, nil)
	want := map[string]bool{bundle.ProblemChecksum: false, bundle.ProblemMissing: false, bundle.ProblemUnlisted: false}
	for _, p := range res.Problems {
		want[p.Kind] = true
	}
	for k, v := range want {
		if !v {
			t.Errorf("no %s problem in %v", k, res.Problems)
		}
	}
	if res.Verified["files/h/a"] {
		t.Fatal("mismatched member marked verified")
	}
}

func TestHostileMembersAreNotReturned(t *testing.T) {
	data := bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "/etc/passwd", Data: []byte("root")},
		{Name: "files/../../escape", Data: []byte("x")},
		{Name: "C:/Windows/x", Data: []byte("x")},
		{Name: "files/link", Type: tar.TypeSymlink, Linkname: "/etc/shadow"},
		{Name: "files/dev", Type: tar.TypeChar},
		{Name: "files/ok", Data: []byte("fine")},
	}, false)
	_, got, res := readAll(t, data, nil)
	if len(got) != 1 || string(got["/ok"]) != "fine" {
		t.Fatalf("returned %v", keys(got))
	}
	n := 0
	for _, p := range res.Problems {
		if p.Kind == bundle.ProblemUnsafe {
			n++
		}
	}
	if n != 5 {
		t.Fatalf("want 5 unsafe problems, got %v", res.Problems)
	}
}

func TestDecompressionBombFailsCleanly(t *testing.T) {
	// 2 GiB of zeros compresses to a few hundred KB.
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest))
	tw := tar.NewWriter(zw)
	hdr := []byte(`{"format_version":1,"bundle_id":"bomb"}`)
	tw.WriteHeader(&tar.Header{Name: bundle.HeaderName, Mode: 0o644, Size: int64(len(hdr)), Typeflag: tar.TypeReg})
	tw.Write(hdr)
	const size = 2 << 30
	tw.WriteHeader(&tar.Header{Name: "files/bomb", Mode: 0o644, Size: size, Typeflag: tar.TypeReg})
	zero := make([]byte, 1<<20)
	for i := 0; i < size/len(zero); i++ {
		tw.Write(zero)
	}
	tw.Close()
	zw.Close()
	r, err := bundle.Open(bytes.NewReader(buf.Bytes()), &bundle.Options{MaxRatio: 100})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Next()
	if err != nil {
		t.Fatalf("next: %v", err)
	}
	_, err = io.Copy(io.Discard, m)
	if !errors.Is(err, bundle.ErrLimit) {
		t.Fatalf("want ErrLimit, got %v", err)
	}
	res := r.Result()
	found := false
	for _, p := range res.Problems {
		if p.Kind == bundle.ProblemLimit {
			found = true
		}
	}
	if !found {
		t.Fatalf("no size_limit problem: %v", res.Problems)
	}
}

func TestMemberSizeLimit(t *testing.T) {
	data := bundletest.Build(t, []bundletest.File{{Path: "/h/big", Data: make([]byte, 4096)}, {Path: "/h/small", Data: []byte("s")}})
	_, got, res := readAll(t, data, &bundle.Options{MaxMemberSize: 1024})
	if _, ok := got["/h/big"]; ok {
		t.Fatal("oversized member returned")
	}
	if string(got["/h/small"]) != "s" {
		t.Fatal("small member lost")
	}
	if len(res.Problems) == 0 {
		t.Fatal("no problem for the oversized member")
	}
}

func TestUnsupportedVersionAndNotBundle(t *testing.T) {
	data := bundletest.RawBundle(t, []bundletest.Raw{{Name: bundle.HeaderName, Data: []byte(`{"format_version":3}`)}}, true)
	if _, err := bundle.Open(bytes.NewReader(data), nil); !errors.Is(err, bundle.ErrUnsupportedVersion) {
		t.Fatalf("want ErrUnsupportedVersion, got %v", err)
	}
	if _, err := bundle.Open(strings.NewReader("plain text"), nil); !errors.Is(err, bundle.ErrNotBundle) {
		t.Fatalf("want ErrNotBundle, got %v", err)
	}
	data = bundletest.RawBundle(t, []bundletest.Raw{{Name: "files/x", Data: []byte("x")}}, true)
	if _, err := bundle.Open(bytes.NewReader(data), nil); !errors.Is(err, bundle.ErrNotBundle) {
		t.Fatalf("want ErrNotBundle for missing header, got %v", err)
	}
}

func TestIncompleteSummaryIsReported(t *testing.T) {
	var buf bytes.Buffer
	w, _ := bundle.NewWriter(&buf, bundle.Header{BundleID: "x"})
	w.AddFile(bundle.Entry{Path: "/h/a"}, 1, strings.NewReader("a"))
	w.Close(bundle.Summary{Complete: false, Reason: "interrupted"}, []byte("{}\n"))
	_, _, res := readAll(t, buf.Bytes(), nil)
	if res.Complete || len(res.Problems) != 1 || res.Problems[0].Kind != bundle.ProblemIncomplete {
		t.Fatalf("complete=%v problems=%v", res.Complete, res.Problems)
	}
	if string(res.Log) != "{}\n" {
		t.Fatalf("log %q", res.Log)
	}
}

// TestDuplicateMemberIsNeverVerified: a forged copy under the same name as
// a genuine member must not pass.
func TestDuplicateMemberIsNeverVerified(t *testing.T) {
	man := bundletest.ManifestLine(t,
		bundle.Entry{Record: "file", Path: "/h/a", ArchivePath: "files/h/a", Size: 7, SHA256: sum([]byte("genuine")), Status: "collected"},
		bundle.Entry{Record: "file", Path: "/h/b", Size: 1, Status: "collected"},
		bundle.Summary{Record: "summary", Complete: true},
	)
	data := bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "files/h/a", Data: []byte("FORGED!")},
		{Name: "files/h/a", Data: []byte("genuine")},
		{Name: bundle.ManifestName, Data: man},
	}, false)
	_, _, res := readAll(t, data, nil)
	if res.Verified["files/h/a"] {
		t.Fatal("a duplicated member was verified")
	}
	kinds := map[string]int{}
	for _, p := range res.Problems {
		kinds[p.Kind]++
	}
	if kinds[bundle.ProblemDuplicate] != 1 || kinds[bundle.ProblemMissing] != 1 {
		t.Fatalf("problems %v", res.Problems)
	}
}

// TestNULFilesAreNotABomb: preallocated files of NULs compress far beyond
// 1000:1 and are real evidence; by default they verify.
func TestNULFilesAreNotABomb(t *testing.T) {
	zeros := make([]byte, 300<<20)
	data := bundletest.Build(t, []bundletest.File{{Path: "/h/prealloc.jsonl", Data: zeros}, {Path: "/h/after", Data: []byte("x")}})
	_, _, res := readAll(t, data, nil)
	if len(res.Problems) != 0 || len(res.Verified) != 2 {
		t.Fatalf("problems %v, verified %d", res.Problems, len(res.Verified))
	}
}

func TestManifestLimits(t *testing.T) {
	var rows []any
	for i := 0; i < 50; i++ {
		rows = append(rows, bundle.Entry{Record: "file", Path: fmt.Sprint("/h/", i), Status: "skipped_special"})
	}
	data := bundletest.RawBundle(t, []bundletest.Raw{{Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, rows...)}}, false)
	_, _, res := readAll(t, data, &bundle.Options{MaxManifestRows: 10})
	if len(res.Manifest) != 10 || len(res.Problems) == 0 || res.Problems[0].Kind != bundle.ProblemLimit {
		t.Fatalf("rows %d problems %v", len(res.Manifest), res.Problems)
	}
	_, _, res = readAll(t, data, &bundle.Options{MaxManifestSize: 100})
	if res.Manifest != nil || res.Problems[0].Kind != bundle.ProblemLimit {
		t.Fatalf("oversized manifest: rows %d problems %v", len(res.Manifest), res.Problems)
	}
}

// TestCutInsideAMemberNamesIt: a stream that ends inside a member's bytes
// (a full disk, a copy stopped short) gives a truncated problem naming
// that member and its path, with how many of its bytes came through; the
// member is never verified.
func TestCutInsideAMemberNamesIt(t *testing.T) {
	noise := make([]byte, 4<<20)
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	data := bundletest.Build(t, []bundletest.File{
		{Path: "/h/a", Data: []byte("first")},
		{Path: "/h/big", Data: noise},
	})
	r, err := bundle.Open(bytes.NewReader(data[:len(data)/2]), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		names = append(names, m.Entry.Path)
		io.Copy(io.Discard, m)
	}
	res := r.Result()
	if strings.Join(names, ",") != "/h/a,/h/big" || res.Members != 1 || res.Verified["files/h/big"] {
		t.Fatalf("members %v (%d whole), verified %v", names, res.Members, res.Verified)
	}
	var cut []bundle.Problem
	for _, p := range res.Problems {
		if p.Kind == bundle.ProblemTruncated {
			cut = append(cut, p)
		}
	}
	if len(cut) != 1 || cut[0].Member != "files/h/big" || cut[0].Path != "/h/big" ||
		!strings.HasPrefix(cut[0].Msg, "bundle cut short or corrupt inside this member after ") ||
		!strings.Contains(cut[0].Msg, " of its 4194304 bytes (and 1 whole artifacts): its content is incomplete, never verified: ") {
		t.Fatalf("truncated problems %+v", cut)
	}
}
