module github.com/doubleagent/doubleagent/collector

go 1.26
