package main

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

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/klauspost/compress/zstd"
)

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "doubleagent-cli-*")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "doubleagent")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

const transcript = `{"type":"user","sessionId":"11111111-2222-4333-8444-555555555555","cwd":"/home/a/p","uuid":"u1","timestamp":"2026-06-01T10:00:00.000Z","message":{"role":"user","content":"hello"}}
`

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tar.zst")
	os.WriteFile(good, bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}), 0o644)
	if out, code := runCLI(t, "verify", good); code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("verify good: %d %s", code, out)
	}
	// A flipped byte inside the artifact: the zstd frame checksum or the
	// manifest hash catches it.
	b, _ := os.ReadFile(good)
	bad := filepath.Join(dir, "bad.tar.zst")
	os.WriteFile(bad, b[:len(b)/2], 0o644)
	if out, code := runCLI(t, "verify", bad); code != 1 {
		t.Fatalf("verify cut bundle: exit %d, want 1: %s", code, out)
	}
	plain := filepath.Join(dir, "plain.txt")
	os.WriteFile(plain, []byte("not a bundle"), 0o644)
	if out, code := runCLI(t, "verify", plain); code != 2 {
		t.Fatalf("verify a text file: exit %d, want 2: %s", code, out)
	}
	out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o1"))
	if code != 0 || !strings.Contains(out, "\nagents: claude-code 1 rows\nrows written: 1 (0 undated), in 1 sessions\n") {
		t.Fatalf("timeline: %d %s", code, out)
	}
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o2"), "--since", "2030-01-01"); code != 1 {
		t.Fatalf("timeline with nothing found: exit %d, want 1: %s", code, out)
	}
	// report writes its report of nothing found, and exits 1 as timeline
	// does (it exited 0).
	if out, code := runCLI(t, "report", good, "-o", filepath.Join(dir, "r2"), "--since", "2030-01-01"); code != 1 || !strings.Contains(out, "report: "+filepath.Join(dir, "r2", "report.html")) {
		t.Fatalf("report with nothing found: exit %d, want 1: %s", code, out)
	}
	if out, code := runCLI(t, "report", good, "-o", filepath.Join(dir, "r1")); code != 0 {
		t.Fatalf("report: exit %d, want 0: %s", code, out)
	}
	// Findings are computed whatever --format says (the rules run on the
	// rows in memory), and report works with any --format.
	for _, f := range []string{"csv", "parquet", "timesketch,bodyfile"} {
		o := filepath.Join(dir, "f-"+f)
		out, code := runCLI(t, "timeline", good, "-o", o, "--format", f)
		if code != 0 || !strings.Contains(out, "findings: none from 21 rules over 1 rows") {
			t.Fatalf("timeline --format %s: exit %d: %s", f, code, out)
		}
		if _, err := os.Stat(filepath.Join(o, "findings.jsonl")); err != nil {
			t.Fatalf("timeline --format %s: %v", f, err)
		}
		if _, err := os.Stat(filepath.Join(o, "timeline.jsonl")); err == nil {
			t.Fatalf("timeline --format %s wrote timeline.jsonl", f)
		}
		o = filepath.Join(dir, "rf-"+f)
		out, code = runCLI(t, "report", good, "-o", o, "--format", f)
		if code != 0 || !strings.Contains(out, "report: "+filepath.Join(o, "report.html")) || !strings.Contains(out, "timeline.jsonl is written too") {
			t.Fatalf("report --format %s: exit %d: %s", f, code, out)
		}
		for _, n := range []string{"timeline.jsonl", "findings.jsonl", "report.md"} {
			if _, err := os.Stat(filepath.Join(o, n)); err != nil {
				t.Fatalf("report --format %s: %v", f, err)
			}
		}
	}
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o2b"), "--agent", "claudecode"); code != 2 ||
		!strings.Contains(out, "--agent claudecode: not in the input; it holds claude-code") {
		t.Fatalf("timeline --agent naming no agent of the input: exit %d, want 2: %s", code, out)
	}
	if out, code := runCLI(t, "timeline", filepath.Join(dir, "missing"), "-o", filepath.Join(dir, "o3")); code != 2 {
		t.Fatalf("timeline on a missing input: exit %d, want 2: %s", code, out)
	}
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o4"), "--since", "yesterday"); code != 2 {
		t.Fatalf("bad --since: exit %d, want 2: %s", code, out)
	}
	if out, code := runCLI(t, "timeline", good); code != 2 {
		t.Fatalf("missing -o: exit %d, want 2: %s", code, out)
	}
	// A folder of bundles with one damaged and one empty: the good one is
	// read, the others named, and the exit status says so (3).
	folder := filepath.Join(dir, "folder")
	os.MkdirAll(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "good.tar.zst"), b, 0o644)
	os.WriteFile(filepath.Join(folder, "damaged.tar.zst"), append([]byte{0}, b[1:]...), 0o644)
	os.WriteFile(filepath.Join(folder, "empty.tar.zst"), nil, 0o644)
	if out, code := runCLI(t, "timeline", folder, "-o", filepath.Join(dir, "o5")); code != 3 || !strings.HasPrefix(out, "inputs: 1 read, 2 unusable\n  unusable: "+filepath.Join(folder, "damaged.tar.zst")+": does not start with a zstd frame") ||
		!strings.Contains(out, "doubleagent: 2 input(s) unusable") {
		t.Fatalf("timeline on a folder with unusable bundles: exit %d, want 3: %s", code, out)
	}
	if out, code := runCLI(t, "report", folder, "-o", filepath.Join(dir, "r5")); code != 3 || !strings.Contains(out, "report: "+filepath.Join(dir, "r5", "report.html")) {
		t.Fatalf("report on a folder with unusable bundles: exit %d, want 3: %s", code, out)
	} else if h, _ := os.ReadFile(filepath.Join(dir, "r5", "report.html")); !strings.Contains(string(h), "<th>unusable</th><td>empty (0 bytes)") {
		t.Fatalf("report.html does not name the empty bundle as unusable")
	}
	if out, code := runCLI(t, "detect", good); code != 0 || !strings.Contains(out, "claude-code") {
		t.Fatalf("detect: %d %s", code, out)
	}
	if out, code := runCLI(t, "catalog", "--json"); code != 0 || !strings.Contains(out, `"name": "gemini-cli"`) {
		t.Fatalf("catalog --json: %d %.300s", code, out)
	}
}

