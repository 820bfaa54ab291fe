module github.com/doubleagent/doubleagent/catalog

go 1.26

require github.com/bmatcuk/doublestar/v4 v4.10.4
