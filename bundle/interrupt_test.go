package bundle_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// stopAfter gives data, then fails as a collector's source does once the
// collection is interrupted (bundle.ErrStopped).
func stopAfter(data []byte) io.Reader {
	return io.MultiReader(bytes.NewReader(data), stopped{})
}

type stopped struct{}

func (stopped) Read([]byte) (int, error) {
	return 0, fmt.Errorf("%w: context canceled", bundle.ErrStopped)
}

// TestStoppedCopy: a copy the collection's interruption stops is padded to
// its declared size at once (a frame of run-length blocks: 256 MiB of
// padding costs 8 KiB of bundle, not 256 MiB of compressing and hashing),
// its row says how many bytes are the file's (interrupted_at) with their
// hash, the bundle closes with its manifest, and a reader checks those
// bytes and that the rest is zeros, warns, and does not verify the member.
func TestStoppedCopy(t *testing.T) {
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddFile(bundle.Entry{Path: "/h/a"}, 6, strings.NewReader("first\n")); err != nil {
		t.Fatal(err)
	}
	// The bytes copied end with zeros: the hash is of all of them.
	head := append([]byte("abc"), make([]byte, 1000)...)
	const size = 256 << 20
	e, err := w.AddFile(bundle.Entry{Path: "/h/big"}, size, stopAfter(head))
	if !errors.Is(err, bundle.ErrStopped) || err.Error() != "bundle: the copy was stopped: after 1003 of 268435456 bytes" {
		t.Fatalf("AddFile: %v, want ErrStopped", err)
	}
	const msg = "the collection was interrupted while this file was copied: the member holds its first 1003 of 268435456 bytes, then zero padding; sha256 is of those 1003 bytes"
	if e.InterruptedAt == nil || *e.InterruptedAt != 1003 || e.Size != size || e.SHA256 != sum(head) || e.Status != bundle.StatusCollected || e.Error != msg {
		t.Fatalf("entry %+v", e)
	}
	if err := w.Close(bundle.Summary{Complete: false, Reason: "interrupted"}, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if n := buf.Len(); n > 12<<10 {
		t.Errorf("bundle of %d bytes: the padding was compressed, not written as RLE blocks (2048 blocks: 8 KiB)", n)
	}
	_, res, err := bundle.Verify(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%s warning=%v", p, p.Warning()))
	}
	want := []string{
		"row_error /h/big: collected: " + msg + " warning=true",
		"incomplete_collection manifest.jsonl: the collector marked this bundle incomplete: interrupted warning=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !res.Verified["files/h/a"] || res.Verified["files/h/big"] || res.Members != 2 || res.Truncated || len(res.Manifest) != 2 {
		t.Errorf("verified %v, %d members, truncated %v, %d rows", res.Verified, res.Members, res.Truncated, len(res.Manifest))
	}
	if row := res.Manifest[1]; row.InterruptedAt == nil || *row.InterruptedAt != 1003 {
		t.Errorf("manifest row %+v", row)
	}
	// The RLE frame is standard zstd: the reference tool decodes it.
	if _, err := exec.LookPath("zstd"); err == nil {
		cmd := exec.Command("zstd", "-t", "-q")
		cmd.Stdin = bytes.NewReader(buf.Bytes())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("zstd -t: %v: %s", err, out)
		}
	}
}

