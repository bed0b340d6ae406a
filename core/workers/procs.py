"""Child processes started through an entry point of our own, never through the caller's ``__main__``.

Why not :mod:`multiprocessing`'s "spawn" context: a spawned child first re-creates the parent's
``__main__`` (the "preparation data" carries the path of the caller's script, which the child runs
as ``__mp_main__``). A plain script without ``if __name__ == "__main__":`` that calls
``train_bpe`` then runs again in every child, whose own pool start fails, and ``Pool`` replaces
the dead worker for ever; from stdin (``python - < script.py``) the child looks for a file named
``<stdin>``. Python offers no switch to leave ``__main__`` out, so we start the interpreter
ourselves (:mod:`subprocess`, documented and cross-platform) with a few lines of ``-c`` code that
connect back over :mod:`multiprocessing.connection` (documented "Listeners and Clients"), take the
parent's ``sys.path`` and then run a function of this package. The caller's script is never
imported, whatever it looks like.

It is as safe under Qt as "spawn" is: :class:`subprocess.Popen` starts the child with a fork that
is followed at once by ``exec`` in C (no Python code, no Qt thread state, runs in between), which is
what "spawn" does too. We never ``fork()`` a process running Qt threads.

A child that cannot start (missing module, killed, ...) raises :class:`ChildError` at once with its
exit code (its own error message goes to the inherited stderr); nothing is started again.
"""

from __future__ import annotations

import atexit
import contextlib
import mmap
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection, Listener
from typing import Any

from core.errors import BPEError

START_TIMEOUT = 120.0  # seconds a child may take to import Python and connect (a loaded machine)

# The child's whole program until it runs our code: connect, authenticate with the key read from
# stdin (not the command line, which other users can see), take the parent's sys.path, run. A
# parent that gave up before we got our work (Ctrl+C, an error elsewhere) closed its end: end
# quietly then (a traceback of EOFError under the parent's own message helped nobody).
_BOOT = (
    "import sys\n"
    "from multiprocessing.connection import Client\n"
    "try:\n"
    "    c = Client(sys.argv[1], authkey=bytes.fromhex(sys.stdin.readline().strip()))\n"
    "    sys.path[:] = c.recv()\n"
    "except (EOFError, OSError):\n"
    "    sys.exit(1)\n"
    "from {module} import _child_main\n"
    "_child_main(c)\n"
)

# Children leave the terminal's process group: Ctrl+C reaches the whole foreground group, and a
# child then died with a KeyboardInterrupt traceback (even while Python was starting, before any
# line of ours could ignore it) under the parent's "interrupted". The parent ends its children
# itself (closed pipe, terminate, the atexit reaper). POSIX: a new session (setsid between fork
# and exec, in C); Windows: a new process group, for which Ctrl+C is disabled.
_OWN_GROUP: dict[str, Any]
if sys.platform == "win32":
    _OWN_GROUP = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
else:
    _OWN_GROUP = {"start_new_session": True}

_LIVE: weakref.WeakSet[Child] = weakref.WeakSet()
# Popen objects of children that may still run: a Child dropped without join (an Engine nobody
# closed) ends by itself when its pipe closes; we keep the Popen until then, to reap it later
_UNREAPED: set[subprocess.Popen] = set()


@atexit.register
def _reap_all() -> None:
    # registered before the engine's exit handler, so it runs after it: by now every child has
    # been told to end (closed pipe, or terminated); reap them, so that none outlives us
    for p in list(_UNREAPED):
        try:
            p.wait(2.0)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(2.0)
        _UNREAPED.discard(p)


class ChildError(BPEError):
    """A child process could not start, or ended while we waited for it."""


def live_children() -> list[Child]:
    """The children of this process that are still running (tests use it to check clean-up)."""
    return [c for c in list(_LIVE) if c.is_alive()]


