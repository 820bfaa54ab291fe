package analyze

import (
	"bufio"
	"context"
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

// IsExtracted reports whether dir holds an extracted collection: a
// bundle.json and a files folder (neither is opened: see isExtracted).
func IsExtracted(dir string) bool { return inputs.IsExtracted(dir) }

// Bounds of an extracted collection's manifest and log, those of the
// bundle reader's defaults (bundle.Options).
const (
	maxExtractedManifest     = 512 << 20
	maxExtractedManifestRows = 2_000_000
	maxExtractedLog          = 16 << 20
)

// VerifyExtracted checks an extracted collection (bundle.json,
// manifest.jsonl and files/, as `tar --zstd -xf BUNDLE` leaves them) the
// way bundle.Verify checks a bundle, and gives the same Result: every
// collected row's file is hashed against the manifest, every path opened
// by the evidence rule (no link on the way or at the end, regular files
// only, never blocking on a FIFO); a file under files/ that no row names
// is unlisted, a link or a FIFO there is reported. Problems have the
// bundle reader's kinds (checksum_mismatch, missing_member,
// unlisted_member, manifest_contradiction, ...) plus unsafe_path for what
// the evidence rule refused; the same warnings (incomplete collection,
// changed_during_copy, a row's error) are warnings. Result.Members counts
// the regular files under files/. The error is for a folder whose
// bundle.json cannot be read or is not a bundle header.
func VerifyExtracted(ctx context.Context, dir string) (bundle.Header, *bundle.Result, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return bundle.Header{}, nil, err
	}
	v := &extractedCheck{root: root, res: &bundle.Result{Verified: map[string]bool{}}}
	// Every file is opened by the evidence rule through one folder cache.
	defer v.dirs.Close()
	h, err := v.readHeader()
	if err != nil {
		return h, nil, err
	}
	v.present, v.walkProbs = filesUnder(ctx, root)
	v.res.Members = len(v.present)
	if ctx.Err() != nil {
		return h, nil, ctx.Err()
	}
	mf := v.openManifest()
	if mf == nil {
		v.res.Problems = append(v.res.Problems, v.walkProbs...)
		return h, v.res, nil
	}
	defer mf.Close()
	if err := v.readManifest(ctx, mf); err != nil {
		return h, nil, err
	}
	v.checkRows()
	v.reportUnlisted()
	v.reportWalk()
	v.checkSummary()
	return h, v.res, nil
}

// extractedCheck is one VerifyExtracted run: the collection's root, the
// result being built, and what its steps hand on to the next.
type extractedCheck struct {
	root string
	res  *bundle.Result
	dirs inputs.DirCache
	// present: the regular files under files/ (filesUnder); walkProbs
	// what that walk refused or could not read.
	present   map[string]struct{}
	walkProbs []bundle.Problem
	// from the manifest: its summary rows, the file rows after the first
	// summary, and whether a summary said the collection is incomplete
	summaries, rowsAfter int
	partial              bool
	// listed counts the manifest rows naming each file; reached holds
	// the real paths read through a followed link.
	listed  map[string]int
	reached map[string]bool
}

func (v *extractedCheck) problem(kind, member, path, msg string) {
	v.res.Problems = append(v.res.Problems, bundle.Problem{Kind: kind, Member: member, Path: path, Msg: msg})
}

// readHeader reads bundle.json (an error when it cannot be read or is no
// bundle header; a header problem otherwise) and the collector's log.
func (v *extractedCheck) readHeader() (bundle.Header, error) {
	h, err := inputs.ReadExtractedHeader(v.root)
	if err != nil {
		return h, err
	}
	if why := bundle.HeaderProblem(&h); why != "" {
		v.problem(bundle.ProblemHeader, bundle.HeaderName, "", why)
	}
	if lf, err := inputs.OpenIn(v.root, bundle.LogName); err == nil {
		v.res.Log, _ = io.ReadAll(io.LimitReader(lf, maxExtractedLog))
		lf.Close()
	}
	return h, nil
}

// openManifest opens manifest.jsonl by the evidence rule; nil, with the
// problem that says why nothing can be verified, when it is missing,
// refused or over its size bound.
func (v *extractedCheck) openManifest() *os.File {
	mf, err := inputs.OpenIn(v.root, bundle.ManifestName)
	if err != nil {
		msg := fmt.Sprintf("%d files under files/ cannot be verified", len(v.present))
		if errors.Is(err, ErrUnsafePath) {
			v.problem(KindUnsafePath, bundle.ManifestName, "", err.Error()+": "+msg)
		} else {
			v.problem(bundle.ProblemNoManifest, bundle.ManifestName, "", msg)
		}
		return nil
	}
	if fi, err := mf.Stat(); err == nil && fi.Size() > maxExtractedManifest {
		v.problem(bundle.ProblemLimit, bundle.ManifestName, "", fmt.Sprintf("manifest of %d bytes over the %d-byte limit: not read, nothing can be verified", fi.Size(), maxExtractedManifest))
		mf.Close()
		return nil
	}
	return mf
}

