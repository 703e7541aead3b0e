# ContactsSelection — quick start: `make demo`, `make test`.
# Every goal first runs `deps`, which installs what is missing on a fresh Debian machine with the Swift
# toolchain (apt packages; Python test/benchmark servers into ./.venv) and is quiet when all is present.

SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libicu-dev libphonenumber-dev libcurl4-openssl-dev man-db gettext libcmark-dev
APT_PACKAGES += libncurses-dev tmux mutt
# A real IMAP server for the sent-copy tests (Dovecot in a temporary configuration on 127.0.0.1).
APT_PACKAGES += dovecot-imapd
# Cyrus IMAP's CardDAV for the sync tests (httpd and lmtpd from a temporary configuration; no cyrus-imapd,
# which conflicts with dovecot-imapd).
APT_PACKAGES += cyrus-common cyrus-caldav sasl2-bin
# The benchmarks' peers from Debian (fzf beside the picker); installed by `make bench` only.
APT_BENCH_PACKAGES := fzf
VENV := .venv
PY_TEST_PACKAGES := aiosmtpd fast-mail-parser radicale xandikos khard vdirsyncer
PY_TEST_PACKAGES += pyte dkimpy
PY_BENCH_PACKAGES := vobject chevron jinja2

.PHONY: all deps deps-apt deps-venv build demo test test-dependency bench lint docs fuzz clean install uninstall

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

# Tests run with TMPDIR in a folder of their own, so that a run leaves nothing in /tmp: the build tools'
# own scratch files are removed with it, and anything else left there is a test that did not clean up.
TEST_TMP := $(CURDIR)/.build/test-tmp

test: deps
	@rm -rf "$(TEST_TMP)" && mkdir -p "$(TEST_TMP)"
	@TMPDIR="$(TEST_TMP)" $(MAKE) --no-print-directory test-dependency
	TMPDIR="$(TEST_TMP)" PATH="$(CURDIR)/$(VENV)/bin:$$PATH" CONTACTS_VENV="$(CURDIR)/$(VENV)" $(SWIFT) test --parallel
	@echo "== documentation: DocC catalogs and symbol links (make docs)"
	@TMPDIR="$(TEST_TMP)" ./scripts/docs.sh
	@left=$$(ls -A "$(TEST_TMP)" | grep -Ev '^(TemporaryDirectory\..+|.+\.lock|swift-generated-sources)$$' || true); rm -rf "$(TEST_TMP)"; \
	  if [ -n "$$left" ]; then echo "tests left files behind: $$left" >&2; exit 1; fi

# The package used as a SwiftPM dependency (by path) from Examples/Consumer: it must build and find its
# resources (sample address book, localizations, templates) at run time.
test-dependency:
	@echo "== Examples/Consumer: ContactsSelection as a dependency"
	@$(SWIFT) build --package-path Examples/Consumer --scratch-path .build/consumer 2>&1 | grep -E "error|warning:|Compiling|Build complete" | grep -v "^\[" | tail -3
	@out=$$(.build/consumer/debug/Consumer) && echo "$$out" && \
	  echo "$$out" | grep -q "^contacts: [1-9]" && echo "$$out" | grep -q "^select (de): Auswählen$$" && \
	  echo "$$out" | grep -q "^templates: invite" && echo "$$out" | grep -q "^alert (de): ." && \
	  echo "dependency check: ok"

bench: deps
	@./scripts/deps-apt.sh $(APT_BENCH_PACKAGES)
	$(SWIFT) build -c release --product Benchmarks
	$(SWIFT) build -c release --product contacts
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" CONTACTS_VENV="$(CURDIR)/$(VENV)" .build/release/Benchmarks $(BENCH_ARGS)

# DocC archives of every library in .build/docs (documentation warnings are errors). The examples in the
# documentation are compiled by every build of the tests (DocExamplesTests).
docs: deps-apt
	@./scripts/docs.sh

# libFuzzer targets (Fuzz/): FUZZ_SECONDS per target; findings and grown corpora in fuzz-work/.
FUZZ_SECONDS ?= 60
fuzz: deps-apt
	@FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) ./scripts/fuzz.sh

# `make install` (PREFIX, default /usr/local; DESTDIR for packagers): the release `contacts`, its resources
# (sample book, localizations, templates) in share/contacts where the binary finds them from its own folder,
# the manual page made by the tool from its commands, and the bash, zsh and fish completions where those
# shells look. `make uninstall` removes exactly these files.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
RESOURCE_BUNDLES := ContactsSelection_ContactsCore.resources ContactsSelection_StringsCatalog.resources \
	ContactsSelection_Templating.resources
INSTALLED_FILES := bin/contacts share/man/man1/contacts.1 share/bash-completion/completions/contacts \
	share/zsh/site-functions/_contacts share/fish/vendor_completions.d/contacts.fish

install: deps-apt
	$(SWIFT) build -c release --product contacts
	@set -e; bin=$$($(SWIFT) build -c release --show-bin-path); root="$(INSTALL_ROOT)"; \
	  install -d "$$root/bin" "$$root/share/contacts" "$$root/share/man/man1" "$$root/share/bash-completion/completions" \
	    "$$root/share/zsh/site-functions" "$$root/share/fish/vendor_completions.d"; \
	  install -m 755 "$$bin/contacts" "$$root/bin/contacts"; \
	  for b in $(RESOURCE_BUNDLES); do rm -rf "$$root/share/contacts/$$b"; cp -R "$$bin/$$b" "$$root/share/contacts/$$b"; \
	    chmod -R u+rwX,go+rX,go-w "$$root/share/contacts/$$b"; done; \
	  "$$bin/contacts" help --man > "$$root/share/man/man1/contacts.1"; \
	  "$$bin/contacts" completion bash > "$$root/share/bash-completion/completions/contacts"; \
	  "$$bin/contacts" completion zsh > "$$root/share/zsh/site-functions/_contacts"; \
	  "$$bin/contacts" completion fish > "$$root/share/fish/vendor_completions.d/contacts.fish"; \
	  chmod 644 "$$root/share/man/man1/contacts.1" "$$root/share/bash-completion/completions/contacts" \
	    "$$root/share/zsh/site-functions/_contacts" "$$root/share/fish/vendor_completions.d/contacts.fish"; \
	  echo "installed contacts into $$root"

uninstall:
	@set -e; root="$(INSTALL_ROOT)"; \
	  for f in $(INSTALLED_FILES); do rm -f "$$root/$$f"; done; \
	  for b in $(RESOURCE_BUNDLES); do rm -rf "$$root/share/contacts/$$b"; done; \
	  rmdir "$$root/share/contacts" 2>/dev/null || true; \
	  echo "removed contacts from $$root"

lint:
	$(SWIFT) format lint --recursive --strict Sources Tests Benchmarks Plugins Fuzz Package.swift Examples/Consumer

clean:
	$(SWIFT) package clean
	rm -rf $(VENV) demo-out
