"""Is a page readable and usable at the phone's own text size? Checks for the browser tests.

Older players turn their phone's text size up (130 %, 200 %); the page must follow it and stay
whole. ``set_text_size`` emulates that setting in Chromium (the browser's default font size,
which ``rem`` and ``medium`` follow), and each check below answers a list of findings, one
readable string each, so a test says ``assert findings == [], "\\n".join(findings)``:

- ``clipped_texts``: text cut off (``overflow: hidden``, ``text-overflow: ellipsis``, a select
  whose chosen option does not fit) or spilling out of its box;
- ``wide_elements``: the page scrolls sideways, or an element reaches past the screen's edge
  where no scrolling container holds it;
- ``unreachable_controls``: a control that no scroll position brings out from under a fixed or
  sticky bar (or from a clipping parent): ``elementFromPoint`` at its centre never hits it;
- ``small_targets``: a control smaller than 24×24 (``large=44``: not smaller than 44×44, except
  the ones matching ``exempt``, e.g. cards);
- ``small_text``: text under 12 px (meant at 100 %);
- ``axe_violations``: axe-core's serious and critical violations (axe-core as the registry
  package axe-playwright-python ships it).

``readable_findings`` runs them all. Hidden elements (``display: none``, ``visibility: hidden``,
a closed ``<details>``) are not looked at: what the player cannot see cannot be cut off.
"""

from __future__ import annotations

from typing import Any

#: The browser's own defaults at 100 %: standard text 16 px, fixed-width 13 px.
STANDARD, FIXED = 16, 13

# Shared by the checks in the page: is an element rendered, and a short name for it in a finding.
_JS_HELPERS = r"""
const shown = (el) => {
  // checkVisibility also sees a closed <details>'s content (content-visibility: hidden)
  if (!el.getClientRects().length || !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
  return !el.closest('[hidden], [inert], [aria-hidden=true]') || el === document.documentElement;
};
const name = (el) => {
  const parts = [];
  for (let e = el; e && e.nodeType === 1 && parts.length < 3; e = e.parentElement) {
    let p = e.tagName.toLowerCase();
    if (e.id) { parts.unshift(p + '#' + e.id); break; }
    const cls = [...e.classList].slice(0, 2).join('.');
    if (cls) p += '.' + cls;
    parts.unshift(p);
  }
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
  return parts.join(' > ') + (text ? ` "${text.slice(0, 40)}"` : '');
};
const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [tabindex]:not([tabindex="-1"])';
"""


def set_text_size(page, percent: int):
    """The phone's text size at ``percent`` (100, 130, 200): Chromium's default font sizes, which
    every ``rem``/``em`` size follows (``px`` sizes do not: that is what the checks catch).

    Answers the CDP session, which must stay open while the page is used (kept on the page)."""
    session = page.context.new_cdp_session(page)
    session.send(
        "Page.setFontSizes",
        {"fontSizes": {"standard": round(STANDARD * percent / 100), "fixed": round(FIXED * percent / 100)}},
    )
    page._text_size_session = session  # the setting lives as long as the session that made it
    return session


def root_font_size(page) -> float:
    """The root element's font size in px: 16 at 100 %, 21 at 130 %, 32 at 200 %."""
    return page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")


