package bundle

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// SidecarResult is the outcome of checking FILE.sha256.
type SidecarResult struct {
	Present  bool   // the sidecar exists
	OK       bool   // it names the bundle and its hash matches
	Expected string // hash in the sidecar
	Actual   string // hash of the bundle file
	Msg      string // what is wrong, if anything
}

// CheckSidecar checks the bundle file at path against path+".sha256"
// (sha256sum format: "<hex>  <name>"). A missing sidecar is not an error.
func CheckSidecar(path string) (SidecarResult, error) {
	var res SidecarResult
	sf, err := OpenRegular(path + ".sha256")
	if err != nil {
		if os.IsNotExist(err) {
			return res, nil
		}
		if errors.Is(err, ErrNotRegular) {
			res.Present, res.Msg = true, "sidecar "+path+".sha256 is "+ErrNotRegular.Error()
			return res, nil
		}
		return res, err
	}
	b, err := io.ReadAll(io.LimitReader(sf, 4096))
	sf.Close()
	if err != nil {
		return res, err
	}
	res.Present = true
	line := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	fields := strings.Fields(line)
	if len(fields) < 1 || len(fields[0]) != 64 {
		res.Msg = "sidecar is not in sha256sum format"
		return res, nil
	}
	res.Expected = strings.ToLower(fields[0])
	f, err := os.Open(path) // the bundle itself, as the examiner named it
	if err != nil {
		return res, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, bufio.NewReaderSize(f, 1<<20)); err != nil {
		return res, err
	}
	res.Actual = hex.EncodeToString(h.Sum(nil))
	res.OK = res.Actual == res.Expected
	if !res.OK {
		res.Msg = fmt.Sprintf("bundle sha256 %s does not match its sidecar %s", res.Actual, res.Expected)
	}
	return res, nil
}

// WriteSidecar writes "<hex>  <base name>\n" to a new file
// path+".sha256" (CreateNew: never through a link, never over a file).
func WriteSidecar(path, hexSum, baseName string) error {
	f, err := CreateNew(path+".sha256", 0o644)
	if err != nil {
		return err
	}
	return WriteSidecarTo(f, hexSum, baseName)
}

// WriteSidecarTo writes the sidecar line into f, a file the caller created
// (with CreateNew) before the bundle was written, and closes it.
func WriteSidecarTo(f *os.File, hexSum, baseName string) error {
	_, err := f.WriteString(hexSum + "  " + baseName + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Sidecar is the content of FILE.sha256. Its first line is the bundle
// file's SHA-256 in sha256sum format ("<hex>  <name>"); a collector of
// this version adds comment lines (which sha256sum -c skips) with the
// SHA-256 of the bundle's bundle.json and manifest.jsonl members:
//
//	<hex>  host_20261129T182000Z_doubleagent.tar.zst
//	# bundle.json sha256 <hex>
//	# manifest.jsonl sha256 <hex>
//
// They tie an extracted collection to the acquisition: its manifest.jsonl
// (which holds every file's hash) and bundle.json must be the bytes the
// collector wrote. An older sidecar has the first line only (Header and
// Manifest "").
type Sidecar struct {
	Bundle   string // the bundle file's SHA-256
	Name     string // the file name it names
	Header   string // bundle.json's SHA-256, "" when not recorded
	Manifest string // manifest.jsonl's SHA-256, "" when not recorded
}

// Sidecar comment lines (see Sidecar).
const (
	sidecarHeaderLine   = "# " + HeaderName + " sha256 "
	sidecarManifestLine = "# " + ManifestName + " sha256 "
)

// WriteSidecarFull writes sc into f, a file the caller created (with
// CreateNew) before the bundle was written, and closes it. Hashes left ""
// are not written.
func WriteSidecarFull(f *os.File, sc Sidecar) error {
	s := sc.Bundle + "  " + sc.Name + "\n"
	if sc.Header != "" {
		s += sidecarHeaderLine + sc.Header + "\n"
	}
	if sc.Manifest != "" {
		s += sidecarManifestLine + sc.Manifest + "\n"
	}
	_, err := f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadSidecar reads a sidecar file (a regular file only, never through a
// link or blocking on a FIFO; its first 4096 bytes). It fails when the
// first line is not in sha256sum format or a comment line it knows holds
// no SHA-256.
func ReadSidecar(path string) (Sidecar, error) {
	var sc Sidecar
	f, err := OpenRegular(path)
	if err != nil {
		return sc, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	f.Close()
	if err != nil {
		return sc, err
	}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	fields := strings.Fields(lines[0])
	if len(fields) < 1 || !isHex64(fields[0]) {
		return sc, fmt.Errorf("%s: not in sha256sum format", path)
	}
	sc.Bundle = strings.ToLower(fields[0])
	if len(fields) > 1 {
		sc.Name = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(lines[0], fields[0])), "*")
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		for _, k := range []struct {
			prefix string
			dst    *string
		}{{sidecarHeaderLine, &sc.Header}, {sidecarManifestLine, &sc.Manifest}} {
			if strings.HasPrefix(l, k.prefix) {
				v := strings.TrimSpace(strings.TrimPrefix(l, k.prefix))
				if !isHex64(v) {
					return sc, fmt.Errorf("%s: %q holds no SHA-256", path, l)
				}
				*k.dst = strings.ToLower(v)
			}
		}
	}
	return sc, nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
