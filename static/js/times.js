/* The history's times: written by the server in UTC, shown in the phone's own time zone. */
import { $$ } from "./dom.js";

function two(n) { return (n < 10 ? "0" : "") + n; }

export function showLocalTimes() {
  $$("ol.history time[datetime]").forEach(function (el) {
    const when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    el.textContent = when.getFullYear() + "-" + two(when.getMonth() + 1) + "-" + two(when.getDate()) +
      " " + two(when.getHours()) + ":" + two(when.getMinutes());
  });
}
