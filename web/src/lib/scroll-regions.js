// Boxes that scroll sideways on a narrow screen (wide formulas and tables) must
// be reachable by keyboard. This makes each such box focusable exactly while
// its content overflows, so wide screens get no extra tab stops.
//
// Layout is read only where the browser has just done it: in a ResizeObserver
// callback, for the box or its content that changed size. New boxes are found
// by a MutationObserver that reads no layout at all (it used to read the
// scrollWidth of every box, 85 on the page, on every DOM change: about half a
// second of the page's load, and a forced layout of hidden sections per keystroke).
const SELECTOR = '.formula, .matrix-scroll';

function update(box) {
  const overflowing = box.scrollWidth > box.clientWidth + 1;
  if (overflowing && !box.hasAttribute('tabindex')) box.setAttribute('tabindex', '0');
  else if (!overflowing && box.getAttribute('tabindex') === '0') box.removeAttribute('tabindex');
}

export function watchScrollRegions(root = document) {
  const observer = new ResizeObserver((entries) => {
    const boxes = new Set(entries.map((e) => e.target.closest(SELECTOR) ?? e.target));
    boxes.forEach(update);
  });
  const observed = new WeakSet();
  const watch = (box) => {
    if (observed.has(box)) return;
    observed.add(box);
    observer.observe(box);   // the box's own width (the screen turned, the page reflowed)
    for (const child of box.children) observer.observe(child);   // its content's width (a table built later)
  };
  const scan = (node) => {
    if (node.nodeType !== 1) return;
    if (node.matches(SELECTOR)) watch(node);
    for (const box of node.querySelectorAll(SELECTOR)) watch(box);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) scan(node);
      // Content put into a box already watched (a table alternative built when opened).
      const box = record.target.nodeType === 1 ? record.target.closest?.(SELECTOR) : null;
      if (box && record.target === box) for (const child of box.children) observer.observe(child);
    }
  }).observe(root, { childList: true, subtree: true });
  for (const box of root.querySelectorAll(SELECTOR)) watch(box);
}