func TestInventoryMerge(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	os.WriteFile(a, []byte(`{"record":"host","host":"h1"}
{"record":"agent","host":"h1","user":"alice","home":"/home/alice","agent":"claude-code","status":"parsed","files":3,"bytes":100,"first_mtime":"2026-01-01T00:00:00.000Z","last_mtime":"2026-01-02T00:00:00.000Z","projects":["/home/alice/p"]}
not json
`), 0o644)
	b := filepath.Join(dir, "b.jsonl")
	os.WriteFile(b, []byte(`{"record":"agent","host":"h2","user":"bob","home":"/home/bob","agent":"codex-cli","status":"parsed","files":1,"bytes":5,"first_mtime":"","last_mtime":"","projects":[]}
`), 0o644)
	c := filepath.Join(dir, "c.jsonl")
	os.WriteFile(c, []byte(`{"record":"agent","host":"h3","user":"carol","home":"/home/carol","agent":"gemini-cli","status":"parsed","files":0,"bytes":0,"first_mtime":"","last_mtime":"","projects":[],"statuses":{"symlink":1,"folder":2},"presence":"present, nothing collected","found_via":["GEMINI_CLI_HOME=/g in /home/carol/.bashrc:1"]}
`), 0o644)
	out, code := runCLI(t, "inventory", a, b, c)
	if code != 0 || !strings.Contains(out, "host,user,home,agent,status,files,bytes,first_mtime,last_mtime,projects,source_file,presence,statuses,found_via\n") || !strings.Contains(out, "h1,alice,/home/alice,claude-code,parsed,3,100,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,/home/alice/p,"+a+",,,\n") || !strings.Contains(out, "h2,bob,/home/bob,codex-cli,parsed,1,5") || !strings.Contains(out, "line 3") ||
		!strings.Contains(out, "h3,carol,/home/carol,gemini-cli,parsed,0,0,,,,"+c+",\"present, nothing collected\",symlink=1;folder=2,GEMINI_CLI_HOME=/g in /home/carol/.bashrc:1\n") {
		t.Fatalf("inventory: %d\n%s", code, out)
	}
}

