"""Every core error a user of the app can meet is said in Chinese in the Chinese app.

The test reads core's source: each place that makes one of the project's errors (a class derived from
``BPEError``, found by its ``class`` line) either gives it a ``code`` whose template in
``bpe_gui.text.errors`` has a finished Chinese translation that shows the same values the place
gives, or is listed in ``NOT_IN_THE_APP`` with the reason the app cannot meet it (the command line's
own options, type checks of the Python API, internal states). A new error in a module the app uses
fails here until it has a code and a Chinese text, or a reason.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpe_gui.text import errors as zh_errors
from bpe_gui.text import i18n

ROOT = Path(__file__).resolve().parents[2]

#: where an error without a code is fine, and why ("path" for a whole module, "path::function")
NOT_IN_THE_APP = {
    # the command line: its messages name its options (--workers, --out, --engine …); the CLI is English
    "core/cli/": "command-line options",
    "core/files.py::check_out_file": "--out of encode / count (the app's exports write through atomic_write)",
    "core/files.py::check_out_folder": "--out of train / convert",
    "core/files.py::check_not_inputs": "--out that is one of the command's inputs",
    "core/files.py::refuse_empty_path": "an empty --out (the app's dialogs never give one)",
    "core/files.py::check_replace_file": "--out of encode / count naming a file of another kind (--force)",
    "core/files.py::check_shard_folder": "--out of encode --engine dask",
    "core/formats/__init__.py::parse_formats": "--format (the app's export dialog has check boxes)",
    "core/formats/partial_export.py::one_byte_specials": "--special-token with --format before a train run",
    "core/formats/partial_export.py::non_utf8_specials_error": "--special-token with --format before a train run",
    "core/pretokenization/scan.py": "globs, URLs and several corpus files (count --engine dask)",
    "core/pretokenization/sources.py::open_stream": "a corpus read from standard input",
    "core/scale/counts_io.py::check_out": "count --out",
    "core/training/flat.py": "train_bpe's flat merge loop (the app trains with the Trainer)",
    "core/training/past_pairs.py::pairs_before": (
        "the app asks only for merges it shows and says in the pair table when their counts are not "
        "known (it never shows this error)"
    ),
    "core/scale/counts_io.py::write_counts": "count --out",
    "core/scale/counts_io.py::sum_counts": "train --counts A --counts B (summed); the app opens one file",
    "core/scale/dask_cluster.py": "--engine dask",
    "core/scale/dask_scale.py": "--engine dask",
    "core/scale/dask_watch.py": "--engine dask",
    "core/tokenization/npy.py": "encode to .npy (command line and API)",
    "core/tokenization/npy_ranges.py": "encode to .npy in several processes",
    "core/tokenization/range_workers.py": "encode to .npy in several processes",
    # the Python API: arguments of the wrong type or value, which the app never passes
    "core/bpe/support.py::check_vocab": "Tokenizer(vocab, merges): the vocab a script passes",
    "core/bpe/support.py::_check_pair": "Tokenizer(vocab, merges): the merges a script passes",
    "core/bpe/support.py::build_encoder": "Tokenizer(vocab, merges): the vocab a script passes",
    "core/bpe/support.py::merge_table": "Tokenizer(vocab, merges): the merges a script passes",
    "core/tokenization/tokenizer.py::Tokenizer.encode": "encode() given no str",
    "core/tokenization/tokenizer.py::Tokenizer.encode_iterable": "encode_iterable() given no strings",
    "core/tokenization/tokenizer.py::Tokenizer.decode_bytes": "decode() given no list of ints",
    "core/pretokenization/pretokenize.py::check_special_tokens": "special_tokens given as a str or non-str",
    "core/training/vocab.py::check_vocab_size": "vocab_size not an int (the app's field is a spin box)",
    "core/training/trainer.py::Trainer.__init__": "tie_break other than lexicographic/first",
    "core/training/trainer.py::train_bpe": "tie_break other than lexicographic/first",
    "core/tokenization/extend.py::ExtendTrainer.__init__": "tie_break other than lexicographic/first",
    "core/evaluation/audit.py::audit_merges": "tie_break other than lexicographic/first",
    "core/formats/__init__.py::save": "save(fmt=) with an unknown format name",
    "core/formats/spec.py::as_spec": "export of an object that is no tokenizer",
    "core/formats/__init__.py::_keeps_own": "a pattern or special tokens given for a file that stores its own "
    "(the app asks for them only for a tiktoken file that has none)",
    # states the app never reaches (it asks for them only when they hold)
    "core/training/undo.py": "undo of a merge other than the last, or without history",
    "core/tokenization/extend.py::ExtendTrainer.token_id": "the id of a merge not made yet (internal)",
    "core/tokenization/extend.py::ExtendTrainer.state": "an extension saved as a trainer state",
    "core/engine/server.py::EngineServer._need_trainer": "a request before a corpus is loaded (internal)",
    "core/engine/server.py::EngineServer.handle": "an unknown engine request (internal)",
    "core/formats/session.py::session_json": "native_json gave no JSON object (internal)",
}

#: the error types that carry a code without being errors themselves: the loader passes it on, with
#: the values it adds (core.pipeline.hf.pipeline_config: the file)
CARRIERS = {"Bad": {"file"}}

#: what ``**`` params of a raise site expand to (``_Lines.params_at``/``params_key`` of bpe.json)
EXPANDS = {
    "loc.params_at": {"file", "line", "list_name", "index"},
    "loc.params_key": {"file", "line"},
}

#: errors that never reach the app as they are made: another place adds the values their text needs
COMPLETED_ELSEWHERE = {
    "core/bpe/support.py::hole_error": "core.tokenization.missing_bytes.locate names the file, offset and tokenizer",
    "core/evaluation/student_merges.py::_PlainUnpickler.find_class": "read_student_merges adds the file's name",
}

#: template values error_text makes from others (see bpe_gui.text.errors._where and _derived)
DERIVED = {"where": set(), "exit_reason": {"exit_code"}}


@dataclass
class Site:
    path: str
    function: str
    line: int
    codes: set[str] | None  # None: no code; {"*"}: passed on from another error (e.code)
    params: set[str] | None  # None: not all known (a ** we cannot follow)
    pattern: str = ""  # a code built by an f-string, as a regex


def _modules() -> list[tuple[str, ast.Module]]:
    files = [*sorted((ROOT / "core").rglob("*.py")), ROOT / "bpe_gui/model/files.py"]  # (+ the app's own)
    return [(p.relative_to(ROOT).as_posix(), ast.parse(p.read_text(encoding="utf-8"))) for p in files]


def _error_classes(modules) -> set[str]:
    names = {"BPEError"}
    while True:
        more = {
            node.name
            for _p, tree in modules
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id in names for b in node.bases)
        }
        if more <= names:
            return names
        names |= more


def _codes(node: ast.expr, module: str) -> tuple[set[str], str]:
    """The codes a ``code=`` expression can give (and a regex for an f-string's)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}, ""
    if isinstance(node, ast.IfExp):
        a, _ = _codes(node.body, module)
        b, _ = _codes(node.orelse, module)
        return a | b, ""
    if isinstance(node, ast.BoolOp):  # e.code or "fallback"
        out: set[str] = set()
        for v in node.values:
            out |= _codes(v, module)[0]
        return out, ""
    if isinstance(node, ast.Attribute) and node.attr == "code":  # passed on from the error it wraps
        return {"*"}, ""
    if isinstance(node, ast.Name):  # a module constant (BYTE_NOT_IN_VOCAB)
        mod = importlib.import_module(module.removesuffix(".py").replace("/", "."))
        return {getattr(mod, node.id)}, ""
    if isinstance(node, ast.JoinedStr):
        parts = [re.escape(v.value) if isinstance(v, ast.Constant) else r"\w+" for v in node.values]
        return set(), "".join(parts)
    raise AssertionError(f"{module}: code={ast.unparse(node)} is not a form this test reads")


def _sites() -> list[Site]:
    modules = _modules()
    classes = _error_classes(modules) | set(CARRIERS)
    sites: list[Site] = []

    def visit(node, stack, path):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, [*stack, child.name], path)
                continue
            if isinstance(child, ast.Call):
                f = child.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                if name in classes:
                    kw = {k.arg: k.value for k in child.keywords if k.arg}
                    params: set[str] | None = (set(kw) - {"code"}) | CARRIERS.get(name, set())
                    for k in child.keywords:
                        if k.arg is None:  # **something
                            call = k.value.func if isinstance(k.value, ast.Call) else None
                            expanded = EXPANDS.get(ast.unparse(call)) if call is not None else None
                            params = None if params is None or expanded is None else params | expanded
                    codes, pattern = _codes(kw["code"], path) if "code" in kw else (None, "")
                    sites.append(Site(path, ".".join(stack), child.lineno, codes, params, pattern))
            visit(child, stack, path)

    for path, tree in modules:
        visit(tree, [], path)
    return sites


