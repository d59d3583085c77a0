/* A group's share link: the page that kept its key goes on to the group page by itself.
   Not a <meta http-equiv="refresh">: a chat app's link preview follows that refresh, without
   the cookie, and lands on a page that cannot show it anything (no picture, no title). Scripts
   it does not run: it stays on this page and its Open Graph tags. */

export function goOnFromShareLink() {
  const next = document.querySelector("[data-go-on]");
  if (next) { window.location.replace(next.getAttribute("href")); }
}
