#!/usr/bin/env bash
# Runs `doubleagent timeline` over one shard of a case's bundle list, so
# shards can run in parallel (xargs -P, a Kubernetes Indexed Job) and
# `doubleagent merge` joins their folders (analyzer/docs/usage.md, "A fleet").
#
#   scripts/k8s/shard.sh LIST INDEX COUNT OUTROOT [timeline options...]
#
# LIST holds one bundle path a line. Every host's bundles go to one shard (one
# run correlates a host's rows across all its inputs; merge refuses a host in
# two shards): the host is read from the collector's file name
# <host>_<UTC yyyymmddTHHMMSSZ>_doubleagent.tar.zst[.age]; a file named
# otherwise is a host of its own (keep one host's bundles under one such name,
# or rename them). Hosts are sorted (byte order) and host number k (from 0)
# goes to shard k % COUNT. The shard runs
#   ${DOUBLEAGENT:-doubleagent} timeline BUNDLE... -o OUTROOT/shard-NNNNN --jobs 1 [options]
# Exit: timeline's code, except 3 (outputs written, some input unusable: it is
# named in the shard's run.json and problems.jsonl, and so in the merge), which
# is 0 here so a Job does not retry it; 2 when the shard has no bundle (COUNT
# is more than the hosts) or the arguments are wrong.
set -euo pipefail
if [ $# -lt 4 ]; then sed -n '2,20p' "$0" >&2; exit 2; fi
list=$1 idx=$2 count=$3 outroot=$4
shift 4
case "$idx$count" in *[!0-9]*) echo "shard: INDEX and COUNT are numbers" >&2; exit 2 ;; esac
if [ "$count" -lt 1 ] || [ "$idx" -ge "$count" ]; then echo "shard: INDEX must be below COUNT" >&2; exit 2; fi
[ -f "$list" ] || { echo "shard: no list $list" >&2; exit 2; }

# host<TAB>path, sorted by host (stable: a host's bundles keep the list's order).
mapfile -t mine < <(awk '
  NF == 0 { next }
  { p = $0; b = p; sub(/.*\//, "", b); h = b
    if (match(b, /_[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z_doubleagent\.tar\.zst(\.age)?$/)) h = substr(b, 1, RSTART - 1)
    print h "\t" p }' "$list" | LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 |
  awk -F '\t' -v i="$idx" -v n="$count" '$1 != prev || k == 0 { k++; prev = $1 } (k - 1) % n == i { sub(/^[^\t]*\t/, ""); print }')
if [ ${#mine[@]} -eq 0 ]; then
  echo "shard: shard $idx of $count has no bundle (more shards than hosts in $list)" >&2
  exit 2
fi
out="$outroot/shard-$(printf '%05d' "$idx")"
echo "shard $idx of $count: ${#mine[@]} bundle(s) into $out" >&2
rc=0
"${DOUBLEAGENT:-doubleagent}" timeline "${mine[@]}" -o "$out" --jobs 1 "$@" || rc=$?
if [ "$rc" -eq 3 ]; then
  echo "shard $idx: some input unusable (named in $out/run.json and problems.jsonl)" >&2
  rc=0
fi
exit "$rc"
