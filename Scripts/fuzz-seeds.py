#!/usr/bin/env python3
"""Makes the fuzz targets' seed corpora (Fuzz/Corpus/TARGET/) from the tests' own inputs.

The tests build their documents inline, as Swift string literals: this reads every
multi-line literal of the named test files, keeps those that look like the target's input
(a feed, an OPML list, a reply, a settings file), and writes each, at most 4 KB, under the
SHA-1 of its bytes, as libFuzzer names its inputs. Interpolations (\\(x)) and escapes stay as
written: a seed only has to be near a real input. Run it again after adding tests; the
fuzzer's own finds are added by Scripts/fuzz.sh, and files already there are kept.
"""
import hashlib, os, re, sys, glob

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LITERAL = re.compile(r'"""\n(.*?)\n\s*"""', re.S)
RAW = re.compile(r'#"(.+?)"#')

def literals(patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            text = open(path, encoding="utf-8").read()
            for match in LITERAL.finditer(text):
                body = match.group(1)
                # The literal's indentation is its closing quotes'; strip the common one.
                lines = body.split("\n")
                indent = min((len(l) - len(l.lstrip(" ")) for l in lines if l.strip()), default=0)
                yield "\n".join(l[indent:] for l in lines)
            # Raw single-line literals, #"…"#, hold JSON and markup as written.
            for match in RAW.finditer(text):
                yield match.group(1)

def write(target, seeds):
    folder = os.path.join(ROOT, "Fuzz", "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    count = 0
    for seed in seeds:
        data = seed.encode("utf-8") if isinstance(seed, str) else seed
        if not data or len(data) > 4096:
            continue
        name = os.path.join(folder, hashlib.sha1(data).hexdigest())
        if not os.path.exists(name):
            open(name, "wb").write(data)
            count += 1
    print(f"{target}: {count} new seeds, {len(os.listdir(folder))} in all")

feeds = [s for s in literals(["Tests/FeedsTests/*.swift", "Tests/FeedsHTTPTests/*.swift"])
         if re.search(r"<(rss|feed|rdf:RDF|channel|item|entry)\b", s)]
json_feeds = [s for s in literals(["Tests/FeedsTests/*.swift"]) if s.lstrip().startswith("{")]
opml = [s for s in literals(["Tests/FeedsTests/*.swift", "Tests/ScrollworkAppTests/*.swift"]) if "<opml" in s]
html = [s for s in literals(["Tests/FeedsTests/ArticleDocumentTests.swift", "Tests/FeedsTests/*Text*.swift", "Tests/ScrollworkReaderTests/ArticleScreenTests.swift"])
        if "<" in s and not re.search(r"<(rss|feed|opml)\b", s)]
replies = [s for s in literals(["Tests/FeedSyncTests/*.swift"]) if s.lstrip().startswith("{")]
settings = [s for s in literals(["Tests/ScrollworkReaderTests/*Settings*.swift", "Tests/ScrollworkReaderTests/KeyBindingsTests.swift",
                                 "Tests/ScrollworkReaderTests/QueryFeedTests.swift", "Tests/ScrollworkAppTests/*.swift"])
            if re.search(r"^\s*(\[[a-z_]+\]|[a-z_]+\s*=)", s, re.M)]
dates = ["Mon, 02 Jan 2006 15:04:05 -0700", "Tue, 10 Jun 2003 04:00:00 GMT", "2024-03-02T10:00:00Z",
         "2024-03-02T10:00:00.123+05:30", "2024-03-02", "Sun, 31 Dec 9999 23:59:59 +1400", "1 Jan 0001 00:00 UT",
         "Thu, 01 Jan 1970 00:00:00 EST", "2024-13-45T99:99:99Z", "Mon, 2 Jan 06 3:04 PDT", "20240302T100000Z"]
dates += [m for s in literals(["Tests/FeedsTests/*Date*.swift"]) for m in s.split("\n") if re.search(r"\d", m)]
for path in sorted(glob.glob(os.path.join(ROOT, "Tests/FeedsTests/*Date*.swift"))):
    dates += re.findall(r'"([^"\\]*\d[^"\\]*)"', open(path, encoding="utf-8").read())

write("fuzz-feed-parser", feeds + json_feeds)
write("fuzz-xml-differential", feeds)
write("fuzz-input-repair", feeds + opml)
write("fuzz-html-text", html + [s for s in feeds if "&lt;" in s or "CDATA" in s])
write("fuzz-json-feed", json_feeds)
write("fuzz-opml", opml)
write("fuzz-dates", dates)
write("fuzz-sync-replies", replies)
write("fuzz-settings", settings)
ESC = "\x1b"
write("fuzz-input-decoder", [
    "abc", ESC, ESC + "[A", ESC + "[1;5C", ESC + "OP", ESC + "[200~pasted\ntext" + ESC + "[201~", ESC + "[<0;10;20M", ESC + "[<64;3;4m",
    ESC + "[I", ESC + "[O", ESC + "[8;40;120t", ESC + "[4;600;800t", ESC + "[6;16;8t", ESC + "[?2026;2$y", ESC + "_Gi=1;OK" + ESC + "\\",
    ESC + "P>|kitty(0.26.5)" + ESC + "\\", ESC + "[?62;4;22c", ESC + "[97;5u", ESC + "[13;2u", "é€😀", "\x7f\x08\t\r", ESC + "[3~", ESC + "[15;2~",
])
write("fuzz-sixel", [bytes([w, h]) + bytes(range(256))[:n] for (w, h, n) in [(1, 1, 4), (7, 5, 32), (16, 13, 256), (47, 47, 3)]]
      + [bytes([8, 8]) + bytes([255, 0, 0, 255, 0, 255, 0, 100])])
images = []
folder = os.environ.get("SCROLLWORK_SEED_IMAGES")
if folder:
    images = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(folder, "*")))]
write("fuzz-images", images)
