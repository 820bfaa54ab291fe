module github.com/doubleagent/doubleagent/bundle

go 1.26
