package inputs

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
	"syscall"

	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
	"github.com/doubleagent/doubleagent/bundle"
)

// Input kinds, detected by content.
const (
	KindBundle    = "bundle"
	KindExtracted = "extracted"
	KindLoose     = "loose"
	KindFolder    = "folder" // a folder of bundles (expanded into bundles)
)

// MaxHeaderBytes bounds bundle.json, as the bundle reader does.
const MaxHeaderBytes = 1 << 20

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
	// KindWrongKey is an unusable input of its own reason: an
	// age-encrypted bundle whose header is sound but none of the
	// --identity keys given is one of its recipients.
	KindWrongKey = "wrong_key"
	// KindSharedPath is a manifest row re-attributed to the owner of a
	// path two agents' targets match (catalog.SharedOwner).
	KindSharedPath = "shared_path"
)

// WrongKey is the error of an encrypted bundle that none of the n
// identities given opens (bundle.ErrNotRecipient), said as the examiner
// needs it: the key does not open it, never a key. Other errors come back
// unchanged; errors.Is still finds bundle.ErrNotRecipient.
func WrongKey(err error, n int) error {
	if err == nil || !errors.Is(err, bundle.ErrNotRecipient) {
		return err
	}
	var w wrongKeyError
	if errors.As(err, &w) {
		return err
	}
	return wrongKeyError{err, n}
}

type wrongKeyError struct {
	err error
	n   int
}

func (e wrongKeyError) Error() string {
	return fmt.Sprintf("age-encrypted, and none of the %d identities given (--identity) is one of its recipients: the key does not open this bundle, not read", e.n)
}

func (e wrongKeyError) Unwrap() error { return e.err }

// UnusableProblem is the problem row of an input that could not be read:
// wrong_key for an encrypted bundle the given keys do not open,
// unusable_input with the reason otherwise.
func UnusableProblem(input string, err error) problem.Problem {
	kind := KindUnusableInput
	if errors.Is(err, bundle.ErrNotRecipient) {
		kind = KindWrongKey
	}
	return problem.Problem{Input: input, Kind: kind, Message: err.Error()}
}

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

