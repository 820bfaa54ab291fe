// Package problem is the row of problems.jsonl, which every stage of the
// engine writes: what could not be read, or was read and is doubtful,
// named with where it was found, never skipped in silence.
package problem
