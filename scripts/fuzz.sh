#!/usr/bin/env bash
# `make fuzz`: builds the FuzzTargets executable with libFuzzer and AddressSanitizer (release, its own
# scratch path so the normal debug build stays valid), runs every target for FUZZ_SECONDS in libFuzzer's
# fork mode (a crash, timeout or out-of-memory is saved and fuzzing goes on), and prints a summary. It
# exits 1 when the run found anything (the summary groups the findings), 0 when it ran clean.
#
# Settings (environment or make variables):
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   targets to run (default: all; see Fuzz/README.md)
#   FUZZ_MAX_LEN   largest input in bytes (default 4096)
#   FUZZ_TIMEOUT   seconds before one input counts as a hang (default 10)
#   FUZZ_RSS_MB    memory limit in MiB (default 2048)
#   FUZZ_WORK      work folder: grown corpora, findings, logs (default fuzz-work, gitignored)
#   FUZZ_FLAGS     more libFuzzer flags, e.g. "-only_ascii=1" to get past a known invalid-UTF-8 crash
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-"vcard vcard-pieces contact-list strings stringsdict xcstrings xliff mustache messageformat recipients-json recipients-csv"}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS_MB=${FUZZ_RSS_MB:-2048}
WORK=${FUZZ_WORK:-fuzz-work}
SCRATCH=.build/fuzz

echo "== fuzz: building FuzzTargets (libFuzzer + ASan, release, $SCRATCH)"
# gold cannot link the sanitizer runtimes with this toolchain's debug info; lld can.
if ! "$SWIFT" build -c release --scratch-path "$SCRATCH" --product FuzzTargets \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld \
    -Xcxx -fsanitize=address,fuzzer-no-link >"$SCRATCH.log" 2>&1; then
    grep -E "error|warning:" "$SCRATCH.log" | head -20
    echo "fuzz: build failed (full log: $SCRATCH.log)" >&2
    exit 1
fi
BIN="$SCRATCH/release/FuzzTargets"

# ASan: no core dumps; a failed allocation returns NULL (libFuzzer then reports it as an out-of-memory).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:disable_coredump=1:allocator_may_return_null=1}
# Leaks inside the toolchain's Foundation are not findings of this package (see the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0}
# Swift's own crash backtracer trips over ASan; libFuzzer prints the stack of a trap itself.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

summary=()
total_findings=0
for target in $TARGETS; do
    dir="$WORK/$target"
    mkdir -p "$dir/corpus" "$dir/findings"
    dict=()
    [ -f "Fuzz/dictionaries/$target.dict" ] && dict=("-dict=Fuzz/dictionaries/$target.dict")
    before=$(find "$dir/findings" -type f | wc -l)
    echo "== fuzz: $target for ${SECONDS_EACH}s (log: $dir/log.txt)"
    FUZZ_TARGET="$target" "$BIN" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$SECONDS_EACH" -max_len="$MAX_LEN" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
        -artifact_prefix="$dir/findings/" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$dir/corpus" "Fuzz/Corpus/$target" >"$dir/log.txt" 2>&1
    # The fork-mode status line: "#<runs>: cov: … corp: … exec/s: … oom/timeout/crash: a/b/c time: …".
    last=$(grep -E '^#[0-9]+: cov:' "$dir/log.txt" | tail -1)
    runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<<"$last")
    otc=$(sed -E 's|.*oom/timeout/crash: ([0-9]+/[0-9]+/[0-9]+).*|\1|' <<<"$last")
    after=$(find "$dir/findings" -type f | wc -l)
    new=$((after - before))
    total_findings=$((total_findings + new))
    summary+=("$(printf '%-16s %12s %8s %18s %10s' "$target" "${runs:-0}" "${cov:-?}" "${otc:-0/0/0}" "$new")")
done

echo
echo "== fuzz summary (${SECONDS_EACH}s per target, max_len $MAX_LEN, timeout ${TIMEOUT}s, rss ${RSS_MB} MiB${FUZZ_FLAGS:+, $FUZZ_FLAGS})"
printf '%-16s %12s %8s %18s %10s\n' target executions coverage oom/timeout/crash "new files"
for line in "${summary[@]}"; do echo "$line"; done
if [ "$total_findings" -gt 0 ]; then
    echo
    echo "== findings of this run, grouped: each saved input is replayed once and named by the error and the"
    echo "   first frame in this package (count, target, error | frame, one example input)"
    for target in $TARGETS; do
        find "$WORK/$target/findings" -type f -newer "$SCRATCH.log" 2>/dev/null | head -n "${FUZZ_TRIAGE_MAX:-40}" |
            while read -r file; do
                out=$(FUZZ_TARGET="$target" timeout -s KILL 120 "$BIN" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
                    "$file" 2>&1)
                kind=$(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z -]+|Swift runtime failure: [^/]*|Fatal error: [^/]*' <<<"$out")
                trap=$(grep -m1 -oE 'Swift runtime failure: [^/]*' <<<"$out")
                frame=$(grep -E '^ *#[0-9]+ .* in .*/(Sources|Fuzz/Sources)/' <<<"$out" | grep -v FuzzTargets.swift |
                    head -1 | grep -oE '(Sources|Fuzz/Sources)/[^ ]+' | head -1)
                [ -z "$frame" ] && frame=$(grep -E '^ *#[0-9]+ .* in ' <<<"$out" |
                    grep -vE 'llvm-project|libclang_rt|libswiftCore|libc\.so|compiler-generated' | head -1 |
                    sed -E 's/.* in ([^ ]+).*/\1/' | cut -c1-90)
                [ -z "$kind" ] && kind="does not reproduce alone"
                echo "$target|${kind}${trap:+ ($trap)} | ${frame:-?}|$file"
            done
    done | sort -t'|' -k1,2 | awk -F'|' '{k=$1"|"$2"|"$3; n[k]++; if (!(k in ex)) ex[k]=$4} END {
        for (k in n) { split(k, p, "|"); printf "  %4d  %-16s %s | %s\n        e.g. %s\n", n[k], p[1], p[2], p[3], ex[k] } }'
    echo "replay: FUZZ_TARGET=<target> $BIN <file>; minimize: add -minimize_crash=1 -runs=20000"
    # A run with findings fails (make fuzz exits non-zero): save the fixed ones under Fuzz/Regressions/.
    exit 1
fi
echo "fuzz: no findings"
exit 0
