//go:build unix

package analyze_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/rs/zerolog"
)

// hostsUsers lists the distinct host/user pairs of a run's rows.
func hostsUsers(t *testing.T, out string) string {
	t.Helper()
	seen := map[string]bool{}
	var s []string
	for _, r := range rows(t, out) {
		k := r.Host + "/" + r.User
		if !seen[k] {
			seen[k] = true
			s = append(s, k)
		}
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "evidence")
	for rel, b := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const looseSID = "aaaa1111-0000-4000-8000-00000000000a"

func session(user string) []byte {
	return claudeSession(looseSID, "/home/"+user+"/p", "2026-05-01", "id", user)
}

// TestLooseImageHostname: an image root's etc/hostname names the host, as
// the collector does (the first 4096 bytes, spaces trimmed), so the image
// read as a tree and its bundle give one host; an empty etc/hostname, a
// link or a FIFO there leave loose:<folder>, the latter two with a
// problem, never followed or opened.
func TestLooseImageHostname(t *testing.T) {
	img := writeTree(t, map[string][]byte{
		"etc/hostname": []byte("  web01\n"),
		"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice"),
	})
	_, out := run(t, analyze.Options{Inputs: []string{img}})
	if got := hostsUsers(t, out); got != "web01/alice" {
		t.Fatalf("image with etc/hostname: %s", got)
	}
	// The same evidence as a bundle the collector would write.
	b := makeBundle(t, t.TempDir(), "b.tar.zst", "web01", "id-b", []bundletest.File{{Path: "/home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl",
		Agent: "claude-code", Target: "projects", User: "alice", Data: session("alice"), MTime: time.Unix(0, 0)}})
	_, out2 := run(t, analyze.Options{Inputs: []string{b}})
	if got := hostsUsers(t, out2); got != "web01/alice" {
		t.Fatalf("bundle: %s", got)
	}

	long := writeTree(t, map[string][]byte{
		"etc/hostname": append(bytes.Repeat([]byte("h"), 4096), []byte("tail")...),
		"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice"),
	})
	_, out = run(t, analyze.Options{Inputs: []string{long}})
	if got := hostsUsers(t, out); got != strings.Repeat("h", 4096)+"/alice" {
		t.Fatalf("a host name over 4096 bytes: %d bytes", len(got))
	}

	for _, tc := range []struct {
		name, kind, msg string
		make            func(p string) error
	}{
		{"empty", "", "", func(p string) error { return os.WriteFile(p, []byte(" \n"), 0o644) }},
		{"link", analyze.KindUnsafePath, "the image's host name is not read: etc/hostname: is a link, not a regular file: not read", func(p string) error { return os.Symlink("/etc/hostname", p) }},
		{"fifo", analyze.KindUnsafePath, "the image's host name is not read: etc/hostname: is a FIFO, not a regular file: not read", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := writeTree(t, map[string][]byte{"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice")})
			os.MkdirAll(filepath.Join(img, "etc"), 0o755)
			if err := tc.make(filepath.Join(img, "etc", "hostname")); err != nil {
				t.Fatal(err)
			}
			done := make(chan string)
			go func() {
				_, out := run(t, analyze.Options{Inputs: []string{img}})
				done <- out
			}()
			var out string
			select {
			case out = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the run hangs on etc/hostname")
			}
			if got := hostsUsers(t, out); got != "loose:evidence/alice" {
				t.Errorf("hosts %s", got)
			}
			var got []string
			for _, p := range problems(t, out) {
				got = append(got, p.Kind+" "+p.SourceFile+" "+p.Message)
			}
			want := ""
			if tc.kind != "" {
				want = tc.kind + " /etc/hostname " + tc.msg
			}
			if strings.Join(got, "|") != want {
				t.Errorf("problems %q, want %q", got, want)
			}
		})
	}
}

