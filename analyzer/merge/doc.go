// Package merge joins the output folders of `doubleagent timeline` runs
// over parts of a case (one bundle each, or a shard of bundles each) into
// the output folder of the whole case: `doubleagent merge SHARD_OUT... -o
// DIR`.
//
// Its timeline.jsonl, sessions.jsonl, inventory.json, problems.jsonl and
// findings.jsonl are byte-identical to those of one run over every input
// of every shard, provided no host is in two shards (the correlation of
// one host's rows, by record id, by full value and of secondary rows with
// primary ones, needs all of that host's inputs in one run; Run refuses a
// host, an input or a bundle id found in two shards and names both).
//
// How: each shard's files are sorted already, by the keys the engine
// sorts by (analyzer/analyze output.go, timeline.Less,
// timeline.Aggregator.Sessions); Run checks every shard file against the
// SHA-256 its run.json records, then merges each file as a k-way merge of
// the shards' lines (a heap of one line per shard), copying the lines as
// written, never re-encoding them. inventory.json and run.json are written
// array element by array element in the layout json.MarshalIndent gives
// the whole value. Findings are cross-host: the rules run again over the
// merged rows in timeline order (a finding names rows by their line in
// the merged timeline.jsonl), with the same rules as the shards (Run
// refuses other rules). At most Options.FanIn files (DefaultFanIn, 64)
// are read at once: with more shards, groups of consecutive shards are
// merged first into framed intermediate files in a temporary folder
// inside the output folder (fanin.go: the same bytes, since equal keys
// keep shard order and groups are consecutive), removed when the file is
// merged. Memory holds one item per file read at once (never a whole
// file), the findings state the rules keep, and per shard its merge.json
// entry and its hosts, inputs and bundle ids (checked as each shard is
// loaded, its run.json lists dropped then).
//
// run.json cannot be identical to the one-run record: command_line,
// started_utc and ended_utc are the merge's; inputs_given is each shard's
// list merged (a folder given to one run is one entry there with its
// evidence entries, a list of bundles given to shards is the bundles);
// outputs lists the merge's files (with merge.json, which names every
// shard folder with the SHA-256 of its run.json and its own command line
// and times); formats is jsonl (the merge writes no other format).
//
// Evidence rules: a shard folder is read only through regular files
// (never a link, FIFO or device), each of its files is hashed against its
// run.json before use, and nothing is written outside DIR.
package merge