// TestStoppedCopyTampered: the first bytes of an interrupted copy are held
// to the row's hash, the padding to zeros, and only the last artifact can
// be the one the interruption cut.
func TestStoppedCopyTampered(t *testing.T) {
	k := int64(3)
	ch := bundle.NewContentHash()
	ch.Write([]byte("abc\x00\x00\x00x\x00\x00"))
	for _, c := range []struct {
		e    bundle.Entry
		want string
	}{
		{bundle.Entry{Size: 9, SHA256: sum([]byte("abc")), InterruptedAt: &k}, "manifest: the first 3 of 9 bytes copied before the collection was interrupted, then zero padding; content: a non-zero byte after 3 bytes"},
		{bundle.Entry{Size: 10, SHA256: sum([]byte("abc")), InterruptedAt: &k}, "manifest: 10 bytes, the first 3 copied before the collection was interrupted; content 9 bytes"},
		{bundle.Entry{Size: 9, SHA256: sum([]byte("abc\x00\x00\x00x\x00\x00"))}, ""},
		{bundle.Entry{Size: 9, SHA256: sum([]byte("abc"))}, "manifest sha256 " + sum([]byte("abc")) + " (9 bytes), content " + sum([]byte("abc\x00\x00\x00x\x00\x00")) + " (9 bytes)"},
	} {
		if got := ch.Check(c.e); got != c.want {
			t.Errorf("Check(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
	seven := int64(7)
	if got := ch.Check(bundle.Entry{Size: 9, SHA256: sum([]byte("abc\x00\x00\x00x")), InterruptedAt: &seven}); got != "" {
		t.Errorf("first 7 bytes, zeros after: %q", got)
	}
	eight := int64(8)
	if got := ch.Check(bundle.Entry{Size: 9, SHA256: sum([]byte("abc\x00\x00\x00x")), InterruptedAt: &eight}); got != "manifest sha256 "+sum([]byte("abc\x00\x00\x00x"))+" of the first 8 of 9 bytes (copied before the collection was interrupted), content "+sum([]byte("abc\x00\x00\x00x\x00")) {
		t.Errorf("first 8 bytes, hash of 7: %q", got)
	}
	// A row saying the copy of a member other than the last was cut.
	one := int64(1)
	b := bundletest.RawBundleVersion(t, 2, []bundletest.Raw{
		{Name: "files/h/a", Data: []byte("a\x00"), PAX: map[string]string{"comment": `{"path":"/h/a","user":"","home":"","agent":"","target":"","kind":""}`}},
		{Name: "files/h/b", Data: []byte("b"), PAX: map[string]string{"comment": `{"path":"/h/b","user":"","home":"","agent":"","target":"","kind":""}`}},
		{Name: bundle.ManifestName, Data: bundletest.ManifestLine(t,
			bundle.Entry{Record: bundle.RecordFile, Path: "/h/a", ArchivePath: "files/h/a", Size: 2, SHA256: sum([]byte("a")), Status: bundle.StatusCollected, InterruptedAt: &one},
			bundle.Entry{Record: bundle.RecordFile, Path: "/h/b", ArchivePath: "files/h/b", Size: 1, SHA256: sum([]byte("b")), Status: bundle.StatusCollected},
			bundle.Summary{Record: bundle.RecordSummary, Complete: false, Reason: "interrupted"})},
	}, false)
	_, res, err := bundle.Verify(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Problems {
		if !p.Warning() {
			got = append(got, p.String())
		}
	}
	if want := "manifest_contradiction /h/a: row says the collection was interrupted while this file was copied, yet it is not the last artifact of the bundle: it is not verified"; strings.Join(got, "\n") != want || res.Verified["files/h/a"] || !res.Verified["files/h/b"] {
		t.Errorf("problems %q, verified %v; want %q", got, res.Verified, want)
	}
}

// TestContentHashSums: the hash of the whole content and of a first part
// followed only by zeros, over chunks that end and begin inside runs of
// zeros of every length around the block size.
func TestContentHashSums(t *testing.T) {
	var data []byte
	for _, run := range []int{0, 1, 7, 8, 9, 65535, 65536, 65537, 200000} {
		data = append(data, byte(run%251+1))
		data = append(data, make([]byte, run)...)
	}
	for _, chunk := range []int{1, 7, 4096, 65536, 100000, len(data)} {
		ch := bundle.NewContentHash()
		for i := 0; i < len(data); i += chunk {
			ch.Write(data[i:min(i+chunk, len(data))])
		}
		if got := ch.Sum(); got != sum(data) || ch.Size() != int64(len(data)) {
			t.Errorf("chunks of %d: sum %s, want %s", chunk, got, sum(data))
		}
		last := bytes.LastIndexFunc(data, func(r rune) bool { return r != 0 })
		for _, k := range []int{last + 1, last + 2, len(data)} {
			got, ok := ch.SumAt(int64(k))
			if !ok || got != sum(data[:k]) {
				t.Errorf("chunks of %d: SumAt(%d) = %s %v, want %s", chunk, k, got, ok, sum(data[:k]))
			}
		}
		if _, ok := ch.SumAt(int64(last)); ok {
			t.Errorf("chunks of %d: SumAt(%d) ok, though byte %d is not zero", chunk, last, last)
		}
	}
}
