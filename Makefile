# ContactsSelection — quick start: `make demo`, `make test`.
# Every goal first runs `deps`, which installs what is missing on a fresh Debian machine with the Swift
# toolchain (apt packages; Python test/benchmark servers into ./.venv) and is quiet when all is present.

SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libicu-dev libphonenumber-dev libcurl4-openssl-dev
VENV := .venv
PY_TEST_PACKAGES := aiosmtpd fast-mail-parser
PY_BENCH_PACKAGES := vobject chevron jinja2

.PHONY: all deps deps-apt deps-venv build demo test test-dependency bench lint clean fuzz

all: build

deps: deps-apt deps-venv

deps-apt:
	@./scripts/deps-apt.sh $(APT_PACKAGES)

deps-venv:
	@./scripts/deps-venv.sh $(VENV) $(PY_TEST_PACKAGES) $(PY_BENCH_PACKAGES)

build: deps-apt
	$(SWIFT) build

demo: deps-apt
	@$(SWIFT) build --product contacts 2>&1 | grep -Ev '^(\[|Building|Build complete|Build of product|Compiling|Write|Emitting|Planning|Fetching)' || true
	@$(SWIFT) run --skip-build contacts demo

test: deps
	@$(MAKE) --no-print-directory test-dependency
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" CONTACTS_VENV="$(CURDIR)/$(VENV)" $(SWIFT) test --parallel

# The package used as a SwiftPM dependency (by path) from Examples/Consumer: it must build and find its
# resources (sample address book, localizations, templates) at run time.
test-dependency:
	@echo "== Examples/Consumer: ContactsSelection as a dependency"
	@$(SWIFT) build --package-path Examples/Consumer --scratch-path .build/consumer 2>&1 | grep -E "error|warning:|Compiling|Build complete" | grep -v "^\[" | tail -3
	@out=$$(.build/consumer/debug/Consumer) && echo "$$out" && \
	  echo "$$out" | grep -q "^contacts: [1-9]" && echo "$$out" | grep -q "^select (de): Auswählen$$" && \
	  echo "$$out" | grep -q "^templates: invite" && echo "dependency check: ok"

bench: deps
	$(SWIFT) build -c release --product Benchmarks
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" CONTACTS_VENV="$(CURDIR)/$(VENV)" .build/release/Benchmarks $(BENCH_ARGS)

# libFuzzer targets (Fuzz/): FUZZ_SECONDS per target; findings and grown corpora in fuzz-work/.
FUZZ_SECONDS ?= 60
fuzz: deps-apt
	@FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) ./scripts/fuzz.sh

lint:
	$(SWIFT) format lint --recursive --strict Sources Tests Benchmarks Fuzz Package.swift Examples/Consumer

clean:
	$(SWIFT) package clean
	rm -rf $(VENV) demo-out
