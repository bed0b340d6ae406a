"""Sentences of Learn mode: what each frame of a walk-through did, in the app's language."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.learn import Frame, show


def _t(text: str) -> str:
    return QCoreApplication.translate("Learn", text)


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
        return _t("The text becomes its UTF-8 bytes: %1 integers from 0 to 255. Each byte is a first token.").replace(
            "%1", str(a["n"]))
    if e == "vocab":
        return _t("The vocabulary starts with the 256 single bytes: ids 0 to 255.")
    if e == "loop":
        return _t("Merge number %1 begins.").replace("%1", str(a["step"] + 1))
    if e == "counts_new":
        return _t("Start counting pairs from zero.")
    if e == "no_pairs":
        return _t("No pair is left to merge: training stops here.")
    if e == "zip":
        return _t("zip gives the next neighbouring pair: (%1, %2).").replace("%1", str(a["a"])).replace("%2", str(a["b"]))
    if e == "count":
        return _t("Pair (%1, %2) has now been seen %3 time(s).").replace("%1", str(a["a"])).replace(
            "%2", str(a["b"])).replace("%3", str(a["count"]))
    if e == "max":
        s = _t("max picks %1, seen %2 time(s).").replace("%1", pair_text(a["pair"])).replace("%2", str(a["count"]))
        if a["ties"]:
            s += " " + _t("Tie with %1: max keeps the first one it meets, the pair seen first in the text.").replace(
                "%1", ", ".join(pair_text(p) for p in a["ties"][:5]))
        return s
    if e == "new_index":
        return _t("The new token gets the next free id: %1.").replace("%1", str(a["new_index"]))
    if e == "vocab_entry":
        return _t("Its bytes are its two parts joined: %1 + %2 = %3.").replace("%1", tok(a["left"])).replace(
            "%2", tok(a["right"])).replace("%3", tok(a["token"]))
    if e == "merged":
        return _t("Every occurrence of the pair is replaced by %1: %2 replaced, the list shrinks from %3 to %4.").replace(
            "%1", str(a["new_index"])).replace("%2", str(a["replaced"])).replace("%3", str(a["before"])).replace(
            "%4", str(a["after"]))
    if e == "split":
        if kind == "encoding":
            return _t("Special tokens are cut out first; each one becomes its own id: %1.").replace(
                "%1", show(a["specials"]) if a["specials"] else _t("(none)"))
        return _t("The text is cut at the special tokens %1 into %2 piece(s); no merge crosses them.").replace(
            "%1", show(a["specials"]) if a["specials"] else _t("(none)")).replace("%2", str(a["n"]))
    if e == "piece":
        return _t("Next piece: %1.").replace("%1", repr(a["piece"]))
    if e == "pretoken":
        return _t("The regex finds the pre-token %1.").replace("%1", repr(a["pretoken"]))
    if e == "word_count":
        return _t("Pre-token %1 has been seen %2 time(s); merges never cross pre-token boundaries.").replace(
            "%1", repr(b"".join(a["word"]).decode("utf-8", "replace"))).replace("%2", str(a["count"]))
    if e == "word":
        return _t("Each pair of this word counts as often as the word occurs: %1 time(s).").replace("%1", str(a["n"]))
    if e == "pair_count":
        return _t("Pair %1 + %2 → %3.").replace("%1", pair_text(a["pair"])).replace("%2", str(a["n"])).replace(
            "%3", str(a["count"]))
    if e == "best":
        s = _t("The most frequent pair is %1 (%2 time(s)).").replace("%1", pair_text(a["pair"])).replace(
            "%2", str(a["count"]))
        if a["ties"]:
            s += " " + _t("Tied with %1: the tie rule takes the lexicographically greatest pair.").replace(
                "%1", ", ".join(pair_text(p) for p in a["ties"][:5]))
        return s
    if e == "append":
        return _t("Merge recorded; new token %1 gets id %2.").replace("%1", tok(a["token"])).replace(
            "%2", str(a["new_id"]))
    if e == "changed_word":
        return _t("Word %1 (count %2) contains the pair: only such words change.").replace(
            "%1", pair_text(a["word"]) if len(a["word"]) == 2 else show(a["word"])).replace("%2", str(a["n"]))
    if e == "decrement":
        return _t("Its old pairs are taken away (−%1 each): %2.").replace("%1", str(a["n"])).replace(
            "%2", ", ".join(pair_text(p) for p in a["pairs"]) or _t("(none)"))
    if e == "new_word":
        return _t("Merged: %1 → %2.").replace("%1", show(a["word"])).replace("%2", show(a["new_word"]))
    if e == "increment":
        return _t("Its new pairs are added (+%1 each): %2. All other pair counts stay as they were.").replace(
            "%1", str(a["n"])).replace("%2", ", ".join(pair_text(p) for p in a["pairs"]) or _t("(none)"))
    if e == "replace":
        return _t("The word is stored in its merged form.")
    if e == "special":
        return _t("%1 is a special token: it is not split or merged.").replace("%1", repr(a["piece"]))
    if e == "special_id":
        return _t("Its id is %1.").replace("%1", str(a["id"]))
    if e == "parts":
        return _t("The pre-token starts as %1 single bytes.").replace("%1", str(a["n"]))
    if e == "lowest":
        return _t("Of its adjacent pairs, %1 has the lowest rank (%2): it was learned earliest, so it is merged first.").replace(
            "%1", pair_text(a["pair"])).replace("%2", str(a["rank"]))
    if e == "none_left":
        return _t("No adjacent pair is in the merge list: %1 token(s) remain.").replace("%1", str(a["n"]))
    if e == "ids":
        return _t("Each part is looked up in the vocabulary: %1.").replace("%1", show(a["new"]))
    if e == "stream":
        s = _t("encode_iterable fed the text in two pieces cut at character %1 gives the same ids: %2.").replace(
            "%1", str(a["cut"])).replace("%2", _t("yes") if a["same"] else _t("no"))
        return s + " " + _t("It only encodes up to the last place no pre-token or special token can cross, "
                            "and keeps the rest until more text arrives.")
    return e
