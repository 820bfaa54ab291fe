package bundle_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/klauspost/compress/zstd"
)

// kinds lists the problems' kinds and messages, for exact comparison.
func kinds(res *bundle.Result) []string {
	var out []string
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

func wantProblems(t *testing.T, res *bundle.Result, want ...string) {
	t.Helper()
	got := kinds(res)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func zstdFrame(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func unzstd(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func goodBundle(t *testing.T) []byte {
	return bundletest.Build(t, []bundletest.File{{Path: "/home/alice/.claude/history.jsonl", Agent: "claude-code", Target: "history", User: "alice", Data: []byte("{\"a\":1}\n")}})
}

// TestDataAfterTheArchiveIsReported: a second bundle concatenated, bytes
// appended and extra frames after the end-of-archive are each a
// trailing_data problem, never silently ignored; a tar record of zero
// padding is not.
func TestDataAfterTheArchiveIsReported(t *testing.T) {
	good := goodBundle(t)
	second := bundletest.Build(t, []bundletest.File{{Path: "/home/bob/.claude/history.jsonl", Agent: "claude-code", Target: "history", User: "bob", Data: []byte("{\"b\":1}\n")}})
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"second bundle", append(append([]byte(nil), good...), second...), fmt.Sprintf("trailing_data: %d bytes of data after the end of the archive (a second bundle appended): not read; split it off and read it on its own", len(unzstd(t, second)))},
		{"appended bytes", append(append([]byte(nil), good...), "#!/bin/sh\necho owned\n"...), "trailing_data: bytes after the end of the archive that are not a zstd frame (invalid input: magic number mismatch), after 0 decompressed bytes: not read"},
		{"frame of data", append(append([]byte(nil), good...), zstdFrame(t, []byte("hidden text"))...), "trailing_data: 11 bytes of data after the end of the archive: not read; split it off and read it on its own"},
		{"frame of zeros", append(append([]byte(nil), good...), zstdFrame(t, make([]byte, 20000))...), "trailing_data: 20000 bytes of zeros after the end of the archive, more than a tar record of padding"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got, res := readAll(t, c.data, nil)
			if len(got) != 1 || len(res.Verified) != 1 {
				t.Fatalf("members %d verified %d", len(got), len(res.Verified))
			}
			if len(res.Problems) != 1 || res.Problems[0].Kind != bundle.ProblemTrailing || res.Problems[0].Warning() {
				t.Fatalf("problems %v", kinds(res))
			}
			if msg := res.Problems[0].String(); msg != c.want {
				t.Fatalf("problem %q, want %q", msg, c.want)
			}
		})
	}
	// GNU tar pads the archive to a 10240-byte record: not trailing data.
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	hdr := []byte(`{"format_version":1,"bundle_id":"pad"}`)
	tw.WriteHeader(&tar.Header{Name: bundle.HeaderName, Typeflag: tar.TypeReg, Size: int64(len(hdr)), Mode: 0o644})
	tw.Write(hdr)
	man := bundletest.ManifestLine(t, bundle.Summary{Record: "summary", Complete: true})
	tw.WriteHeader(&tar.Header{Name: bundle.ManifestName, Typeflag: tar.TypeReg, Size: int64(len(man)), Mode: 0o644})
	tw.Write(man)
	tw.Close()
	padded := append(tb.Bytes(), make([]byte, 10240-tb.Len()%10240)...)
	_, _, res := readAll(t, zstdFrame(t, padded), nil)
	wantProblems(t, res)
}

// paxBundle holds two members whose PAX records and manifest rows the
// caller shapes.
func paxBundle(t *testing.T, paxA, paxB map[string]string, rows ...any) []byte {
	man := bundletest.ManifestLine(t, rows...)
	return bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "files/home/alice/.claude/history.jsonl", Data: []byte("alice\n"), PAX: paxA},
		{Name: "files/home/bob/.claude/history.jsonl", Data: []byte("bob\n"), PAX: paxB},
		{Name: bundle.ManifestName, Data: man},
	}, false)
}

