//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

const sid = "11111111-2222-4333-8444-555555555555"

func member(user string) (bundletest.Raw, bundle.Entry) {
	path := "/home/" + user + "/.claude/projects/p/" + sid + ".jsonl"
	data := []byte(transcript)
	h := sha256.Sum256(data)
	pax := map[string]string{"DOUBLEAGENT.path": path, "DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "projects",
		"DOUBLEAGENT.kind": "transcript", "DOUBLEAGENT.user": user, "DOUBLEAGENT.home": "/home/" + user}
	return bundletest.Raw{Name: "files" + path, Data: data, PAX: pax},
		bundle.Entry{Record: "file", Path: path, ArchivePath: "files" + path, User: user, Home: "/home/" + user, Agent: "claude-code",
			Target: "projects", Kind: "transcript", Size: int64(len(data)), SHA256: hex.EncodeToString(h[:]), MTime: "1970-01-01T00:00:00Z", Status: "collected"}
}

func write(t *testing.T, name string, data []byte) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVerifyHostileBundles: each way a bundle contradicts itself fails
// verification with exit 1; what the collector itself flagged is a
// warning with exit 0.
func TestVerifyHostileBundles(t *testing.T) {
	good := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	alice, ea := member("alice")
	bob, eb := member("bob")
	swapped := alice
	swapped.PAX = bob.PAX
	secret := eb
	secret.Status = bundle.StatusSkippedSecret
	torn := ea
	torn.ChangedDuringCopy = true
	summary := bundle.Summary{Record: "summary", Complete: true}
	raw := func(rows ...any) []byte {
		return bundletest.RawBundle(t, []bundletest.Raw{alice, bob, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, rows...)}}, false)
	}
	cases := []struct {
		name string
		data []byte
		code int
		want []string
	}{
		{"second bundle", append(append([]byte(nil), good...), good...), 1, []string{": trailing_data: ", "(a second bundle appended): not read", ": FAILED: bundle 0190b1a4-0000-7000-8000-000000000001, 1 of 1 collected files verified, 1 problems"}},
		{"appended bytes", append(append([]byte(nil), good...), "tail"...), 1, []string{": trailing_data: bytes after the end of the archive that are not a zstd frame"}},
		{"PAX swapped", bundletest.RawBundle(t, []bundletest.Raw{swapped, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, ea, summary)}}, false), 1,
			[]string{": pax_mismatch /home/alice/.claude/projects/p/" + sid + ".jsonl: the member's PAX records contradict its manifest row", ": FAILED: bundle raw, 0 of 1 collected files verified, 1 problems"}},
		{"skipped_secret present", raw(ea, secret, summary), 1, []string{": manifest_contradiction /home/bob/.claude/projects/p/" + sid + ".jsonl: row with status skipped_secret but its member is present", ": FAILED: bundle raw, 1 of 1 collected files verified, 1 problems"}},
		{"incomplete summary first", raw(bundle.Summary{Record: "summary", Complete: false}, ea, eb, summary), 1, []string{": manifest_contradiction manifest.jsonl: manifest has 2 summary rows", ": warning: incomplete_collection"}},
		{"changed during copy", raw(torn, eb, summary), 0, []string{": warning: changed_during_copy /home/alice/.claude/projects/p/" + sid + ".jsonl: the file kept changing while it was copied", ": OK: bundle raw from , 2 of 2 collected files verified"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code := runCLI(t, "verify", write(t, "b.tar.zst", c.data))
			if code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Fatalf("no %q in:\n%s", w, out)
				}
			}
		})
	}
}

// TestVerifyBoundsEvidenceText: a 900 KB host name with escapes is printed
// cut, escaped and with its length; an empty bundle_id fails.
func TestVerifyBoundsEvidenceText(t *testing.T) {
	var buf bytes.Buffer
	w, _ := bundle.NewWriter(&buf, bundle.Header{BundleID: "b1", Host: bundle.Host{Hostname: "\x1b[2J" + strings.Repeat("h", 900<<10)}})
	w.Close(bundle.Summary{Complete: true}, nil)
	out, code := runCLI(t, "verify", write(t, "h.tar.zst", buf.Bytes()))
	line := strings.TrimSpace(out)
	if code != 0 || len(line) > 1000 || strings.Contains(out, "\x1b") ||
		!strings.Contains(line, `: OK: bundle b1 from \x1b[2J`+strings.Repeat("h", 512-4)+"...(921604 bytes in all), 0 of 0 collected files verified") {
		t.Fatalf("exit %d, %d bytes: %.300q", code, len(out), out)
	}
	buf.Reset()
	w, _ = bundle.NewWriter(&buf, bundle.Header{BundleID: ""})
	w.Close(bundle.Summary{Complete: true}, nil)
	out, code = runCLI(t, "verify", write(t, "e.tar.zst", buf.Bytes()))
	if code != 1 || !strings.Contains(out, ": bad_header bundle.json: bundle_id is empty") {
		t.Fatalf("empty bundle_id: exit %d:\n%s", code, out)
	}
}

