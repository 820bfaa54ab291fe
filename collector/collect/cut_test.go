//go:build unix

package collect

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestCutBundleNamesWhereItStops writes a real bundle with the collector
// and cuts it at every zstd block boundary (and one byte either side, and
// a sample of byte offsets): every cut names the member where the stream
// stops, and its path, exactly. The expected member is worked out apart
// from the reader: from the tar layout of the whole bundle and how many
// decompressed bytes the cut prefix yields.
func TestCutBundleNamesWhereItStops(t *testing.T) {
	root, _ := fakeRoot(t)
	// Incompressible members of several zstd blocks each, and one empty.
	pcg := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3; i++ {
		rnd := make([]byte, 150<<10+i*7)
		for j := range rnd {
			rnd[j] = byte(pcg.Uint32())
		}
		put(t, root, fmt.Sprintf("home/bob/.claude/paste-cache/%c.txt", 'a'+i), string(rnd))
	}
	put(t, root, "home/bob/.claude/paste-cache/empty.txt", "")
	data, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	members, total := tarLayout(t, data)
	if total != members[len(members)-1].end+1024 {
		t.Fatalf("the archive ends at %d, not 1024 bytes of end-of-archive after log.jsonl (%d)", total, members[len(members)-1].end)
	}
	if len(members) < 20 || members[len(members)-2].name != bundle.ManifestName || members[len(members)-1].name != bundle.LogName {
		t.Fatalf("layout %d members, last %+v", len(members), members[len(members)-1])
	}
	bounds := blockBounds(t, data)
	if len(bounds) < 2*len(members) {
		t.Fatalf("%d block boundaries for %d members: a header and its content are not apart", len(bounds), len(members))
	}
	cuts := map[int]bool{}
	for _, b := range bounds {
		for _, c := range []int{b - 1, b, b + 1} {
			if c > 0 && c < len(data) {
				cuts[c] = true
			}
		}
	}
	for i := 1; i < 200; i++ {
		cuts[len(data)*i/200] = true
	}
	checked := map[string]int{}
	for c := range cuts {
		got := delivered(data[:c])
		if got > total {
			t.Fatalf("cut at %d of %d delivers %d bytes of %d", c, len(data), got, total)
		}
		// A cut in the frame's last block or checksum stops after log.jsonl.
		want := stopsIn(members, got)
		h, res, err := bundle.Verify(bytes.NewReader(data[:c]), nil)
		if want.name == bundle.HeaderName && want.inside {
			if err == nil || !errors.Is(err, bundle.ErrNotBundle) || !strings.Contains(err.Error(), "cut short or corrupt in bundle.json, its first member") {
				t.Fatalf("cut at %d (in bundle.json): %v", c, err)
			}
			checked[want.name]++
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d (%d bytes delivered, want %+v): %v", c, got, want, err)
		}
		var tr []bundle.Problem
		for _, p := range res.Problems {
			if p.Kind == bundle.ProblemTruncated {
				tr = append(tr, p)
			}
		}
		if h == nil || !res.Truncated || res.Complete || len(tr) != 1 {
			t.Fatalf("cut at %d: truncated=%v complete=%v, truncated problems %+v", c, res.Truncated, res.Complete, tr)
		}
		p := tr[0]
		var prefix string
		if want.inside {
			prefix = fmt.Sprintf("bundle cut short or corrupt inside this member after %d of its %d bytes ", got-want.start, want.size)
		} else {
			prefix = "bundle cut short or corrupt after this member, whose bytes came whole, before the next member's header or the end of the archive "
		}
		if p.Member != want.name || p.Path != want.path || !strings.HasPrefix(p.Msg, prefix) {
			t.Fatalf("cut at %d (%d bytes delivered): problem %+v, want member %q path %q message %q...", c, got, p, want.name, want.path, prefix)
		}
		if want.inside {
			checked["in "+want.name]++
		} else {
			checked["after "+want.name]++
		}
	}
	// Every member is named by some cut, inside it and after it (the
	// empty member has no inside).
	for _, m := range members {
		if m.size > 0 && checked["in "+m.name] == 0 && m.name != bundle.HeaderName {
			t.Errorf("no cut named %s from inside", m.name)
		}
		if checked["after "+m.name] == 0 {
			t.Errorf("no cut named %s as the member the stream stops after", m.name)
		}
	}
	if checked[bundle.HeaderName] == 0 {
		t.Errorf("no cut in bundle.json")
	}
	t.Logf("%d cuts over %d members, %d block boundaries, %d bytes", len(cuts), len(members), len(bounds), len(data))
}

type layoutMember struct {
	name, path string
	start      int64 // decompressed offset of the content
	size       int64
	end        int64 // offset of the next header (content padded to 512)
}

// tarLayout lists the bundle's members with their decompressed offsets,
// and the decompressed size.
func tarLayout(t *testing.T, data []byte) ([]layoutMember, int64) {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	cr := &counting{r: bytes.NewReader(raw)}
	tr := tar.NewReader(cr)
	var out []layoutMember
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		m := layoutMember{name: h.Name, start: cr.n, size: h.Size, end: cr.n + (h.Size+511)/512*512}
		if c, ok := h.PAXRecords["comment"]; ok {
			var meta struct {
				Path string `json:"path"`
			}
			if err := json.Unmarshal([]byte(c), &meta); err != nil {
				t.Fatal(err)
			}
			m.path = meta.Path
		}
		out = append(out, m)
	}
	return out, int64(len(raw))
}

type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// stopsIn is where a stream that yields n decompressed bytes stops: inside
// a member's content, or after a member (at the next header).
func stopsIn(ms []layoutMember, n int64) (w struct {
	name, path  string
	inside      bool
	start, size int64
}) {
	for i, m := range ms {
		if n < m.start+m.size || (i == 0 && n < m.end) {
			w.name, w.path, w.inside, w.start, w.size = m.name, m.path, true, m.start, m.size
			return w
		}
		if n <= m.end || i == len(ms)-1 {
			w.name, w.path = m.name, m.path
			return w
		}
	}
	return w
}

// delivered is how many bytes a zstd decoder yields from a cut stream.
func delivered(b []byte) int64 {
	zr, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return 0
	}
	defer zr.Close()
	n, _ := io.Copy(io.Discard, zr)
	return n
}

// blockBounds parses the zstd frames (RFC 8878) and returns the offset of
// every block's start and every frame's end.
func blockBounds(t *testing.T, b []byte) []int {
	t.Helper()
	var out []int
	for off := 0; off < len(b); {
		if binary.LittleEndian.Uint32(b[off:]) != 0xFD2FB528 {
			t.Fatalf("no zstd frame at %d", off)
		}
		fhd := b[off+4]
		off += 5
		single := fhd>>5&1 == 1
		if !single {
			off++ // window descriptor
		}
		off += []int{0, 1, 2, 4}[fhd&3]
		fcs := []int{0, 2, 4, 8}[fhd>>6]
		if fhd>>6 == 0 && single {
			fcs = 1
		}
		off += fcs
		for {
			out = append(out, off)
			h := int(b[off]) | int(b[off+1])<<8 | int(b[off+2])<<16
			last, typ, size := h&1 == 1, h>>1&3, h>>3
			off += 3
			if typ == 1 {
				size = 1 // RLE: one byte repeated
			}
			off += size
			if last {
				break
			}
		}
		if fhd>>2&1 == 1 {
			off += 4 // content checksum
		}
		out = append(out, off)
	}
	return out
}
