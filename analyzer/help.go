package main

import (
	"fmt"

	"github.com/alecthomas/kong"
)

// Each command's --help ends with its exit codes: helpPrinter prints
// kong's help, then the selected command's entry of exitCodes.

const exitCodesTimeline = `Exit codes:
  0  rows were written, and every input was read
  1  nothing to write (no row matched), or nothing could be parsed
  2  unusable input or options (no input could be read, a bad flag, a filter
     naming a host, user or agent the input does not hold, a --session
     prefix that is ambiguous or names no session)
  3  the outputs were written, but some input was unusable (an empty file,
     a sidecar without its bundle), or a bundle was read only in part (cut
     short or corrupt anywhere after its first bytes, the zstd magic or
     age's first line: inside bundle.json, or an encrypted bundle's age
     header or first chunk, nothing of it is read; a truncated problem names
     the member where it stops; run.json counts them in cut_short_inputs),
     or a bundle failed a whole-file check (its .sha256 sidecar names
     another hash or is unreadable: its rows are verified:false; or data
     after its archive, such as an appended bundle, was not read; run.json
     counts them in unproven_inputs): it is named in the summary,
     problems.jsonl, run.json and the report`

var exitCodes = map[string]string{
	"report": exitCodesTimeline,
	"catalog": `Statuses: parsed = the analyzer reads its records; backlog = its records are
collected and a parser is wanted; collected = collected and detected, nothing
to parse.

Exit codes:
  0  printed
  2  bad options`,
	"detect": `Exit codes:
  0  agents were found, and every input was read
  1  no agent was found
  2  unusable input or options
  3  some input was unusable, or a bundle was read only in part (cut short
     or corrupt, inside bundle.json too: named on stderr), or a bundle
     failed a whole-file check (a .sha256 sidecar that does not vouch for
     it, data after its archive: named on stderr); the table holds the rest`,
	"inventory": `Exit codes:
  0  the CSV was written
  1  no inventory line was read
  2  unusable input or options`,
	"merge": `Exit codes:
  0  the case's folder was written, with rows
  1  the shards hold no row
  2  a folder is not a finished timeline run, a shard file changed since its
     run (its SHA-256 is not the one its run.json records), shards that one
     run would not have made together (another schema, tool version, parser
     set, filter or rule set; a host, input or bundle in two shards), or an
     output folder that already holds a run
  3  the case's folder was written, but a shard's run held an unusable input,
     a bundle read only in part or one failing a whole-file check (what one
     run over every input exits 3 for): named, counted and summed in
     run.json as that run would`,
	"parsers": `Exit codes:
  0  printed
  2  bad options`,
	"surface": `Exit codes:
  0  control-surface entries were listed
  1  no entry was found
  2  unusable input or options`,
	"timeline": exitCodesTimeline,
	"verify": `Exit codes:
  0  every bundle verified: every hash matches its manifest row (an extracted
     collection: self-consistency only, unless --sidecar ties it)
  1  a bundle failed verification (a hash mismatch, a missing member, a cut or
     contradictory bundle, an extracted manifest.jsonl or bundle.json that is
     not the one --sidecar records)
  2  an input is neither a bundle nor an extracted collection, or cannot be
     read (in a folder of bundles, each entry named like a bundle that is not
     one counts)`,
}

func helpPrinter(options kong.HelpOptions, ctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	if sel := ctx.Selected(); sel != nil {
		if e, ok := exitCodes[sel.Name]; ok {
			fmt.Fprintln(ctx.Stdout, "\n"+e)
		}
	}
	return nil
}
