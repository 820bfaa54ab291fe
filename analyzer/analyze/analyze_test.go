package analyze_test

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/klauspost/compress/zstd"
)

// claudeSession is a small synthetic Claude Code transcript: a typed
// prompt, an injected reminder, a thinking block, a Bash call and its
// result, and a reply.
func claudeSession(id, cwd, day, cmd, out string) []byte {
	lines := []string{
		`{"type":"user","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"u1","timestamp":"` + day + `T10:00:00.000Z","message":{"role":"user","content":"please run ` + cmd + `"}}`,
		`{"type":"user","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"u2","isMeta":true,"timestamp":"` + day + `T10:00:00.100Z","message":{"role":"user","content":"<system-reminder>be careful</system-reminder>"}}`,
		`{"type":"assistant","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"a1","timestamp":"` + day + `T10:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-test-1","content":[{"type":"thinking","thinking":"I should run it"}]}}`,
		`{"type":"assistant","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"a2","timestamp":"` + day + `T10:00:01.500Z","message":{"id":"msg_1","role":"assistant","model":"claude-test-1","content":[{"type":"tool_use","id":"toolu_` + id[:4] + `","name":"Bash","input":{"command":"` + cmd + `","description":"run"}}]}}`,
		`{"type":"user","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"u3","timestamp":"` + day + `T10:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_` + id[:4] + `","content":"` + out + `","is_error":false}]}}`,
		`{"type":"assistant","sessionId":"` + id + `","cwd":"` + cwd + `","uuid":"a3","timestamp":"` + day + `T10:00:03.000Z","message":{"id":"msg_2","role":"assistant","model":"claude-test-1","content":[{"type":"text","text":"It printed ` + out + `"}]}}`,
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func makeBundle(t *testing.T, dir, name, host, id string, files []bundletest.File) string {
	t.Helper()
	return makeCaseBundle(t, dir, name, host, "", id, files)
}

// makeCaseBundle is makeBundle with the case named in the header.
func makeCaseBundle(t *testing.T, dir, name, host, caseName, id string, files []bundletest.File) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: id, CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: host, Case: caseName}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		kind := f.Kind
		if kind == "" {
			kind = "transcript"
		}
		home := "/home/" + f.User
		if _, err := w.AddFile(bundle.Entry{Path: f.Path, Agent: f.Agent, Target: f.Target, Kind: kind, User: f.User, Home: home, Type: "file", MTime: bundle.FormatTime(f.MTime)}, int64(len(f.Data)), bytes.NewReader(f.Data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-01-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func claudeFile(user, id, day, cmd, out string) bundletest.File {
	cwd := "/home/" + user + "/proj"
	return bundletest.File{Path: "/home/" + user + "/.claude/projects/-home-" + user + "-proj/" + id + ".jsonl", Agent: "claude-code", Target: "projects", User: user,
		Data: claudeSession(id, cwd, day, cmd, out), MTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func run(t *testing.T, opts analyze.Options) (*analyze.Summary, string) {
	t.Helper()
	if opts.OutDir == "" {
		opts.OutDir = filepath.Join(t.TempDir(), "out")
	}
	if opts.Parsers == nil {
		opts.Parsers = parsers.All()
	}
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	sum, err := analyze.Timeline(context.Background(), opts)
	if err != nil {
		t.Fatalf("timeline: %v", err)
	}
	return sum, opts.OutDir
}

func rows(t *testing.T, out string) []timeline.Row {
	t.Helper()
	f, err := os.Open(filepath.Join(out, analyze.TimelineJSONL))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rs []timeline.Row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r timeline.Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

func problems(t *testing.T, out string) []analyze.Problem {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, analyze.ProblemsJSONL))
	if err != nil {
		t.Fatal(err)
	}
	var ps []analyze.Problem
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var p analyze.Problem
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestTwoHostsMergeIntoOneOrderedTimeline(t *testing.T) {
	dir := t.TempDir()
	makeBundle(t, dir, "a.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-01-02", "ls", "a.txt")})
	makeBundle(t, dir, "b.tar.zst", "host-b", "0190bbbb-0000-7000-8000-000000000002", []bundletest.File{claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-01-01", "pwd", "/home/bob")})
	sum, out := run(t, analyze.Options{Inputs: []string{dir}, Jobs: 2})
	rs := rows(t, out)
	if sum.Sources != 2 || sum.Failed != 0 || len(rs) == 0 {
		t.Fatalf("sources %d failed %d rows %d", sum.Sources, sum.Failed, len(rs))
	}
	// bob's day comes first, then alice's; every row names its host and bundle.
	if rs[0].Host != "host-b" || rs[len(rs)-1].Host != "host-a" {
		t.Fatalf("order: first %s last %s", rs[0].Host, rs[len(rs)-1].Host)
	}
	for i, r := range rs {
		if r.BundleID == "" || r.Host == "" {
			t.Fatalf("row %d lacks host or bundle: %+v", i, r)
		}
		if i > 0 && r.TimestampUTC < rs[i-1].TimestampUTC {
			t.Fatalf("row %d out of order: %s after %s", i, r.TimestampUTC, rs[i-1].TimestampUTC)
		}
		if r.Host == "host-a" && r.BundleID != "0190aaaa-0000-7000-8000-000000000001" {
			t.Fatalf("host-a row with bundle %s", r.BundleID)
		}
	}
	// The typed prompt is a user row; the reminder is not.
	var users []string
	for _, r := range rs {
		if r.TurnType == "user" {
			users = append(users, r.Host+":"+r.Text)
		}
		if r.TurnType == "thinking" {
			t.Fatalf("thinking row without --include-thinking: %+v", r)
		}
	}
	if strings.Join(users, "|") != "host-b:please run pwd|host-a:please run ls" {
		t.Fatalf("user rows %q", users)
	}
	var inv analyze.Inventory
	b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	if err := json.Unmarshal(b, &inv); err != nil {
		t.Fatal(err)
	}
	if len(inv.Sources) != 2 || inv.Sources[0].Verified != "all" || len(inv.Agents) != 2 || inv.Agents[0].Sessions != 1 || inv.Agents[0].ParseStatus != "parsed" {
		t.Fatalf("inventory %s", b)
	}
	// Every registered parser, with the version whose rows the output holds.
	all := parsers.All()
	if len(inv.Parsers) != len(all) {
		t.Fatalf("inventory parsers %+v, want %d", inv.Parsers, len(all))
	}
	for i, p := range all {
		if got := inv.Parsers[i]; got.ID != p.ID() || got.Agent != p.Agent() || got.Version != p.Version() || got.Version < 1 {
			t.Fatalf("inventory parser %d: %+v, want %s %s v%d", i, got, p.ID(), p.Agent(), p.Version())
		}
	}
}

func TestBrokenBundleAmongGoodOnes(t *testing.T) {
	dir := t.TempDir()
	makeBundle(t, dir, "good1.tar.zst", "h1", "id-1", []bundletest.File{claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-01-02", "ls", "x")})
	good2 := makeBundle(t, dir, "good2.tar.zst", "h2", "id-2", []bundletest.File{claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-01-03", "ls", "y")})
	// A broken bundle: a zstd frame holding garbage where bundle.json should be.
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	zw.Write([]byte("this is not a tar stream at all, just text padded out to be long enough"))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "broken.tar.zst"), buf.Bytes(), 0o644)
	// And one cut in half.
	b2, _ := os.ReadFile(good2)
	os.WriteFile(filepath.Join(dir, "cut.tar.zst"), b2[:len(b2)*2/3], 0o644)
	sum, out := run(t, analyze.Options{Inputs: []string{dir}, Jobs: 2})
	// The broken one is a damaged bundle (a zstd frame, then no
	// bundle.json), read only in part as the cut one is: nothing of it.
	if sum.Sources != 4 || sum.Failed != 0 || strings.Join(sum.CutShort, " ") != filepath.Join(dir, "broken.tar.zst")+" "+filepath.Join(dir, "cut.tar.zst") {
		t.Fatalf("sources %d failed %d cut %q: %+v", sum.Sources, sum.Failed, sum.CutShort, problems(t, out))
	}
	hosts := map[string]int{}
	for _, r := range rows(t, out) {
		hosts[r.Host]++
	}
	if hosts["h1"] == 0 || hosts["h2"] == 0 {
		t.Fatalf("good bundles not read: %v", hosts)
	}
	var got []string
	for _, p := range problems(t, out) {
		got = append(got, filepath.Base(p.Input)+" "+p.Kind+" "+p.SourceFile)
	}
	slices.Sort(got)
	want := []string{
		"broken.tar.zst truncated ",
		"cut.tar.zst no_manifest ",
		"cut.tar.zst truncated /home/bob/.claude/projects/-home-bob-proj/bbbb2222-0000-4000-8000-000000000002.jsonl",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHostileBundle(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	data := bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "files/../../" + strings.TrimPrefix(victim, "/"), Data: []byte("pwned")},
		{Name: victim, Data: []byte("pwned")},
		{Name: "C:/x/y", Data: []byte("pwned")},
		{Name: "files/link", Type: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "files/home/eve/.claude/projects/p/s.jsonl", Data: claudeSession("eeee0000-0000-4000-8000-000000000000", "/home/eve/p", "2026-02-01", "id", "uid=0"),
			PAX: map[string]string{"DOUBLEAGENT.path": "/home/eve/.claude/projects/p/s.jsonl", "DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "projects", "DOUBLEAGENT.kind": "transcript", "DOUBLEAGENT.user": "eve", "DOUBLEAGENT.home": "/home/eve"}},
		{Name: bundle.ManifestName, Data: bundletest.ManifestLine(t,
			bundle.Entry{Record: "file", Path: "/home/eve/.claude/projects/p/s.jsonl", ArchivePath: "files/home/eve/.claude/projects/p/s.jsonl", Size: 1, SHA256: strings.Repeat("0", 64), Status: "collected", Agent: "claude-code", User: "eve", Home: "/home/eve", Target: "projects", Kind: "transcript"},
			bundle.Summary{Record: "summary", Complete: true})},
	}, false)
	p := filepath.Join(dir, "hostile.tar.zst")
	os.WriteFile(p, data, 0o644)
	tmp := t.TempDir()
	sum, out := run(t, analyze.Options{Inputs: []string{p}, TempDir: tmp})
	if _, err := os.Stat(victim); err == nil {
		t.Fatal("a member was written outside the output folder")
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Fatalf("temporary folder not cleaned: %v", ents)
	}
	kinds := map[string]int{}
	for _, pr := range problems(t, out) {
		kinds[pr.Kind]++
	}
	if kinds[bundle.ProblemUnsafe] != 4 || kinds[bundle.ProblemChecksum] != 1 {
		t.Fatalf("problems %v", kinds)
	}
	// The mismatched transcript is still read (and flagged), never silent.
	if sum.Events == 0 {
		t.Fatal("no rows from the hostile bundle's transcript")
	}
	var inv analyze.Inventory
	b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	json.Unmarshal(b, &inv)
	if inv.Sources[0].Verified != "none" {
		t.Fatalf("verified %q", inv.Sources[0].Verified)
	}
}

func TestDecompressionBombFailsCleanly(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest))
	tw := tar.NewWriter(zw)
	hdr := []byte(`{"format_version":1,"bundle_id":"bomb","host":{"hostname":"bomb"}}`)
	tw.WriteHeader(&tar.Header{Name: bundle.HeaderName, Mode: 0o644, Size: int64(len(hdr)), Typeflag: tar.TypeReg})
	tw.Write(hdr)
	const size = 1 << 30
	tw.WriteHeader(&tar.Header{Name: "files/home/x/.claude/history.jsonl", Mode: 0o644, Size: size, Typeflag: tar.TypeReg, Format: tar.FormatPAX,
		PAXRecords: map[string]string{"DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "history", "DOUBLEAGENT.path": "/home/x/.claude/history.jsonl"}})
	zero := make([]byte, 1<<20)
	for i := 0; i < size/len(zero); i++ {
		tw.Write(zero)
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "bomb.tar.zst")
	os.WriteFile(p, buf.Bytes(), 0o644)
	_, out := run(t, analyze.Options{Inputs: []string{p}, Limits: &bundle.Options{MaxRatio: 50}})
	found := false
	for _, pr := range problems(t, out) {
		if pr.Kind == bundle.ProblemLimit {
			found = true
		}
	}
	if !found {
		t.Fatal("no size_limit problem for a decompression bomb")
	}
}

func TestFilters(t *testing.T) {
	dir := t.TempDir()
	p := makeBundle(t, dir, "f.tar.zst", "hf", "id-f", []bundletest.File{
		claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-03-01", "ls -la", "total 0"),
		claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-03-05", "cat /etc/shadow", "denied"),
	})
	count := func(o analyze.Options) []timeline.Row {
		o.Inputs = []string{p}
		_, out := run(t, o)
		return rows(t, out)
	}
	all := count(analyze.Options{})
	since := count(analyze.Options{Since: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)})
	until := count(analyze.Options{Until: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)})
	if len(since)+len(until) != len(all) || len(since) == 0 || len(until) == 0 {
		t.Fatalf("since %d + until %d != all %d", len(since), len(until), len(all))
	}
	for _, r := range since {
		if r.User != "bob" {
			t.Fatalf("--since kept %s's row", r.User)
		}
	}
	if u := count(analyze.Options{Users: []string{"alice"}}); len(u) != len(until) {
		t.Fatalf("--user alice %d rows, want %d", len(u), len(until))
	}
	if h := count(analyze.Options{Hosts: []string{"hf"}}); len(h) != len(all) {
		t.Fatalf("--host hf kept %d rows of %d", len(h), len(all))
	}
	th := count(analyze.Options{IncludeThinking: true})
	if len(th) != len(all)+2 {
		t.Fatalf("--include-thinking: %d rows, want %d", len(th), len(all)+2)
	}
	// --match on the command keeps the call and its paired result.
	m := count(analyze.Options{Match: regexp.MustCompile(`/etc/shadow`)})
	var types []string
	for _, r := range m {
		types = append(types, r.TurnType+":"+r.ToolUseID)
	}
	if strings.Join(types, ",") != "user:,tool_use:toolu_bbbb,tool_result:toolu_bbbb" {
		t.Fatalf("--match rows %v", types)
	}
}

// TestUndatedRowsKeptAndCounted: undated rows are kept by default (sorted
// last, time_basis none); --since/--until leave them out and say so in the
// summary, inventory and problems.jsonl; --keep-undated keeps them anyway.
func TestUndatedRowsKeptAndCounted(t *testing.T) {
	hist := []byte(`{"display":"typed with a time","timestamp":1767225600000,"project":"/p","sessionId":"s1"}` + "\n" + `{"display":"no time at all","project":"/p"}` + "\n")
	p := makeBundle(t, t.TempDir(), "u.tar.zst", "hu", "id-u", []bundletest.File{{Path: "/home/u/.claude/history.jsonl", Agent: "claude-code", Target: "history", Kind: "history", User: "u", Data: hist}})
	sum, out := run(t, analyze.Options{Inputs: []string{p}})
	a := rows(t, out)
	if len(a) != 2 || sum.Undated != 1 || sum.UndatedDropped != 0 {
		t.Fatalf("default: %d rows, %d undated, %d dropped", len(a), sum.Undated, sum.UndatedDropped)
	}
	last := a[len(a)-1]
	if last.TimestampUTC != "" || last.TimeBasis != "none" || last.Text != "no time at all" || last.Secondary != "true" {
		t.Fatalf("undated row %+v", last)
	}
	since := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sum2, out2 := run(t, analyze.Options{Inputs: []string{p}, Since: since})
	if b := rows(t, out2); len(b) != 1 || b[0].Text != "typed with a time" || sum2.UndatedDropped != 1 {
		t.Fatalf("--since: %+v, %d undated dropped", b, sum2.UndatedDropped)
	}
	probs := problems(t, out2)
	if len(probs) != 1 || probs[0].Kind != "undated_dropped" || probs[0].SourceFile != "/home/u/.claude/history.jsonl" ||
		probs[0].Message != "1 undated row(s) left out by --since/--until (the agent recorded no time for them; --keep-undated keeps them)" {
		t.Fatalf("problems %+v", probs)
	}
	if got := strings.Join(analyze.SummaryLines(sum2), "\n"); !strings.Contains(got, "\nundated rows left out by --since/--until: 1 (--keep-undated keeps them)\n") {
		t.Fatalf("summary lines %q", got)
	}
	var inv analyze.Inventory
	if b, err := os.ReadFile(filepath.Join(out2, analyze.InventoryJSON)); err != nil || json.Unmarshal(b, &inv) != nil {
		t.Fatalf("inventory: %v", err)
	}
	if len(inv.Agents) != 1 || inv.Agents[0].UndatedDropped != 1 {
		t.Fatalf("inventory agents %+v", inv.Agents)
	}
	_, out3 := run(t, analyze.Options{Inputs: []string{p}, Since: since, KeepUndated: true})
	if c := rows(t, out3); len(c) != 2 {
		t.Fatalf("--since --keep-undated: %d rows", len(c))
	}
}

func TestFormatsGoldenAndDeterministic(t *testing.T) {
	dir := t.TempDir()
	p := makeBundle(t, dir, "g.tar.zst", "golden-host", "0190cccc-0000-7000-8000-000000000003", []bundletest.File{
		claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-03-01", "ls -la", "total 0"),
		claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-03-01", "git status", "clean"),
	})
	for _, f := range []struct{ format, file string }{{"jsonl", analyze.TimelineJSONL}, {"csv", analyze.TimelineCSV}, {"timesketch", analyze.TimelineTimesketch}} {
		_, out1 := run(t, analyze.Options{Inputs: []string{p}, Format: f.format, Jobs: 1})
		_, out2 := run(t, analyze.Options{Inputs: []string{p}, Format: f.format, Jobs: 2, MemLimit: 1024})
		a, _ := os.ReadFile(filepath.Join(out1, f.file))
		b, _ := os.ReadFile(filepath.Join(out2, f.file))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: output differs between runs (jobs 1 in memory vs jobs 2 spilled)", f.format)
		}
		golden := filepath.Join("testdata", "formats."+f.file)
		if *parsertest.Update {
			os.WriteFile(golden, a, 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -update)", err)
		}
		if !bytes.Equal(a, want) {
			t.Fatalf("%s differs from %s (go test -update and review)", f.format, golden)
		}
		for _, name := range []string{analyze.SessionsJSONL, analyze.InventoryJSON, analyze.ProblemsJSONL} {
			x, _ := os.ReadFile(filepath.Join(out1, name))
			y, _ := os.ReadFile(filepath.Join(out2, name))
			if name != analyze.InventoryJSON && !bytes.Equal(x, y) {
				t.Fatalf("%s differs between runs", name)
			}
		}
	}
}

func TestLooseTreesAndExtracted(t *testing.T) {
	home := filepath.Join(t.TempDir(), "carol")
	proj := filepath.Join(home, ".claude", "projects", "-home-carol-p")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "cccc3333-0000-4000-8000-000000000003.jsonl"), claudeSession("cccc3333-0000-4000-8000-000000000003", "/home/carol/p", "2026-04-01", "whoami", "carol"), 0o644)
	// A copied home, and a lone .claude folder.
	for _, in := range []string{home, filepath.Join(home, ".claude")} {
		sum, out := run(t, analyze.Options{Inputs: []string{in}})
		rs := rows(t, out)
		if sum.Events == 0 || rs[0].User != "carol" || !strings.HasPrefix(rs[0].Host, "loose:") || !strings.HasSuffix(rs[0].SourceFile, ".jsonl") {
			t.Fatalf("%s: %d events, first %+v", in, sum.Events, rs)
		}
		var inv analyze.Inventory
		b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
		json.Unmarshal(b, &inv)
		if !inv.Sources[0].UsersInferred || inv.Sources[0].Kind != analyze.KindLoose {
			t.Fatalf("inventory source %+v", inv.Sources[0])
		}
	}
	// An image root with home/*.
	img := t.TempDir()
	ih := filepath.Join(img, "home", "dan", ".claude", "projects", "x")
	os.MkdirAll(ih, 0o755)
	os.WriteFile(filepath.Join(ih, "dddd4444-0000-4000-8000-000000000004.jsonl"), claudeSession("dddd4444-0000-4000-8000-000000000004", "/home/dan/x", "2026-04-02", "id", "dan"), 0o644)
	_, out := run(t, analyze.Options{Inputs: []string{img}})
	rs := rows(t, out)
	if len(rs) == 0 || rs[0].User != "dan" || !strings.HasPrefix(rs[0].SourceFile, "/home/dan/.claude/projects/x/") {
		t.Fatalf("image root rows %+v", rs)
	}
	// An extracted collection: unpack a bundle by hand.
	p := makeBundle(t, t.TempDir(), "e.tar.zst", "hx", "id-x", []bundletest.File{claudeFile("erin", "eeee5555-0000-4000-8000-000000000005", "2026-04-03", "uname", "Linux")})
	ext := filepath.Join(t.TempDir(), "extracted")
	extract(t, p, ext)
	sum, out := run(t, analyze.Options{Inputs: []string{ext}})
	if sum.Events == 0 || sum.Problems != 0 {
		t.Fatalf("extracted: %d events %d problems", sum.Events, sum.Problems)
	}
	if rs := rows(t, out); int64(len(rs)) != int64(sum.Events) || rs[0].User != "erin" || rs[0].Host != "hx" {
		t.Fatalf("extracted rows %+v", rs)
	}
	// Tamper with the extracted file: a checksum problem, never silence.
	matches, _ := filepath.Glob(filepath.Join(ext, "files", "home", "erin", ".claude", "projects", "*", "*.jsonl"))
	f, _ := os.OpenFile(matches[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n")
	f.Close()
	_, out = run(t, analyze.Options{Inputs: []string{ext}})
	if ps := problems(t, out); len(ps) != 1 || ps[0].Kind != bundle.ProblemChecksum {
		t.Fatalf("tampered extracted file: %+v", ps)
	}
}

func extract(t *testing.T, p, dst string) {
	t.Helper()
	f, _ := os.Open(p)
	defer f.Close()
	zr, _ := zstd.NewReader(f)
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		out := filepath.Join(dst, filepath.FromSlash(h.Name))
		os.MkdirAll(filepath.Dir(out), 0o755)
		b := new(bytes.Buffer)
		b.ReadFrom(tr)
		os.WriteFile(out, b.Bytes(), 0o644)
	}
}

func TestNoUsableInput(t *testing.T) {
	_, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{filepath.Join(t.TempDir(), "missing")}, OutDir: t.TempDir(), Parsers: parsers.All()})
	if err == nil {
		t.Fatal("a missing input gave no error")
	}
	p := filepath.Join(t.TempDir(), "plain.txt")
	os.WriteFile(p, []byte("hello"), 0o644)
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{p}, OutDir: t.TempDir(), Parsers: parsers.All()}); err == nil {
		t.Fatal("a plain file gave no error")
	}
}

// TestRepeatedRecordsInAnotherFileAppearOnce: a resumed Claude session's
// new file repeats earlier records; each event is written once.
func TestRepeatedRecordsInAnotherFileAppearOnce(t *testing.T) {
	id := "aaaa1111-0000-4000-8000-000000000001"
	orig := claudeFile("alice", id, "2026-05-01", "ls", "x")
	copyF := orig
	copyF.Path = strings.Replace(orig.Path, id+".jsonl", "ffff9999-0000-4000-8000-000000000009.jsonl", 1)
	p := makeBundle(t, t.TempDir(), "d.tar.zst", "hd", "id-d", []bundletest.File{orig, copyF})
	one := makeBundle(t, t.TempDir(), "o.tar.zst", "hd", "id-d", []bundletest.File{orig})
	// Thinking rows are repeated too: keep them so the count matches.
	sum, out := run(t, analyze.Options{Inputs: []string{p}, IncludeThinking: true})
	_, out1 := run(t, analyze.Options{Inputs: []string{one}, IncludeThinking: true})
	a, b := rows(t, out), rows(t, out1)
	if len(a) != len(b) || sum.Duplicates != len(b) {
		t.Fatalf("with the copy %d rows (%d duplicates), alone %d", len(a), sum.Duplicates, len(b))
	}
	// The summary line says so in plain words (issue 18).
	want := "repeats merged: 7 (7 by record id, 0 without an id by full value, 0 secondary rows as their primary row)"
	if got := analyze.SummaryLines(sum); !slices.Contains(got, want) {
		t.Errorf("summary lines\n got %q\nwant the line %q", got, want)
	}
}

// TestSecretKindFiles: a secret file reaches only a parser that declares it
// reads named non-secret keys, and no secret value reaches any output.
func TestSecretKindFiles(t *testing.T) {
	const key = "sk-live-SECRET-0123456789"
	crushJSON := []byte(`{"providers":{"openai":{"api_key":"` + key + `"}},"permissions":{"allowed_tools":["bash"]}}`)
	creds := []byte(`{"claudeAiOauth":{"accessToken":"` + key + `"}}`)
	p := makeBundle(t, t.TempDir(), "s.tar.zst", "hs", "id-s", []bundletest.File{
		{Path: "/home/s/.config/crush/crush.json", Agent: "crush", Target: "config", Kind: "secret", User: "s", Data: crushJSON, MTime: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)},
		{Path: "/home/s/.claude/.credentials.json", Agent: "claude-code", Target: "credentials", Kind: "secret", User: "s", Data: creds, MTime: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)},
	})
	_, out := run(t, analyze.Options{Inputs: []string{p}, KeepUndated: true})
	var texts []string
	for _, r := range rows(t, out) {
		texts = append(texts, r.Parser+": "+r.Text)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "crush/config: permission setting: permissions.allowed_tools=bash") {
		t.Fatalf("rows %q", texts)
	}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(out, e.Name()))
		if bytes.Contains(b, []byte(key)) {
			t.Fatalf("%s holds the secret value", e.Name())
		}
	}
}

