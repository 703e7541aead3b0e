#!/usr/bin/env bash
# Builds the DocC documentation of every library into .build/docs/<Module>.doccarchive, from each
# module's symbol graph (swift-symbolgraph-extract over the package's ordinary debug build, so after
# `swift build` it costs seconds) and its <Module>.docc catalog, with the toolchain's own `docc` (no
# package plugin needed). Broken symbol links, undocumented parameters and other documentation warnings
# are errors. `make test` runs it last.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(ICUKit Locales Collation ContactsCore StringsCatalog MessageFormat2 Templating Composer ContactsSelection Campaigns TerminalUI PickerModel CardDAV)
scratch=.build/docs-work
mkdir -p "$scratch"
swift build >/dev/null
build=.build/debug
mkdir -p .build/docs
failed=0
for m in "${modules[@]}"; do
    graphs="$scratch/graphs-$m"
    rm -rf "$graphs" && mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$m" -I "$build/Modules" \
        -Xcc -fmodule-map-file="$build/CICU.build/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CPhoneNumber.build/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CProcess.build/module.modulemap" \
        -Xcc -fmodule-map-file=Sources/CCurl/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CCmark/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CNcurses/module.modulemap \
        -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$graphs"
    if docc convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$graphs" \
        --output-path ".build/docs/$m.doccarchive" --fallback-display-name "$m" \
        --fallback-bundle-identifier "org.contactsselection.$m" --warnings-as-errors >"$scratch/docc-$m.log" 2>&1
    then
        echo "docs: $m → .build/docs/$m.doccarchive"
    else
        echo "docs: $m has documentation errors ($scratch/docc-$m.log):" >&2
        grep -E -A2 "^(error|warning):" "$scratch/docc-$m.log" >&2 || cat "$scratch/docc-$m.log" >&2
        failed=1
    fi
done
exit $failed
