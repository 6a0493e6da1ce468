#!/usr/bin/env bash
# The whole suite under a sanitizer: Scripts/sanitize.sh address|thread|undefined [swift test options…]
#
# Builds the package and its tests with `--sanitize=KIND` in a scratch directory of their own
# (.build/sanitize-KIND, or $SCROLLWORK_SANITIZE_SCRATCH), then runs them. The executables the
# tests start (scrollwork, the helpers) are built the same way, so the sanitizer watches them
# too; the C shims are instrumented with the Swift code, the system libraries are not.
#
# SCROLLWORK_SANITIZE tells Package.swift (the executables keep their symbols exported, so the
# system libraries call the sanitizer's malloc) and the tests (whose hang guards allow for a
# sanitizer's slowness) which sanitizer runs. LeakSanitizer, with AddressSanitizer, checks every
# process at its exit, with the suppressions in Fuzz/lsan-suppressions.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
case "$kind" in
    address|thread|undefined) shift ;;
    *) echo "usage: Scripts/sanitize.sh address|thread|undefined [swift test options…]" >&2; exit 2 ;;
esac
export SCROLLWORK_SANITIZE=$kind
scratch=${SCROLLWORK_SANITIZE_SCRATCH:-.build/sanitize-$kind}

export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Fewer tests at once than the runner's default: under a sanitizer each runs several times
# slower, and a test waiting for a core is not a test that hangs.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}

if [ "$kind" = undefined ]; then
    # Swift has no UndefinedBehaviorSanitizer on Linux (swiftc refuses -sanitize=undefined):
    # Swift code traps on overflow, out-of-bounds access and bad unwraps by itself. What UBSan
    # checks is the C of this package (the image shims, the search ranking, the encoders),
    # which Package.swift compiles with it, every report fatal; here every product links its
    # runtime.
    flags=(-Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
    swift build --build-tests --scratch-path "$scratch" "${flags[@]}"
    swift test --skip-build --scratch-path "$scratch" "${flags[@]}" "$@"
    exit
fi
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" "$@"
