#!/usr/bin/env bash
# Writes Scripts/symbols.order: the functions `scrollwork` runs, in the order it first runs them,
# which Package.swift gives lld (`--symbol-ordering-file`) so that it lays them out together at
# the start of the executable's code.
#
# Why: Linux maps an executable's code 64 KB around each page it faults in ("fault-around"), and
# those pages count in the process's resident memory. A `scrollwork refresh` of 500 posts runs
# about 1 MB of functions spread over the 27 MB of code, so it held 12.9 MB of code resident:
# half its peak. Laid out together they fault in a few hundred KB (see README, "bench feed").
#
# How: a release build runs what users run under callgrind (valgrind), each command in a home of
# its own: add, refresh twice, list, search, parse and export on the demo feed and small Atom and
# JSON feeds, and the reader on the demo in tmux (scrolling, an article, a search). Only names
# the executable defines once are kept: lld moves every definition of a name, and the local
# copies of a specialization that many files hold would drag their files' code along. A name the
# code no longer defines is skipped by the linker, so a stale list costs memory, never a build;
# run this again after large changes. Needs valgrind, tmux, objcopy and nm (Debian `valgrind`,
# `tmux`, `binutils`); takes about two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in valgrind tmux objcopy nm; do
    command -v "$tool" >/dev/null || { echo "order-symbols: $tool is needed" >&2; exit 1; }
done

work=$(mktemp -d)
# The link map says which input section holds each function.
swift build -c release --product scrollwork -Xlinker -Map="$work/map" -Xlinker --no-demangle
session="scrollwork-order-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

# valgrind cannot read the DWARF 5 that swiftc writes; the symbol table is all it needs.
objcopy --strip-debug .build/release/scrollwork "$work/scrollwork"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" LANG=C.UTF-8
mkdir -p "$HOME"
# Each run's profile is named for its place in the list: the runs whose memory is measured against
# newsboat (refresh, then add) first, so that their functions lie together; then the reader; then
# the rest. A function takes the place of the first run that runs it.
profile() {
    local place=$1
    shift
    valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no \
        --callgrind-out-file="$work/run-$place" "$work/scrollwork" "$@" >/dev/null 2>"$work/valgrind.log" \
        || { echo "order-symbols: scrollwork $* failed:" >&2; tail -5 "$work/valgrind.log" >&2; exit 1; }
}

cat >"$work/feed.atom" <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title><id>urn:a</id><updated>2026-11-20T10:00:00Z</updated>
<entry><title type="html">One &amp;amp; two</title><id>urn:a:1</id><updated>2026-11-20T10:00:00Z</updated>
<link href="https://example.com/1"/><author><name>A</name></author>
<content type="html">&lt;p&gt;Caf&#233; &lt;img src="https://example.com/a.png"&gt;&lt;/p&gt;</content></entry>
</feed>
EOF
cat >"$work/feed.json" <<'EOF'
{"version": "https://jsonfeed.org/version/1.1", "title": "JSON", "items": [
 {"id": "1", "title": "One", "content_html": "<p>Two &amp; three</p>", "date_published": "2026-11-20T10:00:00Z",
  "authors": [{"name": "B"}], "image": "https://example.com/b.jpg"}]}
EOF

profile 3-add-rss add Examples/demo-feed.xml
profile 4-add-atom add "$work/feed.atom"
profile 5-add-json add "$work/feed.json"
profile 1-refresh refresh
profile 2-refresh-unchanged refresh
profile 7-list list
profile 8-search search demo
profile 9-parse parse Examples/demo-feed.xml
profile 9-export export

# The reader, on the demo: it serves its feed and pictures on 127.0.0.1 and keeps them in a store
# (a reader of the store above would wait on the network for the feeds' pictures).
reader() {
    local out="$work/run-$1" shows=$2
    shift 2
    tmux new-session -d -s "$session" -x 120 -y 40 -e "HOME=$HOME" -e "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" -e "XDG_DATA_HOME=$XDG_DATA_HOME" \
        "valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --callgrind-out-file=$out $work/scrollwork $* 2>$work/valgrind.log"
    wait_for() { for _ in $(seq 600); do tmux capture-pane -p -t "$session" 2>/dev/null | grep -q "$1" && return 0; sleep 0.2; done; return 1; }
    wait_for "$shows" || {
        echo "order-symbols: the reader did not show \"$shows\":" >&2
        tmux capture-pane -p -t "$session" >&2 || true
        tail -5 "$work/valgrind.log" >&2
        exit 1
    }
    for key in j j j j Space b G g Enter; do tmux send-keys -t "$session" "$key" 2>/dev/null || break; sleep 0.5; done
    sleep 2
    for key in q / d e m o Enter Escape; do tmux send-keys -t "$session" "$key" 2>/dev/null || break; sleep 0.5; done
    # Q quits; sent again until it does, since an escape read with it would make it Alt-Q.
    for _ in $(seq 30); do sleep 2; tmux send-keys -t "$session" Q 2>/dev/null || break; done
    tmux kill-session -t "$session" 2>/dev/null || true
    [ -s "$out" ] || { echo "order-symbols: the reader wrote no profile" >&2; exit 1; }
}
reader 6-reader "unread" read --demo

nm --defined-only "$work/scrollwork" | awk 'NF == 3 { count[$3]++ } END { for (name in count) if (count[name] == 1) print name }' >"$work/unique"
# Each function's input section in .text: lld moves sections, not functions. A function compiled
# into a section of its own (the runtime's, Foundation's, generic specializations) moves alone;
# the others are in their file's one .text, which moves whole, so its first function run is
# enough to name.
awk '
    match($0, /^ *[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9]+/) {
        rest = substr($0, RLENGTH + 1); name = rest; sub(/^ +/, "", name); depth = length(rest) - length(name)
        if (depth == 1) { text = (name == ".text") } else if (text && depth <= 9) { section = name } else if (text) { print name "\t" section }
    }' "$work/map" >"$work/sections"
{
    echo "# The functions scrollwork runs, in the order of the runs that ran them: written by Scripts/order-symbols.sh, read by lld."
    for profile in "$work"/run-*; do
        awk '/^ob=/ { ours = ($0 ~ /\/scrollwork$/) } /^fn=/ && ours { print substr($0, 4) }' "$profile"
    done | awk -F '\t' '
        FILENAME == ARGV[1] { unique[$0]; next }
        FILENAME == ARGV[2] { section[$1] = $2; next }
        ($0 in unique) && ($0 in section) && !(section[$0] in placed) {
            placed[section[$0]]
            # Functions of their own first, together; then the files whose .text holds some.
            if (section[$0] ~ /\(\.text\./) print; else files[++count] = $0
        }
        END { for (i = 1; i <= count; i++) print files[i] }' "$work/unique" "$work/sections" -
} >Scripts/symbols.order
echo "Scripts/symbols.order: $(($(wc -l <Scripts/symbols.order) - 1)) functions from $(ls "$work"/run-* | wc -l) runs"
