"""Sentences of Learn mode: what each frame of a walk-through did, in the app's language.

Every event a walk-through of :mod:`core.learn` records has a sentence here (a test steps through
every frame of the three walk-throughs in English and Chinese). Tokens are shown as text with
spaces as ``·`` and bytes that are not whole UTF-8 characters in hex; a character outside ASCII is
shown over its bytes (``我 = e6|88|91``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import regex
from PySide6.QtCore import QCoreApplication

from bpe_gui.model.char_bytes import chars_holding
from bpe_gui.model.formatting import WHITESPACE_MARKERS, split_utf8
from bpe_gui.text.plural import plurals_by_count
from core.learn import Frame, show

translate = QCoreApplication.translate

_HAN = regex.compile(r"\p{Han}")
_CJK_SPACE = regex.compile(r"([。；：！？）])[ ]+")  # Chinese sentences are joined without a space
MAX_LISTED = 8  # tokens, pairs or merges listed in one sentence before "…" (a summary lists twice as many)


def fill(template: str, *values: object) -> str:
    """``template`` with %1, %2, … replaced by ``values`` (highest first, so %1 never eats %10);
    counts are grouped ("1,000") and an English "(s)" after a count is resolved ("1 merge", "3 merges").

    >>> fill("Done: %1 merge(s) of %2.", 1, 1000)
    'Done: 1 merge of 1,000.'
    """
    for i in range(len(values), 0, -1):
        v = values[i - 1]
        template = template.replace(f"%{i}", f"{v:,}" if type(v) is int else str(v))
    return plurals_by_count(template)


def tok(b: bytes | str) -> str:
    """A token for a sentence: its text in quotes, spaces as ·, bytes that are not whole UTF-8
    characters as ``\\xe6\\x88`` (as the main window shows them).

    >>> tok(b" low"), tok("我".encode()[:2])
    ('“·low”', '“\\\\xe6\\\\x88”')
    """
    data = b.encode("utf-8", "surrogateescape") if isinstance(b, str) else b
    out = []
    for ok, run in split_utf8(data):
        if ok:
            s = run.decode("utf-8")
            out.append("".join(WHITESPACE_MARKERS.get(ch, ch) for ch in s))
        else:
            out.append("".join(f"\\x{x:02x}" for x in run))
    return "“" + "".join(out) + "”"


def pair_text(pair) -> str:
    """A pair: of ids ``(97, 98)``, of byte strings ``(“a”, “b”)``."""
    a, b = pair
    if isinstance(a, bytes):
        return f"({tok(a)}, {tok(b)})"
    return f"({a}, {b})"


def word_text(word: Iterable[bytes]) -> str:
    """A word as its tokens in order, in brackets (not to be taken for a pair): ``[“l”, “ow”]``."""
    return "[" + ", ".join(tok(t) for t in word) + "]"


def listed(items: list[str], limit: int = MAX_LISTED) -> str:
    more = "" if len(items) <= limit else ", … (+" + str(len(items) - limit) + ")"
    return ", ".join(items[:limit]) + more


def char_bytes(text: str, limit: int = 3) -> str:
    """The first few distinct characters outside ASCII over their bytes: ``我 = e6|88|91``."""
    seen: list[str] = []
    for ch in text:
        if ord(ch) > 127 and ch not in seen:
            seen.append(ch)
            if len(seen) == limit:
                break
    return ", ".join(
        f"{ch} = " + "|".join(f"{x:02x}" for x in ch.encode("utf-8", "surrogateescape")) for ch in seen
    )


def bytes_note(text: str) -> str:
    """A sentence showing characters over their bytes, when ``text`` has any outside ASCII."""
    shown = char_bytes(text)
    if not shown:
        return ""
    return " " + fill(
        translate("Learn", "A character outside ASCII is several bytes, so several first tokens: %1."), shown
    )


def pieces_note(token: bytes, pretoken: str | None) -> str:
    """For a token of bytes outside ASCII: the characters it holds or is a piece of (我 = e6|88|91)."""
    if pretoken is None or all(b < 0x80 for b in token):
        return ""
    chars = chars_holding(token, pretoken.encode("utf-8", "surrogateescape"))
    if not chars:
        return ""
    return " " + fill(translate("Learn", "In bytes: %1."), ", ".join(chars))


def clause_note(pretoken: str, pattern: str | None) -> str:
    """Why a Chinese clause is one pre-token under GPT-2's pattern."""
    if pattern not in ("gpt2", "gpt4") or len(_HAN.findall(pretoken)) < 2:
        return ""
    return " " + translate(
        "Learn",
        "GPT-2's pattern keeps a run of letters together and Chinese characters count as letters: "
        "a whole Chinese clause without spaces or punctuation is one pre-token.",
    )


