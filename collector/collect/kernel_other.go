//go:build !linux

package collect

func kernelRelease() string { return "" }
