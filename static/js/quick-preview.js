/* Quick entry: the payment, previewed by the engine as the form changes (the page's Preview
   button does the same without the script). */

let timer = null;

function preview(form) {
  const data = new FormData(form);
  data.set("action", "preview");
  fetch(form.getAttribute("action"), { method: "POST", body: data, credentials: "same-origin", headers: { "X-Partial": "1" } })
    .then(function (r) { return r.text(); })
    .then(function (html) {
      const t = document.createElement("template");
      t.innerHTML = html;
      const fresh = t.content.getElementById("preview");
      const old = document.getElementById("preview");
      if (!fresh || !old) { return; }
      const wasOpen = old.querySelector("details[open]");
      const details = fresh.querySelector("details");
      if (wasOpen && details) { details.open = true; }
      old.replaceWith(fresh);
    }).catch(function () { /* keep the last preview */ });
}

function later(form, ms) {
  clearTimeout(timer);
  timer = setTimeout(function () { preview(form); }, ms);
}

export function startPreview(form) {
  form.addEventListener("change", function () { later(form, 200); });
  form.addEventListener("input", function () { later(form, 400); });
  const btn = form.querySelector(".preview-btn");
  if (btn) { btn.hidden = true; }
}