// TestDuplicateMemberForgery: a forged copy placed before the genuine one
// under the same name is never shown as verified, and the copy the
// manifest's hash names is the one parsed.
func TestDuplicateMemberForgery(t *testing.T) {
	genuine := claudeSession("aaaa1111-0000-4000-8000-000000000001", "/home/a/p", "2026-08-01", "ls", "genuine")
	forged := claudeSession("aaaa1111-0000-4000-8000-000000000001", "/home/a/p", "2026-08-01", "ls", "FORGED")
	pax := map[string]string{"DOUBLEAGENT.path": "/home/a/.claude/projects/p/s.jsonl", "DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "projects", "DOUBLEAGENT.kind": "transcript", "DOUBLEAGENT.user": "a", "DOUBLEAGENT.home": "/home/a"}
	h := sha256.Sum256(genuine)
	data := bundletest.RawBundle(t, []bundletest.Raw{
		{Name: "files/home/a/.claude/projects/p/s.jsonl", Data: forged, PAX: pax},
		{Name: "files/home/a/.claude/projects/p/s.jsonl", Data: genuine, PAX: pax},
		{Name: bundle.ManifestName, Data: bundletest.ManifestLine(t,
			bundle.Entry{Record: "file", Path: "/home/a/.claude/projects/p/s.jsonl", ArchivePath: "files/home/a/.claude/projects/p/s.jsonl", Size: int64(len(genuine)), SHA256: hex.EncodeToString(h[:]), Status: "collected", Agent: "claude-code", User: "a"},
			bundle.Summary{Record: "summary", Complete: true})},
	}, false)
	p := filepath.Join(t.TempDir(), "dup.tar.zst")
	os.WriteFile(p, data, 0o644)
	_, out := run(t, analyze.Options{Inputs: []string{p}})
	for _, r := range rows(t, out) {
		if strings.Contains(r.Text, "FORGED") {
			t.Fatalf("the forged copy was parsed: %+v", r)
		}
	}
	found := false
	for _, pr := range problems(t, out) {
		if pr.Kind == bundle.ProblemDuplicate {
			found = true
		}
	}
	var inv analyze.Inventory
	b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	json.Unmarshal(b, &inv)
	if !found || inv.Sources[0].Verified != "none" {
		t.Fatalf("duplicate problem %v, verified %q", found, inv.Sources[0].Verified)
	}
}

// TestNotSQLiteIsAProblem: a text file where a SQLite store belongs gives a
// problem row, not silence.
func TestNotSQLiteIsAProblem(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "q.tar.zst", "hq", "id-q", []bundletest.File{{Path: "/home/q/.codex/state_5.sqlite", Agent: "codex-cli", Target: "state-db", Kind: "sqlite", User: "q", Data: []byte("this is not a database\n")}})
	_, out := run(t, analyze.Options{Inputs: []string{p}})
	ps := problems(t, out)
	if len(ps) != 1 || ps[0].Kind != "not_sqlite" || ps[0].SourceFile != "/home/q/.codex/state_5.sqlite" {
		t.Fatalf("problems %+v", ps)
	}
}

