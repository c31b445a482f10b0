#!/usr/bin/env python3
"""Builds Parley's English lexicon and thesaurus from the WordNet 3.0 database.

Reads Debian's wordnet-base files (index.*, data.*, *.exc, cntlist.rev in /usr/share/wordnet) and
writes the data src/text/thesaurus.cpp loads, as a C++ file (--cpp) and/or as text (--text-dir).
Three line lists; `pos` is a set of WordNet's part-of-speech letters (n noun, v verb, a adjective,
r adverb):

  lexicon     `lemma pos [usage]`: every single-word lemma (a-z only, two letters or more), with
              how many times SemCor tagged it (any sense, any part of speech) when it did
  exceptions  `inflection pos lemma...`: the irregular forms of the .exc files (mice, ran, geese)
  thesaurus   `word pos synonym...`: the single-word synonyms of the word's frequent senses

Which senses and synonyms are kept (docs/decisions/thesaurus.md says why):
  - a head word's sense is kept when it is among the first two of its part of speech and was
    tagged in SemCor (cntlist.rev) at least 1/16 as often as the word's commonest sense in any part
    of speech, or 1/8 as often when it was tagged only once;
  - a synonym is another single-word lemma of a kept synset, not a name (capitalised), for which
    that synset is among its own first three senses and was tagged in SemCor too.

Standard library only; deterministic output (sorted), so an unchanged database gives the same file.
"""

import argparse
import os
import re
import sys

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
WORD_RE = re.compile(r"^[a-z]{2,}$")
MAX_SENSES = 2  # senses of a head word looked at, per part of speech
MIN_SHARE = 16  # a kept sense is tagged at least 1/16 as often as the commonest (1/8 if once)
MAX_SYNONYM_RANK = 3  # the shared synset must be among the synonym's first senses
CHUNK_BYTES = 60000  # string literals stay under 64 KB (the limit some compilers have)

NOTICE = """\
The lexicon and thesaurus below are derived from WordNet 3.0, under its licence:
  Permission to use, copy, modify and distribute this software and database and its
  documentation for any purpose and without fee or royalty is hereby granted, provided that you
  agree to comply with the following copyright notice and statements, including the disclaimer,
  and that the same appear on ALL copies of the software, database and documentation, including
  modifications that you make for internal use or for distribution.
  WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
  THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
  REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION,
  PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANTABILITY OR FITNESS
  FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR
  DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER
  RIGHTS.
  The name of Princeton University or Princeton may not be used in advertising or publicity
  pertaining to distribution of the software and/or database. Title to copyright in this
  software, database and any associated documentation shall at all times remain with Princeton
  University and LICENSEE agrees to preserve same.
"""


def data_lines(path):
    """Lines of a WordNet file without its licence header (lines that start with a space)."""
    with open(path, encoding="latin-1") as f:
        for line in f:
            if not line.startswith(" "):
                yield line.rstrip("\n")


def read_index(wordnet, pos):
    """{lemma: [synset offsets, commonest sense first]} for one part of speech."""
    out = {}
    for line in data_lines(os.path.join(wordnet, "index." + POS_FILES[pos])):
        f = line.split()
        synset_cnt, p_cnt = int(f[2]), int(f[3])
        out[f[0]] = f[6 + p_cnt:6 + p_cnt + synset_cnt]
    return out


def read_synsets(wordnet, pos):
    """{offset: [member words]} for one part of speech; adjective markers like "(a)" removed."""
    out = {}
    for line in data_lines(os.path.join(wordnet, "data." + POS_FILES[pos])):
        f = line.split(" ")
        w_cnt = int(f[3], 16)
        out[f[0]] = [re.sub(r"\(.*\)$", "", w) for w in f[4:4 + 2 * w_cnt:2]]
    return out


def read_tag_counts(wordnet):
    """{(lemma, pos, sense number): times tagged in SemCor} from cntlist.rev."""
    pos_of_ss_type = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
    out = {}
    for line in data_lines(os.path.join(wordnet, "cntlist.rev")):
        key, sense_number, count = line.split()
        lemma, rest = key.split("%", 1)
        out[(lemma, pos_of_ss_type[rest[0]], int(sense_number))] = int(count)
    return out


def read_exceptions(wordnet):
    """{(inflection, pos): sorted lemmas} from the .exc files, single words only."""
    out = {}
    for pos in "nvar":
        for line in data_lines(os.path.join(wordnet, POS_FILES[pos] + ".exc")):
            f = line.split()
            lemmas = sorted({w for w in f[1:] if WORD_RE.match(w) and w != f[0]})
            if len(f) >= 2 and WORD_RE.match(f[0]) and lemmas:
                out[(f[0], pos)] = lemmas
    return out


