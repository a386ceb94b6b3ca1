#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the table of runs in docs/results.md from bench/results/<run>/README.md.

Each run's README starts with its name as a heading, then one paragraph saying what ran, then
optionally a line "**Headline:** ..." with the figure the docs cite. The table sits between the
markers <!-- runs: begin --> and <!-- runs: end --> of docs/results.md.

    python3 bench/results_index.py          rewrite the table
    python3 bench/results_index.py --check  fail if the table is not what the READMEs say
"""
import pathlib
import sys

repo = pathlib.Path(__file__).resolve().parent.parent
results = repo / "bench" / "results"
page = repo / "docs" / "results.md"
begin, end = "<!-- runs: begin -->", "<!-- runs: end -->"


def paragraphs(text):
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


def row(readme):
    blocks = paragraphs(readme.read_text())
    if len(blocks) < 2 or not blocks[0].startswith("# "):
        raise SystemExit(f"{readme}: no '# name' heading followed by a paragraph")
    headline = next((b[len("**Headline:**"):].strip() for b in blocks if b.startswith("**Headline:**")), "")
    cells = [f"`{readme.parent.name}`", blocks[1], headline]
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def table():
    readmes = sorted(results.glob("*/README.md"))
    lines = ["| run (`bench/results/…`) | what | headline |", "| --- | --- | --- |"]
    return "\n".join(lines + [row(readme) for readme in readmes])


def main():
    text = page.read_text()
    if begin not in text or end not in text:
        raise SystemExit(f"{page}: the markers {begin} and {end} are missing")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    wanted = f"{head}{begin}\n{table()}\n{end}{tail}"
    if "--check" in sys.argv[1:]:
        if wanted != text:
            print(f"{page} is not what bench/results/*/README.md say: run python3 bench/results_index.py")
            return 1
        print(f"{page}: the table of runs matches bench/results")
        return 0
    page.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
