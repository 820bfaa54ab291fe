module github.com/doubleagent/doubleagent/analyzer

go 1.26
