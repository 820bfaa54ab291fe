module github.com/doubleagent/doubleagent/catalog

go 1.26
