/* A tap is the control the finger was pressed on. The cards and the events stay on the page while
   the region above them is redrawn; when a redraw makes it taller (the what-if line, a bak badge),
   everything under it moves while a finger may be down: lifted, that finger was over another card
   (the browser took that one), over a taken card or the gap between two (nothing was taken). When
   the finger has not moved but the control pressed is no longer under it, the tap is given to the
   control pressed, and the browser's click at that point is not let through. */

const STILL_PX = 12;  // a finger rolls a little between press and lift and is still the same tap
let pressed = null;   // {control, id, x, y}: the enabled card or event button under the finger now
let swallow = false;  // the click the browser makes for a tap given to the control pressed

function pressable(target) {
  const control = target.closest && target.closest(".live-static button");
  return control && control.type === "submit" && !control.disabled ? control : null;
}

export function keepTapsOnWhatWasPressed() {
  document.addEventListener("pointerdown", function (ev) {
    const control = ev.isPrimary ? pressable(ev.target) : null;
    pressed = control ? { control: control, id: ev.pointerId, x: ev.clientX, y: ev.clientY } : null;
    swallow = false;  // a new tap: the last one's click, if any was to come, has come
  }, true);
  document.addEventListener("pointercancel", function () { pressed = null; }, true);
  document.addEventListener("keydown", function () { swallow = false; }, true);  // a key's click is its own
  document.addEventListener("pointerup", function (ev) {
    const press = pressed;
    pressed = null;
    if (!press || ev.pointerId !== press.id) { return; }
    // The finger moved away before lifting: its own choice, not the page's.
    if (Math.abs(ev.clientX - press.x) > STILL_PX || Math.abs(ev.clientY - press.y) > STILL_PX) { return; }
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    if (under && press.control.contains(under)) { return; }
    swallow = true;
    // Taken meanwhile (another phone's capture): the card says so, and nothing else is taken instead.
    if (!press.control.disabled && press.control.isConnected) { press.control.form.requestSubmit(press.control); }
  }, true);
  document.addEventListener("click", function (ev) {
    if (!swallow) { return; }
    swallow = false;
    ev.preventDefault();
    ev.stopPropagation();
  }, true);
}