// TestLooseLabels: --host and --user name a loose input that has no host
// or account of its own, and still filter; an image's own etc/hostname
// and home/NAME are never renamed (a --host or --user naming something
// else is then the unknown-name error); with two values nothing is named.
func TestLooseLabels(t *testing.T) {
	copied := writeTree(t, map[string][]byte{".claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice")})
	img := writeTree(t, map[string][]byte{
		"etc/hostname": []byte("web01\n"),
		"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice"),
	})
	bare := writeTree(t, map[string][]byte{"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice")})
	other := makeBundle(t, t.TempDir(), "o.tar.zst", "web02", "id-o", []bundletest.File{claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-05-02", "ls", "x")})

	var logBuf bytes.Buffer
	_, out := run(t, analyze.Options{Inputs: []string{copied}, Hosts: []string{"laptop-7"}, Users: []string{"alice"}, Log: zerolog.New(&logBuf)})
	if got := hostsUsers(t, out); got != "laptop-7/alice" {
		t.Errorf("copied home with --host laptop-7 --user alice: %s", got)
	}
	if l := logBuf.String(); !strings.Contains(l, `"host":"laptop-7","was":"loose:evidence","message":"loose input has no host name of its own: named by --host"`) ||
		!strings.Contains(l, `"user":"alice","was":"evidence","message":"loose input's one home was named after its folder: its user named by --user"`) {
		t.Errorf("log: %s", l)
	}
	// A lone agent folder: its parent names the user, and the host, as
	// for a single file (it was loose:.claude, so two agent folders of
	// one home were two hosts, and a home given with its own .claude
	// gave every row twice).
	_, out = run(t, analyze.Options{Inputs: []string{filepath.Join(copied, ".claude")}, Users: []string{"alice"}})
	if got := hostsUsers(t, out); got != "loose:evidence/alice" {
		t.Errorf("lone .claude with --user alice: %s", got)
	}
	both := writeTree(t, map[string][]byte{".claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice"),
		".codex/history.jsonl": []byte(`{"session_id":"0199aaaa-0000-7000-8000-000000000001","ts":1777777777,"text":"hello codex"}` + "\n")})
	_, out = run(t, analyze.Options{Inputs: []string{filepath.Join(both, ".claude"), filepath.Join(both, ".codex")}})
	if got := hostsUsers(t, out); got != "loose:evidence/evidence" {
		t.Errorf("two agent folders of one home: %s", got)
	}
	sumOne, _ := run(t, analyze.Options{Inputs: []string{copied}})
	sumTwice, out := run(t, analyze.Options{Inputs: []string{copied, filepath.Join(copied, ".claude")}})
	if got := hostsUsers(t, out); got != "loose:evidence/evidence" || sumTwice.Events != sumOne.Events || sumOne.Events == 0 {
		t.Errorf("a home and its own .claude: %s, %d rows (%d from the home alone)", got, sumTwice.Events, sumOne.Events)
	}
	// The label names the loose input; the filter still drops the bundle
	// of another host.
	_, out = run(t, analyze.Options{Inputs: []string{copied, other}, Hosts: []string{"laptop-7"}})
	if got := hostsUsers(t, out); got != "laptop-7/evidence" {
		t.Errorf("--host laptop-7 over a copied home and a bundle of web02: %s", got)
	}
	// An image without etc/hostname takes --host; its home keeps its name.
	_, out = run(t, analyze.Options{Inputs: []string{bare}, Hosts: []string{"srv"}})
	if got := hostsUsers(t, out); got != "srv/alice" {
		t.Errorf("image without etc/hostname, --host srv: %s", got)
	}
	// Two values: a filter only, nothing named.
	_, out = run(t, analyze.Options{Inputs: []string{copied, other}, Hosts: []string{"web02", "loose:evidence"}})
	if got := hostsUsers(t, out); got != "loose:evidence/evidence web02/bob" {
		t.Errorf("two --host values: %s", got)
	}
	for _, c := range []struct {
		o    analyze.Options
		want string
	}{
		{analyze.Options{Inputs: []string{img}, Hosts: []string{"laptop-7"}}, "--host laptop-7: not in the input; it holds web01"},
		{analyze.Options{Inputs: []string{img}, Users: []string{"bob"}}, "--user bob: not in the input; it holds alice"},
		{analyze.Options{Inputs: []string{copied, other}, Hosts: []string{"a", "b"}}, "--host a, b: not in the input; it holds loose:evidence, web02"},
	} {
		c.o.OutDir, c.o.Parsers, c.o.TempDir = filepath.Join(t.TempDir(), "out"), parsers.All(), t.TempDir()
		_, err := analyze.Timeline(context.Background(), c.o)
		var ue *analyze.UnknownNameError
		if !errors.As(err, &ue) || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.o.Hosts, err, c.want)
		}
	}
}

