"""Starts the real parlour binary on a free loopback port for the session.

The binary is PARLOUR_BIN, or else target/release/parlour, or else
target/debug/parlour (under CARGO_TARGET_DIR when set): build it first
(`cargo build --release --bin parlour`, which scripts/test does).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

EXAMPLE_DIR = Path(__file__).resolve().parent.parent
ROOT = EXAMPLE_DIR.parent.parent
sys.path.insert(0, str(EXAMPLE_DIR))

from parlour_client import Parlour  # noqa: E402


def find_binary() -> Path:
    if os.environ.get("PARLOUR_BIN"):
        return Path(os.environ["PARLOUR_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "parlour").exists():
            return target / profile / "parlour"
    raise RuntimeError(f"no parlour binary under {target}: run `cargo build --release --bin parlour` or set PARLOUR_BIN")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`parlour serve` as a child process; `address` is host:port."""

    def __init__(self):
        self.binary = find_binary()
        self.log = tempfile.NamedTemporaryFile(prefix="parlour-py-", suffix=".log", delete=False)
        for attempt in range(3):  # the free port can be taken between bind and listen
            self.address = f"127.0.0.1:{free_port()}"
            self.proc = subprocess.Popen(
                [str(self.binary), "serve", "--listen", self.address, "--shutdown-grace-ms", "2000"],
                stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
            try:
                self._wait_serving(30.0)
                return
            except Exception:
                self.stop()
                if attempt == 2:
                    raise

    def _wait_serving(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with Parlour(self.address) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"parlour exited with {self.proc.returncode}: {self.logs()}")
                try:
                    if client.health(timeout=1.0) == "SERVING":
                        return
                except Exception:
                    pass
                time.sleep(0.05)
        raise TimeoutError(f"parlour at {self.address} not SERVING after {timeout}s: {self.logs()}")

    def logs(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


_server = None


def server() -> Server:
    global _server
    if _server is None:
        _server = Server()
    return _server


def pytest_sessionfinish(session, exitstatus):
    if _server is not None:
        _server.stop()
        os.unlink(_server.log.name)


def pytest_generate_tests(metafunc):
    """`game_variant` runs a test once for every game and variant that
    ListGames returns, so games added later are tested without a change."""
    if "game_variant" in metafunc.fixturenames:
        with Parlour(server().address) as client:
            pairs = [(g.game, v) for g in client.list_games() for v in g.variants]
        metafunc.parametrize("game_variant", pairs, ids=[f"{g}/{v}" for g, v in pairs])


@pytest.fixture(scope="session")
def parlour_server() -> Server:
    return server()


@pytest.fixture(scope="session")
def rules(parlour_server):
    with Parlour(parlour_server.address, timeout=30.0) as client:
        yield client