func pax(user string) map[string]string {
	return map[string]string{"DOUBLEAGENT.path": "/home/" + user + "/.claude/history.jsonl", "DOUBLEAGENT.user": user, "DOUBLEAGENT.home": "/home/" + user,
		"DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "history", "DOUBLEAGENT.kind": "history"}
}

func row(user, data string) bundle.Entry {
	return bundle.Entry{Record: "file", Path: "/home/" + user + "/.claude/history.jsonl", ArchivePath: "files/home/" + user + "/.claude/history.jsonl",
		User: user, Home: "/home/" + user, Agent: "claude-code", Target: "history", Kind: "history", Size: int64(len(data)), SHA256: sum([]byte(data)),
		MTime: "1970-01-01T00:00:00Z", Status: "collected"}
}

// TestPAXSwappedBetweenMembers: PAX records that contradict the manifest
// (alice's file labelled bob's) fail verification; the manifest wins.
func TestPAXSwappedBetweenMembers(t *testing.T) {
	summary := bundle.Summary{Record: "summary", Complete: true}
	_, _, res := readAll(t, paxBundle(t, pax("alice"), pax("bob"), row("alice", "alice\n"), row("bob", "bob\n"), summary), nil)
	wantProblems(t, res)
	_, got, res := readAll(t, paxBundle(t, pax("bob"), pax("alice"), row("alice", "alice\n"), row("bob", "bob\n"), summary), nil)
	if string(got["/home/bob/.claude/history.jsonl"]) != "alice\n" {
		t.Fatalf("members as the PAX records say: %q", got)
	}
	wantProblems(t, res,
		`pax_mismatch /home/alice/.claude/history.jsonl: the member's PAX records contradict its manifest row (DOUBLEAGENT.path "/home/bob/.claude/history.jsonl", manifest "/home/alice/.claude/history.jsonl"; DOUBLEAGENT.user "bob", manifest "alice"; DOUBLEAGENT.home "/home/bob", manifest "/home/alice"): the manifest's values are used and the member is not verified`,
		`pax_mismatch /home/bob/.claude/history.jsonl: the member's PAX records contradict its manifest row (DOUBLEAGENT.path "/home/alice/.claude/history.jsonl", manifest "/home/bob/.claude/history.jsonl"; DOUBLEAGENT.user "alice", manifest "bob"; DOUBLEAGENT.home "/home/alice", manifest "/home/bob"): the manifest's values are used and the member is not verified`)
	if len(res.Verified) != 0 {
		t.Fatalf("verified %v", res.Verified)
	}
}

// TestSelfContradictingManifest: a row not collected whose member is
// present, a summary not last, two summaries (complete:false first).
func TestSelfContradictingManifest(t *testing.T) {
	secret := row("bob", "bob\n")
	secret.Status = bundle.StatusSkippedSecret
	_, _, res := readAll(t, paxBundle(t, pax("alice"), pax("bob"), row("alice", "alice\n"), secret, bundle.Summary{Record: "summary", Complete: true}), nil)
	wantProblems(t, res, "manifest_contradiction /home/bob/.claude/history.jsonl: row with status skipped_secret but its member is present: the member is not verified")
	if len(res.Verified) != 1 || !res.Verified["files/home/alice/.claude/history.jsonl"] {
		t.Fatalf("verified %v", res.Verified)
	}

	_, _, res = readAll(t, paxBundle(t, pax("alice"), pax("bob"), bundle.Summary{Record: "summary", Complete: false, Reason: "interrupted"},
		row("alice", "alice\n"), row("bob", "bob\n"), bundle.Summary{Record: "summary", Complete: true}), nil)
	wantProblems(t, res, "manifest_contradiction manifest.jsonl: manifest has 2 summary rows, where the format has exactly one, last",
		"incomplete_collection manifest.jsonl: the collector marked this bundle incomplete")
	if res.Complete {
		t.Fatal("complete with a complete:false summary")
	}

	_, _, res = readAll(t, paxBundle(t, pax("alice"), pax("bob"), row("alice", "alice\n"), bundle.Summary{Record: "summary", Complete: true}, row("bob", "bob\n")), nil)
	wantProblems(t, res, "manifest_contradiction manifest.jsonl: manifest has 1 file rows after its summary row, which must be last")
	if res.Complete {
		t.Fatal("complete with rows after the summary")
	}

	_, _, res = readAll(t, paxBundle(t, pax("alice"), pax("bob"), row("alice", "alice\n"), row("alice", "alice\n"), row("bob", "bob\n"), bundle.Summary{Record: "summary", Complete: true}), nil)
	wantProblems(t, res, "manifest_contradiction /home/alice/.claude/history.jsonl: two manifest rows name this member: it is not verified")
	if len(res.Verified) != 1 {
		t.Fatalf("verified %v", res.Verified)
	}
}

// TestChangedDuringCopyIsAWarning: the collector's own flags surface.
func TestChangedDuringCopyIsAWarning(t *testing.T) {
	torn := row("bob", "bob\n")
	torn.ChangedDuringCopy = true
	_, _, res := readAll(t, paxBundle(t, pax("alice"), pax("bob"), row("alice", "alice\n"), torn,
		bundle.Entry{Record: "file", Path: "/home/bob/.codex", Status: "error_read", Error: "permission denied"}, bundle.Summary{Record: "summary", Complete: true}), nil)
	wantProblems(t, res, "changed_during_copy /home/bob/.claude/history.jsonl: the file kept changing while it was copied: its content may be torn or padded",
		"row_error /home/bob/.codex: error_read: permission denied")
	for _, p := range res.Problems {
		if !p.Warning() {
			t.Fatalf("%v is not a warning", p)
		}
	}
	if len(res.Verified) != 2 {
		t.Fatalf("verified %v", res.Verified)
	}
}

func TestEmptyBundleIDIsAProblem(t *testing.T) {
	var buf bytes.Buffer
	w, _ := bundle.NewWriter(&buf, bundle.Header{BundleID: " "})
	w.Close(bundle.Summary{Complete: true}, nil)
	_, _, res := readAll(t, buf.Bytes(), nil)
	wantProblems(t, res, "bad_header bundle.json: bundle_id is empty: rows from this bundle cannot be told from another's")
}
