package analyze

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/bundle"
)

// Input statuses (InputStatus.Status): what became of each input given,
// and of each entry of a folder given that is named or shaped like
// evidence.
const (
	InputRead      = "read"      // read (its own problems are in problems.jsonl)
	InputUnusable  = "unusable"  // nothing read from it; Reason says why
	InputDuplicate = "duplicate" // the same input or the same bytes as another: read once, as that one
	InputSidecar   = "sidecar"   // a .sha256 sidecar, checked with the bundle beside it
)

// Problem kinds of the input accounting.
const (
	KindUnusableInput  = "unusable_input"
	KindDuplicateInput = "duplicate_input"
)

// InputStatus is one input given, or one entry of a folder given that is
// named or shaped like evidence (*.tar.zst, *.tzst, *.tar, *.zst, a file
// starting with a zstd frame, a folder shaped like an extracted
// collection, a .sha256 sidecar), and what became of it. Every one is
// listed in run.json (inputs_given) and the summary; the unusable ones are
// also problem rows and inventory sources.
type InputStatus struct {
	Input string `json:"input"`
	// Folder is the folder given, when Input is an entry of it.
	Folder string `json:"folder"`
	Kind   string `json:"kind"` // bundle, extracted, loose, sidecar, or unknown
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// InputKindSidecar and InputKindUnknown are InputStatus kinds for what is not read
// as a source.
const (
	InputKindSidecar = "sidecar"
	InputKindUnknown = "unknown"
)

// evidenceSuffixes name files an examiner would take for bundles.
var evidenceSuffixes = []string{".tar.zst", ".tzst", ".tar", ".zst", ".age"}

func evidenceName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range evidenceSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// extractedTop are the first elements of original paths under files/
// (files/home/alice/..., files/Users/..., files/root/..., files/C/...).
var extractedTop = map[string]bool{"home": true, "Users": true, "root": true, "var": true, "private": true, "mnt": true, "opt": true, "srv": true, "tmp": true}

// isExtracted reports whether p is shaped like an extracted collection:
// it holds bundle.json, manifest.jsonl or log.jsonl, or a files/ folder
// whose entries are the first elements of original paths (home, Users,
// root, var, a drive letter, ...). Nothing is opened (a FIFO named
// bundle.json cannot block): openExtracted opens them by the evidence
// rule and says what is wrong. Such a folder is never read as a loose
// home: one whose bundle.json is missing or damaged is an unusable input.
func isExtracted(p string) bool {
	for _, n := range []string{bundle.HeaderName, bundle.ManifestName, bundle.LogName} {
		if _, err := os.Lstat(filepath.Join(p, n)); err == nil {
			return true
		}
	}
	fi, err := os.Lstat(filepath.Join(p, "files"))
	if err != nil || !fi.IsDir() {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(p, "files"))
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := e.Name()
		if extractedTop[n] || (len(n) == 1 && (n[0] >= 'A' && n[0] <= 'Z' || n[0] >= 'a' && n[0] <= 'z')) {
			return true
		}
	}
	return false
}

// notBundleReason says why a file named like a bundle (or given as one)
// is not one, from its size and first bytes. f is open; size its size.
func notBundleReason(f *os.File, size int64) string {
	if size == 0 {
		return "empty (0 bytes): no bundle can be read from it (a failed or unfinished copy?)"
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if n >= 262 && bytes.Equal(head[257:262], []byte("ustar")) {
		return "a tar archive without zstd compression, not a bundle (a bundle is a tar stream compressed with zstd): compress it with zstd, or extract it and give the folder"
	}
	k := min(n, 4)
	return fmt.Sprintf("does not start with a zstd frame (first bytes % x, where a bundle starts 28 b5 2f fd): damaged, or not a bundle", head[:k])
}

// rejectFile says why the regular file p (named like evidence) cannot be
// read as a bundle.
func rejectFile(p string) string {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return "cannot be opened: " + err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "cannot be read: " + err.Error()
	}
	return notBundleReason(f, fi.Size())
}

// expansion is what the inputs given expand to: the units to read, and
// the status of every input and evidence-shaped folder entry not read as
// a unit (unusable, duplicate, sidecar), with their problem rows.
type expansion struct {
	units    []unit
	statuses []InputStatus
	problems []Problem
}

func (x *expansion) reject(st InputStatus) {
	st.Status = InputUnusable
	x.statuses = append(x.statuses, st)
	x.problems = append(x.problems, Problem{Input: st.Input, Kind: KindUnusableInput, Message: st.Reason})
}

