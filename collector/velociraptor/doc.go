// Package velociraptor holds the Velociraptor artifacts that run the
// collector across a fleet: DoubleAgent.Collect.yaml (a CLIENT artifact:
// the collector as one tool per OS and architecture, fetched with
// Generic.Utils.FetchBinary, its --inventory lines as rows, the bundle
// and its sidecar uploaded) and DoubleAgent.Server.Timeline.yaml (a
// SERVER_EVENT artifact on System.Flow.Completion that runs doubleagent
// timeline on each uploaded bundle). SHA256SUMS records the six release
// binaries whose hashes the artifact declares; scripts/release.sh writes
// both, and TestBinariesMatchTheArtifact builds the six as it does and
// fails when a hash is not the declared one.
//
// The tests check every YAML key against the artifact schema and every
// VQL function, plugin, argument and artifact parameter against names
// extracted from Velociraptor's source (testdata/velociraptor-reference.txt,
// github.com/Velocidex/velociraptor commit
// cd02ac66343b6c84d4706708eba00a7e243ffac9, by
// scripts/release-velociraptor-reference.py). No Velociraptor code is in
// this repository. Steps: collector/docs/usage.md, "Velociraptor".
package velociraptor