// readManifest decodes the manifest's rows into the result (up to its row
// bound), counting its summary rows and the file rows after one.
func (v *extractedCheck) readManifest(ctx context.Context, mf io.Reader) error {
	v.res.Manifest = []bundle.Entry{}
	dec := bundle.NewManifestDecoder(bufio.NewReader(mf))
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if len(v.res.Manifest) >= maxExtractedManifestRows {
			v.problem(bundle.ProblemLimit, bundle.ManifestName, "", fmt.Sprintf("manifest has more than %d rows: the rest is not read", maxExtractedManifestRows))
			return nil
		}
		row, err := dec.Next()
		if err != nil {
			if err != io.EOF {
				v.problem(bundle.ProblemManifest, bundle.ManifestName, "", err.Error())
			}
			return nil
		}
		v.addRow(row)
	}
}

// addRow takes one decoded manifest row.
func (v *extractedCheck) addRow(row bundle.ManifestRow) {
	switch {
	case row.Err != nil:
		v.problem(bundle.ProblemManifest, bundle.ManifestName, "", row.Err.Error())
	case row.Summary != nil:
		v.res.Summary = row.Summary
		v.summaries++
		if !row.Summary.Complete {
			v.partial = true
		}
	case row.Entry != nil:
		if v.summaries > 0 {
			v.rowsAfter++
		}
		v.res.Manifest = append(v.res.Manifest, *row.Entry)
	default:
		v.problem(bundle.ProblemManifest, bundle.ManifestName, "", row.UnknownRecord())
	}
}

// checkRows checks every manifest row against the folder (checkRow); a
// file two rows name is not verified.
func (v *extractedCheck) checkRows() {
	v.listed, v.reached = map[string]int{}, map[string]bool{}
	for _, e := range v.res.Manifest {
		v.checkRow(e)
	}
	for name, n := range v.listed {
		if n > 1 {
			delete(v.res.Verified, name)
		}
	}
}

// checkRow checks one manifest row: its own warnings, what it says
// against what the folder holds, and a collected row's file hashed
// (hashRow).
func (v *extractedCheck) checkRow(e bundle.Entry) {
	v.res.Problems = append(v.res.Problems, bundle.RowProblems(e)...)
	if e.ArchivePath == "" {
		if e.Status == bundle.StatusCollected {
			v.problem(bundle.ProblemMissing, "", e.Path, "listed as collected but names no file")
		}
		return
	}
	v.listed[e.ArchivePath]++
	if v.listed[e.ArchivePath] == 2 {
		v.problem(bundle.ProblemContradiction, e.ArchivePath, e.Path, "two manifest rows name this file: it is not verified")
	}
	if e.Status != bundle.StatusCollected {
		v.uncollectedRow(e)
		return
	}
	if v.listed[e.ArchivePath] > 1 {
		return
	}
	if why := bundle.UnsafeName(e.ArchivePath); why != "" || !strings.HasPrefix(e.ArchivePath, bundle.FilesPrefix) {
		if why == "" {
			why = "not under " + bundle.FilesPrefix
		}
		v.problem(bundle.ProblemUnsafe, e.ArchivePath, e.Path, why+": not read")
		return
	}
	v.hashRow(e)
}

// uncollectedRow reports a row of another status than collected that
// names a file: a contradiction, whether or not the file is there.
func (v *extractedCheck) uncollectedRow(e bundle.Entry) {
	_, here := v.present[e.ArchivePath]
	if !here {
		if l, ok, _ := inputs.ResolveMember(v.root, e.ArchivePath); ok {
			_, here = v.present[l]
		}
	}
	what := "names a file that is not in the extracted folder"
	if here {
		what = "but its file is present: the file is not verified"
	}
	v.problem(bundle.ProblemContradiction, e.ArchivePath, e.Path, fmt.Sprintf("row with status %s %s", e.Status, what))
}

// hashRow resolves a collected row's file under the link policy, hashes
// it by the evidence rule and compares it with the row.
func (v *extractedCheck) hashRow(e bundle.Entry) {
	local, followed, err := inputs.ResolveMember(v.root, e.ArchivePath)
	if err != nil {
		v.problem(KindUnsafePath, e.ArchivePath, e.Path, err.Error())
		return
	}
	if followed {
		if v.res.Followed == nil {
			v.res.Followed = map[string]string{}
		}
		v.res.Followed[e.ArchivePath] = local
		v.reached[local] = true
	}
	sum, n, err := fileHashIn(&v.dirs, v.root, local)
	switch {
	case errors.Is(err, ErrUnsafePath):
		v.problem(KindUnsafePath, e.ArchivePath, e.Path, err.Error())
	case errors.Is(err, fs.ErrNotExist):
		v.problem(bundle.ProblemMissing, e.ArchivePath, e.Path, "listed as collected but not in the extracted folder")
	case err != nil:
		v.problem(bundle.StatusErrorRead, e.ArchivePath, e.Path, err.Error())
	case sum != e.SHA256 || n != e.Size:
		v.problem(bundle.ProblemChecksum, e.ArchivePath, e.Path, fmt.Sprintf("manifest sha256 %s (%d bytes), file %s (%d bytes)", e.SHA256, e.Size, sum, n))
	default:
		v.res.Verified[e.ArchivePath] = true
	}
}

