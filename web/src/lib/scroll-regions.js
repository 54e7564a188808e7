// Boxes that scroll sideways on a narrow screen (wide formulas and tables) must
// be reachable by keyboard. This makes each such box focusable exactly while
// its content overflows, so wide screens get no extra tab stops.
const SELECTOR = '.formula, .matrix-scroll';

function update(el) {
  const overflowing = el.scrollWidth > el.clientWidth + 1;
  if (overflowing && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
  else if (!overflowing && el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
}

export function watchScrollRegions(root = document) {
  const observer = new ResizeObserver((entries) => entries.forEach((e) => update(e.target)));
  const observed = new WeakSet();
  const scan = () => {
    for (const el of root.querySelectorAll(SELECTOR)) {
      if (!observed.has(el)) {
        observed.add(el);
        observer.observe(el);
      }
      update(el);
    }
  };
  // New content (a re-render, h changed) and opened tables.
  new MutationObserver(() => scan()).observe(root, { childList: true, subtree: true });
  root.addEventListener('toggle', (event) => event.target.querySelectorAll?.(SELECTOR).forEach(update), true);
  scan();
}
