/* The group page (templates/group/show.html): the phone's share sheet with the server-drawn
   picture, and one tap on "sent it" (a second tap while the first is on its way sends nothing). */

function share(button) {
  const text = document.getElementById("share-text").textContent;
  const data = { title: button.dataset.title, text: text, url: button.dataset.url };
  fetch(button.dataset.picture, { credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.blob() : null; })
    .catch(function () { return null; })
    .then(function (blob) {
      if (blob && window.File) {
        const file = new File([blob], "gostop.png", { type: "image/png" });
        if (navigator.canShare && navigator.canShare({ files: [file] })) { data.files = [file]; }
      }
      return navigator.share(data);
    })
    .catch(function () { /* the person closed the share sheet */ });
}

export function startGroupPage() {
  const button = document.querySelector("[data-share]");
  if (button && navigator.share) {
    button.hidden = false;
    button.addEventListener("click", function () { share(button); });
  }
  document.querySelectorAll("[data-sent]").forEach(function (sent) {
    sent.form.addEventListener("submit", function () {
      window.setTimeout(function () { sent.disabled = true; }, 0);
    });
  });
}