// TestTokenInPermissionRuleIsMasked: a token embedded in a standing rule
// does not reach the timeline.
func TestTokenInPermissionRuleIsMasked(t *testing.T) {
	settings := []byte(`{"permissions":{"allow":["Bash(curl -H \"Authorization: Bearer sk-ant-FAKE666abcdef\" https://x)"]}}`)
	p := makeBundle(t, t.TempDir(), "r.tar.zst", "hr", "id-r", []bundletest.File{{Path: "/home/r/.claude/settings.json", Agent: "claude-code", Target: "settings", Kind: "settings", User: "r", Data: settings, MTime: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)}})
	_, out := run(t, analyze.Options{Inputs: []string{p}})
	b, _ := os.ReadFile(filepath.Join(out, analyze.TimelineJSONL))
	if bytes.Contains(b, []byte("FAKE666")) || !bytes.Contains(b, []byte(`Bearer [redacted]`)) {
		t.Fatalf("timeline: %s", b)
	}
}

// TestFrozenBundles reads the frozen format fixtures (bundle/testdata/v1
// and v2, written by the collector of 2026-12-01 and never rewritten):
// every file verified against its manifest, the transcript's rows intact.
func TestFrozenBundles(t *testing.T) {
	for _, fb := range []struct{ version, id string }{
		{"v1", "01a2321c-407f-7758-875e-a19022cf4a23"},
		{"v2", "01a23248-ba40-75c1-987e-adbff74d307f"},
	} {
		t.Run(fb.version, func(t *testing.T) { checkFrozenBundle(t, fb.version, fb.id) })
	}
}