def yes_no(flag: bool) -> str:
    return translate("Learn", "yes") if flag else translate("Learn", "no")


def ids_text(ids: list[int]) -> str:
    return show(ids)


# ---------------------------------------------------------------------- walk-through 1: the lecture
def _l_bytes(a) -> str:
    s = fill(
        translate(
            "Learn",
            "The text becomes its UTF-8 bytes: %1 integers from 0 to 255. Each byte is a first token.",
        ),
        a["n"],
    )
    return s + bytes_note(a.get("text", ""))


def _l_merges_new(a) -> str:
    return translate("Learn", "merges starts empty: it will map each merged pair to the id of its new token.")


def _l_vocab(a) -> str:
    return translate(
        "Learn",
        "The vocabulary starts with the 256 single bytes: ids 0 to 255. Each merge adds one token, "
        "with the next id: 256, 257, …",
    )


def _l_loop(a) -> str:
    return fill(
        translate("Learn", "Merge number %1 begins (step = %2: steps count from 0)."),
        a["step"] + 1,
        a["step"],
    )


def _l_counts_new(a) -> str:
    return translate("Learn", "Start counting pairs from zero.")


def _l_no_pairs(a) -> str:
    return translate("Learn", "No pair is left to merge: training stops here.")


def _l_zip(a) -> str:
    return fill(translate("Learn", "zip gives the next neighbouring pair: (%1, %2)."), a["a"], a["b"])


def _l_count(a) -> str:
    return fill(translate("Learn", "Pair (%1, %2) has now been seen %3 time(s)."), a["a"], a["b"], a["count"])


def _l_max(a) -> str:
    left, right = a.get("tokens", (None, None))
    s = fill(translate("Learn", "max picks %1, seen %2 time(s)."), pair_text(a["pair"]), a["count"])
    if left is not None:
        s += " " + fill(translate("Learn", "As text: %1 + %2."), tok(left), tok(right))
    if a["ties"]:
        s += " " + fill(
            translate(
                "Learn",
                "Tied with %1: max returns the first of the tied pairs it meets, and counts lists pairs "
                "in the order they were first seen, so the pair seen first in the text wins.",
            ),
            listed([pair_text(p) for p in a["ties"]]),
        )
    return s


def _l_new_index(a) -> str:
    return fill(translate("Learn", "The new token gets the next free id: 256 + step = %1."), a["new_index"])


def _l_merges_entry(a) -> str:
    return fill(
        translate(
            "Learn", "merges records the rule: pair %1 → %2. Encoding will replay these rules in this order."
        ),
        pair_text(a["pair"]),
        a["new_index"],
    )


def _l_vocab_entry(a) -> str:
    return fill(
        translate("Learn", "Its bytes are its two parts joined: %1 + %2 = %3."),
        tok(a["left"]),
        tok(a["right"]),
        tok(a["token"]),
    )


def _l_merged(a) -> str:
    s = fill(
        translate(
            "Learn",
            "Every occurrence of the pair is replaced by %1: %2 replaced, the list shrinks from %3 to %4.",
        ),
        a["new_index"],
        a["replaced"],
        a["before"],
        a["after"],
    )
    if a.get("count", a["replaced"]) > a["replaced"]:
        s += " " + fill(
            translate(
                "Learn",
                "The pair was counted %1 times but replaced only %2 times: its occurrences overlap "
                "(in 97 97 97 both pairs share the middle 97), and merge goes left to right, so a "
                "token already used by one replacement cannot start the next.",
            ),
            a["count"],
            a["replaced"],
        )
    return s


