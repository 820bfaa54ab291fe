module github.com/doubleagent/doubleagent/bundle

go 1.26

require github.com/doubleagent/doubleagent/catalog v0.0.0

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
)

replace github.com/doubleagent/doubleagent/catalog => ../catalog
