package inputs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
)

// TestExpandFolderOfEvidence: a folder of evidence gives each bundle as a
// unit and accounts for every other evidence-shaped entry (an empty file
// named like a bundle, a bundle with the bytes of another, a sidecar with
// and without its bundle), and a bundle of it given again is read once;
// entries not shaped like evidence are not read.
func TestExpandFolderOfEvidence(t *testing.T) {
	dir := t.TempDir()
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("a.tar.zst", frame)
	write("b.tar.zst", frame)
	write("empty.tar.zst", nil)
	write("a.tar.zst.sha256", []byte("x"))
	write("gone.tar.zst.sha256", []byte("x"))
	write("notes.txt", []byte("not evidence"))
	x := inputs.Expand([]string{dir, filepath.Join(dir, "a.tar.zst")})
	got := ""
	for _, u := range x.Units {
		got += u.Kind + " " + filepath.Base(u.Path) + "\n"
	}
	for _, st := range x.Statuses {
		got += st.Status + " " + st.Kind + " " + filepath.Base(st.Input) + ": " + strings.ReplaceAll(st.Reason, dir+"/", "") + "\n"
	}
	for _, p := range x.Problems {
		got += "problem " + p.Kind + " " + filepath.Base(p.Input) + "\n"
	}
	want := `bundle a.tar.zst
unusable bundle empty.tar.zst: empty (0 bytes): no bundle can be read from it (a failed or unfinished copy?)
sidecar sidecar a.tar.zst.sha256: checked with its bundle a.tar.zst
unusable sidecar gone.tar.zst.sha256: a .sha256 sidecar whose bundle gone.tar.zst is not beside it: the bundle it vouches for is missing
duplicate bundle a.tar.zst: the same input as a.tar.zst: read once
duplicate bundle b.tar.zst: the same bundle as a.tar.zst (the same bytes, sha256 1926c216b736b2624d7b59f9c18fa21285c6d03fa167cfc8a7c3195dc9c0e9bd): read once
problem unusable_input empty.tar.zst
problem unusable_input gone.tar.zst.sha256
problem duplicate_input a.tar.zst
problem duplicate_input b.tar.zst
`
	if got != want {
		t.Errorf("expansion:\n%s\nwant:\n%s", got, want)
	}
	st := x.Account(x.Units, []error{nil})
	if len(st) != 6 || st[0].Status != inputs.InputRead || filepath.Base(st[0].Input) != "a.tar.zst" || st[1].Status != inputs.InputDuplicate {
		t.Errorf("accounting: %+v", st)
	}
}

// TestNothingUnseenPlainInputErrors: a missing input, or one below a file,
// is unusable in plain words (no raw stat error), as a status and a
// problem row.
func TestNothingUnseenPlainInputErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing, below := filepath.Join(dir, "missing"), filepath.Join(file, "x")
	x := inputs.Expand([]string{missing, below})
	var got []string
	for _, st := range x.Statuses {
		got = append(got, st.Status+" "+st.Input+": "+st.Reason)
	}
	for _, p := range x.Problems {
		got = append(got, "problem "+p.Kind+" "+p.Input+": "+p.Message)
	}
	want := []string{
		"unusable " + missing + ": no such file or folder: " + missing,
		"unusable " + below + ": no such file or folder: " + below + " (a part of the path is a file)",
		"problem unusable_input " + missing + ": no such file or folder: " + missing,
		"problem unusable_input " + below + ": no such file or folder: " + below + " (a part of the path is a file)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExpandFolderNamedLikeABundle: in a folder of evidence, a folder named
// like a bundle that is not an extracted collection (empty, or holding
// something else) is unusable with its reason, where before it was
// passed over, counted nowhere; a home whose project folder is so named is
// still a home.
func TestExpandFolderNamedLikeABundle(t *testing.T) {
	dir := t.TempDir()
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3}
	os.WriteFile(filepath.Join(dir, "a.tar.zst"), frame, 0o600)
	os.Mkdir(filepath.Join(dir, "empty.tar.zst"), 0o755)
	os.MkdirAll(filepath.Join(dir, "other.tar"), 0o755)
	os.WriteFile(filepath.Join(dir, "other.tar", "readme"), []byte("x"), 0o600)
	x := inputs.Expand([]string{dir})
	got := ""
	for _, u := range x.Units {
		got += u.Kind + " " + filepath.Base(u.Path) + "\n"
	}
	for _, st := range x.Statuses {
		got += st.Status + " " + st.Kind + " " + filepath.Base(st.Input) + ": " + st.Reason + "\n"
	}
	for _, p := range x.Problems {
		got += "problem " + p.Kind + " " + filepath.Base(p.Input) + "\n"
	}
	why := ": a folder named like a bundle, not shaped like an extracted collection (no bundle.json, manifest.jsonl, log.jsonl or files/ of original paths): not read\n"
	want := "bundle a.tar.zst\nunusable bundle empty.tar.zst" + why + "unusable bundle other.tar" + why + "problem unusable_input empty.tar.zst\nproblem unusable_input other.tar\n"
	if got != want {
		t.Errorf("expansion:\n%s\nwant:\n%s", got, want)
	}
	home := filepath.Join(t.TempDir(), "alice")
	os.MkdirAll(filepath.Join(home, ".claude", "projects"), 0o755)
	os.Mkdir(filepath.Join(home, "backup.tar"), 0o755)
	x = inputs.Expand([]string{home})
	if len(x.Units) != 1 || x.Units[0].Kind != inputs.KindLoose || len(x.Statuses) != 0 {
		t.Errorf("a home with a folder named backup.tar: units %+v, statuses %+v", x.Units, x.Statuses)
	}
}
