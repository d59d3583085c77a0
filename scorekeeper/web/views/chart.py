"""The running balances as an SVG line chart, drawn on the server.

Only geometry: the balances after each hand come from the series module.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD_L, PAD_R, PAD_T, PAD_B = 340, 180, 38, 10, 10, 22


@dataclass(frozen=True)
class Line:
    player: str
    css: str
    points: str  # "x,y x,y …" for a polyline
    last: tuple[float, float]
    final: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    zero_y: float
    ticks: list[tuple[float, int]]  # (y, value)
    xs: list[tuple[float, int]]  # (x, hand number)


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 4:
            return step
    return max(1, span // 4)


def balance_chart(players, classes: dict[str, str], history: list[dict[str, int]]) -> Chart | None:
    """``history``: the balances after each hand, from the series' deals."""
    if not history:
        return None
    series = [dict.fromkeys(players, 0), *history]
    values = [v for row in series for v in row.values()]
    lo, hi = min([*values, 0]), max([*values, 0])
    if lo == hi:
        hi = lo + 1
    step = _nice_step(hi - lo)
    lo, hi = (lo // step) * step, -((-hi) // step) * step
    n = len(series) - 1
    plot_w, plot_h = WIDTH - PAD_L - PAD_R, HEIGHT - PAD_T - PAD_B

    def x(i: int) -> float:
        return round(PAD_L + (plot_w * i / n if n else plot_w / 2), 1)

    def y(v: int) -> float:
        return round(PAD_T + plot_h * (hi - v) / (hi - lo), 1)

    lines = []
    for k, p in enumerate(players):
        # Equal balances would draw one line over another: each earlier player at the same value
        # moves this point 3 px down, so every line stays visible (the labels give the values).
        pts = [
            (x(i), round(y(row[p]) + 3 * sum(1 for q in players[:k] if row[q] == row[p]), 1))
            for i, row in enumerate(series)
        ]
        lines.append(Line(p, classes[p], " ".join(f"{a},{b}" for a, b in pts), pts[-1], series[-1][p]))
    ticks = [(y(v), v) for v in range(lo, hi + 1, step)]
    every = max(1, n // 8)
    xs = [(x(i), i) for i in range(0, n + 1, every)]
    return Chart(WIDTH, HEIGHT, lines, y(0), ticks, xs)
