module github.com/doubleagent/doubleagent/bundle

go 1.26

require github.com/klauspost/compress v1.20.4
