#!/usr/bin/env bash
# Build the six release collector binaries reproducibly and pin them in the
# Velociraptor artifact:
#   scripts/release.sh          # build dist/velociraptor/*, write
#                               # collector/velociraptor/SHA256SUMS and every
#                               # expected_hash of DoubleAgent.Collect.yaml
#   scripts/release.sh --check  # build, and fail if the binaries' hashes are
#                               # not the recorded ones (nothing is rewritten)
# Reproducible: CGO_ENABLED=0, -trimpath, -buildvcs=false, -ldflags
# "-s -w -buildid=": the same source and Go toolchain give the same bytes
# (the toolchain is recorded in the artifact's first line; another Go
# version gives other hashes, and --check then says so).
# collector/velociraptor's test checks the artifact against SHA256SUMS.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
out=dist/velociraptor
art=collector/velociraptor/DoubleAgent.Collect.yaml
sums=collector/velociraptor/SHA256SUMS
export CGO_ENABLED=0 GOFLAGS=-buildvcs=false
ldflags="-s -w -buildid="
rm -rf "$out" && mkdir -p "$out"
for os in linux darwin windows; do
  for arch in amd64 arm64; do
    ext=""; [ "$os" = windows ] && ext=".exe"
    GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$out/doubleagent-collector_${os}_${arch}${ext}" ./collector
  done
done
(cd "$out" && sha256sum doubleagent-collector_*) >"$out/SHA256SUMS"
toolchain=$(go env GOVERSION)
if [ "$check" = 1 ]; then
  if ! diff -u "$sums" "$out/SHA256SUMS"; then
    echo "release check: the binaries built here ($toolchain) are not the ones $art declares; run scripts/release.sh" >&2
    exit 1
  fi
  echo "release check: the six binaries match $sums and $art"
  exit 0
fi
cp "$out/SHA256SUMS" "$sums"
# Each tool's filename line comes before its expected_hash line.
awk -v sums="$sums" -v tc="$toolchain" '
  BEGIN { while ((getline l < sums) > 0) { split(l, f, /  /); h[f[2]] = f[1] } }
  NR == 1 { print "# release: built by scripts/release.sh with " tc "; hashes in SHA256SUMS"; if (/^# release:/) next }
  /^    filename: / { file = $2 }
  /^    expected_hash: / { if (!(file in h)) { print "no hash for " file > "/dev/stderr"; exit 1 }
                          print "    expected_hash: " h[file]; next }
  { print }' "$art" >"$art.new"
mv "$art.new" "$art"
echo "wrote $sums and the expected_hash of each tool in $art ($toolchain)"
cat "$sums"