// TestSingleFileWithAgent: a single file given with --agent is read as
// that agent's file: the target chosen by its name (logged), its home the
// folder above the part of its path the pattern matches; a SQLite store
// brings its -wal beside it, so its rows are those of the whole tree.
// Without --agent, or with a name no target of the agent matches, the
// input is unusable, and the error says why.
func TestSingleFileWithAgent(t *testing.T) {
	tree := writeTree(t, map[string][]byte{".claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice")})
	file := filepath.Join(tree, ".claude", "projects", "-home-alice-p", looseSID+".jsonl")
	var logBuf bytes.Buffer
	sum, out := run(t, analyze.Options{Inputs: []string{file}, Agents: []string{"claude-code"}, Log: zerolog.New(&logBuf)})
	if got := hostsUsers(t, out); got != "loose:evidence/evidence" || sum.Events != 6 {
		t.Errorf("single transcript: %s, %d rows", got, sum.Events)
	}
	if l := logBuf.String(); !strings.Contains(l, `"level":"warn","input":"`+file+`","agent":"claude-code","target":"projects","pattern":".claude/projects/**/*.jsonl","rel":".claude/projects/-home-alice-p/`+looseSID+`.jsonl","message":"single file read as this agent's target"`) {
		t.Errorf("log: %s", l)
	}
	_, treeOut := run(t, analyze.Options{Inputs: []string{tree}})
	if a, b := rowTexts(t, out), rowTexts(t, treeOut); a != b {
		t.Errorf("single file rows differ from the tree's:\n%s\n%s", a, b)
	}

	// Copied out of its folders: the name alone picks the target.
	lone := filepath.Join(t.TempDir(), "case", "s.jsonl")
	os.MkdirAll(filepath.Dir(lone), 0o755)
	os.WriteFile(lone, session("alice"), 0o644)
	logBuf.Reset()
	sum, out = run(t, analyze.Options{Inputs: []string{lone}, Agents: []string{"claude-code"}, Users: []string{"alice"}, Hosts: []string{"laptop-7"}, Log: zerolog.New(&logBuf)})
	if got := hostsUsers(t, out); got != "laptop-7/alice" || sum.Events != 6 {
		t.Errorf("lone transcript: %s, %d rows", got, sum.Events)
	}
	if l := logBuf.String(); !strings.Contains(l, `"agent":"claude-code","target":"projects","pattern":".claude/projects/**/*.jsonl","rel":"s.jsonl","message":"single file read as this agent's target"`) {
		t.Errorf("log: %s", l)
	}

	// A SQLite store: the real Codex store with its WAL, alone and as a
	// tree holding only it; without its WAL it gives fewer rows.
	real := filepath.Join("..", "..", "fixtures", "roots", "real-agents", "home", "examiner", ".codex", "state_5.sqlite")
	copyTo := func(dir string, sidecars ...string) string {
		t.Helper()
		os.MkdirAll(filepath.Join(dir, ".codex"), 0o755)
		for _, suf := range append([]string{""}, sidecars...) {
			b, err := os.ReadFile(real + suf)
			if err != nil {
				t.Fatalf("fixture: %v", err)
			}
			os.WriteFile(filepath.Join(dir, ".codex", "state_5.sqlite"+suf), b, 0o644)
		}
		return filepath.Join(dir, ".codex", "state_5.sqlite")
	}
	home := filepath.Join(t.TempDir(), "examiner")
	store := copyTo(home, "-wal", "-shm")
	sum, out = run(t, analyze.Options{Inputs: []string{store}, Agents: []string{"codex-cli"}})
	_, treeOut = run(t, analyze.Options{Inputs: []string{home}})
	if a, b := rowTexts(t, out), rowTexts(t, treeOut); sum.Events == 0 || a != b {
		t.Errorf("store rows alone differ from the tree's (%d rows):\n%s\n---\n%s", sum.Events, a, b)
	}
	noWAL, _ := run(t, analyze.Options{Inputs: []string{copyTo(filepath.Join(t.TempDir(), "examiner"))}, Agents: []string{"codex-cli"}})
	if noWAL.Events >= sum.Events {
		t.Errorf("without its WAL the store gave %d rows, with it %d: the WAL did not travel", noWAL.Events, sum.Events)
	}

	for _, c := range []struct {
		agents []string
		in     string
		want   string
	}{
		{nil, lone, lone + ": a single file that is not a bundle (no zstd frame): give --agent NAME to read it as that agent's file"},
		{[]string{"claude-code", "codex-cli"}, lone, lone + ": a single file that is not a bundle (no zstd frame): --agent was given 2 times: give exactly one to read it as that agent's file"},
		{[]string{"claudecode"}, lone, lone + ": a single file, and --agent claudecode is not a catalog agent (doubleagent catalog lists them)"},
		{[]string{"aider"}, lone, lone + `: a single file read as aider's: its name "s.jsonl" matches no target of aider: `},
	} {
		_, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{c.in}, Agents: c.agents, OutDir: filepath.Join(t.TempDir(), "o"), Parsers: parsers.All(), TempDir: t.TempDir()})
		if !errors.Is(err, analyze.ErrNoInput) || !strings.Contains(err.Error(), "every input failed: "+c.want) {
			t.Errorf("%v: %v\nwant %q", c.agents, err, c.want)
		}
	}
}

