# Sightline: `make run` to try it, `make test` for every test. `make help` lists the rest.

GO        ?= go
NPM       ?= npm
BIN       := bin/sightline
DATA_DIR  ?= ./data
ADDR      ?= 127.0.0.1:8080
DEMO_EMAIL    ?= admin@sightline.local
DEMO_PASSWORD ?= sightline-demo
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Go packages, leaving out any that npm packages ship under web/node_modules.
GO_PACKAGES = $(shell $(GO) list ./... | grep -v /node_modules/)
# go test's own 10 minutes per package is less than internal/server takes under -race on a
# loaded two-core machine (about 10 minutes here); a machine three times slower must pass.
GO_TEST_TIMEOUT ?= 45m
# The packages tested under the race detector: not every package that starts goroutines
# (alerts, sourcing, store, the Mastodon connector and the benchmarks do too and run without
# -race), but monitor and ingest, whose services are called concurrently, and the ones built
# around concurrency: live, percolate, stream and server.
RACE_PACKAGES = $(addprefix $(shell $(GO) list -m)/internal/,live percolate monitor stream ingest server)
# Except server's three tests that kill node processes, which run without -race: what they check
# crosses processes (what is stored and sent across a SIGKILL), which the race detector, watching
# one process's memory, cannot see, and the code each node runs is what the package's other
# tests run in-process under -race. Under -race they took 40 % of the package's time. (The
# cluster's nodes were never race-built: that test builds the binary with go build.)
PROCESS_TESTS = ^(TestCrashLosesNothing|TestAlertCrashSendsEachMatchOnce|TestClusterSurvivesANodeKill)$$
# internal/server's tests under -race run one after another, mostly waiting on their nodes,
# PostgreSQL and sockets (135 s of CPU in 714 s of wall in one run): its thirds by name, A to L,
# M to R and S to Z, run as three processes beside the other race packages. Each test runs in
# exactly one third (the last skips what the first two run).
SERVER = $(shell $(GO) list -m)/internal/server
SERVER_FIRST = ^Test[A-L]
SERVER_SECOND = ^Test[M-R]
# The other packages' tests wait on PostgreSQL and servers too: three packages at once, not
# go test's default of one a core.
GO_TEST_PACKAGES_AT_ONCE ?= 3

.DEFAULT_GOAL := help
.PHONY: help build web contracts go run check test test-built test-go test-go-race test-go-race-packages test-go-race-server-first test-go-race-server-second test-go-race-server-third test-go-processes test-go-rest test-go-short test-web test-e2e e2e lint fmt chromium rum clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

# The binary after the web app, which it embeds, even under make -j.
build: web ## build the web app and the binary into bin/sightline
	@$(MAKE) --no-print-directory go

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@

contracts: ## write web/src/api/contracts.gen.ts and web/src/test/alertChannels.json from the Go definitions (commit them; a test checks them)
	$(GO) run ./cmd/contracts

web: contracts web/node_modules/.package-lock.json ## build the web app into web/dist/app
	cd web && $(NPM) run build

go: ## build the binary (embeds the web app when it is built)
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/sightline

run: build ## build everything and start Sightline with demo data
	@echo
	@echo "  Sightline is starting at http://$(ADDR)"
	@echo "  Sign in as $(DEMO_EMAIL) with password $(DEMO_PASSWORD)"
	@echo "  (data is kept in $(DATA_DIR); stop with Ctrl-C)"
	@if [ -z "$$SIGHTLINE_SMTP_URL" ]; then \
		echo "  E-mail delivery is off: set SIGHTLINE_SMTP_URL=smtp://user:password@host:port to send alerts and export links"; fi
	@echo
	SIGHTLINE_ADMIN_EMAIL=$(DEMO_EMAIL) SIGHTLINE_ADMIN_PASSWORD=$(DEMO_PASSWORD) \
		$(BIN) serve --addr $(ADDR) --data-dir $(DATA_DIR)