// IsExtracted reports whether p is shaped like an extracted collection:
// it holds bundle.json, manifest.jsonl or log.jsonl, or a files/ folder
// whose entries are the first elements of original paths (home, Users,
// root, var, a drive letter, ...). Nothing is opened (a FIFO named
// bundle.json cannot block): openExtracted opens them by the evidence
// rule and says what is wrong. Such a folder is never read as a loose
// home: one whose bundle.json is missing or damaged is an unusable input.
func IsExtracted(p string) bool {
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

// Expansion is what the inputs given expand to: the units to read, and
// the status of every input and evidence-shaped folder entry not read as
// a unit (unusable, duplicate, sidecar), with their problem rows.
type Expansion struct {
	Units    []Unit
	Statuses []InputStatus
	Problems []problem.Problem
}

// Unit is one input to read: a bundle, an extracted collection or a loose
// tree or file.
type Unit struct {
	Path, Kind string
	Folder     string // the folder given, when Path is an entry of it
	Label      string // the input as the examiner named it, when Path is a private copy
}

func (x *Expansion) reject(st InputStatus) {
	st.Status = InputUnusable
	x.Statuses = append(x.Statuses, st)
	x.Problems = append(x.Problems, problem.Problem{Input: st.Input, Kind: KindUnusableInput, Message: st.Reason})
}

// Expand classifies every input given (see ExpandFolder for a
// folder) and drops repeats: the same path (links resolved), the same
// file, or a bundle whose bytes another bundle given has, is read once
// and is a duplicate_input problem row.
func Expand(paths []string) *Expansion {
	x := &Expansion{}
	// sidecars given: a .sha256 is accounted for by its bundle.
	given := map[string]bool{}
	for _, in := range paths {
		if a, err := ResolvedAbs(in); err == nil {
			given[a] = true
		}
	}
	for _, in := range paths {
		fi, err := os.Stat(in)
		switch {
		case err != nil:
			x.reject(InputStatus{Input: in, Kind: InputKindUnknown, Reason: PlainPathError(in, err)})
		case fi.IsDir():
			x.ExpandFolder(in)
		case !fi.Mode().IsRegular():
			// Never opened: a FIFO would block the sniff.
			x.reject(InputStatus{Input: in, Kind: InputKindUnknown, Reason: KindOf(fi.Mode()) + ", not a bundle file or a folder: not read"})
		case strings.HasSuffix(strings.ToLower(in), ".sha256"):
			x.sidecar(in, "", given)
		case IsBundleFile(in):
			x.Units = append(x.Units, Unit{Path: in, Kind: KindBundle})
		case evidenceName(in):
			x.reject(InputStatus{Input: in, Kind: KindBundle, Reason: rejectFile(in)})
		default:
			// A single file, read with --agent as that agent's file
			// (openLoose says what is missing otherwise).
			x.Units = append(x.Units, Unit{Path: in, Kind: KindLoose})
		}
	}
	x.dedup()
	return x
}

// sidecar accounts for a .sha256 file: checked with its bundle when the
// bundle is beside it (or given), unusable otherwise.
func (x *Expansion) sidecar(p, folder string, given map[string]bool) {
	b := p[:len(p)-len(".sha256")]
	a, _ := ResolvedAbs(b)
	if _, err := os.Lstat(b); err == nil || given[a] {
		x.Statuses = append(x.Statuses, InputStatus{Input: p, Folder: folder, Kind: InputKindSidecar, Status: InputSidecar, Reason: "checked with its bundle " + b})
		return
	}
	x.reject(InputStatus{Input: p, Folder: folder, Kind: InputKindSidecar, Reason: "a .sha256 sidecar whose bundle " + filepath.Base(b) + " is not beside it: the bundle it vouches for is missing"})
}

// ExpandFolder reads a folder given: an extracted collection, a folder of
// evidence, or a loose tree. A folder of evidence is one with an entry
// named or shaped like evidence: each such entry is a unit (a file
// starting with a zstd frame, a folder shaped like an extracted
// collection) or an unusable input with its reason (a file named like a
// bundle that is not one, an empty file, a link or a FIFO so named, a
// folder so named that is not an extracted collection, a .sha256 sidecar
// whose bundle is not there). Its other entries are not
// read (a folder of evidence is never also a loose home).
func (x *Expansion) ExpandFolder(p string) {
	if IsExtracted(p) {
		x.Units = append(x.Units, Unit{Path: p, Kind: KindExtracted})
		return
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		x.reject(InputStatus{Input: p, Kind: InputKindUnknown, Reason: err.Error()})
		return
	}
	var units []Unit
	var statuses []InputStatus
	sub := &Expansion{}
	var sidecars, namedDirs []string
	for _, e := range ents {
		fp := filepath.Join(p, e.Name())
		t := e.Type()
		switch {
		case t.IsRegular() && strings.HasSuffix(strings.ToLower(e.Name()), ".sha256"):
			sidecars = append(sidecars, fp)
		case t.IsRegular() && IsBundleEntry(fp):
			units = append(units, Unit{Path: fp, Kind: KindBundle, Folder: p})
		case t.IsRegular() && evidenceName(e.Name()):
			sub.reject(InputStatus{Input: fp, Folder: p, Kind: KindBundle, Reason: rejectFile(fp)})
		case t.IsDir() && IsExtracted(fp):
			units = append(units, Unit{Path: fp, Kind: KindExtracted, Folder: p})
		case t.IsDir() && evidenceName(e.Name()):
			namedDirs = append(namedDirs, fp)
		case !t.IsRegular() && !t.IsDir() && (evidenceName(e.Name()) || strings.HasSuffix(strings.ToLower(e.Name()), ".sha256")):
			what := KindOf(t)
			// Only a link has a target to give; a FIFO, a socket or a
			// device is never opened (a FIFO would block the run).
			hint := "never opened (copy the bundle into a regular file and give that)"
			if t&os.ModeSymlink != 0 {
				if target, err := os.Readlink(fp); err == nil {
					what += fmt.Sprintf(" (to %q)", target)
				}
				hint = "a link is not followed (give its target itself)"
			}
			sub.reject(InputStatus{Input: fp, Folder: p, Kind: KindBundle, Reason: "is " + what + ": an entry of a folder of evidence is read only as a regular file: " + hint})
		}
	}
	for _, sc := range sidecars {
		sub.sidecar(sc, p, nil)
	}
	if len(units) > 0 || len(sub.Statuses) > 0 {
		// In a folder of evidence, a folder named like a bundle that is
		// not shaped like an extracted collection is named, never passed
		// over (a folder of a home so named leaves the home a home).
		for _, d := range namedDirs {
			sub.reject(InputStatus{Input: d, Folder: p, Kind: KindBundle, Reason: "a folder named like a bundle, not shaped like an extracted collection (no bundle.json, manifest.jsonl, log.jsonl or files/ of original paths): not read"})
		}
	}
	statuses = append(statuses, sub.Statuses...)
	if len(units) == 0 && len(statuses) == 0 {
		x.Units = append(x.Units, Unit{Path: p, Kind: KindLoose})
		return
	}
	if len(units) == 0 {
		// Nothing usable in it: the folder itself is named too.
		sub.reject(InputStatus{Input: p, Kind: KindFolder, Reason: fmt.Sprintf("a folder of evidence with no usable bundle or extracted collection (%d unusable entries)", len(statuses))})
		statuses = sub.Statuses
	}
	sort.Slice(units, func(i, j int) bool { return units[i].Path < units[j].Path })
	x.Units = append(x.Units, units...)
	x.Statuses = append(x.Statuses, statuses...)
	x.Problems = append(x.Problems, sub.Problems...)
}

// dedup drops units that repeat another: the same path once links are
// resolved, the same file (a hard link), or a bundle file with the same
// bytes (compared by SHA-256, only for bundles of the same size).
func (x *Expansion) dedup() {
	var kept []Unit
	var keptInfo []os.FileInfo
	byPath := map[string]int{}
	dup := func(u Unit, of Unit, why string) {
		x.Statuses = append(x.Statuses, InputStatus{Input: u.Path, Folder: u.Folder, Kind: u.Kind, Status: InputDuplicate, Reason: why})
		x.Problems = append(x.Problems, problem.Problem{Input: u.Path, Kind: KindDuplicateInput, Message: why})
	}
next:
	for _, u := range x.Units {
		a, err := ResolvedAbs(u.Path)
		if err == nil {
			if i, ok := byPath[a]; ok {
				dup(u, kept[i], "the same input as "+kept[i].Path+": read once")
				continue
			}
		}
		fi, _ := os.Stat(u.Path)
		if fi != nil {
			for i, k := range keptInfo {
				if k != nil && os.SameFile(fi, k) {
					dup(u, kept[i], "the same file as "+kept[i].Path+" (a link to it): read once")
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
		s, _ := hashFile(kept[i].Path)
		sums[i] = s
		return s
	}
	var out []Unit
	var outIdx []int
	for i, u := range kept {
		same := false
		for j, oi := range outIdx {
			o := out[j]
			if u.Kind != KindBundle || o.Kind != KindBundle || keptInfo[i] == nil || keptInfo[oi] == nil || keptInfo[oi].Size() != keptInfo[i].Size() {
				continue
			}
			if s := sumOf(i); s != "" && s == sumOf(oi) {
				dup(u, o, "the same bundle as "+o.Path+" (the same bytes, sha256 "+s+"): read once")
				same = true
				break
			}
		}
		if !same {
			out = append(out, u)
			outIdx = append(outIdx, i)
		}
	}
	x.Units = out
}

func hashFile(p string) (string, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		// an input given as a link to a bundle: followed, as the command
		// line's inputs are, but only to a regular file (never a FIFO)
		if fi, serr := os.Stat(p); serr != nil || !fi.Mode().IsRegular() {
			return "", err
		}
		if f, err = os.Open(p); err != nil {
			return "", err
		}
	}
	defer f.Close()
	return sha256Of(f)
}

// sha256Of is the hex SHA-256 of what r yields.
func sha256Of(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadExtractedHeader reads an extracted collection's bundle.json by the
// evidence rule. Its error says why the collection is unusable: no
// bundle.json, one that is a link or a FIFO, one cut or damaged (its
// host, bundle id and format version are then unknown, so none of its
// files is read).
func ReadExtractedHeader(root string) (bundle.Header, error) {
	const what = "extracted collection "
	hf, err := OpenIn(root, bundle.HeaderName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bundle.Header{}, errors.New(what + "without bundle.json: its host, bundle id and format version are unknown, so none of its files is read")
	case err != nil:
		return bundle.Header{}, fmt.Errorf(what+"whose bundle.json cannot be read: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(hf, MaxHeaderBytes+1))
	hf.Close()
	if err != nil {
		return bundle.Header{}, fmt.Errorf(what+"whose bundle.json cannot be read: %w", err)
	}
	if len(b) > MaxHeaderBytes {
		return bundle.Header{}, fmt.Errorf("%s: larger than %d bytes: not a bundle header", bundle.HeaderName, MaxHeaderBytes)
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

// IsBundleFile sniffs an input the examiner named (it may be a link).
func IsBundleFile(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	return sniff(f)
}

// IsBundleEntry sniffs a file found in a folder of bundles: a regular
// file only, never a link or a FIFO.
func IsBundleEntry(p string) bool {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return false
	}
	defer f.Close()
	return sniff(f)
}

func sniff(f *os.File) bool {
	b := make([]byte, bundle.SniffLen) // a zstd frame, or an age file (an encrypted bundle)
	n, _ := io.ReadFull(f, b)
	return bundle.Sniff(b[:n])
}

// ResolvedAbs is p made absolute with the links of its longest existing
// prefix resolved (the rest does not exist yet).
func ResolvedAbs(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := a; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return a, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Account lists every input given and every evidence-shaped entry of a
// folder given, with what became of it (the units read or failed, fails[i]
// the error of units[i], and those the expansion set aside), sorted by
// input.
func (x *Expansion) Account(units []Unit, fails []error) []InputStatus {
	out := append([]InputStatus(nil), x.Statuses...)
	for i, u := range units {
		in := u.Path
		if u.Label != "" {
			in = u.Label
		}
		st := InputStatus{Input: in, Folder: u.Folder, Kind: u.Kind, Status: InputRead}
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
	return out
}

// PlainPathError says in plain words why the input path p could not be
// read ("no such file or folder: PATH", not "stat PATH: no such file or
// directory"); an error of another kind keeps its own text.
func PlainPathError(p string, err error) string {
	why, plain := plainReason(err)
	if !plain {
		return why
	}
	if i := strings.Index(why, " ("); i >= 0 {
		return why[:i] + ": " + p + why[i:]
	}
	return why + ": " + p
}

// plainReason is why a path could not be read, in plain words and without
// the path, and whether it was one of the plain cases.
func plainReason(err error) (string, bool) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder", true
	case errors.Is(err, syscall.ENOTDIR):
		return "no such file or folder (a part of the path is a file)", true
	case errors.Is(err, fs.ErrPermission):
		return "permission denied (this account cannot read it)", true
	case errors.Is(err, syscall.ELOOP):
		return "a loop of links", true
	}
	// The cause once: the path the operating system put in the error is
	// the examiner's (the tree's folder joined in front), and the problem
	// names the evidence path already.
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return strings.Replace(err.Error(), pe.Error(), pe.Op+": "+pe.Err.Error(), 1), false
	}
	return err.Error(), false
}
