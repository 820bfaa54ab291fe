// Package problem is the row of problems.jsonl, which every stage of the
// engine writes: what could not be read, or was read and is doubtful,
// named with where it was found, never skipped in silence.
package problem

// Problem is something wrong found while reading an input; it is written
// to problems.jsonl and counted in the inventory, never silent.
type Problem struct {
	Host       string `json:"host"`
	BundleID   string `json:"bundle_id"`
	Input      string `json:"input"`
	SourceFile string `json:"source_file"`
	SourceLine int64  `json:"source_line"`
	Agent      string `json:"agent"`
	Parser     string `json:"parser"`
	Kind       string `json:"kind"`
	Message    string `json:"message"`
}
