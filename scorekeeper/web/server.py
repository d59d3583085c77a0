"""``scorekeeper serve``: the table app under gunicorn, migrated before it forks.

The serving model (gevent workers) and its settings are ``serving``'s, shared with the Procfile.
"""
from __future__ import annotations

import socket

from gunicorn.app.base import BaseApplication

from . import create_app, serving


class _Server(BaseApplication):
    def __init__(self, app, options: dict):
        self.application, self.options = app, options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application


def _post_fork(_server, _worker):
    # Connections opened before the fork (the migration's) belong to the master.

    _APP.extensions["sk_engine"].dispose(close=False)


_APP = None


def addresses(host: str, port: int) -> list[str]:
    """The addresses to open, for the terminal: loopback and, on 0.0.0.0, this machine's."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    urls = [f"http://{shown}:{port}/"]
    if host in ("0.0.0.0", "::", ""):
        try:
            lan = socket.gethostbyname(socket.gethostname())
        except OSError:
            lan = None
        if lan and not lan.startswith("127."):
            urls.append(f"http://{lan}:{port}/  (other phones on this network)")
    return urls


def serve(host: str = "127.0.0.1", port: int = 5000, workers: int | None = None) -> None:
    """Run the app on ``host:port`` and print the address to open."""
    global _APP
    _APP = create_app()
    options = serving.options() | {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "post_fork": _post_fork,
    }
    if workers:
        options["workers"] = workers
    print("scorekeeper: 고스톱 점수판 Go-Stop scorekeeper")
    print(f"  database  {_APP.config['DATABASE_URL'] if 'sqlite' in _APP.config['DATABASE_URL'] else 'DATABASE_URL'}")
    for url in addresses(host, port):
        print(f"  open      {url}")
    print("  stop      Ctrl+C", flush=True)
    _Server(_APP, options).run()