func TestCleanTerminalText(t *testing.T) {
	if got := clean("host\x1b[2J\aname"); got != `host\x1b[2J\x07name` {
		t.Fatalf("clean = %q", got)
	}
	if got := clean("evil\u202etxt.exe\u009b"); got != `evil\u202etxt.exe\x9b` {
		t.Errorf("clean did not show the bidi override and the C1 control: %q", got)
	}
	if got := clean("a\u2066b\u2069\u200e\u200f\u061cc\u202a"); got != `a\u2066b\u2069\u200e\u200f\u061cc\u202a` {
		t.Errorf("clean did not show the isolates, marks and the Arabic letter mark: %q", got)
	}
	if got := clean("plain-host"); got != "plain-host" {
		t.Fatalf("clean changed %q", got)
	}
}

// TestTimelineFromStdin: a bundle piped in is read once, and named as given.
func TestTimelineFromStdin(t *testing.T) {
	dir := t.TempDir()
	data := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	cmd := exec.Command(bin, "timeline", "/dev/stdin", "-o", filepath.Join(dir, "o"))
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nrows written: 1 (0 undated), in 1 sessions\n") {
		t.Fatalf("%v: %s", err, out)
	}
	inv, _ := os.ReadFile(filepath.Join(dir, "o", "inventory.json"))
	if !strings.Contains(string(inv), `"input": "/dev/stdin"`) {
		t.Fatalf("inventory: %s", inv)
	}
}

// TestHelpEndsWithExitCodes: every command's --help ends with its exit
// codes, and catalog prints a header and a legend of its statuses.
func TestHelpEndsWithExitCodes(t *testing.T) {
	for _, cmd := range []string{"timeline", "verify", "detect", "catalog", "parsers", "inventory", "merge"} {
		out, code := runCLI(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Exit codes:\n  0  ") {
			t.Errorf("%s --help (exit %d) has no exit codes:\n%s", cmd, code, out)
		}
	}
	out, _ := runCLI(t, "catalog")
	lines := strings.SplitN(out, "\n", 4)
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "statuses: parsed = ") || !strings.HasPrefix(lines[1], "AGENT ") {
		t.Errorf("catalog header: %q", lines)
	}
}