def clipped_texts(page) -> list[str]:
    """Texts cut off or cut to "…", and texts spilling out of their box."""
    return page.evaluate(
        "() => {"
        + _JS_HELPERS
        + r"""
  const out = [];
  const canvas = document.createElement('canvas').getContext('2d');
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    if (el.tagName === 'SELECT') {
      const opt = el.options[el.selectedIndex];
      if (!opt) continue;
      canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const need = canvas.measureText(opt.text).width;
      // the room for the chosen option's words: the box less its padding and the arrow (about 1.5em)
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 1.2 * parseFloat(s.fontSize);
      if (need > room + 1) out.push(`clipped: ${name(el)} shows "${opt.text}" in ${Math.round(room)} px of ${Math.round(need)}`);
      continue;
    }
    if (!ownText(el) || s.display === 'inline' || s.display === 'contents') continue;
    if (['INPUT', 'TEXTAREA', 'OPTION', 'SCRIPT', 'STYLE', 'PRE', 'CODE'].includes(el.tagName)) continue;
    const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
    const scrolls = (v) => v === 'auto' || v === 'scroll';
    if (wide && !scrolls(s.overflowX)) {
      const how = s.textOverflow === 'ellipsis' ? 'cut to …' : (s.overflowX === 'visible' ? 'spills out' : 'cut off');
      out.push(`clipped: ${name(el)} ${how} (${el.scrollWidth} px in ${el.clientWidth})`);
    } else if (tall && (s.overflowY === 'hidden' || s.overflowY === 'clip')) {
      out.push(`clipped: ${name(el)} cut off below (${el.scrollHeight} px in ${el.clientHeight})`);
    }
  }
  return out;
}"""
    )


def wide_elements(page) -> list[str]:
    """The page wider than the screen, and elements past its edges that no scrolling box holds."""
    return page.evaluate(
        "() => {"
        + _JS_HELPERS
        + r"""
  const out = [], W = document.documentElement.clientWidth;
  const doc = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (doc > W + 1) out.push(`wide: the page is ${doc} px wide on a ${W} px screen`);
  const held = (el) => {  // inside a box that scrolls or clips sideways (other than the page itself)
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x !== 'visible') return true;
    }
    return false;
  };
  const seen = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    if (getComputedStyle(el).position === 'fixed' && el.getBoundingClientRect().width <= W + 1) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || (r.right <= W + 1 && r.left >= -1)) continue;
    if (held(el)) continue;
    if ([...seen].some((s) => s.contains(el))) continue;  // the outermost one says it
    seen.add(el);
    out.push(`wide: ${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px on a ${W} px screen`);
  }
  return out;
}"""
    )


def unreachable_controls(page) -> list[str]:
    """Controls that no scroll position makes tappable: each is scrolled to the centre, the top and
    the bottom of the screen (as far as the page scrolls) and hit-tested at its centre."""
    return page.evaluate(
        "() => {"
        + _JS_HELPERS
        + r"""
  const out = [], x0 = scrollX, y0 = scrollY;
  const target = (el) => {  // a visually hidden radio or checkbox is tapped through its label
    const r = el.getBoundingClientRect();
    if ((r.width <= 2 || r.height <= 2 || +getComputedStyle(el).opacity === 0) && el.labels && el.labels.length) return el.labels[0];
    return el;
  };
  const hits = (el) => {
    // each line box of a link that wraps, at its centre and near two corners
    const pts = [...el.getClientRects()].flatMap((r) =>
      [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3], [r.right - 3, r.bottom - 3]]);
    return pts.some(([x, y]) => {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
      const h = document.elementFromPoint(x, y);
      return h && (el.contains(h) || h.contains(el) && h.tagName === 'LABEL');
    });
  };
  const controls = [...document.body.querySelectorAll(CONTROLS)].filter((el) => !el.disabled);
  for (const el of controls) {
    const t = target(el);
    if (!shown(t) || t.getBoundingClientRect().width === 0) continue;
    // scrollIntoView also scrolls an overflow: hidden box, which no finger can: those stay put
    const stuck = [];
    for (let p = t.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'hidden' || s.overflowY === 'hidden') stuck.push([p, p.scrollLeft, p.scrollTop]);
    }
    let ok = false;
    for (const block of ['center', 'start', 'end', 'nearest']) {
      t.scrollIntoView({block, inline: 'center', behavior: 'instant'});
      for (const [p, left, top] of stuck) { p.scrollLeft = left; p.scrollTop = top; }
      if (hits(t)) { ok = true; break; }
    }
    if (!ok) out.push(`unreachable: ${name(el)} is under something at every scroll position`);
  }
  scrollTo({left: x0, top: y0, behavior: 'instant'});
  return out;
}"""
    )


