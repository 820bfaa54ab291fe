package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// versionRecord is testdata/version.json: the catalog Version and the
// hash of the table (its agents.json) it was recorded for.
type versionRecord struct {
	Version string `json:"version"`
	Table   string `json:"table_sha256"`
}

// TestVersionGuardsTable: the table (every agent, target, glob,
// relocation and note, as agents.json writes it) cannot change under the
// same Version, which every bundle records: a change to it fails until
// Version is bumped and -update records the new pair. (Walk rules live in
// code: a change there that moves what is collected or attributed bumps
// Version by hand, see Version's comment.)
func TestVersionGuardsTable(t *testing.T) {
	js, err := JSON(All())
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(js)
	now := versionRecord{Version: Version, Table: hex.EncodeToString(sum[:])}
	path := filepath.Join("testdata", "version.json")
	var rec versionRecord
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	if err != nil && !*update {
		t.Fatalf("%s: %v (run go test ./catalog -update)", path, err)
	}
	if rec.Version == now.Version && rec.Table != now.Table && rec.Table != "" {
		t.Fatalf("the table changed but catalog.Version is still %s: bump it, then run go test ./catalog -update", Version)
	}
	if rec == now {
		return
	}
	if !*update {
		t.Fatalf("%s records %+v, the table is %+v: run go test ./catalog -update", path, rec, now)
	}
	out, _ := json.MarshalIndent(now, "", "  ")
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