// expandInputs classifies every input given (see expandFolder for a
// folder) and drops repeats: the same path (links resolved), the same
// file, or a bundle whose bytes another bundle given has, is read once
// and is a duplicate_input problem row.
func expandInputs(paths []string) *expansion {
	x := &expansion{}
	// sidecars given: a .sha256 is accounted for by its bundle.
	given := map[string]bool{}
	for _, in := range paths {
		if a, err := resolvedAbs(in); err == nil {
			given[a] = true
		}
	}
	for _, in := range paths {
		fi, err := os.Stat(in)
		switch {
		case err != nil:
			x.reject(InputStatus{Input: in, Kind: InputKindUnknown, Reason: err.Error()})
		case fi.IsDir():
			x.expandFolder(in)
		case !fi.Mode().IsRegular():
			// Never opened: a FIFO would block the sniff.
			x.reject(InputStatus{Input: in, Kind: InputKindUnknown, Reason: inputs.KindOf(fi.Mode()) + ", not a bundle file or a folder: not read"})
		case strings.HasSuffix(strings.ToLower(in), ".sha256"):
			x.sidecar(in, "", given)
		case isBundleFile(in):
			x.units = append(x.units, unit{path: in, kind: KindBundle})
		case evidenceName(in):
			x.reject(InputStatus{Input: in, Kind: KindBundle, Reason: rejectFile(in)})
		default:
			// A single file, read with --agent as that agent's file
			// (openLoose says what is missing otherwise).
			x.units = append(x.units, unit{path: in, kind: KindLoose})
		}
	}
	x.dedup()
	return x
}

// sidecar accounts for a .sha256 file: checked with its bundle when the
// bundle is beside it (or given), unusable otherwise.
func (x *expansion) sidecar(p, folder string, given map[string]bool) {
	b := p[:len(p)-len(".sha256")]
	a, _ := resolvedAbs(b)
	if _, err := os.Lstat(b); err == nil || given[a] {
		x.statuses = append(x.statuses, InputStatus{Input: p, Folder: folder, Kind: InputKindSidecar, Status: InputSidecar, Reason: "checked with its bundle " + b})
		return
	}
	x.reject(InputStatus{Input: p, Folder: folder, Kind: InputKindSidecar, Reason: "a .sha256 sidecar whose bundle " + filepath.Base(b) + " is not beside it: the bundle it vouches for is missing"})
}

// expandFolder reads a folder given: an extracted collection, a folder of
// evidence, or a loose tree. A folder of evidence is one with an entry
// named or shaped like evidence: each such entry is a unit (a file
// starting with a zstd frame, a folder shaped like an extracted
// collection) or an unusable input with its reason (a file named like a
// bundle that is not one, an empty file, a link or a FIFO so named, a
// .sha256 sidecar whose bundle is not there). Its other entries are not
// read (a folder of evidence is never also a loose home).
func (x *expansion) expandFolder(p string) {
	if isExtracted(p) {
		x.units = append(x.units, unit{path: p, kind: KindExtracted})
		return
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		x.reject(InputStatus{Input: p, Kind: InputKindUnknown, Reason: err.Error()})
		return
	}
	var units []unit
	var statuses []InputStatus
	sub := &expansion{}
	var sidecars []string
	for _, e := range ents {
		fp := filepath.Join(p, e.Name())
		t := e.Type()
		switch {
		case t.IsRegular() && strings.HasSuffix(strings.ToLower(e.Name()), ".sha256"):
			sidecars = append(sidecars, fp)
		case t.IsRegular() && isBundleEntry(fp):
			units = append(units, unit{path: fp, kind: KindBundle, folder: p})
		case t.IsRegular() && evidenceName(e.Name()):
			sub.reject(InputStatus{Input: fp, Folder: p, Kind: KindBundle, Reason: rejectFile(fp)})
		case t.IsDir() && isExtracted(fp):
			units = append(units, unit{path: fp, kind: KindExtracted, folder: p})
		case !t.IsRegular() && !t.IsDir() && (evidenceName(e.Name()) || strings.HasSuffix(strings.ToLower(e.Name()), ".sha256")):
			what := inputs.KindOf(t)
			if t&os.ModeSymlink != 0 {
				if target, err := os.Readlink(fp); err == nil {
					what += fmt.Sprintf(" (to %q)", target)
				}
			}
			sub.reject(InputStatus{Input: fp, Folder: p, Kind: KindBundle, Reason: "is " + what + ": an entry of a folder of evidence is read only as a regular file (give its target itself)"})
		}
	}
	for _, sc := range sidecars {
		sub.sidecar(sc, p, nil)
	}
	statuses = append(statuses, sub.statuses...)
	if len(units) == 0 && len(statuses) == 0 {
		x.units = append(x.units, unit{path: p, kind: KindLoose})
		return
	}
	if len(units) == 0 {
		// Nothing usable in it: the folder itself is named too.
		sub.reject(InputStatus{Input: p, Kind: KindFolder, Reason: fmt.Sprintf("a folder of evidence with no usable bundle or extracted collection (%d unusable entries)", len(statuses))})
		statuses = sub.statuses
	}
	sort.Slice(units, func(i, j int) bool { return units[i].path < units[j].path })
	x.units = append(x.units, units...)
	x.statuses = append(x.statuses, statuses...)
	x.problems = append(x.problems, sub.problems...)
}