def small_targets(page, minimum: int = 24, large: int | None = None, exempt: str | None = None) -> list[str]:
    """Controls smaller than ``minimum``×``minimum`` px; with ``large``, controls not matching the
    selector ``exempt`` smaller than ``large``×``large``. A link inside running text (a sentence
    around it) is exempt, as WCAG 2.5.8 makes it; a visually hidden radio or checkbox is measured
    by its label, which is what the finger taps."""
    return page.evaluate(
        "([minimum, large, exempt]) => {"
        + _JS_HELPERS
        + r"""
  const out = [], seen = new Set();
  const inSentence = (el) => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const p = el.parentElement, around = (p.innerText || '').replace(el.innerText || '', '').trim();
    return around.length > 3 && getComputedStyle(p).display !== 'flex';
  };
  for (const el of document.body.querySelectorAll(CONTROLS)) {
    let t = el;
    const r0 = el.getBoundingClientRect();
    if ((r0.width <= 2 || r0.height <= 2 || +getComputedStyle(el).opacity === 0) && el.labels && el.labels.length) t = el.labels[0];
    else if ((el.type === 'radio' || el.type === 'checkbox') && el.closest('label')) t = el.closest('label');
    if (seen.has(t) || !shown(t) || inSentence(t)) continue;
    seen.add(t);
    const r = t.getBoundingClientRect();
    const need = large && !(exempt && (t.matches(exempt) || el.matches(exempt))) ? large : minimum;
    if (r.width < need - 0.5 || r.height < need - 0.5)
      out.push(`small target: ${name(t)} is ${Math.round(r.width * 10) / 10}×${Math.round(r.height * 10) / 10} (under ${need}×${need})`);
  }
  return out;
}""",
        [minimum, large, exempt],
    )


def small_text(page, minimum: float = 12) -> list[str]:
    """Text in a font smaller than ``minimum`` px (the sizes are meant at 100 %)."""
    return page.evaluate(
        "(minimum) => {"
        + _JS_HELPERS
        + r"""
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!ownText(el) || !shown(el) || ['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName)) continue;
    if (el.closest('.sr-only')) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    // an SVG's text is drawn at its viewBox's scale: the size the eye gets is that
    if (el instanceof SVGGraphicsElement && el.getScreenCTM()) px *= Math.hypot(el.getScreenCTM().a, el.getScreenCTM().b);
    if (px < minimum - 0.05) out.push(`small text: ${name(el)} at ${Math.round(px * 10) / 10} px (under ${minimum})`);
  }
  return out;
}""",
        minimum,
    )


def axe_violations(page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of these impacts, one finding per rule with its elements."""
    from axe_playwright_python.sync_playwright import Axe

    response: dict[str, Any] = Axe().run(page).response
    out = []
    for v in response["violations"]:
        if v["impact"] in impacts:
            where = "; ".join(" ".join(n["target"]) for n in v["nodes"][:6])
            more = f" (+{len(v['nodes']) - 6} more)" if len(v["nodes"]) > 6 else ""
            out.append(f"axe {v['id']} ({v['impact']}) ×{len(v['nodes'])}: {where}{more}")
    return out


def readable_findings(
    page, *, percent: int = 100, large: int | None = None, exempt: str | None = None, axe: bool = True
) -> list[str]:
    """Every check on the page as it is now; small text only at 100 % (at 130 % and 200 % it is
    larger by construction when the sizes are relative). Each finding names the text size."""
    found = clipped_texts(page) + wide_elements(page) + unreachable_controls(page)
    found += small_targets(page, large=large, exempt=exempt)
    if percent == 100:
        found += small_text(page)
    if axe:
        found += axe_violations(page)
    return [f"{percent}%: {f}" for f in found]
