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