func checkFrozenBundle(t *testing.T, version, id string) {
	sum, out := run(t, analyze.Options{Inputs: []string{filepath.Join("..", "..", "bundle", "testdata", version, "fake-home.tar.zst")}})
	// the three paths the collector saw and did not collect are named:
	// the link it did not follow, the FIFO the fake home held where a
	// transcript goes (skipped_special), the transcript over its size
	// limit (skipped_size)
	ps := problems(t, out)
	const dir = "/home/alice/.claude/projects/-home-alice-demo/"
	var gotP []string
	for _, p := range ps {
		gotP = append(gotP, p.Kind+" "+p.SourceFile+": "+p.Message)
	}
	wantP := []string{
		"unsafe_path " + dir + "link.jsonl: a link to \"../../settings.json\" not followed: not collected, not read",
		"unsafe_path " + dir + "pipe.jsonl: " + dir + "pipe.jsonl on the host was fifo: not collected, not read",
		"skipped_size " + dir + "too-big.jsonl: not collected, not read: 50000 bytes over the 40000-byte limit (--full lifts it)",
	}
	if sum.Problems != 3 || strings.Join(gotP, "\n") != strings.Join(wantP, "\n") {
		t.Fatalf("%d problems:\n%s\nwant\n%s", sum.Problems, strings.Join(gotP, "\n"), strings.Join(wantP, "\n"))
	}
	want := map[string]bool{
		"claude-code/transcript user list the files":                     false,
		"claude-code/transcript tool_use ls":                             false,
		"claude-code/transcript tool_result a.txt\nb.txt":                false,
		"codex-cli/history user hello codex":                             false,
		"codex-cli/state-db system thread record: title=\"hello codex\"": false,
	}
	for _, r := range rows(t, out) {
		if r.Host != "fixture-"+version || r.User != "alice" || r.BundleID != id || r.Verified != "true" {
			t.Errorf("row %+v", r)
		}
		k := r.Parser + " " + r.TurnType + " " + r.Text
		if seen, ok := want[k]; ok {
			if seen {
				t.Errorf("row twice: %s", k)
			}
			want[k] = true
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("no row %q", k)
		}
	}
	var inv analyze.Inventory
	b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	if err := json.Unmarshal(b, &inv); err != nil {
		t.Fatal(err)
	}
	if len(inv.Sources) != 1 || inv.Sources[0].Verified != "all" || inv.Sources[0].Host != "fixture-"+version {
		t.Fatalf("sources %+v", inv.Sources)
	}
}

