"""While a reopened session's merges are replayed, the pair panel does not name a stale next merge."""

from __future__ import annotations

from bpe_gui.model.session import Busy
from bpe_gui.views.pairs_view import PairsView


def test_the_next_merge_is_not_named_while_a_session_replays(qtbot, trained, tmp_path):
    """Reopening a 7,753-merge session on a 107 MB corpus: for the 40 s of the replay the panel said
    "Next merge: · + · → ·· (3,394,276×) — the most frequent pair", the corpus's first merge."""
    w = trained
    c = w.controller
    view = w.findChild(PairsView)
    path = w.save_session(str(tmp_path / "s.bpe.json"))
    assert path is not None
    seen: list[tuple[str, str]] = []
    # (connected after the view: the label as it is once the view has heard of the change)
    c.busy_changed.connect(lambda busy: seen.append((str(busy), view.next_label.text())))
    with qtbot.waitSignal(c.trained, timeout=60_000):
        assert w.open_session(str(path))
    replaying = [text for busy, text in seen if busy == Busy.TRAIN]
    assert replaying
    assert all("Next merge" not in text for text in replaying)
    assert "Next merge" in view.next_label.text()