class SharedFlag:
    """One byte of memory shared with a child (e.g. a cancel flag): ``flag.value`` reads and writes it.

    POSIX: an unlinked temporary file, its descriptor inherited by the child; Windows: a named
    mapping. No lock: a killed process cannot hold one, and a byte is written atomically.
    """

    def __init__(self) -> None:
        if sys.platform == "win32":  # pragma: no cover - Windows only (mypy skips it elsewhere)
            self.tag = f"bpe-explorer-{secrets.token_hex(8)}"
            self.fd = -1
            self._mm = mmap.mmap(-1, 1, tagname=self.tag)
        else:
            fd, path = tempfile.mkstemp(prefix="bpe-flag-")
            os.unlink(path)
            os.write(fd, b"\0")
            self.tag, self.fd = "", fd
            self._mm = mmap.mmap(fd, 1)

    @classmethod
    def attach(cls, handle: tuple[str, int]) -> SharedFlag:
        """The child's side, from :meth:`handle`."""
        self = cls.__new__(cls)
        self.tag, self.fd = handle
        if sys.platform == "win32":  # pragma: no cover - Windows only
            self._mm = mmap.mmap(-1, 1, tagname=self.tag)
        else:
            self._mm = mmap.mmap(self.fd, 1)
        return self

    def handle(self) -> tuple[str, int]:
        return (self.tag, self.fd)

    @property
    def value(self) -> int:
        return self._mm[0]

    @value.setter
    def value(self, v: int) -> None:
        self._mm[0] = 1 if v else 0

    def close(self) -> None:
        self._mm.close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _child_path() -> list[str]:
    # "" (the script's folder for -c and stdin) means the current folder: make it absolute
    return [os.path.abspath(p) if p in ("", ".") else p for p in sys.path]


class Child:
    """A Python process running ``target(conn, *args)`` (``target`` importable by name).

    The API follows :class:`multiprocessing.Process` where they overlap (``pid``, ``is_alive``,
    ``terminate``, ``join``, ``exitcode``); :attr:`conn` is the connection to the child (waits
    for it to connect; :class:`ChildError` if it ended first).
    """

    def __init__(
        self,
        target: Callable[..., Any],
        args: tuple = (),
        *,
        name: str = "bpe-child",
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        self.name = name
        self._key = key = secrets.token_bytes(32)
        self._listener = Listener(authkey=key)
        boot = _BOOT.format(module=__name__)
        for p in list(_UNREAPED):
            if p.poll() is not None:
                _UNREAPED.discard(p)
        # -I: the boot code imports only the standard library, never a module of the current folder
        # (a user's "multiprocessing.py" beside the script); then the parent's sys.path applies
        try:
            if not sys.executable:  # (an embedding program that did not set it)
                raise FileNotFoundError(2, "Python's sys.executable is empty: no interpreter to start")
            self._popen = subprocess.Popen(
                [sys.executable, "-I", "-c", boot, str(self._listener.address)],
                stdin=subprocess.PIPE,
                pass_fds=pass_fds,
                close_fds=True,
                **_OWN_GROUP,
            )
        except OSError as e:  # the interpreter is missing, not executable, or too many processes
            self._listener.close()
            raise ChildError(
                f"could not start a {self.name} process: {e.strerror or e} ({sys.executable or 'no sys.executable'}); "
                "check that this Python is installed and runnable, or use one process (workers=1)",
                code="child_start_failed",
                name=self.name,
                reason=str(e.strerror or e),
                python=sys.executable or "?",
            ) from e
        _UNREAPED.add(self._popen)
        stdin = self._popen.stdin
        assert stdin is not None  # stdin=PIPE
        try:
            stdin.write(key.hex().encode() + b"\n")
            stdin.close()
        except OSError:  # the child is already gone: reported when its connection is asked for
            pass
        self._accepted: list[Connection] = []
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._accept, name=f"{name}-accept", daemon=True)
        self._thread.start()
        self._start = (target, args)
        self._conn: Connection | None = None
        self._state = {"connected": False}
        # dropped (or at exit) before it got its work: end it; it would wait for the work for ever
        weakref.finalize(self, _drop, self._popen, self._listener, self._accepted, self._state)
        _LIVE.add(self)

    def _accept(self) -> None:
        try:
            self._accepted.append(self._listener.accept())
        except BaseException as e:
            self._failed.append(e)

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def exitcode(self) -> int | None:
        return self._popen.poll()

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def terminate(self) -> None:
        if self.is_alive():
            self._popen.terminate()

    def is_stopped(self) -> bool:
        """Whether the child is stopped (SIGSTOP; state T in Linux's /proc; False where unknown)."""
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[1].split()[0] == b"T"
        except (OSError, IndexError):
            return False

    def kill(self) -> None:
        if self.is_alive():
            self._popen.kill()

    def join(self, timeout: float | None = None) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout)

    @property
    def connected(self) -> bool:
        """Whether :attr:`conn` was asked for and made (without waiting for it)."""
        return self._conn is not None

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            self._conn = self._connect()
        return self._conn

    def _connect(self) -> Connection:
        deadline = time.monotonic() + START_TIMEOUT
        while not self._accepted:
            self._thread.join(0.02)
            if self._accepted:
                break
            if self._failed or not self.is_alive() or time.monotonic() > deadline:
                self._give_up()
                code = self.exitcode
                raise ChildError(
                    f"could not start a {self.name} process (exit code {code}); its own error, if any, is "
                    "printed above. Check that this Python can import the package "
                    f"({sys.executable}), or use one process (workers=1)",
                    code="child_start_exit",
                    name=self.name,
                    exit_code=code,
                    python=sys.executable,
                )
        self._listener.close()
        conn = self._accepted[0]
        self._state["connected"] = True
        conn.send(_child_path())
        conn.send(self._start)
        return conn

    def _give_up(self) -> None:
        """Stop waiting: end the child and unblock the accepting thread (it gets our own connection)."""
        self.terminate()
        self.join(5)
        if self._thread.is_alive():
            _poke(self._listener.address)
            self._thread.join(1)
        for c in self._accepted:
            c.close()
        self._listener.close()

    def close(self) -> None:
        """Close our end of the connection (the child sees EOF) and release the listener."""
        if self._conn is not None:
            self._conn.close()
        else:  # never given its work: it only waits for it, end it
            self._give_up()
        self._listener.close()


