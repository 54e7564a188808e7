// The full value behind a rounded number, shown as the element's tooltip.
//
// Writing `title` costs Chromium a style recalculation of the element (`title`
// is an attribute its own style sheet selects on, abbr[title]): about 17 us
// each on this machine, 9 ms when the learning section redraws its eight head
// maps, 2 ms for the gradients row's two Jacobians. So a redraw writes the value
// into data-full, which no selector reads, and `title` is filled in from it
// when a pointer comes over the element or it takes focus: the only moments a
// tooltip can show.
//
//   setFullValue(cell, formatFull(w));   // on every redraw
//   showFullValues(root);                // once per host root (src/sections/mount-section.js)

// (getAttribute and setAttribute: el.dataset is several times slower, and a
// redraw can write 600 of these.)
export function setFullValue(el, text) {
  if (el.getAttribute('data-full') !== text) el.setAttribute('data-full', text);
}

// The event's own target (inside a widget's shadow root, event.target is the host).
function showTooltip(event) {
  const el = event.composedPath()[0].closest?.('[data-full]');
  const text = el?.getAttribute('data-full');
  if (text != null && el.title !== text) el.title = text;
}

const watched = new WeakSet();
export function showFullValues(root) {
  if (watched.has(root)) return root;
  watched.add(root);
  root.addEventListener('pointerover', showTooltip);
  root.addEventListener('focusin', showTooltip);
  return root;
}
