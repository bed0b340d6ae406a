"""Find where a token occurs in the corpus, for the details of a merge (:func:`core.token_home`):
the corpus is read once, a megabyte of lines at a time, until enough places are found."""

from __future__ import annotations

from bpe_gui.jobs import worker

SNIPPETS = 3


class SnippetJob(worker.Job):
    """``result.value`` is the :class:`core.evaluation.token_home.TokenHome` of ``token`` (bytes)."""

    kind = "snippets"

    def __init__(self, tokenizer, args: tuple | None, token: bytes, corpus: str, rank: int) -> None:
        super().__init__()
        self.tokenizer, self.args, self.token, self.corpus, self.rank = tokenizer, args, token, corpus, rank

    def work(self) -> None:
        from core.evaluation.token_home import token_home

        tok = worker.tokenizer_from(self.tokenizer, self.args)
        self.result.value = token_home(
            tok, self.token, [self.corpus], snippets=SNIPPETS, progress=self.report
        )