// TestVerifyExtractedCollection: verify accepts a folder a bundle was
// extracted into, says it proved self-consistency only, and with
// --sidecar ties it to the acquisition: an edited file whose new hash was
// written into manifest.jsonl passes alone and fails with the sidecar
// (issue 22 item 7); a sidecar of an older collector cannot tie it.
func TestVerifyExtractedCollection(t *testing.T) {
	dir := t.TempDir()
	data := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	good := filepath.Join(dir, "good.tar.zst")
	os.WriteFile(good, data, 0o644)
	ext := filepath.Join(dir, "extracted")
	untar(t, data, ext)
	// The sidecar the collector writes: the bundle's hash, then those of
	// bundle.json and manifest.jsonl (collector's TestOutputRefusedAndExitCodes
	// checks the collector writes these).
	sidecar := filepath.Join(dir, "good.tar.zst.sha256")
	hb, _ := os.ReadFile(filepath.Join(ext, "bundle.json"))
	mb, _ := os.ReadFile(filepath.Join(ext, "manifest.jsonl"))
	f, _ := os.Create(sidecar)
	if err := bundle.WriteSidecarFull(f, bundle.Sidecar{Bundle: hexSum(data), Name: "good.tar.zst", Header: hexSum(hb), Manifest: hexSum(mb)}); err != nil {
		t.Fatal(err)
	}
	const id = "0190b1a4-0000-7000-8000-000000000001"
	if out, code := runCLI(t, "verify", good); code != 0 || out != good+": sidecar "+good+".sha256 matches\n"+good+": OK: bundle "+id+" from testhost, 1 of 1 collected files verified\n" {
		t.Fatalf("verify bundle: %d %q", code, out)
	}
	selfOnly := ext + ": OK (self-consistency only): extracted collection of bundle " + id + " from testhost, 1 of 1 collected files match manifest.jsonl; this proves the folder agrees with its own manifest, not that it is what was acquired (an edited file whose new hash was written into manifest.jsonl passes): give --sidecar BUNDLE.sha256 to tie it to the acquisition\n"
	if out, code := runCLI(t, "verify", ext); code != 0 || out != selfOnly {
		t.Fatalf("verify extracted: %d %q", code, out)
	}
	if out, code := runCLI(t, "verify", ext, "--sidecar", sidecar); code != 0 || out != ext+": OK: extracted collection of bundle "+id+" from testhost, 1 of 1 collected files match manifest.jsonl, and manifest.jsonl and bundle.json are the bytes the acquisition's sidecar "+sidecar+" records: the folder holds the files acquired\n" {
		t.Fatalf("verify extracted --sidecar: %d %q", code, out)
	}
	// An edited file, its new hash written into manifest.jsonl.
	member := filepath.Join(ext, "files", "home", "a", ".claude", "projects", "p", "11111111-2222-4333-8444-555555555555.jsonl")
	edited := []byte(strings.Replace(transcript, "hello", "HELLO", 1))
	os.WriteFile(member, edited, 0o644)
	os.WriteFile(filepath.Join(ext, "manifest.jsonl"), bytes.Replace(mb, []byte(hexSum([]byte(transcript))), []byte(hexSum(edited)), 1), 0o644)
	if out, code := runCLI(t, "verify", ext); code != 0 || out != selfOnly {
		t.Fatalf("verify edited extracted, alone: %d %q", code, out)
	}
	out, code := runCLI(t, "verify", ext, "--sidecar", sidecar)
	if code != 1 || !strings.Contains(out, ext+": sidecar_mismatch: manifest.jsonl sha256 ") ||
		!strings.Contains(out, ext+": FAILED: bundle "+id+", 1 of 1 collected files verified, 1 problems\n") {
		t.Fatalf("verify edited extracted --sidecar: %d %s", code, out)
	}
	// An old one-line sidecar records no manifest hash: it cannot tie.
	old := filepath.Join(dir, "old.sha256")
	os.WriteFile(old, []byte(hexSum(data)+"  good.tar.zst\n"), 0o644)
	if out, code := runCLI(t, "verify", ext, "--sidecar", old); code != 1 || !strings.Contains(out, "records no manifest.jsonl hash") {
		t.Fatalf("verify --sidecar old: %d %s", code, out)
	}
	if out, code := runCLI(t, "verify", good, "--sidecar", sidecar); code != 2 || !strings.Contains(out, "--sidecar ties one extracted collection to its acquisition: give exactly one (0 given)") {
		t.Fatalf("verify bundle --sidecar: %d %s", code, out)
	}
	// A plain file changed, manifest untouched: the checksum fails.
	untar(t, data, ext)
	os.WriteFile(member, []byte("changed\n"), 0o644)
	out, code = runCLI(t, "verify", ext)
	if code != 1 || !strings.Contains(out, ext+": checksum_mismatch /home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl: manifest sha256 ") ||
		!strings.Contains(out, ext+": FAILED: bundle "+id+", 0 of 1 collected files verified, 1 problems\n") {
		t.Fatalf("verify tampered extracted: %d %s", code, out)
	}
	plain := filepath.Join(dir, "plain")
	os.MkdirAll(plain, 0o755)
	if out, code := runCLI(t, "verify", plain); code != 2 || !strings.Contains(out, plain+": unusable: neither a bundle (no zstd frame) nor an extracted collection") {
		t.Fatalf("verify a plain folder: %d %s", code, out)
	}
}

