#!/usr/bin/env bash
# Build bin/doubleagent-collector (static, CGO_ENABLED=0, stripped) and
# bin/doubleagent from the repository root.
#   scripts/build.sh            # this machine
#   scripts/build.sh --release  # cross-builds into dist/ for linux, darwin, windows × amd64, arm64
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=0
ldflags="-s -w -buildid="
if [ "${1:-}" = "--release" ]; then
  rm -rf dist && mkdir -p dist
  for os in linux darwin windows; do
    for arch in amd64 arm64; do
      ext=""; [ "$os" = windows ] && ext=".exe"
      GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "dist/doubleagent-collector_${os}_${arch}${ext}" ./collector
      GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "dist/doubleagent_${os}_${arch}${ext}" ./analyzer
    done
  done
  (cd dist && sha256sum * > SHA256SUMS)
  ls -l dist
  # The collector must stay under 10 MB.
  for f in dist/doubleagent-collector_*; do
    size=$(stat -c %s "$f")
    if [ "$size" -ge 10000000 ]; then echo "collector $f is $size bytes (limit 10 MB)" >&2; exit 1; fi
  done
  exit 0
fi
mkdir -p bin
go build -trimpath -ldflags "$ldflags" -o bin/doubleagent-collector ./collector
go build -trimpath -ldflags "$ldflags" -o bin/doubleagent ./analyzer
ls -l bin