// TestFIFOInInputFolder: a FIFO named bundle.json in a folder given to
// timeline or detect is never opened: exit 2 with the reason, no hang.
func TestFIFOInInputFolder(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "files"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "bundle.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"timeline", dir, "-o", filepath.Join(t.TempDir(), "o")}, {"detect", dir}} {
		out, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(out, "bundle.json: is a FIFO, not a regular file: not read") {
			t.Fatalf("%s: exit %d:\n%s", args[0], code, out)
		}
	}
}

// TestTimelineOutputLinkAndMaxLine: a link in -o DIR is exit 2 with the
// target unchanged; --max-line is checked and applied.
func TestTimelineOutputLinkAndMaxLine(t *testing.T) {
	good := write(t, "g.tar.zst", bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", User: "a",
		Data: []byte(transcript + `{"type":"user","sessionId":"` + sid + `","uuid":"u2","timestamp":"2026-06-01T10:00:01.000Z","message":{"role":"user","content":"` + strings.Repeat("x", 4096) + `"}}` + "\n")}}))
	victim := write(t, "victim", []byte("precious\n"))
	out := t.TempDir()
	os.Symlink(victim, filepath.Join(out, "sessions.jsonl"))
	msg, code := runCLI(t, "timeline", good, "-o", out)
	if code != 2 || !strings.Contains(msg, "output folder already holds a run: "+out+" holds sessions.jsonl (use another folder, or --force to replace that run's files)") {
		t.Fatalf("exit %d:\n%s", code, msg)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("victim changed: %q", b)
	}
	if msg, code := runCLI(t, "timeline", good, "-o", filepath.Join(t.TempDir(), "o"), "--max-line", "lots"); code != 2 || !strings.Contains(msg, `--max-line: "lots" is not a size`) {
		t.Fatalf("bad --max-line: exit %d:\n%s", code, msg)
	}
	o := filepath.Join(t.TempDir(), "o")
	if msg, code := runCLI(t, "timeline", good, "-o", o, "--max-line", "2KiB"); code != 0 || !strings.Contains(msg, "\nrows written: 1 (0 undated), in 1 sessions\n") {
		t.Fatalf("--max-line 2KiB: exit %d:\n%s", code, msg)
	}
	b, _ := os.ReadFile(filepath.Join(o, "problems.jsonl"))
	if !strings.Contains(string(b), `"source_line":2,`) || !strings.Contains(string(b), `"kind":"line_too_long","message":"line of 4252 bytes is over the 2048-byte line limit (--max-line): not parsed"`) {
		t.Fatalf("problems: %s", b)
	}
}

