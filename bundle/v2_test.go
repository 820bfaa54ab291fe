package bundle_test

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/klauspost/compress/zstd"
)

// paxOf lists every member's PAX records, by name.
func paxOf(t *testing.T, data []byte) map[string]map[string]string {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	out := map[string]map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = h.PAXRecords
	}
}

// TestV2MemberMetadataIsOneComment: a version 2 artifact member carries
// its metadata as one PAX "comment" record holding a JSON object, and no
// DOUBLEAGENT.* record; the other members carry none.
func TestV2MemberMetadataIsOneComment(t *testing.T) {
	data := bundletest.Build(t, []bundletest.File{
		{Path: "/home/alice/.claude/history.jsonl", Agent: "claude-code", Target: "history", Kind: "history", User: "alice", Data: []byte("x\n"), MTime: time.Unix(1700000000, 0)},
		{Path: "/home/bob/odd\nname\xff%<&>.jsonl", Agent: "claude-code", Target: "projects", User: "bob", Data: []byte("")},
	})
	got := paxOf(t, data)
	want := map[string]string{
		"files/home/alice/.claude/history.jsonl":   `{"path":"/home/alice/.claude/history.jsonl","user":"alice","home":"","agent":"claude-code","target":"history","kind":"history"}`,
		"files/home/bob/odd%0Aname%FF%25<&>.jsonl": `{"path":"/home/bob/odd%0Aname%FF%25<&>.jsonl","user":"bob","home":"","agent":"claude-code","target":"projects","kind":"transcript"}`,
		bundle.HeaderName:                          "", bundle.ManifestName: "", bundle.LogName: "",
	}
	if len(got) != len(want) {
		t.Fatalf("members %v", got)
	}
	for name, comment := range want {
		recs, ok := got[name]
		if !ok {
			t.Fatalf("no member %q in %v", name, got)
		}
		for k := range recs {
			if k != "comment" {
				t.Errorf("%s: PAX record %q", name, k)
			}
		}
		if recs["comment"] != comment {
			t.Errorf("%s: comment %q, want %q", name, recs["comment"], comment)
		}
	}
	_, _, res := readAll(t, data, nil)
	if len(res.Problems) != 0 || len(res.Verified) != 2 {
		t.Fatalf("problems %v verified %v", res.Problems, res.Verified)
	}
}

// TestV2CommentContradictsManifest: in a version 2 bundle a comment that
// names another user, or one that is not JSON, fails verification as the
// version 1 records did; the manifest wins.
func TestV2CommentContradictsManifest(t *testing.T) {
	comment := func(user string) map[string]string {
		return map[string]string{"comment": `{"path":"/home/` + user + `/.claude/history.jsonl","user":"` + user + `","home":"/home/` + user + `","agent":"claude-code","target":"history","kind":"history","future":1}`}
	}
	build := func(paxA, paxB map[string]string) []byte {
		return bundletest.RawBundleVersion(t, 2, []bundletest.Raw{
			{Name: "files/home/alice/.claude/history.jsonl", Data: []byte("alice\n"), PAX: paxA},
			{Name: "files/home/bob/.claude/history.jsonl", Data: []byte("bob\n"), PAX: paxB},
			{Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, row("alice", "alice\n"), row("bob", "bob\n"), bundle.Summary{Record: "summary", Complete: true})},
		}, false)
	}
	_, _, res := readAll(t, build(comment("alice"), comment("bob")), nil)
	wantProblems(t, res)
	// Version 1's records mean nothing in a version 2 bundle.
	_, _, res = readAll(t, build(comment("alice"), pax("bob")), nil)
	wantProblems(t, res,
		`pax_mismatch /home/bob/.claude/history.jsonl: the member's PAX records contradict its manifest row (comment.path "", manifest "/home/bob/.claude/history.jsonl"; comment.user "", manifest "bob"; comment.home "", manifest "/home/bob"; comment.agent "", manifest "claude-code"; comment.target "", manifest "history"; comment.kind "", manifest "history"): the manifest's values are used and the member is not verified`)
	_, _, res = readAll(t, build(comment("bob"), map[string]string{"comment": `{"path":`}), nil)
	wantProblems(t, res,
		`pax_mismatch /home/alice/.claude/history.jsonl: the member's PAX records contradict its manifest row (comment.path "/home/bob/.claude/history.jsonl", manifest "/home/alice/.claude/history.jsonl"; comment.user "bob", manifest "alice"; comment.home "/home/bob", manifest "/home/alice"): the manifest's values are used and the member is not verified`,
		`pax_mismatch /home/bob/.claude/history.jsonl: the member's PAX records contradict its manifest row (comment.path "", manifest "/home/bob/.claude/history.jsonl"; comment.user "", manifest "bob"; comment.home "", manifest "/home/bob"; comment.agent "", manifest "claude-code"; comment.target "", manifest "history"; comment.kind "", manifest "history"): the manifest's values are used and the member is not verified`)
	if len(res.Verified) != 0 {
		t.Fatalf("verified %v", res.Verified)
	}
}

