#!/usr/bin/env bash
# Builds a fuzz target with libFuzzer and AddressSanitizer and runs it.
#
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]   fuzz for SECONDS (0: replay the corpus once)
#   Scripts/fuzz.sh --list                                  the targets
#
# TARGET is a folder of Fuzz/Targets (fuzz-feed-parser, …). The build goes to .build/fuzz
# (release, with debug info, instrumented for coverage and checked by ASan); the normal build
# is untouched, and `swift build` never builds these targets (Package.swift declares them only
# when SCROLLWORK_FUZZ is set). The run reads and grows Fuzz/Corpus/TARGET, from a copy: new
# inputs that reach new code are merged back, minimised, when it ends. A crash or a broken
# invariant leaves its input in .build/fuzz/findings/TARGET/ and the script fails; turn it
# into a test (Tests/*/FuzzFindingTests.swift) with the input in the test.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--list" ]; then
    ls Fuzz/Targets
    exit 0
fi
if [ $# -lt 2 ]; then
    echo "usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options...] | --list" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2
if [ ! -d "Fuzz/Targets/$target" ]; then
    echo "fuzz.sh: no target $target; the targets are:" >&2
    ls Fuzz/Targets >&2
    exit 2
fi

export SCROLLWORK_FUZZ=1
scratch=.build/fuzz
# Coverage and ASan in every Swift module and C target of the target's graph: the C shims
# (CThumbnails, CSearchRank) too, so ASan sees their reads. The system libraries (libpng,
# libjpeg, libxml2, SQLite) are Debian's, uninstrumented: ASan still catches our misuse of
# their buffers through its interceptors.
# SCROLLWORK_FUZZ_BUILT=1 runs the target as last built, for runs beside a build.
if [ "${SCROLLWORK_FUZZ_BUILT:-0}" != 1 ]; then
    swift build -c release --scratch-path "$scratch" --product "$target" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -g \
        -Xcc -fsanitize=fuzzer-no-link,address -Xcc -g >&2
fi
binary="$scratch/release/$target"

corpus="Fuzz/Corpus/$target"
mkdir -p "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus/." "$work/"
findings="$scratch/findings/$target"
mkdir -p "$findings"

# Inputs up to 16 KB: room for a feed with several entries, an image with its tables.
options=(-max_len=16384 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$findings/" "$@")
# Swift's own crash reporter reads memory ASan does not let it: libFuzzer reports instead.
export SWIFT_BACKTRACE=enable=no
# Leaks inside third-party libraries are suppressed, each explained in the file.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0"
if [ "$seconds" = 0 ]; then
    "$binary" "${options[@]}" -runs=0 "$corpus"
    exit
fi
status=0
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$binary" "${options[@]}" -max_total_time="$seconds" "$work" || status=$?
# Keep the smallest set of inputs, old and new, that reaches all the code they reach (a
# set cover), in place of the corpus: it stays small enough to keep in the repository.
merged=$(mktemp -d)
if "$binary" -set_cover_merge=1 -max_len=16384 -timeout=10 -artifact_prefix="$findings/" "$merged" "$corpus" "$work" >"$scratch/merge-$target.log" 2>&1; then
    rm -f "$corpus"/*
    cp "$merged"/* "$corpus"/ 2>/dev/null || true
else
    echo "fuzz.sh: the corpus could not be merged (see $scratch/merge-$target.log); it is left as it was" >&2
fi
rm -rf "$merged"
echo "fuzz.sh: $target: $(ls "$corpus" | wc -l) inputs in $corpus; findings in $findings: $(ls "$findings" | wc -l)" >&2
exit $status
