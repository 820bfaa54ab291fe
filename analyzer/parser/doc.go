// Package parser is the contract between the analysis engine and the
// per-agent parsers under analyzer/parsers.
//
// A Parser matches collected files cheaply (agent, catalog target, base
// name) and parses one file at a time from an Input, emitting timeline
// events, session states and problems through a Sink. Parsers never walk
// directories or read the host filesystem: the engine opens, verifies and
// closes; Input.OpenRelated reaches other collected files by original path
// (a Claude persisted tool output, a Gemini .project_root).
//
// Bad input is data: a parser reports a bad line with Sink.Problem and goes
// on; returning an error means the rest of the file could not be read, and
// the engine turns it into a problem row too. Parsers check ctx in line
// loops and never panic; the engine also recovers a panic into a problem.
package parser
