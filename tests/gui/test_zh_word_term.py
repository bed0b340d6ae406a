"""The Chinese texts call a word (a pre-token: "the word ' low' occurs 5 times") 单词 everywhere.

The stories and Learn mode said 词 in some sentences and 单词 in others ("词 %1（次数 %2）" next to
"单词 %1：它的每个字节对…"); a bare 词 also reads like a short 词元 (token). The introduction, the
glossary and Learn mode's first sentences say 单词, as the Chinese HuggingFace course does
("唯一单词集合", "每个单词"). 词 stays only inside the fixed terms 词元, 词表, 词汇 and (预)分词(器).
"""

from __future__ import annotations

import re

from .test_i18n import TS, _messages

_TERMS = re.compile("单词|词元|词表|词汇|分词")


def _translation(t) -> str:
    return (t.text or "") + "".join(f.text or "" for f in t.findall("numerusform"))


def test_no_chinese_text_says_a_bare_word():
    bare = [
        (context, source, _translation(t))
        for context, source, t in _messages(TS)
        if "词" in _TERMS.sub("", _translation(t))
    ]
    assert not bare, "\n".join(f"{c}: {s!r} → {z!r}" for c, s, z in bare)


def test_every_sentence_about_words_says_danci():
    about_words = [
        (context, source, _translation(t))
        for context, source, t in _messages(TS)
        if re.search(r"\bwords?\b", source or "", re.I) and "in plain words" not in (source or "")
    ]
    assert len(about_words) >= 10  # (the stories, Learn mode, the glossary, the introduction …)
    mixed = [(c, s, z) for c, s, z in about_words if "单词" not in z]
    assert not mixed, "\n".join(f"{c}: {s!r} → {z!r}" for c, s, z in mixed)


# "token" left in English where it is a column's or a parameter's name, or glossed after 词元
_TOKEN_AS_NAME = re.compile(
    r"%\([a-z_]+\)s|\{[a-z_0-9]*\}|[A-Za-z_.]*\([^)]*\)|[a-z_]+_[a-z_]+|词元（token）|token（binary）|按 token 分组"
)


def test_no_chinese_text_says_token_for_a_token():
    """A token is 词元 in every Chinese text. The error for a byte the tokenizer has no token for
    (OLMo 1 on a file with an 0xff byte, in Evaluate) said "没有对应它的 token" among sentences that
    all say 词元."""
    english = [
        (context, source, _translation(t))
        for context, source, t in _messages(TS)
        if re.search(r"(?<![A-Za-z_])tokens?(?![A-Za-z_])", _TOKEN_AS_NAME.sub("", _translation(t)))
    ]
    assert not english, "\n".join(f"{c}: {s!r} → {z!r}" for c, s, z in english)