def build(wordnet):
    """(lexicon {lemma: pos letters}, exceptions, thesaurus {(word, pos): synonyms})."""
    index = {pos: read_index(wordnet, pos) for pos in "nvar"}
    synsets = {pos: read_synsets(wordnet, pos) for pos in "nvar"}
    counts = read_tag_counts(wordnet)

    lexicon = {}
    for pos in "nvar":
        for lemma in index[pos]:
            if WORD_RE.match(lemma):
                lexicon[lemma] = lexicon.get(lemma, "") + pos

    def count(lemma, pos, rank):  # rank counts from 0, WordNet's sense numbers from 1
        return counts.get((lemma, pos, rank + 1), 0)

    def frequent(n, commonest):  # one tagging is weak evidence, so it must clear a higher bar
        return n > 0 and n * (MIN_SHARE if n >= 2 else MIN_SHARE // 2) >= commonest

    def common_in(member, pos, offset):  # the synset is an early, tagged sense of `member` too
        own = index[pos].get(member, [])
        rank = own.index(offset) if offset in own else MAX_SYNONYM_RANK
        return rank < MAX_SYNONYM_RANK and count(member, pos, rank) > 0

    # How often each lemma was used in SemCor, all senses and parts of speech together: how common
    # a word is in English, for telling a question's ordinary words from its specific ones.
    usage = {}
    for (lemma, pos, _), n in counts.items():
        if lemma in lexicon:
            usage[lemma] = usage.get(lemma, 0) + n

    thesaurus = {}
    for word, parts in lexicon.items():
        # Parts of speech are compared too: "room" the verb (to lodge) is rare beside the noun.
        commonest = max(count(word, pos, 0) for pos in parts)
        for pos in parts:
            synonyms = []
            for rank, offset in enumerate(index[pos][word][:MAX_SENSES]):
                if not frequent(count(word, pos, rank), commonest):
                    continue
                for member in synsets[pos][offset]:
                    # A capitalised member is a name (Christ, Lincoln); one with "_" a phrase.
                    if (member != word and WORD_RE.match(member) and member not in synonyms
                            and common_in(member, pos, offset)):
                        synonyms.append(member)
            if synonyms:
                thesaurus[(word, pos)] = synonyms
    lexicon = {w: "%s %d" % (parts, usage.get(w, 0)) if usage.get(w, 0) else parts for w, parts in lexicon.items()}
    return lexicon, read_exceptions(wordnet), thesaurus


def by_word_then_pos(key):  # nouns, verbs, adjectives, adverbs: WordNet's (and morphy's) order
    return key[0], "nvar".index(key[1])


def sections(lexicon, exceptions, thesaurus):
    return {
        "lexicon": ["%s %s\n" % (w, lexicon[w]) for w in sorted(lexicon)],
        "exceptions": ["%s %s %s\n" % (k[0], k[1], " ".join(exceptions[k]))
                       for k in sorted(exceptions, key=by_word_then_pos)],
        "thesaurus": ["%s %s %s\n" % (k[0], k[1], " ".join(thesaurus[k]))
                      for k in sorted(thesaurus, key=by_word_then_pos)],
    }


def chunks(lines):
    """Whole lines grouped into strings of at most CHUNK_BYTES."""
    out, current, size = [], [], 0
    for line in lines:
        if size + len(line) > CHUNK_BYTES and current:
            out.append("".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line)
    if current:
        out.append("".join(current))
    return out


def write_cpp(path, parts):
    out = ["// Generated by scripts/gen-thesaurus.py from WordNet 3.0. Do not edit.\n//\n"]
    out += [("// " + line).rstrip() + "\n" for line in NOTICE.splitlines()]
    out.append('\n#include "text/thesaurus_data.h"\n\nnamespace parley {\n\nnamespace {\n\n'
               "using std::string_view_literals::operator\"\"sv;  // the length is known, not counted\n")
    for key, name in (("lexicon", "kLexicon"), ("exceptions", "kExceptions"),
                      ("thesaurus", "kThesaurus")):
        out.append("\nconstexpr std::string_view %s[] = {\n" % name)
        for piece in chunks(parts[key]):
            # Raw literals: the data is a-z, spaces and line breaks, so nothing closes one early.
            out.append('R"(' + piece + ')"sv,\n')
        out.append("};\n")
    out.append("\n}  // namespace\n\nThesaurusData embedded_thesaurus_data() {\n"
               "  return {kLexicon, kExceptions, kThesaurus};\n}\n\n}  // namespace parley\n")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("".join(out))
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", default="/usr/share/wordnet", help="WordNet dict directory")
    parser.add_argument("--cpp", help="write the C++ file embedding the data here")
    parser.add_argument("--text-dir", help="write lexicon.txt, exceptions.txt, thesaurus.txt here")
    args = parser.parse_args()

    needed = ["cntlist.rev"] + [p % POS_FILES[pos] for pos in "nvar"
                                for p in ("index.%s", "data.%s", "%s.exc")]
    missing = [n for n in needed if not os.path.isfile(os.path.join(args.wordnet, n))]
    if missing:
        sys.exit("gen-thesaurus: WordNet not found in %s (missing %s); install Debian's "
                 "wordnet-base (scripts/install-deps.sh)" % (args.wordnet, ", ".join(missing)))

    lexicon, exceptions, thesaurus = build(args.wordnet)
    parts = sections(lexicon, exceptions, thesaurus)
    if args.text_dir:
        os.makedirs(args.text_dir, exist_ok=True)
        for key, lines in parts.items():
            with open(os.path.join(args.text_dir, key + ".txt"), "w", encoding="ascii") as f:
                f.write("".join(lines))
    if args.cpp:
        write_cpp(args.cpp, parts)

    size = sum(len(line) for lines in parts.values() for line in lines)
    words = len({word for word, _ in thesaurus})
    pairs = sum(len(v) for v in thesaurus.values())
    print("gen-thesaurus: %d lemmas, %d irregular forms, %d words with synonyms (%d word-synonym "
          "pairs by part of speech), %d bytes of data"
          % (len(lexicon), len({k[0] for k in exceptions}), words, pairs, size))


if __name__ == "__main__":
    main()