def _l_summary(a) -> str:
    rules = [f"{pair_text(p)} → {i} {tok(t)}" for p, i, t in a["merges"]]
    s = fill(
        translate(
            "Learn",
            "Done: %1 merge(s) learned, a vocabulary of %2 tokens. The %3 bytes of the text are now %4 tokens.",
        ),
        len(a["merges"]),
        a["vocab_size"],
        a["n_bytes"],
        a["n_tokens"],
    )
    if rules:
        s += " " + fill(translate("Learn", "Merges in order: %1."), listed(rules, 2 * MAX_LISTED))
    return s


# ---------------------------------------------------------------------- walk-through 2: the trainer
def _t_split(a) -> str:
    return fill(
        translate(
            "Learn", "The text is cut at the special tokens %1 into %2 piece(s); no merge crosses them."
        ),
        listed([tok(x) for x in a["specials"]]) if a["specials"] else translate("Learn", "(none)"),
        a["n"],
    )


def _piece(a) -> str:
    return fill(translate("Learn", "Next piece: %1."), tok(a["piece"]))


def _gap(a) -> str:
    return fill(
        translate(
            "Learn",
            "PAT does not match %1: text no match covers is kept as a pre-token of its own, so no "
            "text is dropped (a plain split on whitespace, as in the handout, drops it).",
        ),
        tok(a["pretoken"]),
    )


def _t_pretoken(a) -> str:
    if a.get("gap"):
        return _gap(a)
    if a.get("pattern") == "none":
        s = fill(translate("Learn", "No pattern: the whole piece %1 is one pre-token."), tok(a["pretoken"]))
    else:
        s = fill(translate("Learn", "The regex finds the pre-token %1."), tok(a["pretoken"]))
    return s + clause_note(a["pretoken"], a.get("pattern"))


def _t_word_count(a) -> str:
    word = b"".join(a["word"])
    s = fill(
        translate("Learn", "Pre-token %1 has been seen %2 time(s); merges never cross pre-token boundaries."),
        tok(word),
        a["count"],
    )
    return s + bytes_note(word.decode("utf-8", "replace"))


def _t_word(a) -> str:
    return fill(
        translate("Learn", "Word %1: each of its pairs counts as often as the word occurs: %2 time(s)."),
        word_text(a["word"]),
        a["n"],
    )


def _t_pair_count(a) -> str:
    return fill(
        translate("Learn", "pair_counts[%1] += %2: pair %1 has now been counted %3 time(s)."),
        pair_text(a["pair"]),
        a["n"],
        a["count"],
    )


def _t_vocab(a) -> str:
    return translate(
        "Learn",
        "The vocabulary starts with the 256 single bytes, ids 0 to 255; next_id is the id the next "
        "token will get.",
    )


def _t_special_vocab(a) -> str:
    return fill(
        translate(
            "Learn",
            "The special token %1 gets id %2; next_id is now %3. Merged tokens come after the special tokens.",
        ),
        tok(a["token"]),
        a["id"],
        a["next_id"],
    )


def _t_loop(a) -> str:
    return fill(
        translate("Learn", "Merge number %1 begins (step = %2: steps count from 0)."),
        a["step"] + 1,
        a["step"],
    )


def _t_no_pairs(a) -> str:
    return translate("Learn", "No pair is left to merge: training stops here.")


def _t_best(a) -> str:
    s = fill(
        translate("Learn", "The most frequent pair is %1 (%2 time(s))."), pair_text(a["pair"]), a["count"]
    )
    if a["ties"]:
        s += " " + fill(
            translate(
                "Learn",
                "Tied with %1: the tie rule takes the greatest pair compared as (bytes, bytes): the first "
                "tokens' bytes are compared first, the second tokens' only when the first are equal. "
                "Here %2 is the greatest.",
            ),
            listed([pair_text(p) for p in a["ties"]]),
            pair_text(a["pair"]),
        )
    return s


def _t_append(a) -> str:
    return fill(
        translate(
            "Learn",
            "Merge number %1 is recorded (its rank is %2: ranks count from 0); new token %3 gets id %4.",
        ),
        a["number"],
        a["number"] - 1,
        tok(a["token"]),
        a["new_id"],
    )


