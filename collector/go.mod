module github.com/doubleagent/doubleagent/collector

go 1.26.0

require (
	filippo.io/age v1.3.2
	github.com/alecthomas/kong v1.17.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/creack/pty v1.1.24
	github.com/doubleagent/doubleagent/bundle v0.0.0
	github.com/doubleagent/doubleagent/catalog v0.0.0
	github.com/google/uuid v1.6.0
	github.com/klauspost/compress v1.20.4
	github.com/mattn/go-isatty v0.0.24
	github.com/rs/zerolog v1.35.1
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.50.0
)

require (
	filippo.io/hpke v0.4.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	golang.org/x/crypto v0.55.0 // indirect
)

replace (
	github.com/doubleagent/doubleagent/bundle => ../bundle
	github.com/doubleagent/doubleagent/catalog => ../catalog
)