// reportUnlisted names, in order, each file under files/ that no row
// names and no followed link reached.
func (v *extractedCheck) reportUnlisted() {
	var unlisted []string
	for name := range v.present {
		if v.listed[name] == 0 && !v.reached[name] {
			unlisted = append(unlisted, name)
		}
	}
	sort.Strings(unlisted)
	for _, name := range unlisted {
		v.problem(bundle.ProblemUnlisted, name, "", "file not in the manifest")
	}
}

// reportWalk adds the walk's problems of files no row names. A link the
// policy followed for a row is no problem: its row names the path through
// it and Followed names where it was read.
func (v *extractedCheck) reportWalk() {
	throughLink := func(link string) bool {
		for m := range v.res.Followed {
			if m == link || strings.HasPrefix(m, link+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range v.walkProbs {
		if v.listed[p.Member] == 0 && !(p.Kind == KindUnsafePath && isLink(v.root, p.Member) && throughLink(p.Member)) {
			v.res.Problems = append(v.res.Problems, p)
		}
	}
}

// checkSummary checks the manifest's one closing summary row and sets
// Complete from it.
func (v *extractedCheck) checkSummary() {
	switch {
	case v.res.Summary == nil:
		v.problem(bundle.ProblemManifest, bundle.ManifestName, "", "manifest has no closing summary row")
	case v.summaries > 1:
		v.problem(bundle.ProblemContradiction, bundle.ManifestName, "", fmt.Sprintf("manifest has %d summary rows, where the format has exactly one, last", v.summaries))
	case v.rowsAfter > 0:
		v.problem(bundle.ProblemContradiction, bundle.ManifestName, "", fmt.Sprintf("manifest has %d file rows after its summary row, which must be last", v.rowsAfter))
	}
	if v.res.Summary == nil {
		return
	}
	if v.partial {
		msg := "the collector marked this collection incomplete"
		if v.res.Summary.Reason != "" {
			msg += ": " + v.res.Summary.Reason
		}
		v.problem(bundle.ProblemIncomplete, bundle.ManifestName, "", msg)
	}
	v.res.Complete = !v.partial && v.summaries == 1 && v.rowsAfter == 0
}

// filesUnder lists the regular files under root/files ('/' separated,
// "files/..." as member names are), walking without following a link;
// a link, a FIFO, a device or a socket there is a problem (its name in
// Member), never opened. files/ itself being a link gives that one
// problem and no file.
func filesUnder(ctx context.Context, root string) (map[string]struct{}, []bundle.Problem) {
	out := map[string]struct{}{}
	var probs []bundle.Problem
	base := filepath.Join(root, "files")
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		name := filepath.ToSlash(rel)
		if err != nil {
			if p != base || !errors.Is(err, fs.ErrNotExist) {
				probs = append(probs, bundle.Problem{Kind: bundle.StatusErrorRead, Member: name, Msg: err.Error()})
			}
			return nil
		}
		switch {
		case d.Type().IsRegular():
			out[name] = struct{}{}
		case d.IsDir():
		default:
			what := "is " + inputs.KindOf(d.Type())
			if d.Type()&fs.ModeSymlink != 0 {
				if t, err := os.Readlink(p); err == nil {
					what += fmt.Sprintf(" (to %q)", t)
				}
			}
			probs = append(probs, bundle.Problem{Kind: KindUnsafePath, Member: name, Msg: name + " " + what + ": not read"})
		}
		return nil
	})
	return out, probs
}

// fileHash is fileSHA256 with the byte count.
func fileHash(root, rel string) (string, int64, error) {
	var d inputs.DirCache
	defer d.Close()
	return fileHashIn(&d, root, rel)
}

// fileHashIn is fileHash through a folder cache of root.
func fileHashIn(d *inputs.DirCache, root, rel string) (string, int64, error) {
	f, err := d.OpenIn(root, rel)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ExpandInputs classifies inputs as timeline does (a folder of evidence
// gives its entries, repeats are set aside) and returns every input and
// evidence-shaped folder entry: those to read with Status read (Kind
// bundle, extracted or loose), the others unusable, duplicate or sidecar
// with their reason. verify uses it, so it takes what timeline takes.
func ExpandInputs(paths []string) []InputStatus {
	x := inputs.Expand(paths)
	return accountInputs(x, x.Units, make([]error, len(x.Units)), nil)
}

// ExtractedSums returns the SHA-256 of an extracted collection's
// bundle.json and manifest.jsonl, each read by the evidence rule (""
// with the error for one that cannot be read).
func ExtractedSums(dir string) (header, manifest string, herr, merr error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err, err
	}
	header, _, herr = fileHash(root, bundle.HeaderName)
	manifest, _, merr = fileHash(root, bundle.ManifestName)
	return header, manifest, herr, merr
}

// isLink reports whether name (under root) is itself a link.
func isLink(root, name string) bool {
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}