// TestVerifyFolderOfBundles: verify takes a folder of bundles as timeline
// does: each bundle and extracted collection in it is verified, each
// entry named like a bundle that is not one is unusable (exit 2).
func TestVerifyFolderOfBundles(t *testing.T) {
	dir := t.TempDir()
	data := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	os.WriteFile(filepath.Join(dir, "a.tar.zst"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "b.tar.zst"), append([]byte{0}, data[1:]...), 0o644)
	os.WriteFile(filepath.Join(dir, "c.tar.zst"), nil, 0o644)
	untar(t, data, filepath.Join(dir, "d"))
	out, code := runCLI(t, "verify", dir)
	want := dir + "/a.tar.zst: OK: bundle 0190b1a4-0000-7000-8000-000000000001 from testhost, 1 of 1 collected files verified\n" +
		dir + "/b.tar.zst: unusable: does not start with a zstd frame (first bytes 00 b5 2f fd, where a bundle starts 28 b5 2f fd): damaged, or not a bundle\n" +
		dir + "/c.tar.zst: unusable: empty (0 bytes): no bundle can be read from it (a failed or unfinished copy?)\n" +
		dir + "/d: OK (self-consistency only): extracted collection of bundle 0190b1a4-0000-7000-8000-000000000001 from testhost, 1 of 1 collected files match manifest.jsonl; this proves the folder agrees with its own manifest, not that it is what was acquired (an edited file whose new hash was written into manifest.jsonl passes): give --sidecar BUNDLE.sha256 to tie it to the acquisition\n" +
		"doubleagent: 2 input(s) are not readable bundles or extracted collections; 0 of 4 failed verification\n"
	if code != 2 || out != want {
		t.Fatalf("verify a folder of bundles: exit %d\n%s\nwant\n%s", code, out, want)
	}
	os.Remove(filepath.Join(dir, "b.tar.zst"))
	os.Remove(filepath.Join(dir, "c.tar.zst"))
	if out, code := runCLI(t, "verify", dir); code != 0 {
		t.Fatalf("verify a folder of good bundles: exit %d\n%s", code, out)
	}
}

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// untar writes a bundle's members into dst, as tar -xf does.
func untar(t *testing.T, data []byte, dst string) {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, filepath.FromSlash(h.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProfiles: --cpuprofile and --memprofile write pprof files (gzip)
// with the output rules: an existing file is refused (exit 2, nothing
// run) unless --force, which replaces it.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tar.zst")
	os.WriteFile(good, bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}), 0o644)
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o1"), "--cpuprofile", cpu, "--memprofile", mem); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	gz := func(p string) bool {
		b, err := os.ReadFile(p)
		return err == nil && len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b
	}
	if !gz(cpu) || !gz(mem) {
		t.Fatal("no pprof files")
	}
	os.WriteFile(cpu, []byte("kept"), 0o644)
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o2"), "--cpuprofile", cpu); code != 2 || !strings.Contains(out, "--cpuprofile") {
		t.Fatalf("existing profile: exit %d: %s", code, out)
	}
	if b, _ := os.ReadFile(cpu); string(b) != "kept" {
		t.Fatal("the existing file was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, "o2")); !os.IsNotExist(err) {
		t.Fatal("the refused run wrote its outputs")
	}
	if out, code := runCLI(t, "timeline", good, "-o", filepath.Join(dir, "o3"), "--force", "--cpuprofile", cpu); code != 0 || !gz(cpu) {
		t.Fatalf("--force: exit %d: %s", code, out)
	}
}

// TestNothingUnseenPlainPathErrors: a missing --rules folder or saved
// inventory file is named in plain words, exit 2.
func TestNothingUnseenPlainPathErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"timeline", home, "-o", filepath.Join(dir, "o"), "--rules", missing}, "doubleagent: --rules: no such file or folder: " + missing},
		{[]string{"inventory", missing}, "doubleagent: no such file or folder: " + missing},
	} {
		out, code := runCLI(t, c.args...)
		if code != 2 || strings.TrimSpace(out) != c.want {
			t.Errorf("%v: exit %d\n%s\nwant exit 2 and\n%s", c.args, code, out, c.want)
		}
	}
}
