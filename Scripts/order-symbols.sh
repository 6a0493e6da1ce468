#!/usr/bin/env bash
# Writes Scripts/symbols.order: the functions `scrollwork` runs, grouped by the run that first runs
# them, which Package.swift gives lld (`--symbol-ordering-file`) so that it lays them out together
# at the start of the executable's code.
#
# Why: Linux maps an executable's code 64 KB around each page it faults in ("fault-around"), and
# those pages count in the process's resident set. A `scrollwork refresh` of 500 posts runs about
# 1 MB of functions spread over the 27 MB of code, so it held 12.9 MB of code resident: half its
# peak. Laid out together, 6.7 MB (see README, "bench feed"); most of the rest is code compiled
# into one section per file, which moves only whole.
#
# How: a release build runs what users run under callgrind (valgrind), one command after another
# in one scratch home: add (the demo feed, small Atom and JSON feeds), refresh twice, list,
# search, parse and export, and the reader on the demo in a private tmux (scrolling, an article,
# a search). Only names the executable defines once are kept: lld moves every definition of a
# name, and the local copies of a specialization that many files hold would drag their files'
# code along. A name the code no longer defines is skipped by the linker, so a stale list costs
# memory, not a failed link (FreshMachineTests says when too much of it is stale); run this again
# after large changes. SwiftPM does not know the list is an input of the link: the script
# removes the linked executables, so that the next build links them with the new list. Needs
# valgrind, tmux, objcopy and nm (Debian `valgrind`, `tmux`, `binutils`); about two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in valgrind tmux objcopy nm; do
    command -v "$tool" >/dev/null || { echo "order-symbols: $tool is needed" >&2; exit 1; }
done
# A sanitizer's or a fuzzer's build is linked without lld's map and the list.
unset SCROLLWORK_SANITIZE SCROLLWORK_FUZZ TMUX

work=$(mktemp -d)
socket="scrollwork-order-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

# The link map says which input section holds each function.
swift build -c release --product scrollwork -Xlinker -Map="$work/map" -Xlinker --no-demangle
bin=$(swift build -c release --show-bin-path)
# valgrind cannot read the DWARF 5 that swiftc writes; the symbol table is all it needs.
objcopy --strip-debug "$bin/scrollwork" "$work/scrollwork"
valgrind=$(command -v valgrind)
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" LANG=C.UTF-8 LC_ALL=C.UTF-8
mkdir -p "$HOME"
# Each run's profile is named for its place in the list: the runs whose memory is measured against
# newsboat (refresh, then add) first, so that their functions lie together; then the reader; then
# the rest. A function takes the place of the first run that runs it.
profile() {
    local place=$1
    shift
    "$valgrind" --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no \
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
# (a reader of the store above would wait on the network for the feeds' pictures). It runs in a
# tmux server of its own, with no settings but one: the pane stays after the reader quits, to say
# how it did.
reader() {
    local out="$work/run-$1" shows=$2
    shift 2
    local command
    command=$(printf '%q ' "$valgrind" --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no \
        --callgrind-out-file="$out" --log-file="$work/valgrind.log" "$work/scrollwork" "$@")
    echo "set-option -g remain-on-exit on" >"$work/tmux.conf"
    tmux -L "$socket" -f "$work/tmux.conf" new-session -d -s reader -x 120 -y 40 \
        -e "HOME=$HOME" -e "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" -e "XDG_DATA_HOME=$XDG_DATA_HOME" -e "LANG=$LANG" -e "LC_ALL=$LC_ALL" \
        "$command"
    pane() { tmux -L "$socket" capture-pane -p -t =reader: 2>/dev/null || true; }
    dead() { [ "$(tmux -L "$socket" display-message -p -t =reader: '#{pane_dead}' 2>/dev/null)" = 1 ]; }
    keys() { for key in "$@"; do dead && return; tmux -L "$socket" send-keys -t =reader: "$key"; sleep 0.5; done; }
    local waited=0
    until grep -q "$shows" <<<"$(pane)"; do
        waited=$((waited + 1))
        if dead || [ "$waited" -gt 600 ]; then
            echo "order-symbols: the reader did not show \"$shows\":" >&2
            pane >&2
            tail -5 "$work/valgrind.log" >&2
            exit 1
        fi
        sleep 0.2
    done
    keys j j j j Space b G g Enter
    sleep 2
    keys q / d e m o Enter Escape
    # Q quits; sent again until it does, since an escape read with it would make it Alt-Q.
    for _ in $(seq 30); do
        dead && break
        sleep 2
        keys Q
    done
    # The pane's command is callgrind, which writes its profile before it exits.
    local status
    status=$(tmux -L "$socket" display-message -p -t =reader: '#{pane_dead}:#{pane_dead_status}')
    if [ "$status" != "1:0" ]; then
        echo "order-symbols: the reader did not quit cleanly (pane dead:status $status):" >&2
        pane >&2
        tail -5 "$work/valgrind.log" >&2
        exit 1
    fi
    tmux -L "$socket" kill-server
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
    echo "# The functions scrollwork runs, grouped by the run that first runs them: written by Scripts/order-symbols.sh ($(swift --version 2>/dev/null | head -1)), read by lld."
    for profile in "$work"/run-*; do
        # callgrind's order within a run follows its own allocations: by name, for a stable list.
        awk '/^ob=/ { ours = ($0 ~ /\/scrollwork$/) } /^fn=/ && ours { print substr($0, 4) }' "$profile" | LC_ALL=C sort -u
    done | awk -F '\t' '
        FILENAME == ARGV[1] { unique[$0]; next }
        FILENAME == ARGV[2] { section[$1] = $2; next }
        ($0 in unique) && ($0 in section) && !(section[$0] in placed) {
            placed[section[$0]]
            # Functions of their own first, together, then the files whose .text holds some:
            # a file moves whole, and would part the functions around it.
            if (section[$0] ~ /\(\.text\./) print; else files[++count] = $0
        }
        END { for (i = 1; i <= count; i++) print files[i] }' "$work/unique" "$work/sections" -
} >"$work/symbols.order"
functions=$(($(wc -l <"$work/symbols.order") - 1))
if [ ! -s "$work/sections" ] || [ "$functions" -lt 1000 ]; then
    echo "order-symbols: only $functions functions found (is the build linked with lld?); Scripts/symbols.order is unchanged" >&2
    exit 1
fi
mv "$work/symbols.order" Scripts/symbols.order
# The next build links them with the new list.
debug=$(swift build --show-bin-path)
rm -f "$bin/scrollwork" "$bin/scrollwork-bench" "$debug/scrollwork" "$debug/scrollwork-bench"
echo "Scripts/symbols.order: $functions functions from $(ls "$work"/run-* | wc -l) runs"
