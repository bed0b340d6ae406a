"""Training controls: settings, Step / Step N / Undo / Train / Cancel, progress and status."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
)

from bpe_gui.model.formatting import UnclosedQuote, parse_special_tokens
from bpe_gui.model.marks import QT_TRANSLATE_NOOP
from bpe_gui.text.plural import plural
from bpe_gui.views.widgets import ElidingLabel, WrappedNote, pinned, status_label
from core import GPT2_PATTERN

PATTERNS = [
    ("GPT-2", "gpt2"),
    ("GPT-4", "gpt4"),
    (QT_TRANSLATE_NOOP("TrainingPanel", "None (whole text)"), "none"),
    (QT_TRANSLATE_NOOP("TrainingPanel", "Custom regex…"), "custom"),
]
TIE_RULES = [
    (QT_TRANSLATE_NOOP("TrainingPanel", "Greatest (bytes, bytes)"), "lexicographic"),
    (QT_TRANSLATE_NOOP("TrainingPanel", "First seen"), "first"),
]


class TrainingPanel(QGroupBox):
    error = Signal(str)  # a setting that cannot be applied (the window shows it in a dialog)

    def __init__(self, controller, parent=None) -> None:
        super().__init__(self.tr("Training"), parent)
        self.controller = controller
        self._cancelled = False

        self.vocab_size = QSpinBox()
        # no minimum that silently changes what is typed: a value below 256 + specials is shown
        # with a note saying the minimum (and Train says it too)
        self.vocab_size.setRange(1, 10_000_000)
        self.vocab_size.setSingleStep(256)
        self.vocab_size.setGroupSeparatorShown(True)
        self.vocab_size.setValue(1000)
        self.vocab_size.setToolTip(
            self.tr("Size of the final vocabulary: 256 bytes + the special tokens + one token per merge")
        )
        self.specials = QLineEdit("<|endoftext|>")
        self.specials.setToolTip(
            self.tr(
                "Special tokens, separated by spaces; one that contains spaces goes in "
                'double quotes ("<|end of turn|>"). They are never merged.'
            )
        )
        self.pattern = QComboBox()
        for label, key in PATTERNS:
            self.pattern.addItem(self.tr(label), key)
        self.custom = QLineEdit()
        self.custom.setPlaceholderText(self.tr("custom pre-tokenizer regex"))
        self.custom.setText(GPT2_PATTERN)
        self.custom.setVisible(False)
        self.pattern.setToolTip(
            self.tr(
                "The pre-tokenizer regex that cuts the text into pre-tokens before "
                "training; merges never cross pre-tokens"
            )
        )
        self.tie = QComboBox()
        self.tie.setToolTip(self.tr("Which pair wins when several are equally frequent"))
        for label, key in TIE_RULES:
            self.tie.addItem(self.tr(label), key)
        for box in (self.pattern, self.tie):  # long item texts do not widen the left column
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(10)
        self.tie.setToolTip(
            self.tr(
                "When several pairs have the same highest count, which one is merged: "
                "the lexicographically greatest pair of byte strings, compared as (bytes, bytes) "
                "(the CS336 assignment's rule), or the pair seen first in the corpus (the lecture "
                "code's rule). See Help → Glossary → Tie rule for examples."
            )
        )
        self.pattern.setToolTip(
            self.tr(
                "The regex that cuts the text into pre-tokens before counting pairs; "
                "merges never cross a pre-token boundary"
            )
        )
        self.vocab_hint = WrappedNote()
        # once a corpus is loaded: the memory training to the vocab size will need, beside the
        # vocab size (Step and Train stay in view at 1280x720), and a warning under it when that is
        # more than the machine has free
        self.memory_need = QLabel()
        self.memory_need.setObjectName("status")
        self.memory_need.setVisible(False)
        self.memory_hint = WrappedNote()
        self.pattern_hint = WrappedNote()  # what is wrong with the custom regex, checked as it is typed
        self.apply_button = QPushButton(self.tr("Apply (re-reads the corpus)"))
        self.apply_button.setToolTip(self.tr("Use the edited settings: the corpus is read again with them"))
        self.apply_button.setEnabled(False)
        self.imported_note = WrappedNote(max_lines=3)  # (Step and Train stay in view on a laptop)

        form = QFormLayout()
        form.setVerticalSpacing(4)
        vocab_row = QHBoxLayout()
        vocab_row.setSpacing(6)
        vocab_row.addWidget(self.vocab_size, 1)
        vocab_row.addWidget(self.memory_need)
        form.addRow(self.tr("Vocab size"), vocab_row)
        form.addRow("", self.vocab_hint)
        form.addRow("", self.memory_hint)
        form.addRow(self.tr("Special tokens"), self.specials)
        form.addRow(self.tr("Pattern"), self.pattern)
        form.addRow("", self.custom)
        form.addRow("", self.pattern_hint)
        form.addRow(self.tr("Tie rule"), self.tie)

        self.undo_button = QPushButton(self.tr("◀ Undo"))
        self.undo_button.setToolTip(self.tr("Undo the last merge (← or Ctrl+Z)"))
        self.step_button = QPushButton(self.tr("Step ▶"))
        self.step_button.setToolTip(self.tr("Do one merge (→ or Space)"))
        self.step_button.setObjectName("primary")
        self.step_n = QSpinBox()
        self.step_n.setRange(1, 1_000_000)
        self.step_n.setValue(10)
        self.step_n.setPrefix("× ")
        self.step_n.setToolTip(self.tr("How many merges Step N does (Shift+→)"))
        self.step_n_button = QPushButton(self.tr("Step N"))
        self.train_button = QPushButton(self.tr("Train to vocab size"))
        self.train_button.setObjectName("accent")
        self.train_button.setToolTip(
            self.tr("Run the merges in the background until the vocab size (Ctrl+T)")
        )
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running task (Esc); the merges done so far are kept"))
        self.cancel_button.setEnabled(False)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(6)
        grid.addWidget(self.undo_button, 0, 0)
        grid.addWidget(self.step_button, 0, 1)
        grid.addWidget(self.step_n, 1, 0)
        grid.addWidget(self.step_n_button, 1, 1)
        grid.addWidget(self.train_button, 2, 0, 1, 2)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat(self.tr("idle"))
        self._task = ""  # the task the bar shows (Busy's value), "" when none
        self.vocab_label = status_label(lines=2, name="vocabStatus")  # (wraps, never cut: "5 special")
        self.vocab_label.setToolTip(
            self.tr(
                "Tokens in the vocab now / the vocab size Train stops at · merges "
                "done (each adds one token) · special tokens (never merged)"
            )
        )
        # long messages are cut with "…": the whole text is the tooltip and in View → Messages
        self.status = ElidingLabel(lines=2)
        self.status.setObjectName("status")
        self.status.setFixedHeight(self.status.fontMetrics().lineSpacing() * 2 + 14)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.imported_note)
        lay.addWidget(self.apply_button)
        lay.addSpacing(4)
        lay.addLayout(grid)
        lay.addWidget(self.cancel_button)
        lay.addWidget(self.progress)
        lay.addWidget(pinned(self.vocab_label))
        lay.addWidget(pinned(self.status))

        self.pattern.currentIndexChanged.connect(self._settings_edited)
        self.custom.textChanged.connect(self._settings_edited)
        self.specials.textChanged.connect(self._settings_edited)
        self.tie.currentIndexChanged.connect(self._settings_edited)
        self.apply_button.clicked.connect(self.apply)
        controller.progress.connect(self._progress)
        controller.phase.connect(self._show_phase)
        controller.message.connect(self.status.set_full_text)
        controller.options_changed.connect(self.show_options)
        controller.merges_reset.connect(self._show_imported_note)
        for sig in (controller.merges_appended, controller.merges_removed):
            sig.connect(lambda _n: self.update_vocab_label())
            sig.connect(lambda _n: self._outcome_stale())
        controller.merges_reset.connect(self.update_vocab_label)
        controller.merges_reset.connect(self._outcome_stale)
        controller.merges_reset.connect(self._check_vocab_size)  # (an extension: above its base)
        controller.busy_changed.connect(self._busy_changed)
        controller.trained.connect(lambda summary: setattr(self, "_cancelled", summary.cancelled))
        self.vocab_size.valueChanged.connect(lambda _v: self.update_vocab_label())
        self.vocab_size.valueChanged.connect(lambda _v: self._check_vocab_size())
        self.vocab_size.valueChanged.connect(lambda _v: self.show_memory_need())
        controller.corpus_loaded.connect(lambda _s: self.show_memory_need())
        controller.merges_reset.connect(self.show_memory_need)
        self.update_vocab_label()

    # ------------------------------------------------------------------ settings
    def wanted(self) -> tuple[list[str], str | None, str]:
        """(special tokens, pattern, tie rule) as edited in the panel (ValueError: unclosed quote)."""
        key = self.pattern.currentData()
        pattern = self.custom.text() if key == "custom" else key
        return parse_special_tokens(self.specials.text()), pattern, self.tie.currentData()

    def _settings_edited(self) -> None:
        custom = self.pattern.currentData() == "custom"
        self.custom.setVisible(custom)
        problem = self.pattern_problem() if custom else None
        self.pattern_hint.setText(problem or "")
        self.pattern_hint.setVisible(problem is not None)
        o = self.controller.options
        try:
            specials, pattern, tie = self.wanted()
        except ValueError:  # still typing a quoted token: Apply says what is wrong
            changed = True
        else:
            current_pattern = "none" if o.pattern is None else o.pattern
            changed = specials != o.special_tokens or pattern != current_pattern or tie != o.tie_break
        # a regex that does not compile is kept as typed, and Apply waits until it does
        self.apply_button.setEnabled(changed and problem is None and not self.controller.busy)

    def pattern_problem(self) -> str | None:
        """Why the custom regex as typed cannot be used (in the user's language), or None."""
        from bpe_gui.text.errors import error_text
        from core.errors import BPEError

        try:
            self.controller.options.with_changes(pattern=self.custom.text())
        except BPEError as e:
            # the regex is just above: the message says what is wrong with it and what to do
            if e.code == "pattern_invalid":
                return self.tr(
                    "Not a valid regular expression ({0}). Fix it, or choose another pattern."
                ).format(e.params.get("detail", ""))
            if e.code == "pattern_empty":
                return self.tr("Type a regular expression, or choose another pattern.")
            if e.code == "pattern_matches_empty":
                return self.tr("This regular expression only matches the empty string: it cuts nothing.")
            if e.code == "pattern_can_match_empty":
                return self.tr(
                    "This regular expression can match the empty string, where Hugging Face tokenizers "
                    "and tiktoken cut text otherwise (tiktoken fails). Make every alternative match at "
                    "least one character: + instead of *, no ? after a whole alternative."
                )
            return error_text(e)
        return None

    def apply(self) -> None:
        c = self.controller
        if self.pattern.currentData() == "custom" and self.pattern_problem() is not None:
            self._settings_edited()  # the regex stays as typed; the panel says what is wrong with it
            return
        try:
            specials, pattern, tie = self.wanted()
        except ValueError as e:
            self.show_options()  # the panel shows the settings in effect again
            if isinstance(e, UnclosedQuote):
                self.error.emit(
                    self.tr(
                        "Special tokens: the quote before {0} is not closed (write a token "
                        'that contains spaces as "like this")'
                    ).format(repr(e.token))
                )
            else:
                from bpe_gui.text.errors import error_text

                self.error.emit(error_text(e))
            return
        guard = getattr(c, "discard_guard", None)
        if guard is not None and c.has_trainer and not guard(self.tr("Applying the settings")):
            return  # the edits stay in the panel, Apply stays enabled
        if c.set_options(specials, pattern, tie):
            self.apply_button.setEnabled(False)

    def show_options(self) -> None:
        """Show the settings in effect (after a failed Apply, or a session put other ones in effect)."""
        o = self.controller.options
        widgets = (self.specials, self.pattern, self.custom, self.tie)
        for w in widgets:
            w.blockSignals(True)
        try:
            self.specials.setText(
                " ".join(f'"{t}"' if any(ch.isspace() for ch in t) else t for t in o.special_tokens)
            )
            key = "none" if o.pattern is None else o.pattern
            i = self.pattern.findData(key)
            if i < 0:
                i = self.pattern.findData("custom")
                self.custom.setText(o.pattern or "")
            self.pattern.setCurrentIndex(i)
            self.tie.setCurrentIndex(max(0, self.tie.findData(o.tie_break)))
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._settings_edited()
        self._check_vocab_size()

    def _show_imported_note(self) -> None:
        """After an import, say that these settings are for the next corpus, and what the import uses."""
        c = self.controller
        ext = c.model.extension
        # (a tiktoken or tekken import is shown before its merges are rebuilt: n_merges may still be 0)
        tok = c.cached_tokenizer() if not c.has_trainer and c.source_name else None
        if ext is not None:
            tok = ext.base  # an extension splits text with its base's pattern, not the panel's
        if tok is None or (c.has_trainer and ext is None):
            self.imported_note.setVisible(False)
            return
        from core.pretokenization.pretokenize import pattern_name

        plain: frozenset[str] = getattr(
            tok, "added_not_special", frozenset()
        )  # (OLMo 1's runs of spaces: not special)
        special_only = [t for t in tok.special_tokens if t not in plain]
        specials = " ".join(special_only) or self.tr("none")
        rule = {"lexicographic": self.tr("lexicographic"), "first": self.tr("first seen")}.get(
            tok.tie_break or "", self.tr("not recorded")
        )
        if ext is not None:
            note = self.tr(
                "Extension: it uses its base's pattern (%2) and special tokens (%3); the ones above are "
                "for the next corpus."
            )
        else:
            note = self.tr(
                "Imported tokenizer (%1): pattern %2, special tokens %3, tie rule %4. The settings "
                "above are for the next corpus you open."
            )
        source = ext.name if ext is not None else c.source_name
        if plain:
            note += " " + plural(
                self.tr(
                    'It also has %n added token(s) that are not special ("special": false in the file).',
                    "",
                    len(plain),
                ),
                len(plain),
            )
        raw = pattern_name(tok.pattern)
        name = self._pattern_shown(raw)  # (a built-in one as the Pattern box above names it)
        full = note.replace("%1", source).replace("%2", name).replace("%3", specials).replace("%4", rule)
        # a long regex and many special tokens (Qwen: 22) are summed up: Step and Train stay in view
        short_pattern = name if name != raw or len(raw) <= 12 else self.tr("a custom regex")
        n = len(special_only)
        short_specials = (
            specials if n <= 3 and len(specials) <= 40 else plural(self.tr("%n token(s)", "", n), n)
        )
        self.imported_note.setText(
            note.replace("%1", source)
            .replace("%2", short_pattern)
            .replace("%3", short_specials)
            .replace("%4", rule)
        )
        shown = self.imported_note
        shown.setToolTip(
            full if full != shown.full_text() or shown.text() != full else ""
        )  # (cut: whole here)
        self.imported_note.setVisible(True)

    def _pattern_shown(self, name: str) -> str:
        """A built-in pattern ("gpt2", "gpt4", "none") as the Pattern box names it ("GPT-2", "None (whole
        text)"); a custom regex as it is."""
        i = self.pattern.findData(name) if name != "custom" else -1
        return self.pattern.itemText(i) if i >= 0 else name

    def minimum_vocab_size(self) -> int:
        ext = self.controller.model.extension
        if ext is not None:  # an extension keeps all its base's tokens
            return ext.base_vocab_size + 1
        return 256 + len(self.controller.options.special_tokens)

    def vocab_too_small(self) -> bool:
        """The vocab size is below :meth:`minimum_vocab_size` (Train is disabled, the panel says why)."""
        return self.vocab_size.value() < self.minimum_vocab_size()

    def _check_vocab_size(self) -> None:
        low = self.minimum_vocab_size()
        n = len(self.controller.options.special_tokens)
        tip = plural(self.tr("At least %1: the 256 byte tokens + %n special token(s).", "", n), n).replace(
            "%1", f"{low:,}"
        )
        ext = self.controller.model.extension
        if ext is not None:
            tip = (
                self.tr("Above %1: the base tokenizer %2 keeps all its tokens.")
                .replace("%1", f"{ext.base_vocab_size:,}")
                .replace("%2", ext.name)
            )
        self.vocab_size.setToolTip(self.tr("The vocab size to train to. ") + tip)
        too_small = self.vocab_size.value() < low
        self.vocab_hint.setText(self.tr("Too small. ") + tip if too_small else "")
        self.vocab_hint.setVisible(too_small)

    def show_memory_need(self) -> None:
        """Beside the vocab size, once a corpus is loaded: about how much memory training to it
        needs (the app keeps every merge's undo history); under it, a warning when the machine has
        less free (its memory free now plus what the loaded trainer holds already)."""
        from core.training.memory_need import available_memory, human, training_memory

        m = self.controller.model
        stats, word_bytes = m.stats, getattr(m, "distinct_bytes", None)
        if not m.has_trainer or stats is None or word_bytes is None:
            self.memory_need.setVisible(False)
            self.memory_hint.setVisible(False)
            return
        distinct = stats.distinct_pretokens
        merges = max(0, self.vocab_size.value() - self.minimum_vocab_size())
        need = training_memory(distinct, word_bytes, merges, history=True)
        held = training_memory(distinct, word_bytes, 0, history=True)  # (the loaded trainer's share)
        free = available_memory()
        tip = self.tr(
            "Training to this vocab size needs about {0} of memory: an estimate from the corpus's "
            "{1} distinct pre-tokens ({2} MB) and the merges to the vocab size, with the undo "
            "history the app keeps. The command line (bpe-explorer train) keeps no history and "
            "needs less."
        ).format(human(need), f"{distinct:,}", f"{word_bytes / 1e6:.1f}")
        self.memory_need.setText(
            self.tr("≈ {0}", "memory training needs, beside the vocab size").format(human(need))
        )
        self.memory_need.setToolTip(tip)
        self.memory_need.setVisible(True)
        short = free is not None and need > free + held
        if short:
            self.memory_hint.setText(
                self.tr(
                    "Training to this vocab size needs about {0} of memory; this computer has {1} "
                    "free. Choose a smaller vocab size or corpus, or train with bpe-explorer train."
                ).format(human(need), human(free + held))  # type: ignore[operator]
            )
            self.memory_hint.setToolTip(tip)
        self.memory_hint.setVisible(short)

    # ------------------------------------------------------------------ status
    def _show_phase(self, text: str) -> None:
        """The task in the progress bar, its middle cut (a long file name) so that both ends show."""
        fm = self.progress.fontMetrics()
        room = max(40, self.progress.width() - fm.horizontalAdvance("  100%") - 16)
        shown = fm.elidedText(text.rstrip(" …"), Qt.TextElideMode.ElideMiddle, room)
        self.progress.setFormat(shown.replace("%", "%%") + "  %p%")
        self.progress.setToolTip(text)

    def _progress(self, done: int, total: int) -> None:
        pct = min(100, int(100 * done / max(total, 1)))
        if self.progress.maximum() != 100:
            self.progress.setRange(0, 100)
        if pct != self.progress.value():
            # QProgressBar.setValue repaints synchronously; with updates off it just schedules one
            self.progress.setUpdatesEnabled(False)
            self.progress.setValue(pct)
            self.progress.setUpdatesEnabled(True)

    def _busy_changed(self, busy: str) -> None:
        if busy:
            self._task = str(busy)
            self.progress.setRange(0, 0 if busy in ("load", "rewind", "import") else 100)
            self.progress.setValue(0)
        else:
            # a run (or a big step) ends with "done" or "cancelled"; loading, importing and rewinding
            # leave the bar idle (a "done" with a full bar at 0 merges after Reset said the wrong thing)
            ran = self._task in ("train", "step") and self.controller.index.n_merges > 0
            self._task = ""
            self.progress.setRange(0, 1)
            self.progress.setValue(1 if ran else 0)
            done = self.tr("cancelled") if self._cancelled else self.tr("done")
            self._cancelled = False
            self.progress.setFormat(done if ran else self.tr("idle"))
            if not ran:
                self.progress.setToolTip("")
        self._settings_edited()

    def _outcome_stale(self) -> None:
        """The merges changed outside a task (a step, an undo, a reset): the last run's "done" or
        "cancelled" no longer describes what is on show."""
        if not self.controller.busy:
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.progress.setFormat(self.tr("idle"))
            self.progress.setToolTip("")

    def update_vocab_label(self) -> None:
        c = self.controller
        ix = c.index
        n = ix.n_merges
        merges = plural(self.tr("<b>%n</b> merge(s)", "", n), n)
        plain = ix.n_plain_added  # added tokens that are not special (OLMo 1's runs of spaces)
        if not c.has_trainer and c.model.imported is not None:
            # a tokenizer shown without a corpus is not trained towards the vocab size: no "/ 1,000"
            # under cl100k's 100,261 tokens
            text = (
                self.tr("Vocab <b>%1</b> · %3 · %4 special · %5 added")
                if plain
                else self.tr("Vocab <b>%1</b> · %3 · %4 special")
            )
        else:
            text = (
                self.tr("Vocab <b>%1</b> / %2 · %3 · %4 special · %5 added")
                if plain
                else self.tr("Vocab <b>%1</b> / %2 · %3 · %4 special")
            )
        self.vocab_label.setText(
            text.replace("%1", f"{len(ix):,}")
            .replace("%2", f"{self.vocab_size.value():,}")
            .replace("%3", merges)
            .replace("%4", f"{len(ix.special_tokens) - plain:,}")
            .replace("%5", f"{plain:,}")
        )
