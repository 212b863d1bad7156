#!/usr/bin/env bash
# scripts/test.sh: the whole suite against the real services, as make test
# (and so .ci/run) runs it. Every package runs with the race detector except
# internal/e2e's own process: that package checks streamctl through the
# binaries it builds, and the ones that drive streamctl's goroutines hardest
# run a race-built binary (raceBinaryEnv in internal/e2e/e2e_test.go). The
# two go test runs go side by side, as one run's two package slots did; the
# end-to-end package's output follows the others'.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# Four tests at a time in a package: the end-to-end tests mostly wait (on
# killed processes' leases, on servers), and two at a time took 17 minutes.
flags=(-count=1 -timeout 30m -parallel 4)

"$GO" vet ./... || exit 1
pkgs=$("$GO" list ./... | grep -v '/internal/e2e$') || exit 1
e2e_log=$(mktemp)
trap 'rm -f "$e2e_log"' EXIT
STREAMCTL_E2E_RACE_BINARY=1 "$GO" test "${flags[@]}" ./internal/e2e/ > "$e2e_log" 2>&1 &
e2e=$!
# shellcheck disable=SC2086 # one argument per package
"$GO" test -race "${flags[@]}" $pkgs
rest=$?
wait "$e2e"
e2e_rc=$?
cat "$e2e_log"
if ((rest != 0 || e2e_rc != 0)); then
	echo "FAIL: the packages exited $rest, internal/e2e exited $e2e_rc" >&2
	exit 1
fi
