"""``scorekeeper serve``: the table app under gunicorn, migrated before it forks.

The serving model (gevent workers) and its settings are ``serving``'s, shared with the Procfile.
"""

from __future__ import annotations

from gunicorn.app.base import BaseApplication

from .. import create_app
from . import serving


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
    """The addresses to open, for the terminal: loopback and, on 0.0.0.0, this machine's LAN address."""
    from ..views.sharing import lan_address

    everywhere = host in ("0.0.0.0", "::", "")
    shown = "127.0.0.1" if everywhere else host
    urls = [f"http://{shown}:{port}/"]
    lan = lan_address() if everywhere else None
    if lan:
        urls.append(f"http://{lan}:{port}/  (other phones on this Wi-Fi: open this, or scan the table's QR code)")
    return urls


def join_hint(host: str) -> str | None:
    """How other phones join, when the server listens on this machine only."""
    from ..views.sharing import is_loopback

    if is_loopback(host):
        return (
            "other phones cannot reach 127.0.0.1: run `scorekeeper serve --host 0.0.0.0` to let phones on "
            "this Wi-Fi join, or set SCOREKEEPER_PUBLIC_URL when hosted"
        )
    return None


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
    hint = join_hint(host)
    if hint:
        print(f"  phones    {hint}")
    print("  stop      Ctrl+C", flush=True)
    _Server(_APP, options).run()