// TestExaminerFilters: --turn-type, --hide, --session and --action keep
// exactly the rows asked for; a --host, --user or --agent that names
// nothing the input holds is an error listing what it holds.
func TestExaminerFilters(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "x.tar.zst", "hx", "id-x", []bundletest.File{
		claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-03-01", "ls -la", "total 0"),
		claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-03-05", "whoami", "bob"),
		// A Codex session: its parser also records the session's state
		// (origin local), so it is a session even where no row is kept.
		{Path: "/home/carol/.codex/sessions/2026/03/06/rollout-2026-03-06T10-00-00-0195cccc-0000-7000-8000-000000000003.jsonl", Agent: "codex-cli", Target: "sessions", User: "carol",
			Data: []byte(`{"timestamp":"2026-03-06T10:00:00.000Z","type":"session_meta","payload":{"id":"0195cccc-0000-7000-8000-000000000003","timestamp":"2026-03-06T10:00:00.000Z","cwd":"/home/carol/p","originator":"codex_cli_rs","cli_version":"0.160.0","source":"cli"}}` + "\n" +
				`{"timestamp":"2026-03-06T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}` + "\n"),
			MTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
	})
	kinds := func(o analyze.Options) string {
		o.Inputs = []string{p}
		_, out := run(t, o)
		var s []string
		for _, r := range rows(t, out) {
			s = append(s, r.User+":"+r.TurnType+":"+r.Action)
		}
		return strings.Join(s, " ")
	}
	if got := kinds(analyze.Options{TurnTypes: []string{"user", "tool_use"}}); got != "alice:user: alice:tool_use:execute bob:user: bob:tool_use:execute carol:user:" {
		t.Errorf("--turn-type user,tool_use: %s", got)
	}
	if got := kinds(analyze.Options{Hide: []string{"system", "assistant", "user"}}); got != "alice:tool_use:execute alice:tool_result:execute bob:tool_use:execute bob:tool_result:execute" {
		t.Errorf("--hide: %s", got)
	}
	if got := kinds(analyze.Options{Sessions: []string{"bbbb2222-0000-4000-8000-000000000002"}, Actions: []string{"execute"}}); got != "bob:tool_use:execute bob:tool_result:execute" {
		t.Errorf("--session --action: %s", got)
	}
	// sessions.jsonl and the summary's count follow every row filter: a
	// session none of whose rows is kept is not listed (it once was, with
	// events 0, under --session, --turn-type, --hide and --action).
	for _, o := range []analyze.Options{
		{Sessions: []string{"bbbb2222-0000-4000-8000-000000000002"}},
		{Sessions: []string{"bbbb2222-0000-4000-8000-000000000002"}, Actions: []string{"execute"}},
		{Sessions: []string{"bbbb2222-0000-4000-8000-000000000002"}, TurnTypes: []string{"user"}},
		{Sessions: []string{"bbbb2222-0000-4000-8000-000000000002"}, Hide: []string{"system"}},
	} {
		o.Inputs = []string{p}
		sum, out := run(t, o)
		b, err := os.ReadFile(filepath.Join(out, analyze.SessionsJSONL))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s timeline.Session
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s:%s:%d", s.User, s.SessionID, s.Events))
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "bob:bbbb2222-0000-4000-8000-000000000002:") || strings.HasSuffix(got[0], ":0") || sum.Sessions != 1 {
			t.Errorf("--session %v --action %v --turn-type %v --hide %v: sessions %v (summary %d), want bob's alone", o.Sessions, o.Actions, o.TurnTypes, o.Hide, got, sum.Sessions)
		}
	}
	for _, c := range []struct {
		o    analyze.Options
		want string
	}{
		{analyze.Options{Agents: []string{"claudecode"}}, "--agent claudecode: not in the input; it holds claude-code, codex-cli"},
		{analyze.Options{Users: []string{"ALICE", "bob"}}, "--user ALICE: not in the input; it holds alice, bob, carol"},
		{analyze.Options{Hosts: []string{"nope"}}, "--host nope: not in the input; it holds hx"},
	} {
		c.o.Inputs, c.o.OutDir, c.o.Parsers = []string{p}, filepath.Join(t.TempDir(), "out"), parsers.All()
		_, err := analyze.Timeline(context.Background(), c.o)
		var un *analyze.UnknownNameError
		if !errors.As(err, &un) || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestHiddenRowsCounted: the rows the turn-type filters leave out
// (thinking by default, --hide, --turn-type) are counted per turn type in
// the summary and run.json and per file in the inventory; rows another
// filter leaves out (--user) are not counted as hidden.
func TestHiddenRowsCounted(t *testing.T) {
	p := makeBundle(t, t.TempDir(), "h.tar.zst", "hh", "id-h", []bundletest.File{
		claudeFile("alice", "aaaa1111-0000-4000-8000-000000000001", "2026-03-01", "ls -la", "total 0"),
		claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-03-05", "whoami", "bob"),
	})
	check := func(o analyze.Options, want map[string]int, wantLine string, perFile string) {
		t.Helper()
		o.Inputs = []string{p}
		sum, out := run(t, o)
		if fmt.Sprint(sum.Hidden) != fmt.Sprint(want) {
			t.Errorf("%v %v: hidden %v, want %v", o.Hide, o.Users, sum.Hidden, want)
		}
		var line string
		for _, l := range analyze.SummaryLines(sum) {
			if strings.HasPrefix(l, "rows hidden") {
				line = l
			}
		}
		if line != wantLine {
			t.Errorf("%v %v: summary line %q, want %q", o.Hide, o.Users, line, wantLine)
		}
		var rec struct {
			Summary struct {
				RowsHidden int            `json:"rows_hidden"`
				ByType     map[string]int `json:"rows_hidden_by_turn_type"`
			} `json:"summary"`
		}
		b, _ := os.ReadFile(filepath.Join(out, "run.json"))
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range want {
			n += v
		}
		if rec.Summary.RowsHidden != n || fmt.Sprint(rec.Summary.ByType) != fmt.Sprint(want) {
			t.Errorf("%v %v: run.json %+v, want %d %v", o.Hide, o.Users, rec.Summary, n, want)
		}
		var inv analyze.Inventory
		b, _ = os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
		if err := json.Unmarshal(b, &inv); err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, f := range inv.Files {
			files = append(files, fmt.Sprintf("%s rows=%d hidden=%d kept=%d %v", strings.Split(f.SourceFile, "/")[2], f.Rows, f.RowsHidden, f.RowsKept, f.Hidden))
		}
		if got := strings.Join(files, "; "); got != perFile {
			t.Errorf("%v %v: inventory files %s, want %s", o.Hide, o.Users, got, perFile)
		}
	}
	check(analyze.Options{}, map[string]int{"thinking": 2},
		"rows hidden by turn type: 2: thinking 2 (--include-thinking shows them); counted per file in inventory.json (rows_hidden)",
		"alice rows=7 hidden=1 kept=6 map[thinking:1]; bob rows=7 hidden=1 kept=6 map[thinking:1]")
	check(analyze.Options{IncludeThinking: true}, map[string]int{}, "", "alice rows=7 hidden=0 kept=0 map[]; bob rows=7 hidden=0 kept=0 map[]")
	check(analyze.Options{Hide: []string{"tool_result"}, Users: []string{"alice"}}, map[string]int{"thinking": 1, "tool_result": 1},
		"rows hidden by turn type: 2: thinking 1 (--include-thinking shows them), tool_result 1 (--hide/--turn-type); counted per file in inventory.json (rows_hidden)",
		"alice rows=7 hidden=2 kept=5 map[thinking:1 tool_result:1]; bob rows=7 hidden=0 kept=0 map[]")
}