// TestSystemTarExtractsSilently: GNU tar (tar --zstd -xf) and bsdtar
// extract a bundle of today's format and the frozen version 2 sample
// without a word on stderr, and every collected file comes out with the
// manifest's hash. The frozen version 1 sample shows what the test
// catches: GNU tar warns six times per member about its DOUBLEAGENT.*
// records. scripts/test.sh installs both tools (DOUBLEAGENT_TAR_TEST=1
// then makes a missing tool a failure, not a skip).
func TestSystemTarExtractsSilently(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "fresh.tar.zst")
	data := bundletest.Build(t, []bundletest.File{
		{Path: "/home/alice/.claude/history.jsonl", Agent: "claude-code", Target: "history", Kind: "history", User: "alice", Data: []byte("{\"display\":\"x\"}\n"), MTime: time.Unix(1700000000, 0)},
		{Path: "/home/alice/.claude/projects/-home-alice-a/" + strings.Repeat("long-name-", 12) + ".jsonl", Agent: "claude-code", Target: "projects", User: "alice", Data: bytes.Repeat([]byte("y"), 70000)},
		{Path: "C:/Users/carol/.codex/odd%name\xff.jsonl", Agent: "codex-cli", Target: "sessions", User: "carol", Data: []byte("z")},
	})
	if err := os.WriteFile(fresh, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tools := []struct {
		name string
		args []string
	}{
		{"tar", []string{"--zstd", "-xf"}},
		{"bsdtar", []string{"-xf"}},
	}
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			bin, err := exec.LookPath(tool.name)
			if err == nil && tool.name == "tar" {
				if v, _ := exec.Command(bin, "--version").Output(); !bytes.Contains(v, []byte("GNU tar")) {
					err = errors.New("tar is not GNU tar")
				}
				if _, zerr := exec.LookPath("zstd"); zerr != nil && err == nil {
					err = errors.New("GNU tar --zstd needs the zstd program")
				}
			}
			if err != nil {
				if os.Getenv("DOUBLEAGENT_TAR_TEST") == "1" {
					t.Fatalf("%s: %v (scripts/test.sh installs it: apt-get install tar zstd libarchive-tools)", tool.name, err)
				}
				t.Skipf("%s: %v (apt-get install tar zstd libarchive-tools)", tool.name, err)
			}
			extract := func(b string) (string, string) {
				dir := t.TempDir()
				cmd := exec.Command(bin, append(tool.args, b, "-C", dir)...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s %s: %v\n%s", tool.name, b, err, stderr.String())
				}
				return dir, stdout.String() + stderr.String()
			}
			for _, b := range []string{fresh, "testdata/v2/fake-home.tar.zst"} {
				dir, msg := extract(b)
				if msg != "" {
					t.Errorf("%s -xf %s printed:\n%s", tool.name, b, msg)
				}
				checkExtracted(t, dir)
			}
			_, msg := extract("testdata/v1/fake-home.tar.zst")
			n := strings.Count(msg, "Ignoring unknown extended header keyword 'DOUBLEAGENT.")
			if tool.name == "tar" && n != 9*6 {
				t.Errorf("GNU tar on the version 1 sample: %d warnings, want 54 (9 members, 6 records)\n%s", n, msg)
			}
			if tool.name == "bsdtar" && msg != "" {
				t.Errorf("bsdtar on the version 1 sample printed:\n%s", msg)
			}
		})
	}
}

// checkExtracted hashes every collected file of an extracted bundle
// against its manifest row.
func checkExtracted(t *testing.T, dir string) {
	t.Helper()
	mf, err := os.Open(filepath.Join(dir, bundle.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	dec := bundle.NewManifestDecoder(mf)
	n := 0
	for {
		row, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if row.Entry == nil || row.Entry.Status != bundle.StatusCollected {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(row.Entry.ArchivePath)))
		if err != nil {
			t.Errorf("%s: %v", row.Entry.ArchivePath, err)
			continue
		}
		if s := sha256.Sum256(b); hex.EncodeToString(s[:]) != row.Entry.SHA256 {
			t.Errorf("%s: extracted content does not match its manifest hash", row.Entry.ArchivePath)
		}
		n++
	}
	if n == 0 {
		t.Errorf("%s: no collected file extracted", dir)
	}
}