def _t_next_id(a) -> str:
    return fill(translate("Learn", "next_id moves on to %1 for the next merge."), a["next_id"])


def _t_changed_word(a) -> str:
    return fill(
        translate("Learn", "Word %1 (count %2) contains the pair: only such words change."),
        word_text(a["word"]),
        a["n"],
    )


def _t_decrement(a) -> str:
    return fill(
        translate("Learn", "Its old pairs are taken away (−%1 each): %2."),
        a["n"],
        listed([pair_text(p) for p in a["pairs"]]) or translate("Learn", "(none)"),
    )


def _t_new_word(a) -> str:
    s = fill(translate("Learn", "Merged: %1 → %2."), word_text(a["word"]), word_text(a["new_word"]))
    seen, replaced = a.get("seen", 0), a.get("replaced", 0)
    if seen > replaced:
        s += " " + fill(
            translate(
                "Learn",
                "The pair stands %1 times in this word but only %2 are merged: the occurrences overlap, "
                "and merging goes left to right, so a token already joined cannot join again.",
            ),
            seen,
            replaced,
        )
    return s


def _t_increment(a) -> str:
    return fill(
        translate(
            "Learn", "Its new pairs are added (+%1 each): %2. All other pair counts stay as they were."
        ),
        a["n"],
        listed([pair_text(p) for p in a["pairs"]]) or translate("Learn", "(none)"),
    )


def _t_replace(a) -> str:
    return translate("Learn", "The word is stored in its merged form.")


def _t_summary(a) -> str:
    rules = [f"{pair_text(p)} → {i}" for p, i in a["merges"]]
    s = fill(
        translate(
            "Learn", "Done: a vocabulary of %1 tokens = 256 bytes + %2 special token(s) + %3 merge(s)."
        ),
        a["vocab_size"],
        len(a["specials"]),
        len(a["merges"]),
    )
    if rules:
        s += " " + fill(translate("Learn", "Merges in order: %1."), listed(rules, 2 * MAX_LISTED))
    return s


# ---------------------------------------------------------------------- walk-through 3: encoding
def _e_split(a) -> str:
    return fill(
        translate("Learn", "Special tokens are cut out first; each one becomes its own id: %1."),
        listed([tok(s) for s in a["specials"]]) if a["specials"] else translate("Learn", "(none)"),
    )


def _e_special(a) -> str:
    return fill(translate("Learn", "%1 is a special token: it is not split or merged."), tok(a["piece"]))


def _e_special_id(a) -> str:
    return fill(translate("Learn", "Its id is %1."), a["id"])


def _e_pretoken(a) -> str:
    if a.get("gap"):
        return _gap(a)
    if a.get("pattern") in (None, "none"):
        s = fill(translate("Learn", "No pattern: the whole piece %1 is one pre-token."), tok(a["pretoken"]))
    else:
        s = fill(translate("Learn", "The regex finds the pre-token %1."), tok(a["pretoken"]))
    return s + clause_note(a["pretoken"], a.get("pattern"))


def _e_parts(a) -> str:
    s = fill(translate("Learn", "The pre-token starts as %1 single byte(s)."), a["n"])
    return s + bytes_note(a.get("pretoken", ""))


def _e_lowest(a) -> str:
    s = fill(
        translate(
            "Learn",
            "Of its adjacent pairs, %1 has the lowest rank (%2, counted from 0: merge number %3): it was "
            "learned earliest, so it is merged first.",
        ),
        pair_text(a["pair"]),
        a["rank"],
        a["rank"] + 1,
    )
    return s + pieces_note(a["pair"][0] + a["pair"][1], a.get("pretoken"))


def _e_merged(a) -> str:
    return fill(
        translate(
            "Learn", "Every occurrence of the pair in the pre-token becomes the token %1 (%2 replaced)."
        ),
        tok(a["token"]),
        a.get("replaced", 1),
    ) + pieces_note(a["token"], a.get("pretoken"))


def _e_none_left(a) -> str:
    return fill(
        translate("Learn", "No adjacent pair is in the merge list: the pre-token ends as %1 token(s)."),
        a["n"],
    )