// TestVerifyCutSweep: a bundle cut at every offset fails verification as
// a cut bundle (exit 1, a FAILED verdict) once its first 4 bytes, the zstd
// magic, are there, inside bundle.json too (it was exit 2, "unusable");
// shorter than that nothing says it is a bundle (exit 2); whole, it
// verifies (exit 0). usage.md's exit table says the same.
func TestVerifyCutSweep(t *testing.T) {
	good := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	dir := t.TempDir()
	var paths []string
	for n := 0; n < len(good); n++ {
		p := filepath.Join(dir, fmt.Sprintf("cut-%05d.tar.zst", n))
		if err := os.WriteFile(p, good[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, code := runCLI(t, append([]string{"verify"}, paths...)...)
	if code != 2 {
		t.Fatalf("exit %d, want 2 (the 4 shortest are unusable)", code)
	}
	verdict := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		for _, v := range []string{": FAILED: ", ": unusable: ", ": OK: "} {
			if p, _, ok := strings.Cut(l, v); ok {
				if old, dup := verdict[p]; dup {
					t.Fatalf("%s: two verdicts %q and %q", p, old, v)
				}
				verdict[p] = v
			}
		}
	}
	for n, p := range paths {
		want := ": FAILED: "
		if n < 4 {
			want = ": unusable: "
		}
		if verdict[p] != want {
			t.Errorf("cut at %d of %d bytes: verdict %q, want %q", n, len(good), verdict[p], want)
		}
	}
	// The exit code of one input alone, at offsets inside the zstd magic,
	// inside the first zstd block (bundle.json), later, one byte short.
	for _, n := range []int{0, 3, 4, 10, 100, 200, len(good) / 2, len(good) - 1} {
		o, c := runCLI(t, "verify", paths[n])
		want := 1
		if n < 4 {
			want = 2
		}
		if c != want {
			t.Errorf("cut at %d: exit %d, want %d:\n%s", n, c, want, o)
		}
	}
	o, c := runCLI(t, "verify", paths[100])
	if w := paths[100] + ": truncated bundle.json: cut short or corrupt in bundle.json, its first member"; !strings.Contains(o, w) ||
		!strings.Contains(o, paths[100]+": FAILED: a bundle cut short or corrupt inside its header: no member can be read or verified\n") || c != 1 {
		t.Errorf("cut at 100: exit %d, no %q:\n%s", c, w, o)
	}
	if o, c := runCLI(t, "verify", write(t, "whole.tar.zst", good)); c != 0 {
		t.Errorf("whole: exit %d:\n%s", c, o)
	}
}

// TestInventoryOfOtherFiles: inventory given a bundle says it is one
// (exit 2) rather than a problem line per compressed "line"; a file of
// something else names its first 20 bad lines and counts the rest.
func TestInventoryOfOtherFiles(t *testing.T) {
	b := write(t, "b.tar.zst", bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}))
	out, code := runCLI(t, "inventory", b)
	if code != 2 || strings.TrimSpace(out) != "doubleagent: "+b+": a bundle (a zstd frame or an age file), not the collector's --inventory output (JSON lines): give it to detect or timeline" {
		t.Fatalf("a bundle: exit %d:\n%s", code, out)
	}
	txt := write(t, "notes.txt", []byte(strings.Repeat("x\n", 100)))
	out, _ = runCLI(t, "inventory", txt)
	if n := strings.Count(out, "problem: "+txt+" line "); n != 20 || !strings.Contains(out, "problem: "+txt+": 80 more lines that are not inventory JSON (of 100 lines), not printed\n") {
		t.Fatalf("%d problem lines:\n%s", n, out)
	}
}

// TestInventoryOfAJSONDocument: a JSON document (the timeline's
// inventory.json, pretty-printed; a JSON array on one line or many) is
// named in one line, exit 2, instead of a problem per line; a JSON lines
// file whose first object is bad on its line still gets its problem lines.
func TestInventoryOfAJSONDocument(t *testing.T) {
	const want = ", not JSON lines: inventory takes what `doubleagent-collector --inventory` prints (one JSON object a line), not a JSON document such as the timeline's inventory.json"
	for name, c := range map[string]struct{ data, what string }{
		"inventory.json":  {"{\n  \"hosts\": [\n    {\"host\": \"h\"}\n  ],\n  \"x\": 1\n}\n", "a JSON document over several lines"},
		"bom.json":        {"\xef\xbb\xbf\n {\n\"a\":\n[1,2]}", "a JSON document over several lines"},
		"array.json":      {"[{\"record\":\"agent\",\"host\":\"h\"}]\n", "a JSON array"},
		"arraylines.json": {"  [\n{\"record\":\"agent\"}\n]\n", "a JSON array"},
	} {
		p := write(t, name, []byte(c.data))
		out, code := runCLI(t, "inventory", p)
		if code != 2 || strings.TrimSpace(out) != "doubleagent: "+p+": "+c.what+want {
			t.Errorf("%s: exit %d:\n%s", name, code, out)
		}
	}
	p := write(t, "broken.jsonl", []byte("{\"record\":\"agent\",\n{\"record\":\"agent\",\"host\":\"h\",\"agent\":\"claude-code\"}\n"))
	out, code := runCLI(t, "inventory", p)
	if code != 0 || !strings.Contains(out, "problem: "+p+" line 1: ") || !strings.Contains(out, "\nh,,,claude-code,") {
		t.Errorf("broken first line: exit %d:\n%s", code, out)
	}
}
