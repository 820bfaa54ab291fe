package parsertest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// VersionsFile records, per parser id of a package, the parser's Version
// and the SHA-256 of each golden file its tests compare with. Main checks
// it after the package's tests, so a golden that changes while the
// parser's Spec.Version stays the same fails the run: rows that change say
// so in the version written into inventory.json.
const VersionsFile = "testdata/versions.json"

// GoldenGlob matches the golden files of a package (under testdata).
const GoldenGlob = "*.golden*"

// VersionRecord is one parser's entry in VersionsFile.
type VersionRecord struct {
	Version int               `json:"version"`
	Goldens map[string]string `json:"goldens"` // slash path from the package folder -> sha256
}

// goldenLog is what a test binary's Golden calls read.
type goldenLog struct {
	sync.Mutex
	opened   map[string]map[string]bool // parser id -> golden paths
	versions map[string]int             // parser id -> Version() seen
}

func newGoldenLog() *goldenLog {
	return &goldenLog{opened: map[string]map[string]bool{}, versions: map[string]int{}}
}

var goldens = newGoldenLog()

// recordGolden notes that a test compared p's output with golden.
func recordGolden(p parser.Parser, golden string) { goldens.record(p.ID(), p.Version(), golden) }

func (l *goldenLog) record(id string, version int, golden string) {
	rel := golden
	if filepath.IsAbs(rel) {
		if wd, err := os.Getwd(); err == nil {
			if r, err := filepath.Rel(wd, rel); err == nil {
				rel = r
			}
		}
	}
	rel = path.Clean(filepath.ToSlash(rel))
	l.Lock()
	defer l.Unlock()
	if l.opened[id] == nil {
		l.opened[id] = map[string]bool{}
	}
	l.opened[id][rel] = true
	l.versions[id] = version
}

// Main runs a parser package's tests (call it from TestMain), then checks
// its goldens against VersionsFile:
//
//   - a golden whose content differs from the recorded hash while its
//     parser's Version is unchanged fails the run, with -update too (bump
//     Spec.Version, then go test -update records the new hashes);
//   - a new parser, a bumped version or a new golden is recorded by
//     -update and fails the run without it (the file must be committed);
//   - after a complete run (no -run, -skip or -fuzz), a golden file under
//     testdata that no test read, or a recorded golden or parser that no
//     test read, fails the run: delete the orphan (-update drops stale
//     records, never a golden file).
func Main(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := goldens.check(*Update, completeRun()); err != nil {
			fmt.Fprintf(os.Stderr, "--- FAIL: goldens and parser versions (%s)\n%v\n", VersionsFile, err)
			fmt.Println("FAIL")
			code = 1
		}
	}
	os.Exit(code)
}

// completeRun reports whether every test of the package ran.
func completeRun() bool {
	for _, name := range []string{"test.run", "test.skip", "test.fuzz", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

func fileSum(p string) (string, bool) {
	b, err := os.ReadFile(filepath.FromSlash(p))
	if err != nil {
		return "", false
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), true
}

// ReadVersions reads a VersionsFile; a missing file is an empty record.
func ReadVersions(file string) (map[string]VersionRecord, error) {
	rec := map[string]VersionRecord{}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return rec, nil
}

func (l *goldenLog) check(update, complete bool) error {
	l.Lock()
	defer l.Unlock()
	rec, err := ReadVersions(VersionsFile)
	if err != nil {
		return err
	}
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	next := map[string]VersionRecord{}
	for id, r := range rec {
		next[id] = r
	}
	ids := make([]string, 0, len(l.versions))
	for id := range l.versions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		version := l.versions[id]
		old, known := rec[id]
		cur := VersionRecord{Version: version, Goldens: map[string]string{}}
		var changed []string
		for g := range old.Goldens {
			if !l.opened[id][g] && !complete {
				cur.Goldens[g] = old.Goldens[g] // not read by this partial run
			}
		}
		for g := range l.opened[id] {
			sum, ok := fileSum(g)
			if !ok {
				continue // Golden itself failed the test
			}
			cur.Goldens[g] = sum
			if prev, ok := old.Goldens[g]; ok && prev != sum {
				changed = append(changed, g)
			}
		}
		sort.Strings(changed)
		switch {
		case !known:
			if !update {
				fail("%s (version %d) is not recorded: run go test -update and commit %s", id, version, VersionsFile)
				continue
			}
		case version < old.Version:
			fail("%s: Spec.Version %d is below the recorded %d: versions only go up", id, version, old.Version)
			continue
		case len(changed) > 0 && version == old.Version:
			fail("%s: golden output changed (%s) but Spec.Version is still %d: bump it, then run go test -update", id, strings.Join(changed, ", "), version)
			continue
		case !sameRecord(old, cur):
			if !update {
				fail("%s: %s is out of date (version %d, recorded %d; goldens added, removed or rewritten): run go test -update and commit it", id, VersionsFile, version, old.Version)
				continue
			}
		}
		next[id] = cur
	}
	if complete {
		for id := range rec {
			if _, ok := l.versions[id]; !ok {
				if !update {
					fail("%s: recorded in %s, but no test compared its output with a golden: run go test -update", id, VersionsFile)
				}
				delete(next, id)
			}
		}
		orphans, err := l.orphans()
		if err != nil {
			return err
		}
		for _, o := range orphans {
			fail("%s: golden file no test reads (orphaned): delete it, or compare a test's output with it", o)
		}
	}
	if update && len(errs) == 0 {
		if err := writeVersions(next); err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

func sameRecord(a, b VersionRecord) bool {
	if a.Version != b.Version || len(a.Goldens) != len(b.Goldens) {
		return false
	}
	for k, v := range a.Goldens {
		if b.Goldens[k] != v {
			return false
		}
	}
	return true
}

// orphanGoldens lists the golden files under testdata that no test read.
func (l *goldenLog) orphans() ([]string, error) {
	read := map[string]bool{}
	for _, gs := range l.opened {
		for g := range gs {
			read[g] = true
		}
	}
	var out []string
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "testdata" {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		if ok, _ := path.Match(GoldenGlob, d.Name()); ok && !read[filepath.ToSlash(p)] {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func writeVersions(rec map[string]VersionRecord) error {
	if len(rec) == 0 {
		err := os.Remove(VersionsFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return err
	}
	if old, err := os.ReadFile(VersionsFile); err == nil && bytes.Equal(old, b.Bytes()) {
		return nil
	}
	return os.WriteFile(VersionsFile, b.Bytes(), 0o644)
}
