package problem

import (
	"strings"

	"github.com/doubleagent/doubleagent/bundle"
)

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

// NamedOnce is p with a message that begins with its own source_file
// ("manifest.jsonl: is a FIFO…" on the row of manifest.jsonl) saying the
// path once: the row's source_file names it, the message says what is
// wrong. Errors that carry their path (fs errors, the unsafe-path refusal)
// are built far from the row that reports them; this is the one place
// their path is taken off, so no stage repeats it.
//
// It is also the one place a problem's paths and message are masked: a
// credential-shaped substring of the input, the source file or the
// message (a token inside a relocation path, CLAUDE_CONFIG_DIR=/x/ghp_...)
// is written [redacted] (bundle.MaskSecrets), as secret values are
// everywhere else; the manifest keeps the path as found.
func (p Problem) NamedOnce() Problem {
	if p.SourceFile != "" {
		for {
			rest, ok := strings.CutPrefix(p.Message, p.SourceFile+": ")
			if !ok || rest == "" {
				break
			}
			p.Message = rest
		}
	}
	p.Input, p.SourceFile, p.Message = bundle.MaskSecrets(p.Input), bundle.MaskSecrets(p.SourceFile), bundle.MaskSecrets(p.Message)
	return p
}
