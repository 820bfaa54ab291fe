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
	res := &bundle.Result{Verified: map[string]bool{}}
	root, err := filepath.Abs(dir)
	if err != nil {
		return bundle.Header{}, nil, err
	}
	problem := func(kind, member, path, msg string) {
		res.Problems = append(res.Problems, bundle.Problem{Kind: kind, Member: member, Path: path, Msg: msg})
	}
	// Every file is opened by the evidence rule through one folder cache.
	var dirs inputs.DirCache
	defer dirs.Close()
	h, err := inputs.ReadExtractedHeader(root)
	if err != nil {
		return h, nil, err
	}
	if why := bundle.HeaderProblem(&h); why != "" {
		problem(bundle.ProblemHeader, bundle.HeaderName, "", why)
	}
	if lf, err := inputs.OpenIn(root, bundle.LogName); err == nil {
		res.Log, _ = io.ReadAll(io.LimitReader(lf, maxExtractedLog))
		lf.Close()
	}
	present, walkProbs := filesUnder(ctx, root)
	res.Members = len(present)
	if ctx.Err() != nil {
		return h, nil, ctx.Err()
	}

	var summaries, rowsAfter int
	partial := false
	mf, err := inputs.OpenIn(root, bundle.ManifestName)
	switch {
	case err != nil:
		msg := fmt.Sprintf("%d files under files/ cannot be verified", len(present))
		if errors.Is(err, ErrUnsafePath) {
			problem(KindUnsafePath, bundle.ManifestName, "", err.Error()+": "+msg)
		} else {
			problem(bundle.ProblemNoManifest, bundle.ManifestName, "", msg)
		}
		res.Problems = append(res.Problems, walkProbs...)
		return h, res, nil
	default:
		defer mf.Close()
		if fi, err := mf.Stat(); err == nil && fi.Size() > maxExtractedManifest {
			problem(bundle.ProblemLimit, bundle.ManifestName, "", fmt.Sprintf("manifest of %d bytes over the %d-byte limit: not read, nothing can be verified", fi.Size(), maxExtractedManifest))
			res.Problems = append(res.Problems, walkProbs...)
			return h, res, nil
		}
	}
	res.Manifest = []bundle.Entry{}
	dec := bundle.NewManifestDecoder(bufio.NewReader(mf))
	for {
		if ctx.Err() != nil {
			return h, nil, ctx.Err()
		}
		if len(res.Manifest) >= maxExtractedManifestRows {
			problem(bundle.ProblemLimit, bundle.ManifestName, "", fmt.Sprintf("manifest has more than %d rows: the rest is not read", maxExtractedManifestRows))
			break
		}
		row, err := dec.Next()
		if err != nil {
			if err != io.EOF {
				problem(bundle.ProblemManifest, bundle.ManifestName, "", err.Error())
			}
			break
		}
		switch {
		case row.Err != nil:
			problem(bundle.ProblemManifest, bundle.ManifestName, "", row.Err.Error())
		case row.Summary != nil:
			res.Summary = row.Summary
			summaries++
			if !row.Summary.Complete {
				partial = true
			}
		case row.Entry != nil:
			if summaries > 0 {
				rowsAfter++
			}
			res.Manifest = append(res.Manifest, *row.Entry)
		default:
			problem(bundle.ProblemManifest, bundle.ManifestName, "", row.UnknownRecord())
		}
	}

	listed := map[string]int{}
	reached := map[string]bool{} // real paths read through a followed link
	for _, e := range res.Manifest {
		res.Problems = append(res.Problems, bundle.RowProblems(e)...)
		if e.ArchivePath == "" {
			if e.Status == bundle.StatusCollected {
				problem(bundle.ProblemMissing, "", e.Path, "listed as collected but names no file")
			}
			continue
		}
		listed[e.ArchivePath]++
		if listed[e.ArchivePath] == 2 {
			problem(bundle.ProblemContradiction, e.ArchivePath, e.Path, "two manifest rows name this file: it is not verified")
		}
		_, here := present[e.ArchivePath]
		if !here && e.Status != bundle.StatusCollected {
			if l, ok, _ := inputs.ResolveMember(root, e.ArchivePath); ok {
				_, here = present[l]
			}
		}
		if e.Status != bundle.StatusCollected {
			what := "names a file that is not in the extracted folder"
			if here {
				what = "but its file is present: the file is not verified"
			}
			problem(bundle.ProblemContradiction, e.ArchivePath, e.Path, fmt.Sprintf("row with status %s %s", e.Status, what))
			continue
		}
		if listed[e.ArchivePath] > 1 {
			continue
		}
		if why := bundle.UnsafeName(e.ArchivePath); why != "" || !strings.HasPrefix(e.ArchivePath, bundle.FilesPrefix) {
			if why == "" {
				why = "not under " + bundle.FilesPrefix
			}
			problem(bundle.ProblemUnsafe, e.ArchivePath, e.Path, why+": not read")
			continue
		}
		local, followed, err := inputs.ResolveMember(root, e.ArchivePath)
		if err != nil {
			problem(KindUnsafePath, e.ArchivePath, e.Path, err.Error())
			continue
		}
		if followed {
			if res.Followed == nil {
				res.Followed = map[string]string{}
			}
			res.Followed[e.ArchivePath] = local
			reached[local] = true
		}
		ch, err := contentHashIn(&dirs, root, local)
		var mismatch string
		if err == nil {
			mismatch = ch.Check(e)
		}
		switch {
		case errors.Is(err, ErrUnsafePath):
			problem(KindUnsafePath, e.ArchivePath, e.Path, err.Error())
		case errors.Is(err, fs.ErrNotExist):
			problem(bundle.ProblemMissing, e.ArchivePath, e.Path, "listed as collected but not in the extracted folder")
		case err != nil:
			problem(bundle.StatusErrorRead, e.ArchivePath, e.Path, err.Error())
		case mismatch != "":
			problem(bundle.ProblemChecksum, e.ArchivePath, e.Path, strings.Replace(mismatch, "content ", "file ", 1))
		case e.InterruptedAt != nil:
			// Its first bytes match; it is not the whole file: the row's
			// error is the warning, and it is not verified.
		default:
			res.Verified[e.ArchivePath] = true
		}
	}
	for name, n := range listed {
		if n > 1 {
			delete(res.Verified, name)
		}
	}
	var unlisted []string
	for name := range present {
		if listed[name] == 0 && !reached[name] {
			unlisted = append(unlisted, name)
		}
	}
	sort.Strings(unlisted)
	for _, name := range unlisted {
		problem(bundle.ProblemUnlisted, name, "", "file not in the manifest")
	}
	// A link the policy followed for a row is no problem: its row names
	// the path through it and Followed names where it was read.
	throughLink := func(link string) bool {
		for m := range res.Followed {
			if m == link || strings.HasPrefix(m, link+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range walkProbs {
		if listed[p.Member] == 0 && !(p.Kind == KindUnsafePath && isLink(root, p.Member) && throughLink(p.Member)) {
			res.Problems = append(res.Problems, p)
		}
	}
	switch {
	case res.Summary == nil:
		problem(bundle.ProblemManifest, bundle.ManifestName, "", "manifest has no closing summary row")
	case summaries > 1:
		problem(bundle.ProblemContradiction, bundle.ManifestName, "", fmt.Sprintf("manifest has %d summary rows, where the format has exactly one, last", summaries))
	case rowsAfter > 0:
		problem(bundle.ProblemContradiction, bundle.ManifestName, "", fmt.Sprintf("manifest has %d file rows after its summary row, which must be last", rowsAfter))
	}
	if res.Summary != nil {
		if partial {
			msg := "the collector marked this collection incomplete"
			if res.Summary.Reason != "" {
				msg += ": " + res.Summary.Reason
			}
			problem(bundle.ProblemIncomplete, bundle.ManifestName, "", msg)
		}
		res.Complete = !partial && summaries == 1 && rowsAfter == 0
	}
	return h, res, nil
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

// contentHashIn hashes the file rel of root through a folder cache (a
// bundle.ContentHash: its SHA-256, and that of a first part a manifest
// row names).
func contentHashIn(d *inputs.DirCache, root, rel string) (*bundle.ContentHash, error) {
	f, err := d.OpenIn(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ch := bundle.NewContentHash()
	if _, err := io.Copy(ch, f); err != nil {
		return nil, err
	}
	return ch, nil
}

// fileHash is the SHA-256 of the file rel of root, with the byte count.
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
