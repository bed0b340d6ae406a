"""Sentences of Learn mode: what each frame of a walk-through did, in the app's language."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.learn import Frame, show

translate = QCoreApplication.translate


def tok(b: bytes) -> str:
    """A token for a sentence: its text in quotes when it is whole UTF-8, else its bytes."""
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        return repr(b)
    return "“" + s.replace("\n", "\\n") + "”"


def pair_text(pair) -> str:
    a, b = pair
    if isinstance(a, bytes):
        return f"({tok(a)}, {tok(b)})"
    return f"({a}, {b})"


def describe(kind: str, f: Frame) -> str:
    """The sentence for frame ``f`` of the walk-through ``kind`` ("lecture", "training", "encoding")."""
    a = f.args
    e = f.event
    if e == "bytes":
        return translate(
            "Learn",
            "The text becomes its UTF-8 bytes: %1 integers from 0 to 255. Each byte is a first token.",
        ).replace("%1", str(a["n"]))
    if e == "vocab":
        return translate("Learn", "The vocabulary starts with the 256 single bytes: ids 0 to 255.")
    if e == "loop":
        return translate("Learn", "Merge number %1 begins.").replace("%1", str(a["step"] + 1))
    if e == "counts_new":
        return translate("Learn", "Start counting pairs from zero.")
    if e == "no_pairs":
        return translate("Learn", "No pair is left to merge: training stops here.")
    if e == "zip":
        return (
            translate("Learn", "zip gives the next neighbouring pair: (%1, %2).")
            .replace("%1", str(a["a"]))
            .replace("%2", str(a["b"]))
        )
    if e == "count":
        return (
            translate("Learn", "Pair (%1, %2) has now been seen %3 time(s).")
            .replace("%1", str(a["a"]))
            .replace("%2", str(a["b"]))
            .replace("%3", str(a["count"]))
        )
    if e == "max":
        s = (
            translate("Learn", "max picks %1, seen %2 time(s).")
            .replace("%1", pair_text(a["pair"]))
            .replace("%2", str(a["count"]))
        )
        if a["ties"]:
            s += " " + translate(
                "Learn", "Tie with %1: max keeps the first one it meets, the pair seen first in the text."
            ).replace("%1", ", ".join(pair_text(p) for p in a["ties"][:5]))
        return s
    if e == "new_index":
        return translate("Learn", "The new token gets the next free id: %1.").replace(
            "%1", str(a["new_index"])
        )
    if e == "vocab_entry":
        return (
            translate("Learn", "Its bytes are its two parts joined: %1 + %2 = %3.")
            .replace("%1", tok(a["left"]))
            .replace("%2", tok(a["right"]))
            .replace("%3", tok(a["token"]))
        )
    if e == "merged":
        return (
            translate(
                "Learn",
                "Every occurrence of the pair is replaced by %1: %2 replaced, the list shrinks from %3 to %4.",
            )
            .replace("%1", str(a["new_index"]))
            .replace("%2", str(a["replaced"]))
            .replace("%3", str(a["before"]))
            .replace("%4", str(a["after"]))
        )
    if e == "split":
        if kind == "encoding":
            return translate(
                "Learn", "Special tokens are cut out first; each one becomes its own id: %1."
            ).replace("%1", show(a["specials"]) if a["specials"] else translate("Learn", "(none)"))
        return (
            translate(
                "Learn", "The text is cut at the special tokens %1 into %2 piece(s); no merge crosses them."
            )
            .replace("%1", show(a["specials"]) if a["specials"] else translate("Learn", "(none)"))
            .replace("%2", str(a["n"]))
        )
    if e == "piece":
        return translate("Learn", "Next piece: %1.").replace("%1", repr(a["piece"]))
    if e == "pretoken":
        return translate("Learn", "The regex finds the pre-token %1.").replace("%1", repr(a["pretoken"]))
    if e == "word_count":
        return (
            translate(
                "Learn", "Pre-token %1 has been seen %2 time(s); merges never cross pre-token boundaries."
            )
            .replace("%1", repr(b"".join(a["word"]).decode("utf-8", "replace")))
            .replace("%2", str(a["count"]))
        )
    if e == "word":
        return translate(
            "Learn", "Each pair of this word counts as often as the word occurs: %1 time(s)."
        ).replace("%1", str(a["n"]))
    if e == "pair_count":
        return (
            translate("Learn", "Pair %1 + %2 → %3.")
            .replace("%1", pair_text(a["pair"]))
            .replace("%2", str(a["n"]))
            .replace("%3", str(a["count"]))
        )
    if e == "best":
        s = (
            translate("Learn", "The most frequent pair is %1 (%2 time(s)).")
            .replace("%1", pair_text(a["pair"]))
            .replace("%2", str(a["count"]))
        )
        if a["ties"]:
            s += " " + translate(
                "Learn", "Tied with %1: the tie rule takes the lexicographically greatest pair."
            ).replace("%1", ", ".join(pair_text(p) for p in a["ties"][:5]))
        return s
    if e == "append":
        return (
            translate("Learn", "Merge recorded; new token %1 gets id %2.")
            .replace("%1", tok(a["token"]))
            .replace("%2", str(a["new_id"]))
        )
    if e == "changed_word":
        return (
            translate("Learn", "Word %1 (count %2) contains the pair: only such words change.")
            .replace("%1", pair_text(a["word"]) if len(a["word"]) == 2 else show(a["word"]))
            .replace("%2", str(a["n"]))
        )
    if e == "decrement":
        return (
            translate("Learn", "Its old pairs are taken away (−%1 each): %2.")
            .replace("%1", str(a["n"]))
            .replace("%2", ", ".join(pair_text(p) for p in a["pairs"]) or translate("Learn", "(none)"))
        )
    if e == "new_word":
        return (
            translate("Learn", "Merged: %1 → %2.")
            .replace("%1", show(a["word"]))
            .replace("%2", show(a["new_word"]))
        )
    if e == "increment":
        return (
            translate(
                "Learn", "Its new pairs are added (+%1 each): %2. All other pair counts stay as they were."
            )
            .replace("%1", str(a["n"]))
            .replace("%2", ", ".join(pair_text(p) for p in a["pairs"]) or translate("Learn", "(none)"))
        )
    if e == "replace":
        return translate("Learn", "The word is stored in its merged form.")
    if e == "special":
        return translate("Learn", "%1 is a special token: it is not split or merged.").replace(
            "%1", repr(a["piece"])
        )
    if e == "special_id":
        return translate("Learn", "Its id is %1.").replace("%1", str(a["id"]))
    if e == "parts":
        return translate("Learn", "The pre-token starts as %1 single bytes.").replace("%1", str(a["n"]))
    if e == "lowest":
        return (
            translate(
                "Learn",
                "Of its adjacent pairs, %1 has the lowest rank (%2): it was learned earliest, so it is merged first.",
            )
            .replace("%1", pair_text(a["pair"]))
            .replace("%2", str(a["rank"]))
        )
    if e == "none_left":
        return translate("Learn", "No adjacent pair is in the merge list: %1 token(s) remain.").replace(
            "%1", str(a["n"])
        )
    if e == "ids":
        return translate("Learn", "Each part is looked up in the vocabulary: %1.").replace(
            "%1", show(a["new"])
        )
    if e == "stream":
        s = (
            translate(
                "Learn",
                "encode_iterable fed the text in two pieces cut at character %1 gives the same ids: %2.",
            )
            .replace("%1", str(a["cut"]))
            .replace("%2", translate("Learn", "yes") if a["same"] else translate("Learn", "no"))
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
    return e
