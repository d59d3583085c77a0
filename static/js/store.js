/* This phone's storage (localStorage), in one place: lists kept under a key. When the browser
   refuses storage (private mode), the lists live in this page's memory instead. */

const memory = {};

export function load(key) {
  try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return memory[key] || []; }
}

// An empty list is removed: a key that stays names a queue that still waits.
export function save(key, list) {
  memory[key] = list;
  try {
    if (list.length) { localStorage.setItem(key, JSON.stringify(list)); } else { localStorage.removeItem(key); }
  } catch (e) { /* kept in memory */ }
}

// The keys that start with prefix (the part after it), [] when storage is refused.
export function keys(prefix) {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k.indexOf(prefix) === 0) { found.push(k.slice(prefix.length)); }
    }
  } catch (e) { return []; }
  return found;
}
