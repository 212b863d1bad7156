# streamctl. `make test` installs and starts everything the suite needs.
GO ?= go
# grpcnotrace: gRPC (linked through Google's API client options and
# arrow-go) then leaves out golang.org/x/net/trace, whose HTTP debug pages run
# html/template. A reachable template execution makes the linker keep every
# exported method of every type, 20 MB of code streamctl never runs
# (third_party/README.md). scripts/release.sh and the e2e tests' build say it
# too.
export GOFLAGS := -tags=grpcnotrace
export PATH := $(CURDIR)/.tools/bin:$(CURDIR)/.tools/node/node_modules/.bin:$(PATH)

.PHONY: all build test unit tools bench lint fmt clean website pgo fuzz release size

all: build

build:
	$(GO) build -o bin/streamctl .

# Real services (versitygw, Azurite, kfake, kcat, DuckDB, PostgreSQL) under .tools/
# or from Debian, cached.
tools:
	bash scripts/install-tools.sh

# The whole suite against the real services, race detector on: every
# package's tests run under it except internal/e2e's own process, whose
# hardest-driving tests run a race-built streamctl (scripts/test.sh).
test: tools
	GO=$(GO) bash scripts/test.sh

# Pure-code tests only: no services.
unit:
	$(GO) test -race -short ./...

# The Parquet writer against arrow-go's reader on inputs the fuzzer makes
# (go test runs only the seed corpus). FUZZTIME=10m searches longer. New
# inputs are minimized briefly: each run writes and reads a whole file.
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParquetRoundTrip -fuzztime $(FUZZTIME) -fuzzminimizetime 50x ./internal/format/parquet/

bench: tools
	bash scripts/bench.sh

# Reproducible, stripped binaries for linux/darwin × amd64/arm64 as archives in
# dist/, with SHA256SUMS (scripts/release.sh says how; VERSION=1.2.0 names a
# release, PLATFORMS=linux/amd64 builds one). The Containerfile packs one.
release:
	bash scripts/release.sh

# The release binary's size, stripped and not, and the packages and modules
# with the most code (scripts/size.sh; N=40 lists more).
N ?= 25
size:
	bash scripts/size.sh $(N)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff

# default.pgo: the CPU profile that go build uses to optimise the binary
# (profile-guided optimisation), taken from the record-path benchmarks. Refresh
# it when the hot path changes, and check make bench before committing it.
pgo:
	$(GO) test -run '^$$' -bench 'BenchmarkGenerate' -benchtime 5x -cpuprofile /tmp/streamctl-pgo-1.prof ./internal/pipeline/
	$(GO) test -run '^$$' -bench 'BenchmarkRecordPath/streamctl' -benchtime 10x -cpuprofile /tmp/streamctl-pgo-2.prof ./internal/pipeline/
	$(GO) test -run '^$$' -bench . -benchtime 5x -cpuprofile /tmp/streamctl-pgo-3.prof ./internal/format/
	$(GO) tool pprof -proto /tmp/streamctl-pgo-1.prof /tmp/streamctl-pgo-2.prof /tmp/streamctl-pgo-3.prof > default.pgo

# The documentation site: static HTML in website/public (not committed).
website:
	$(GO) run ./website/gen -root . -out website/public

clean:
	rm -rf bin dist
