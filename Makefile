# streamctl. `make test` installs and starts everything the suite needs.
GO ?= go
export PATH := $(CURDIR)/.tools/bin:$(CURDIR)/.tools/node/node_modules/.bin:$(PATH)

.PHONY: all build test unit tools bench lint fmt clean website

all: build

build:
	$(GO) build -o bin/streamctl .

# Real services (versitygw, Azurite, kfake, kcat, DuckDB) under .tools/, cached.
tools:
	bash scripts/install-tools.sh

# The whole suite, race detector on, against the real services.
test: tools
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...

# Pure-code tests only: no services.
unit:
	$(GO) test -race -short ./...

bench: tools
	bash scripts/bench.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff

# The documentation site: static HTML in website/public (not committed).
website:
	$(GO) run ./website/gen -root . -out website/public

clean:
	rm -rf bin
