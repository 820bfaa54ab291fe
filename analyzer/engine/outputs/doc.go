// Package outputs is the engine's last stage: it writes the rows the
// correlate stage hands it, in timeline order, in every format asked for
// (--format: timeline.jsonl, timeline.csv, the Timesketch and ECS JSON
// Lines, Parquet, the mactime bodyfile) and passes each written row on to
// a RowConsumer (the findings) on a goroutine of its own, so the rules run
// on the rows in memory rather than on the written timeline read back.
//
// It decides nothing about the rows: what is merged, paired, linked or
// left out is the correlate stage's. Every file it creates is created new
// in the output folder (CreateOutput: O_CREAT|O_EXCL|O_NOFOLLOW), never
// written through a link planted there.
//
// The file formats are described in analyzer/docs/output.md.
package outputs
