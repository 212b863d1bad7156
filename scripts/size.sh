#!/usr/bin/env bash
# scripts/size.sh [N]: where the bytes of the release binary are. Builds
# linux/amd64 as scripts/release.sh does (stripped) and once unstripped, and
# prints both sizes and the N (default 25) packages and modules with the most
# code and data, from the symbol table (the line tables that stripping keeps
# grow roughly with the code). Needs readelf (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS=-tags=grpcnotrace CGO_ENABLED=0 GOOS=linux GOARCH=amd64
go build -trimpath -ldflags='-s -w' -o "$tmp/stripped" .
go build -trimpath -o "$tmp/full" .
printf 'stripped %d bytes, unstripped %d bytes\n' "$(stat -c %s "$tmp/stripped")" "$(stat -c %s "$tmp/full")"
# .bss and .noptrbss come last in Go's ELF layout: a symbol at or above the
# lowest NOBITS address takes no room in the file.
bss=$(readelf -SW "$tmp/full" | awk '{ for (i = 1; i < NF; i++) if ($i == "NOBITS") print $(i+1) }' | sort | head -1)
go tool nm -size "$tmp/full" | awk -v n="$n" -v bss="$bss" '
function pad(h) { return substr("0000000000000000", 1, 16 - length(h)) h }
NF >= 4 {
	if (pad($1) >= pad(bss)) next
	name = $4; for (j = 5; j <= NF; j++) name = name " " $j
	sub(/\[.*/, "", name); sub(/^(type:\.eq\.|type:\.hash\.|go:itab\.)\*?/, "", name); sub(/^\*/, "", name)
	slash = match(name, /\/[^\/]*$/) ? RSTART : 0
	dot = index(substr(name, slash + 1), "."); pkg = dot ? substr(name, 1, slash + dot - 1) : name
	size[pkg] += $2
	split(pkg, part, "/"); mod = (part[1] ~ /\./) ? part[1] "/" part[2] "/" part[3] : "std"
	if (part[1] == "github.com" && part[3] ~ /^(arrow-go|aws-sdk-go-v2|azure-sdk-for-go)$/) mod = mod "/" part[4]
	modsize[mod] += $2
}
END {
	for (k in size) print size[k], "package", k | "sort -rn | head -" n
	close("sort -rn | head -" n)
	for (k in modsize) print modsize[k], "module", k | "sort -rn | head -" n
}' | awk '{ printf "%9.2f MB  %-7s %s\n", $1 / 1e6, $2, $3 }'
