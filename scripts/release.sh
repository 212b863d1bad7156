#!/usr/bin/env bash
# make release: stripped, reproducible streamctl binaries for each platform
# of PLATFORMS, as archives in DIST (default dist/) with a SHA256SUMS file.
#
# The same commit gives the same bytes on any machine with the same Go
# version: no paths (-trimpath), no build ID or timestamp in the binary, the
# version and commit from -ldflags -X, the archives' file times and owners
# fixed to the commit's time (SOURCE_DATE_EPOCH) and root, gzip without a
# name or time. CGO is off, so the binaries are static.
#
#   VERSION=1.2.0 make release              # a release; default: git describe, else 0.1.0-dev
#   PLATFORMS=linux/amd64 make release      # one platform
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
DIST=${DIST:-dist}
PLATFORMS=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
if [ -z "${VERSION:-}" ]; then
	VERSION=$(git describe --tags --exact-match 2>/dev/null || echo 0.1.0-dev)
fi
VERSION=${VERSION#v}
COMMIT=${COMMIT:-$(git rev-parse HEAD)}
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct "$COMMIT")}
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "release: the working tree has uncommitted changes; the binaries say commit $COMMIT, which is not what they are built from. Commit or stash first." >&2
	[ "${ALLOW_DIRTY:-}" = 1 ] || exit 1
fi

pkg=github.com/streamctl/streamctl/internal/command
ldflags="-s -w -buildid= -X $pkg.Version=$VERSION -X $pkg.Commit=$COMMIT"
mkdir -p "$DIST"
archives=()
for platform in $PLATFORMS; do
	os=${platform%/*} arch=${platform#*/}
	name=streamctl_${VERSION}_${os}_${arch}
	rm -rf "${DIST:?}/$name" "$DIST/$name.tar.gz"
	mkdir -p "$DIST/$name"
	echo "release: building $name" >&2
	# -buildvcs=false: the commit is given above; the go command's own VCS
	# stamp would add vcs.modified and vcs.time, which depend on the checkout.
	# grpcnotrace: see the Makefile.
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -tags grpcnotrace -trimpath -buildvcs=false \
		-ldflags "$ldflags" -o "$DIST/$name/streamctl" .
	cp README.md "$DIST/$name/"
	touch -h -d "@$SOURCE_DATE_EPOCH" "$DIST/$name" "$DIST/$name/streamctl" "$DIST/$name/README.md"
	(cd "$DIST" && tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
		--format=gnu -cf - "$name" | gzip -9 -n > "$name.tar.gz")
	archives+=("$name.tar.gz")
done
# SHA256SUMS lists every archive of DIST, this run's and earlier ones of
# the same version.
(cd "$DIST" && sha256sum streamctl_"${VERSION}"_*.tar.gz > SHA256SUMS)
echo "release: ${archives[*]} and SHA256SUMS in $DIST" >&2
