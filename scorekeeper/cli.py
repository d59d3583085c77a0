"""The ``scorekeeper`` command: score, rules, rules-doc, replay, serve.

The engine commands import nothing of the web app, so scoring a file starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from itertools import islice
from typing import Any

# Every command but --help uses the engine; imported once here, not on each of 10,000 summaries.
from .engine.summary.contract import dumps_bytes, score_text


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _documents(text: str) -> Iterator[str]:
    """One JSON document, or JSON Lines: one document a non-blank line."""
    stripped = text.strip()
    if not stripped:
        yield ""
        return
    try:
        json.loads(stripped)
        yield stripped
    except ValueError:
        yield from (line for line in stripped.splitlines() if line.strip())


def _dump(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def _answer(doc: str) -> bytes:
    """One summary's answer as UTF-8 (written as it is: no decoding and encoding again)."""
    return dumps_bytes(score_text(doc))


# Below this many summaries a second process costs more than it saves.
PARALLEL_FROM = 2000
# Answers written a batch at a time: one write and one join for many lines, and still a steady
# stream for a reader such as `head`.
BATCH = 500


def _batches(docs: list[str], jobs: int) -> Iterator[bytes]:
    """The answers, in order, as runs of lines; large JSON Lines batches use every core."""
    jobs = jobs or (os.cpu_count() or 1)
    if jobs <= 1 or len(docs) < PARALLEL_FROM:
        for start in range(0, len(docs), BATCH):
            yield b"\n".join(map(_answer, docs[start : start + BATCH])) + b"\n"
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        answers = pool.imap(_answer, docs, chunksize=256)
        for _ in range(0, len(docs), BATCH):
            yield b"\n".join(islice(answers, BATCH)) + b"\n"


def cmd_score(args) -> int:
    """Score hand summaries: each file one JSON summary or JSON Lines."""
    docs: list[str] = []
    for path in args.files:
        try:
            docs.extend(_documents(_read(path)))
        except OSError as err:
            print(f"scorekeeper: cannot read {path}: {err.strerror}", file=sys.stderr)
            return 1
    sys.stdout.flush()
    binary = getattr(sys.stdout, "buffer", None)  # None when a caller gave a text-only stream
    write = binary.write if binary is not None else (lambda lines: sys.stdout.write(lines.decode()))
    status = 0
    if len(docs) == 1:  # a single summary that was refused exits 2
        result = score_text(docs[0])
        write(dumps_bytes(result) + b"\n")
        status = 0 if result["ok"] else 2
    else:  # JSON Lines answer line by line and exit 0
        for lines in _batches(docs, args.jobs):
            write(lines)
    if binary is not None:
        binary.flush()
    return status


def cmd_rules(args) -> int:
    """Print every house-rule option of a preset with its value and label."""
    from .engine.errors import EngineError
    from .engine.rules import OPTIONS, PRESET_LABELS, find_preset

    try:
        rules = find_preset(args.preset)
    except EngineError as err:
        print(_dump({"ok": False, "errors": err.errors}))
        return 2
    if args.json:
        print(json.dumps({"preset": args.preset, "options": rules.to_dict()}, ensure_ascii=False, indent=2))
        return 0
    print(f"# {args.preset}: {PRESET_LABELS[args.preset]}")
    group = None
    for name, spec in OPTIONS.items():
        if spec.metadata["group"] != group:
            group = spec.metadata["group"]
            print(f"\n[{group}]")
        value = json.dumps(getattr(rules, name))
        print(f"{name:28} {value:16} {spec.metadata['ko']} / {spec.metadata['en']}")
    return 0


def cmd_rules_doc(args) -> int:
    """Rewrite the generated parts of the rules reference (``--check``: only report)."""
    from .rules_reference import run

    return run(args)


def cmd_replay(args) -> int:
    """Replay a hand log or a series from a JSON file and print its state as JSON."""
    from .engine.replay import replay_document

    try:
        doc = json.loads(_read(args.file))
    except OSError as err:
        print(f"scorekeeper: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 1
    except ValueError as err:
        print(_dump({"ok": False, "errors": [{"code": "invalid_json", "message": str(err), "path": ""}]}))
        return 2
    result = replay_document(doc)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0 if result.get("ok") else 2


def cmd_serve(args) -> int:
    """Run the table app."""
    from .web.server import serving

    serving.patch()  # before the app and its locks exist: see web/server/serving.py
    from .web.server.run import serve

    serve(args.host, args.port)
    return 0


def _command(sub: argparse._SubParsersAction, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A command's parser, its help formatted as the command line's (``_Formatter``)."""
    return sub.add_parser(name, formatter_class=_Formatter, **kwargs)


def _add_score(sub: argparse._SubParsersAction) -> None:
    p = _command(sub, "score", help="score hand summaries (JSON, or JSON Lines)")
    p.add_argument("files", nargs="+", metavar="FILE", help="a JSON file, or - for standard input")
    p.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help=f"processes for {PARALLEL_FROM}+ summaries (default: one per core; 1 = no parallelism)",
    )
    p.set_defaults(func=cmd_score)


def _add_rules(sub: argparse._SubParsersAction) -> None:
    p = _command(sub, "rules", help="list the house-rule options of a preset")
    p.add_argument("preset", nargs="?", default="pagat")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(func=cmd_rules)


def _add_rules_doc(sub: argparse._SubParsersAction) -> None:
    from .rules_reference import add_arguments

    p = _command(sub, "rules-doc", help="regenerate the card list and option tables of scorekeeper/docs/rules.md")
    add_arguments(p)
    p.set_defaults(func=cmd_rules_doc)


def _add_replay(sub: argparse._SubParsersAction) -> None:
    p = _command(sub, "replay", help="replay a hand log or a series from a JSON file")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_replay)


def _add_serve(sub: argparse._SubParsersAction) -> None:
    p = _command(
        sub,
        "serve",
        help="run the table app",
        description=(
            "Run the table app. Other phones join by the table's share link or QR code, which must use an "
            "address they can reach: with --host 0.0.0.0 the server listens on the network and prints this "
            "machine's Wi-Fi address (share links use it); when hosted behind a domain, set "
            "SCOREKEEPER_PUBLIC_URL=https://your.domain so links and QR codes use it. On 127.0.0.1 (the "
            "default) only this device can open the app, and the table page says so."
        ),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this device only; 0.0.0.0: phones on the Wi-Fi)",
    )
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=cmd_serve)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, its width found as ``shutil.get_terminal_size`` finds it but without
    importing shutil (and its compression modules): argparse makes a formatter for every argument
    it is given, and that import was ~3 ms of every command's start (BENCHMARKS.md, issue 32)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """The terminal's columns as ``shutil.get_terminal_size`` finds them: $COLUMNS, else standard
    output's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # no standard output, closed, or not a terminal
        return 80


# Each command's parser, by name, in the order help lists them.
COMMANDS = {
    "score": _add_score,
    "rules": _add_rules,
    "rules-doc": _add_rules_doc,
    "replay": _add_replay,
    "serve": _add_serve,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Go-Stop (고스톱) scorekeeper", formatter_class=_Formatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    # A command named first needs only its own parser: argparse builds each with its words looked up
    # in its translations, ~2 ms of every command's start for the other four (BENCHMARKS.md, issue 32).
    # Without a command, or with one it does not know, the parser has them all, so help and the
    # refusal list every one.
    named = argv[0] if argv and argv[0] in COMMANDS else None
    for name, add in COMMANDS.items():
        if named in (None, name):
            add(sub)

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `scorekeeper score … | head`: the reader left, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
