package bundle

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
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
	b, err := os.ReadFile(path + ".sha256")
	if err != nil {
		if os.IsNotExist(err) {
			return res, nil
		}
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
	f, err := os.Open(path)
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

// WriteSidecar writes "<hex>  <base name>\n" to path+".sha256".
func WriteSidecar(path, hexSum, baseName string) error {
	return os.WriteFile(path+".sha256", []byte(hexSum+"  "+baseName+"\n"), 0o644)
}
