#!/usr/bin/env python3
"""Writes a static website of N pages for the crawl bench (bench/scenarios/crawl.sh).

Page i links to its ten children 10i+1 … 10i+10 (when they exist), its parent and the home page,
so every page is within a few links of the home page (depth log10 N); each page has the site's
menu, cookie banner and footer (template text) and three paragraphs of its own, about 3 KB.

    make_site.py DIR N
"""
import os
import sys

WORDS = ("harbour ferry island pier ticket cabin deck timetable crossing luggage bicycle "
         "lounge cafe route captain weather storm season harbourmaster voyage").split()


def page(i, n):
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(40)]
    paragraphs = [
        f"Locker {i} on the {words[0]} deck holds spare part number {10000 + i * 13}.",
        " ".join(f"The {w} of route {i} is checked every {k + 2} days." for k, w in enumerate(words[:14])),
        " ".join(f"Crossing {i}.{k} carries {w} and {words[k + 7]} travellers." for k, w in enumerate(words[10:26])),
    ]
    children = "".join(f'<li><a href="/p/{c}.html">Page {c}</a></li>'
                       for c in range(10 * i + 1, min(10 * i + 11, n)))
    parent = f'<a href="/p/{(i - 1) // 10}.html">Up</a>' if i else ""
    return (
        "<!doctype html><html><head><meta charset=\"utf-8\">"
        f"<title>Page {i} of the harbour guide</title></head><body>"
        "<nav><a href=\"/p/0.html\">Home</a> <a href=\"/p/1.html\">Routes</a> "
        "<a href=\"/p/2.html\">Tickets</a></nav>"
        "<div class=\"cookies\"><p>We use cookies to remember your ticket basket between visits."
        "</p></div>"
        f"<div class=\"content\"><h1>Page {i}</h1>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + f"<ul>{children}</ul>{parent}</div>"
        "<footer><p>Harbour Ferries Ltd, Quay Street 1.</p></footer></body></html>"
    )


def main():
    root, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(os.path.join(root, "p"), exist_ok=True)
    for i in range(n):
        with open(os.path.join(root, "p", f"{i}.html"), "w") as f:
            f.write(page(i, n))
    with open(os.path.join(root, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")


if __name__ == "__main__":
    main()