// dedup drops units that repeat another: the same path once links are
// resolved, the same file (a hard link), or a bundle file with the same
// bytes (compared by SHA-256, only for bundles of the same size).
func (x *expansion) dedup() {
	var kept []unit
	var keptInfo []os.FileInfo
	byPath := map[string]int{}
	dup := func(u unit, of unit, why string) {
		x.statuses = append(x.statuses, InputStatus{Input: u.path, Folder: u.folder, Kind: u.kind, Status: InputDuplicate, Reason: why})
		x.problems = append(x.problems, Problem{Input: u.path, Kind: KindDuplicateInput, Message: why})
	}
next:
	for _, u := range x.units {
		a, err := resolvedAbs(u.path)
		if err == nil {
			if i, ok := byPath[a]; ok {
				dup(u, kept[i], "the same input as "+kept[i].path+": read once")
				continue
			}
		}
		fi, _ := os.Stat(u.path)
		if fi != nil {
			for i, k := range keptInfo {
				if k != nil && os.SameFile(fi, k) {
					dup(u, kept[i], "the same file as "+kept[i].path+" (a link to it): read once")
					continue next
				}
			}
		}
		byPath[a] = len(kept)
		kept = append(kept, u)
		keptInfo = append(keptInfo, fi)
	}
	// Bundles of one size: the same bytes are the same bundle.
	sums := map[int]string{}
	sumOf := func(i int) string {
		if s, ok := sums[i]; ok {
			return s
		}
		s, _ := hashFile(kept[i].path)
		sums[i] = s
		return s
	}
	var out []unit
	var outIdx []int
	for i, u := range kept {
		same := false
		for j, oi := range outIdx {
			o := out[j]
			if u.kind != KindBundle || o.kind != KindBundle || keptInfo[i] == nil || keptInfo[oi] == nil || keptInfo[oi].Size() != keptInfo[i].Size() {
				continue
			}
			if s := sumOf(i); s != "" && s == sumOf(oi) {
				dup(u, o, "the same bundle as "+o.path+" (the same bytes, sha256 "+s+"): read once")
				same = true
				break
			}
		}
		if !same {
			out = append(out, u)
			outIdx = append(outIdx, i)
		}
	}
	x.units = out
}

func hashFile(p string) (string, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		f, err = os.Open(p)
		if err != nil {
			return "", err
		}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unusableSource is the inventory source of an input nothing was read
// from, so the report and run.json list it beside the ones read.
func unusableSource(st InputStatus) InventorySource {
	return InventorySource{Input: st.Input, Kind: st.Kind, Verified: "none", Unusable: st.Reason}
}

// accountInputs lists every input given and every evidence-shaped entry
// of a folder given, with what became of it (units read or failed, and
// those the expansion set aside), sorted by input; each unusable one is
// also an inventory source, so run.json and the report list it.
func accountInputs(x *expansion, units []unit, fails []error, inv *Inventory) []InputStatus {
	out := append([]InputStatus(nil), x.statuses...)
	for i, u := range units {
		in := u.path
		if u.label != "" {
			in = u.label
		}
		st := InputStatus{Input: in, Folder: u.folder, Kind: u.kind, Status: InputRead}
		if fails[i] != nil {
			st.Status, st.Reason = InputUnusable, fails[i].Error()
		}
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Input != out[j].Input {
			return out[i].Input < out[j].Input
		}
		return out[i].Status == InputRead && out[j].Status != InputRead
	})
	for _, st := range out {
		if st.Status == InputUnusable && inv != nil {
			inv.Sources = append(inv.Sources, unusableSource(st))
		}
	}
	return out
}

func countFailed(fails []error) int {
	n := 0
	for _, e := range fails {
		if e != nil {
			n++
		}
	}
	return n
}

// readExtractedHeader reads an extracted collection's bundle.json by the
// evidence rule. Its error says why the collection is unusable: no
// bundle.json, one that is a link or a FIFO, one cut or damaged (its
// host, bundle id and format version are then unknown, so none of its
// files is read).
func readExtractedHeader(root string) (bundle.Header, error) {
	const what = "extracted collection "
	hf, err := inputs.OpenIn(root, bundle.HeaderName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bundle.Header{}, errors.New(what + "without bundle.json: its host, bundle id and format version are unknown, so none of its files is read")
	case err != nil:
		return bundle.Header{}, fmt.Errorf(what+"whose bundle.json cannot be read: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(hf, maxHeaderBytes+1))
	hf.Close()
	if err != nil {
		return bundle.Header{}, fmt.Errorf(what+"whose bundle.json cannot be read: %w", err)
	}
	if len(b) > maxHeaderBytes {
		return bundle.Header{}, fmt.Errorf("%s: larger than %d bytes: not a bundle header", bundle.HeaderName, maxHeaderBytes)
	}
	h, err := bundle.DecodeHeader(b)
	if err == nil && h.FormatVersion == 0 {
		err = errors.New("no format_version")
	}
	if err != nil && (!errors.Is(err, bundle.ErrUnsupportedVersion) || h.FormatVersion == 0) {
		return h, fmt.Errorf(what+"whose bundle.json is damaged (%d bytes: %v): its host, bundle id and format version are unknown, so none of its files is read", len(b), err)
	}
	return h, err
}
