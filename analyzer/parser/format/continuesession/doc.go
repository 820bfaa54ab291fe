// Package continuesession reads the Continue session format that Continue
// (continuedev/continue) and its fork PearAI (pearai-submodule) write:
// sessions/<sessionId>.json (a Session with its ChatHistoryItem history),
// the sessions/sessions.json index (dateCreated gives every row its time),
// and the cn CLI log lines that say a session was resumed. The continuedev
// and pearai packages keep their Specs and paths.
//
// Sources: continuedev/continue at d0a3c0b626b5bebc3bef4742eec05a0242be0bab
// (core/util/history.ts, core/index.d.ts, extensions/cli/src/util/logger.ts)
// and trypear/pearai-submodule at 03800f80; the evidence and fixtures are
// listed in analyzer/parsers/continuedev/doc.go and pearai/doc.go.
package continuesession
