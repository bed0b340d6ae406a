"""Help → What is BPE?: a plain-words introduction for someone who has never trained a tokenizer.

What a tokenizer is, how BPE learns its tokens (bytes → pairs → merges), what the main window's
views show and what to click first; from there the sample corpus opens, or Learn mode walks through
the algorithm's code line by line.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QTextBrowser, QVBoxLayout

from bpe_gui.views.screen_fit import place_on_screen

translate = QCoreApplication.translate


def _section(title: str, paragraphs: list[str], numbered: bool = False) -> str:
    if numbered:
        body = "<ol>" + "".join(f"<li>{escape(p)}</li>" for p in paragraphs) + "</ol>"
    else:
        body = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
    return f"<h3>{escape(title)}</h3>{body}"


def views_html() -> str:
    """The main window's views, each named as the window names it, with what it shows."""
    views = [
        (
            translate("Intro", "Corpus and Training (left)"),
            translate(
                "Intro",
                "the text BPE learns from, and the buttons that learn merges: Step ▶ makes one, Step N "
                "several, Train to vocab size many, ◀ Undo takes the last one back.",
            ),
        ),
        (
            translate("Intro", "Merge timeline"),
            translate("Intro", "one point per merge made: how often its pair occurred."),
        ),
        (
            translate("Intro", "Pair counts"),
            translate(
                "Intro", "every pair of neighbouring tokens and its count; the top row is the next merge."
            ),
        ),
        (
            translate("Intro", "Tokenize"),
            translate(
                "Intro",
                "type or paste any text and see it cut into coloured tokens by the merges learned so far.",
            ),
        ),
        (
            translate("Intro", "Merges & vocab"),
            translate("Intro", "the merges in the order they were learned, and every token with its id."),
        ),
        (
            translate("Intro", "Selected merge · What happened"),
            translate("Intro", "the story of one merge in plain words: which pair, how often, what changed."),
        ),
    ]
    # (a view's name, then what it shows: "Tokenize: type …", in Chinese with a full-width colon)
    item = translate("Intro", "%1: %2")
    items = "".join(
        "<li>" + item.replace("%2", escape(what)).replace("%1", f"<b>{escape(name)}</b>") + "</li>"
        for name, what in views
    )
    title = translate("Intro", "What the window shows")
    return f"<h3>{escape(title)}</h3><ul>{items}</ul>"


def intro_html() -> str:
    """The introduction, in the app's language."""
    parts = [
        "<h2>" + escape(translate("Intro", "What is BPE?")) + "</h2>",
        _section(
            translate("Intro", "What a tokenizer does"),
            [
                translate(
                    "Intro",
                    "A language model does not read letters: it reads numbers. A tokenizer cuts text into "
                    "pieces called tokens and gives each token a number, its id. “the cat” may become two "
                    "tokens, “the” and “ cat” (with its space), so the model sees two ids.",
                ),
                translate(
                    "Intro",
                    "BPE (byte-pair encoding) is how GPT-2, GPT-4, Llama and the tokenizer of Stanford's "
                    "CS336 assignment 1 learn their tokens from a large text, the corpus.",
                ),
            ],
        ),
        _section(
            translate("Intro", "How BPE learns: bytes → pairs → merges"),
            [
                translate(
                    "Intro",
                    "Bytes. The corpus is stored as UTF-8 bytes, numbers from 0 to 255. Each of the 256 "
                    "bytes is a first token, so any text can be written with them: an English letter is "
                    "one byte, a Chinese character three.",
                ),
                translate(
                    "Intro",
                    "Pairs. Count how often each pair of neighbouring tokens occurs in the corpus, such as "
                    "“t” followed by “h”.",
                ),
                translate(
                    "Intro",
                    "Merges. The most frequent pair becomes a new token (“t” + “h” → “th”), written "
                    "everywhere it occurs. Count again and repeat: each repetition is one merge, and the "
                    "ordered list of merges is what training learns. It stops at the vocab size you choose.",
                ),
            ],
            numbered=True,
        ),
        "<p>"
        + escape(
            translate(
                "Intro",
                "Before counting, the text is cut into pre-tokens, roughly words with their leading space, "
                "so a merge never joins the end of one word to the next. Encoding a new text applies the "
                "learned merges in the same order.",
            )
        )
        + "</p>",
        views_html(),
        _section(
            translate("Intro", "What to click first"),
            [
                translate(
                    "Intro",
                    "Open the sample: the bundled sample corpus opens when the app starts (otherwise "
                    "click the button below, or Recent → Sample corpus (bundled) in the Corpus box). Your "
                    "own UTF-8 text file opens with Open….",
                ),
                translate(
                    "Intro",
                    "Press Step ▶ (or the → key) a few times: each press makes one merge. Watch the top "
                    "pair of Pair counts become a token, a point appear on the timeline and the text in "
                    "Tokenize get fewer, longer tokens.",
                ),
                translate(
                    "Intro",
                    "Press Train to vocab size to learn many merges at once; ◀ Undo (or the ← key) takes "
                    "them back one by one.",
                ),
            ],
            numbered=True,
        ),
        "<p>"
        + escape(
            translate(
                "Intro",
                "To see the algorithm itself run line by line on a tiny text, with its variables beside "
                "the code, open Learn mode below (also View → Learn BPE step by step). The Glossary in the "
                "Help menu explains each term.",
            )
        )
        + "</p>",
    ]
    return "".join(parts)


def show_intro(window) -> QDialog:
    """Open (or raise) the introduction over the main window ``window`` (non-modal)."""
    from bpe_gui import resources
    from bpe_gui.views.learn_view import open_learn

    dlg = window.findChild(QDialog, "intro")
    if dlg is None:
        dlg = QDialog(window)
        dlg.setObjectName("intro")
        dlg.setWindowTitle(translate("Intro", "What is BPE?"))
        view = QTextBrowser(dlg)
        view.setObjectName("introText")
        view.setHtml(intro_html())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dlg)
        buttons.rejected.connect(dlg.close)
        learn = QPushButton(translate("Intro", "Step through the code in Learn mode ▶"))
        learn.setObjectName("introLearn")
        learn.setDefault(True)
        buttons.addButton(learn, QDialogButtonBox.ButtonRole.ActionRole)

        def to_learn() -> None:
            dlg.close()
            open_learn(window)

        learn.clicked.connect(to_learn)
        sample = resources.sample_corpus()
        if sample is not None:
            open_sample = QPushButton(translate("Intro", "Open the sample corpus"))
            open_sample.setObjectName("introSample")
            open_sample.setToolTip(
                translate("Intro", "Train on the small text that comes with the app (Step ▶ or Train next)")
            )

            def to_sample() -> None:
                if window.load_corpus_confirmed(str(sample)):
                    dlg.close()

            open_sample.clicked.connect(to_sample)
            buttons.addButton(open_sample, QDialogButtonBox.ButtonRole.ActionRole)
        lay = QVBoxLayout(dlg)
        lay.addWidget(view)
        lay.addWidget(buttons)
    if not dlg.isVisible():  # (fits a 1280×720 laptop: the text scrolls, the buttons stay in sight)
        place_on_screen(dlg, 760, 660, over=window.window())
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg
