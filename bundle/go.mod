module github.com/doubleagent/doubleagent/bundle

go 1.26.0

require (
	filippo.io/age v1.3.2
	github.com/klauspost/compress v1.20.4
)

require (
	filippo.io/hpke v0.4.0 // indirect
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