# Lint and the Go tests at once: tsc and ESLint are one process each, and go vet and go test
# share the build cache.
check: ## the fast tier, after each change: lint, Go unit tests and the SQLite store (-short)
	@$(MAKE) --no-print-directory -j2 lint test-go-short

# Vitest starts at once beside lint and the build (it reads only the sources and
# web/src/api/contracts.gen.ts, written first and left alone by the build's own `contracts` when
# unchanged); after lint and the build, the Go tests' six parts and the browser tests run
# beside it. The Go tests wait on PostgreSQL, node processes and internal/server's sockets, the
# browser tests on a server and Chromium per file, and Vitest fills the cores meanwhile. The Go
# tests and the browser tests wait for the build because they embed web/dist
# (internal/server) and run bin/sightline.
test: rum chromium web/node_modules/.package-lock.json contracts ## every test: Go on SQLite and PostgreSQL, web units, browser
	@$(MAKE) --no-print-directory -j9 test-web test-built

# Its seven parts take the parent's other job slots.
test-built: lint build
	@$(MAKE) --no-print-directory test-go-race test-go-processes test-go-rest e2e

lint: web/node_modules/.package-lock.json ## gofmt, go vet, tsc and ESLint
	@unformatted=$$(gofmt -l cmd internal web/embed.go); \
		if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(GO_PACKAGES)
	cd web && $(NPM) run typecheck && $(NPM) run lint

# The parts run at once: each spends long stretches waiting (node processes starting,
# PostgreSQL, sockets), and no test has a time budget to miss.
test-go: rum ## Go tests, the concurrent packages under -race (PostgreSQL at 127.0.0.1:5432 is required when CI=true)
	@$(MAKE) --no-print-directory -j6 test-go-race test-go-processes test-go-rest

test-go-race: test-go-race-packages test-go-race-server-first test-go-race-server-second test-go-race-server-third

test-go-race-packages:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -race $(filter-out $(SERVER),$(RACE_PACKAGES))

test-go-race-server-first:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -race -run '$(SERVER_FIRST)' -skip '$(PROCESS_TESTS)' $(SERVER)

test-go-race-server-second:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -race -run '$(SERVER_SECOND)' $(SERVER)

test-go-race-server-third:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -race -skip '$(SERVER_FIRST)|$(SERVER_SECOND)' $(SERVER)

test-go-processes:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -run '$(PROCESS_TESTS)' $(SERVER)

test-go-rest:
	$(GO) test -count=1 -timeout $(GO_TEST_TIMEOUT) -p $(GO_TEST_PACKAGES_AT_ONCE) $(filter-out $(RACE_PACKAGES),$(GO_PACKAGES))

# -short skips the node processes, the clusters and the tests at full size; PostgreSQL is off.
# The fast tier keeps Go's test cache (only packages whose code, files or environment changed run
# again), as tsc and ESLint keep theirs (node_modules/.cache); make test runs everything afresh.
test-go-short: ## Go tests under -short, on SQLite only
	SIGHTLINE_TEST_POSTGRES=off $(GO) test -short $(GO_PACKAGES)

test-web: web/node_modules/.package-lock.json ## Vitest
	cd web && $(NPM) run test

test-e2e: build chromium ## browser tests: Playwright driving Debian's Chromium against the binary
	@$(MAKE) --no-print-directory e2e

e2e:
	cd web && SIGHTLINE_BIN=../$(BIN) $(NPM) run e2e

chromium: ## install Debian's Chromium for the browser tests when missing
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing chromium (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The PostgreSQL server's major version, for its RUM package; none when no server is installed here.
PG_MAJOR = $(shell ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)

rum: ## install Debian's RUM extension for the local PostgreSQL when missing (the store falls back to GIN without it)
	@if [ -n "$(PG_MAJOR)" ] && [ ! -f /usr/share/postgresql/$(PG_MAJOR)/extension/rum.control ]; then \
		echo "installing postgresql-$(PG_MAJOR)-rum (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-$(PG_MAJOR)-rum >/dev/null; fi

fmt: ## format Go code
	gofmt -w cmd internal web/embed.go

clean: ## remove build output
	rm -rf bin web/dist/app