def _e_ids(a) -> str:
    parts = a.get("parts")
    if parts:
        shown = listed([f"{tok(p)} = {i}" for p, i in zip(parts, a["new"])])
        return fill(translate("Learn", "Each part is looked up in the vocabulary: %1."), shown)
    return fill(translate("Learn", "Each part is looked up in the vocabulary: %1."), show(a["new"]))


def _e_stream(a) -> str:
    s = fill(
        translate(
            "Learn", "encode_iterable fed the text in two pieces cut at character %1 gives the same ids: %2."
        ),
        a["cut"],
        yes_no(a["same"]),
    )
    return (
        s
        + " "
        + translate(
            "Learn",
            "It only encodes up to the last place no pre-token or special token can cross, "
            "and keeps the rest until more text arrives.",
        )
    )


def _e_naive(a) -> str:
    first, second = a["chunks"]
    if a["same"]:
        return fill(
            translate(
                "Learn",
                "Encoding the two pieces %1 and %2 separately and joining the ids gives the same ids "
                "here: no cut of this text splits a pre-token whose parts would merge.",
            ),
            tok(first),
            tok(second),
        )
    return fill(
        translate(
            "Learn",
            "The naive way, encoding the pieces %1 and %2 separately and joining the ids, gives "
            "different ids (see naive): the cut splits a pre-token, and its two halves are merged "
            "on their own. An encode_iterable that encodes each chunk separately goes wrong here.",
        ),
        tok(first),
        tok(second),
    )


def _e_summary(a) -> str:
    tokens = [tok(t) for t in a["tokens"]]
    return fill(
        translate("Learn", "Done: the %1 bytes of the text are %2 id(s): %3."),
        a["n_bytes"],
        a["n_ids"],
        listed(tokens) if tokens else translate("Learn", "(none)"),
    )


_COMMON: dict[str, Callable] = {"piece": _piece}
_BY_KIND: dict[str, dict[str, Callable]] = {
    "lecture": {
        "bytes": _l_bytes,
        "merges_new": _l_merges_new,
        "vocab": _l_vocab,
        "loop": _l_loop,
        "counts_new": _l_counts_new,
        "no_pairs": _l_no_pairs,
        "zip": _l_zip,
        "count": _l_count,
        "max": _l_max,
        "new_index": _l_new_index,
        "merges_entry": _l_merges_entry,
        "vocab_entry": _l_vocab_entry,
        "merged": _l_merged,
        "summary": _l_summary,
    },
    "training": {
        "split": _t_split,
        "pretoken": _t_pretoken,
        "word_count": _t_word_count,
        "word": _t_word,
        "pair_count": _t_pair_count,
        "vocab": _t_vocab,
        "special_vocab": _t_special_vocab,
        "loop": _t_loop,
        "no_pairs": _t_no_pairs,
        "best": _t_best,
        "append": _t_append,
        "next_id": _t_next_id,
        "changed_word": _t_changed_word,
        "decrement": _t_decrement,
        "new_word": _t_new_word,
        "increment": _t_increment,
        "replace": _t_replace,
        "summary": _t_summary,
    },
    "encoding": {
        "split": _e_split,
        "special": _e_special,
        "special_id": _e_special_id,
        "pretoken": _e_pretoken,
        "parts": _e_parts,
        "lowest": _e_lowest,
        "merged": _e_merged,
        "none_left": _e_none_left,
        "ids": _e_ids,
        "stream": _e_stream,
        "naive": _e_naive,
        "summary": _e_summary,
    },
}


def events(kind: str) -> set[str]:
    """The events the walk-through ``kind`` has sentences for."""
    return set(_BY_KIND[kind]) | set(_COMMON)


def describe(kind: str, f: Frame) -> str:
    """The sentence for frame ``f`` of the walk-through ``kind`` ("lecture", "training", "encoding").

    Raises KeyError for an event the walk-through does not know (a test covers every event).
    """
    handler = _BY_KIND[kind].get(f.event) or _COMMON[f.event]
    return _CJK_SPACE.sub(r"\1", handler(f.args))
