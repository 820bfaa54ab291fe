// Package bundle reads and writes DoubleAgent bundles, the zstd-compressed
// tar archives the collector writes and the analyzer reads. The format is
// specified in docs/format.md (version 1); this package is the only code
// that knows it.
//
// Terms: a Bundle is one acquisition; its Header (bundle.json) comes first;
// each collected artifact is a member under files/ carrying PAX records; the
// Manifest (manifest.jsonl) of Entry rows and a closing Summary comes last,
// followed by the collector's log. Writer hashes every artifact as it copies
// it; Reader re-hashes as it reads and reconciles with the manifest.
package bundle