def _poke(address: Any) -> None:
    """Connect to our own listener and hang up at once, so that an ``accept()`` blocked in another
    thread returns (its handshake then fails on EOF, which that thread records). Nothing here waits
    for an answer: ``Client()`` waited for the listener's challenge, for ever when the accepting
    thread had ended in the meantime (a Ctrl+C while a worker was still connecting)."""
    with contextlib.suppress(OSError):
        if isinstance(address, str) and address.startswith("\\\\"):  # a Windows named pipe
            open(address, "r+b", buffering=0).close()
        else:
            family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
            with socket.socket(family) as s:
                s.settimeout(5.0)
                s.connect(address)


def _drop(popen: subprocess.Popen, listener: Listener, accepted: list, state: dict) -> None:
    listener.close()
    if not state["connected"]:
        if popen.poll() is None:
            popen.terminate()
        for c in accepted:
            c.close()


def _child_main(conn: Connection) -> None:
    """Runs in the child (called by the boot code): receive the target and run it."""
    try:
        target, args = conn.recv()
    except (EOFError, OSError):  # the parent gave up before sending the work: end quietly
        sys.exit(1)
    target(conn, *args)


def send_error(conn, error: BaseException) -> bool:
    """In a worker loop: send ``error`` and its traceback to the parent as ``("error", error, text)``
    (an exception that cannot be pickled goes as a RuntimeError holding the traceback); False when
    the parent is gone (the loop should end)."""
    import traceback

    try:
        conn.send(("error", error, traceback.format_exc()))
    except (BrokenPipeError, OSError):
        return False
    except Exception:  # the exception itself cannot be pickled
        conn.send(("error", RuntimeError(traceback.format_exc()), ""))
    return True