// rowTexts renders the rows of a run, without host and user, one a line.
func rowTexts(t *testing.T, out string) string { return rowTextsOf(t, out, "") }

func rowTextsOf(t *testing.T, out, suffix string) string {
	t.Helper()
	var s []string
	for _, r := range rows(t, out) {
		if suffix != "" && !strings.HasSuffix(r.SourceFile, suffix) {
			continue
		}
		s = append(s, strings.Join([]string{r.TimestampUTC, r.SessionID, r.TurnType, r.ToolName, r.Text, r.RecordID, r.Parser, filepath.Base(r.SourceFile)}, "|"))
	}
	return strings.Join(s, "\n")
}

// TestVerifyExtracted: an extracted collection verifies as its bundle
// does; a changed file, an extra file, a link and a missing file are
// problems of the bundle reader's kinds.
func TestVerifyExtracted(t *testing.T) {
	b := filepath.Join("..", "..", "bundle", "testdata", "v2", "fake-home.tar.zst")
	ext := filepath.Join(t.TempDir(), "x")
	extract(t, b, ext)
	h, res, err := analyze.VerifyExtracted(context.Background(), ext)
	if err != nil {
		t.Fatal(err)
	}
	if h.BundleID != "01a23248-ba40-75c1-987e-adbff74d307f" || len(res.Problems) != 0 || len(res.Verified) != 9 || !res.Complete || res.Members != 9 || len(res.Manifest) != 12 ||
		!strings.Contains(string(res.Log), `"message":"collection ended"`) {
		t.Fatalf("header %+v, result problems %v verified %d complete %v members %d", h, res.Problems, len(res.Verified), res.Complete, res.Members)
	}
	// The same as bundle.Verify says of the bundle.
	f, _ := os.Open(b)
	_, bres, err := bundle.Verify(f, nil)
	f.Close()
	if err != nil || len(bres.Verified) != len(res.Verified) || len(bres.Manifest) != len(res.Manifest) {
		t.Fatalf("bundle.Verify: %v %d %d", err, len(bres.Verified), len(bres.Manifest))
	}

	files := filepath.Join(ext, "files", "home", "alice")
	os.WriteFile(filepath.Join(files, ".claude", "history.jsonl"), []byte("changed\n"), 0o644)
	os.Remove(filepath.Join(files, ".codex", "history.jsonl"))
	os.WriteFile(filepath.Join(files, "extra.txt"), []byte("x"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(files, "link"))
	os.Remove(filepath.Join(files, ".claude", "settings.json"))
	os.Symlink("/etc/passwd", filepath.Join(files, ".claude", "settings.json"))
	_, res, err = analyze.VerifyExtracted(context.Background(), ext)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.String())
	}
	want := []string{
		"checksum_mismatch /home/alice/.claude/history.jsonl: manifest sha256 e973f4423bf33f7f5b596e2bb3c7a6889e9a78e4ecb790fa44f2c0fbfac4fdf8 (84 bytes), file 7f8b1dfc466b6249f06cbe55c9174df2578e7754da793fded244ef5cba2a38f1 (8 bytes)",
		`unsafe_path /home/alice/.claude/settings.json: files/home/alice/.claude/settings.json is a link (to "/etc/passwd"): not followed: its target does not exist inside the collection's files/ (an absolute target is taken relative to files/)`,
		"missing_member /home/alice/.codex/history.jsonl: listed as collected but not in the extracted folder",
		"unlisted_member files/home/alice/extra.txt: file not in the manifest",
		`unsafe_path files/home/alice/link: files/home/alice/link is a link (to "/etc/passwd"): not read`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n got %q\nwant %q", got, want)
	}
	if len(res.Verified) != 6 {
		t.Errorf("verified %d, want 6", len(res.Verified))
	}
	// A FIFO named bundle.json is refused at once, never opened.
	fifo := filepath.Join(t.TempDir(), "f")
	os.MkdirAll(filepath.Join(fifo, "files"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifo, bundle.HeaderName), 0o644); err != nil {
		t.Fatal(err)
	}
	if !analyze.IsExtracted(fifo) {
		t.Fatal("a folder with a FIFO bundle.json and files/ is not taken for an extracted collection")
	}
	done := make(chan error)
	go func() {
		_, _, err := analyze.VerifyExtracted(context.Background(), fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, analyze.ErrUnsafePath) || err.Error() != "extracted collection whose bundle.json cannot be read: bundle.json: is a FIFO, not a regular file: not read" {
			t.Errorf("FIFO bundle.json: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("verify blocks on a FIFO bundle.json")
	}
}

// TestHostnameOneLine: a host name is one line of printable text. An
// etc/hostname or a bundle.json host with a newline, a control or format
// character or invalid UTF-8 is kept as its raw bytes escaped, with a
// bad_hostname problem naming them; surrounding whitespace is trimmed
// without a problem.
func TestHostnameOneLine(t *testing.T) {
	for _, tc := range []struct{ raw, host string }{
		{"web01\n", "web01"},
		{"  db 2  \r\n", "db 2"},
		{"web01\n# forged\n<img src=x>", `web01\n# forged\n<img src=x>`},
		{"a\rb", `a\rb`},
		{"a\x1b[31mb", `a\x1b[31mb`},
		{"a\xffb", `a\xffb`},
		{"a\u202eb", `a\u202eb`},
		{"a\u2028b", `a\u2028b`},
	} {
		img := writeTree(t, map[string][]byte{
			"etc/hostname": []byte(tc.raw),
			"home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice"),
		})
		b := makeBundle(t, t.TempDir(), "b.tar.zst", tc.raw, "id-b", []bundletest.File{{Path: "/home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl",
			Agent: "claude-code", Target: "projects", User: "alice", Data: session("alice"), MTime: time.Unix(0, 0)}})
		for _, in := range []string{img, b} {
			want, bad := tc.host, tc.host != strings.TrimSpace(tc.raw)
			if in == b && !utf8.ValidString(tc.raw) {
				// bundle.json is JSON: the writer recorded U+FFFD.
				want, bad = strings.ToValidUTF8(tc.raw, "\ufffd"), false
			}
			_, out := run(t, analyze.Options{Inputs: []string{in}})
			if got := hostsUsers(t, out); got != want+"/alice" {
				t.Errorf("%q: host %q, want %q", tc.raw, got, want+"/alice")
			}
			pb, _ := os.ReadFile(filepath.Join(out, analyze.ProblemsJSONL))
			n := strings.Count(string(pb), `"kind":"`+analyze.KindHostname+`"`)
			if bad && n != 1 || !bad && n != 0 {
				t.Errorf("%q: %d bad_hostname problems: %s", tc.raw, n, pb)
			}
		}
	}
}

