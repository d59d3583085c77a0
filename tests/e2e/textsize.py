"""Pages at the phone's own text size (issue 27): the text setting emulated, and what it must not break.

``set_text_scale(page, 1.3)`` sets the browser's default font size to 130 % through the DevTools
protocol (``Page.setFontSizes``), as a phone's text-size setting does for a page sized in rem.
``audit(page)`` measures the page as it is on screen and returns what a person would trip on:

- ``smallest``: the smallest font size (CSS px) of any visible text, and ``small_text``: each
  visible text under 12 px;
- ``clipped``: an element that cuts its own text (``overflow: hidden``/``clip`` or an ellipsis
  with more text than room, across or down);
- ``wide``: a visible element reaching past the screen's edge, outside any sideways-scrolling box;
- ``unreachable``: a control that a fixed bar at the bottom covers at every scroll position (the
  page scrolled to its end, the control still reaches under the bar), or that is off the screen
  sideways with no way to scroll to it;
- ``targets``: every visible control with its size, for the size rules (``small_targets``).

Hidden things (a closed sheet, ``display: none``, the screen-reader-only words) are not measured.
"""

from __future__ import annotations

SIZES = (1.0, 1.3, 2.0)


def set_text_scale(page, scale: float) -> None:
    """The phone's text size at ``scale`` (1.3 = 130 %: 21 px, the protocol takes whole pixels) for this page, kept across its navigations."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": round(16 * scale), "fixed": round(13 * scale)}})
    page.reload()


AUDIT = r"""
() => {
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const seen = el => {
    if (el.closest('.sr-only, [hidden], details:not([open]) > :not(summary)')) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || +s.opacity === 0) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = el => {
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    return el.tagName.toLowerCase() + id + cls + ' "' + (el.innerText || el.value || el.title || '').trim().replace(/\s+/g, ' ').slice(0, 30) + '"';
  };
  const scroller = el => {  // the nearest box that scrolls sideways, if any
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') return e;
    }
    return null;
  };
  // text: the smallest, and each piece under 12 px
  const out = {smallest: 99, small_text: [], clipped: [], wide: [], unreachable: [], targets: []};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const done = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!t.textContent.trim() || done.has(el) || el.closest('script, style, svg, noscript')) continue;
    done.add(el);
    if (!seen(el)) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    out.smallest = Math.min(out.smallest, px);
    if (px < 11.95) out.small_text.push(name(el) + ' ' + px.toFixed(1) + 'px');
  }
  // clipped: a box that hides part of its own text
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.innerText || !el.innerText.trim() || !seen(el) || el.clientWidth <= 1) continue;  // 1 px: words for a screen reader
    const s = getComputedStyle(el);
    const cutsX = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    const cutsY = ['hidden', 'clip'].includes(s.overflowY);
    if ((cutsX && el.scrollWidth > el.clientWidth + 1) || (cutsY && el.scrollHeight > el.clientHeight + 2)) {
      if (el === document.body || el === document.documentElement) continue;
      out.clipped.push(name(el) + ` ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  // wider than the screen: outside a sideways scroller, nothing reaches past the edges
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.sheet-body') && !el.closest('details[open]')) continue;
    if (!seen(el)) continue;
    const r = el.getBoundingClientRect();
    if ((r.right > vw + 1 || r.left < -1) && !scroller(el)) {
      const s = getComputedStyle(el);
      if (s.position === 'fixed' && r.width >= vw - 1 && r.width <= vw + 1) continue;
      out.wide.push(name(el) + ` ${Math.round(r.left)}..${Math.round(r.right)} of ${vw}`);
    }
  }
  // controls: their size, and whether a fixed bottom bar leaves them any place to be tapped
  const bars = [...document.querySelectorAll('body *')].filter(e => {
    const s = getComputedStyle(e);
    if (s.position !== 'fixed' || !seen(e) || e.closest('.sheet-body, .prompt, .prompt-backdrop')) return false;
    const r = e.getBoundingClientRect();
    return r.bottom >= vh - 1 && r.top > vh / 3;
  });
  const saved = scrollY;
  scrollTo(0, document.documentElement.scrollHeight);
  const barTop = Math.min(vh, ...bars.map(b => b.getBoundingClientRect().top));
  const controls = 'button, a[href], summary, select, textarea, input:not([type=hidden]), label:has(> input), [role=button], [tabindex]:not([tabindex="-1"])';
  for (const el of document.body.querySelectorAll(controls)) {
    const target = el.matches('input') && el.closest('label') ? el.closest('label') : el;
    if (target !== el && el.matches('input')) continue;   // measured as its label
    if (!seen(target)) continue;
    if (getComputedStyle(target).position === 'absolute' && target.matches('input')) continue;
    const r = target.getBoundingClientRect();
    const card = target.matches('.hc');
    const inBar = bars.some(b => b.contains(target));
    const inSheet = !!target.closest('.sheet-body, .prompt');
    out.targets.push({el: name(target), w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10, card});
    if (!inBar && !inSheet && r.bottom > barTop + 1) out.unreachable.push(name(target) + ' under the bar');
    const sc = scroller(target);
    const edge = sc ? Math.min(vw, sc.getBoundingClientRect().right) : vw;
    if (!sc && (r.right > vw + 1 || r.left < -1)) out.unreachable.push(name(target) + ' off the screen');
    else if (sc && sc.getBoundingClientRect().right > vw + 1) out.unreachable.push(name(target) + ' in a box off the screen');
  }
  scrollTo(0, saved);
  out.bar = bars.length ? Math.round(vh - barTop) : 0;
  out.width = document.documentElement.scrollWidth;
  return out;
}
"""


def audit(page) -> dict:
    """What a person would trip on, on the page as it is now (see the module's docstring)."""
    found = page.evaluate(AUDIT)
    found["small_targets"] = [t for t in found["targets"] if t["w"] < 23.95 or t["h"] < 23.95]
    found["under_44"] = [t for t in found["targets"] if (t["w"] < 39.95 or t["h"] < 51.95) if t["card"]] + [
        t for t in found["targets"] if not t["card"] and (t["w"] < 43.95 or t["h"] < 43.95)
    ]
    return found


def axe(page, serious_only: bool = True) -> list[str]:
    """axe-core's violations on the page: ``rule ×n: first target`` (serious and critical only)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if serious_only and v.get("impact") not in ("serious", "critical"):
            continue
        targets = [", ".join(n["target"]) for n in v["nodes"]]
        found.append(f"{v['id']} ×{len(targets)}: {'; '.join(targets[:4])}")
    return found
