package analyze

import (
	"os"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/engine/parse"
	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
)

// Problem is something wrong found while reading an input; it is written
// to problems.jsonl and counted in the inventory, never silent.
type Problem = problem.Problem

// Input kinds, detected by content.
const (
	KindBundle    = inputs.KindBundle
	KindExtracted = inputs.KindExtracted
	KindLoose     = inputs.KindLoose
	KindFolder    = inputs.KindFolder // a folder of bundles (expanded into bundles)
)

// KindUnsafePath is the problem kind for a path of the evidence the
// analyzer refused to open (inputs.KindUnsafePath); KindHostname for a
// host name that is not one line of printable text.
const (
	KindUnsafePath = inputs.KindUnsafePath
	KindHostname   = inputs.KindHostname
)

// MaxHostnameChars bounds a host name as the outputs show it
// (inputs.MaxHostnameChars).
const MaxHostnameChars = inputs.MaxHostnameChars

// The parse stage's names (analyzer/engine/parse).

// Budgets of one SQLite store from evidence (parse.DefaultStoreRows,
// parse.DefaultStoreTime): see Options.StoreRows.
const (
	DefaultStoreRows = parse.DefaultStoreRows
	DefaultStoreTime = parse.DefaultStoreTime
)

// KindStoreBudget is the problem kind for a store whose parse was stopped
// by its budget; KindImplausibleTime for rows whose times lie outside the
// plausible window (see parser.Plausible).
const (
	KindStoreBudget     = parse.KindStoreBudget
	KindImplausibleTime = parse.KindImplausibleTime
)

// The inputs stage's names, kept here so callers of the engine name them
// as before (the stage is analyzer/engine/inputs).

// ErrUnsafePath is wrapped by the evidence rule's refusals: a link, a
// FIFO, a device, a socket or a folder where a file was expected, or a
// path that climbs.
var ErrUnsafePath = inputs.ErrUnsafePath

// OpenIn opens rel inside root by the evidence rule, for the passes that
// read evidence after the engine (analyzer/surface reads an extracted
// collection's manifest and a loose tree's file times through it).
func OpenIn(root, rel string) (*os.File, error) { return inputs.OpenIn(root, rel) }

// PlainPathError says in plain words why the path p the examiner named
// could not be read (inputs.PlainPathError).
func PlainPathError(p string, err error) string { return inputs.PlainPathError(p, err) }

// Input statuses (InputStatus.Status): what became of each input given.
const (
	InputRead      = inputs.InputRead
	InputUnusable  = inputs.InputUnusable
	InputDuplicate = inputs.InputDuplicate
	InputSidecar   = inputs.InputSidecar
)

// Problem kinds of the input accounting.
const (
	KindUnusableInput  = inputs.KindUnusableInput
	KindWrongKey       = inputs.KindWrongKey
	KindDuplicateInput = inputs.KindDuplicateInput
)

// InputKindSidecar and InputKindUnknown are InputStatus kinds for what is
// not read as a source.
const (
	InputKindSidecar = inputs.InputKindSidecar
	InputKindUnknown = inputs.InputKindUnknown
)

// InputStatus is one input given, or one entry of a folder given that is
// named or shaped like evidence, and what became of it.
type InputStatus = inputs.InputStatus

// unit is one input to read (inputs.Unit).
type unit = inputs.Unit

// unusableSource is the inventory source of an input nothing was read
// from, so the report and run.json list it beside the ones read.
func unusableSource(st InputStatus) InventorySource {
	return InventorySource{Input: st.Input, Kind: st.Kind, Verified: "none", Unusable: st.Reason}
}

// accountInputs lists every input given and every evidence-shaped entry
// of a folder given, with what became of it (inputs.Expansion.Account);
// each unusable one is also an inventory source, so run.json and the
// report list it.
func accountInputs(x *inputs.Expansion, units []unit, fails []error, inv *Inventory) []InputStatus {
	out := x.Account(units, fails)
	for _, st := range out {
		if st.Status == InputUnusable && inv != nil {
			inv.Sources = append(inv.Sources, unusableSource(st))
		}
	}
	return out
}

func countFailed(fails []error) int {
	n := 0
	for _, e := range fails {
		if e != nil {
			n++
		}
	}
	return n
}