def _exempt(site: Site) -> str | None:
    for key in (f"{site.path}::{site.function}", site.path):
        if key in NOT_IN_THE_APP:
            return key
    for key in NOT_IN_THE_APP:
        if key.endswith("/") and site.path.startswith(key):
            return key
    return None


def _placeholders(template: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)", template))


@pytest.fixture(scope="module")
def sites() -> list[Site]:
    return _sites()


def test_every_error_the_app_can_meet_has_a_code(sites):
    assert len(sites) > 300  # (the walk found core's errors)
    missing = [f"{s.path}:{s.line} ({s.function})" for s in sites if s.codes is None and not _exempt(s)]
    assert not missing, "errors without a code (give one, with a Chinese text, or a reason):\n" + "\n".join(
        missing
    )


def test_every_reason_still_names_an_error_without_a_code(sites):
    used = {_exempt(s) for s in sites if s.codes is None}
    assert set(NOT_IN_THE_APP) <= used, set(NOT_IN_THE_APP) - used


def test_every_code_has_a_chinese_text_with_the_same_values(qapp, sites):
    english = zh_errors._templates()
    try:
        assert i18n.install("zh_CN") == "zh_CN"
        chinese = zh_errors._templates()
    finally:
        i18n.install("en")
    n_codes = 0
    for s in sites:
        if s.codes is None:
            continue
        codes = set(s.codes) - {"*"}
        if s.pattern:
            codes |= {c for c in english if re.fullmatch(s.pattern, c)}
            assert codes, (s, "no template matches the code pattern")
        for code in codes:
            n_codes += 1
            where = f"{s.path}:{s.line} code={code}"
            assert code in english, f"{where}: no template in bpe_gui/text/errors.py"
            en, zh = english[code], chinese[code]
            assert zh != en and re.search(r"[\u4e00-\u9fff]", zh), f"{where}: no Chinese translation"
            assert _placeholders(zh) == _placeholders(en), (where, en, zh)  # no value left out
            if s.params is not None and f"{s.path}::{s.function}" not in COMPLETED_ELSEWHERE:
                needed = set()
                for p in _placeholders(en):
                    needed |= DERIVED.get(p, {p})
                assert needed <= s.params, f"{where}: the template needs {needed - s.params}"
    assert n_codes > 200