// TestLooseFolderOfHomes: an image's home (or Users) folder copied on its
// own is read as the homes it holds, each named after its folder (it was
// read as one home named "home", and found nothing); a home with a
// dot-file of its own, or whose only hit is a project's .claude two
// levels down, stays one home.
func TestLooseFolderOfHomes(t *testing.T) {
	homes := writeTree(t, map[string][]byte{
		"alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl":                 session("alice"),
		"bob/.claude/projects/-home-bob-p/bbbb2222-0000-4000-8000-000000000002.jsonl": claudeSession("bbbb2222-0000-4000-8000-000000000002", "/home/bob/p", "2026-05-02", "id", "bob"),
		"notes.txt": []byte("kept by the examiner\n"),
	})
	sum, out := run(t, analyze.Options{Inputs: []string{homes}})
	if got, want := strings.Join(analyze.SummaryLines(sum), "\n"), "  read in place: "+homes+": the project folders its sessions name were not looked in"; !strings.Contains(got, want) {
		t.Errorf("summary of a tree read in place does not say project folders were not looked in:\n%s", got)
	}
	if got := hostsUsers(t, out); got != "loose:evidence/alice loose:evidence/bob" {
		t.Errorf("folder of homes: %s", got)
	}
	var files []string
	for _, r := range rows(t, out) {
		files = append(files, r.SourceFile)
	}
	sort.Strings(files)
	if len(files) == 0 || !strings.HasPrefix(files[0], "/home/alice/.claude/projects/") || !strings.HasPrefix(files[len(files)-1], "/home/bob/.claude/projects/") {
		t.Errorf("source files: %v", files)
	}
	users := writeTree(t, map[string][]byte{"Users/carol/.claude/projects/-Users-carol-p/" + looseSID + ".jsonl": session("carol")})
	_, out = run(t, analyze.Options{Inputs: []string{filepath.Join(users, "Users")}})
	if r := rows(t, out); len(r) == 0 || r[0].User != "carol" || !strings.HasPrefix(r[0].SourceFile, "/Users/carol/.claude/") {
		t.Errorf("a Users folder: %+v", r)
	}
	one := writeTree(t, map[string][]byte{".bashrc": []byte("x\n"), "work/.claude/settings.json": []byte("{}\n"),
		".claude/projects/-home-dave-p/" + looseSID + ".jsonl": session("dave")})
	_, out = run(t, analyze.Options{Inputs: []string{one}})
	if got := hostsUsers(t, out); got != "loose:evidence/evidence" {
		t.Errorf("a home with a project's .claude: %s", got)
	}
	empty := writeTree(t, map[string][]byte{"x/notes.txt": []byte("x\n")})
	sum, _ = run(t, analyze.Options{Inputs: []string{empty}})
	if got, want := strings.Join(analyze.SummaryLines(sum), "\n"), "  nothing of any agent under "+empty+": a folder is read as an image root (home/NAME, Users/NAME, root), a folder of homes, one home, or an agent folder such as .claude"; !strings.Contains(got, want) {
		t.Errorf("summary of a folder with nothing of any agent:\n%s", got)
	}
}
