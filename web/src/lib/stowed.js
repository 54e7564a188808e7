// Figures swapped in place (multi-head's heads for each h, the learning
// section's probe map for each task and its heads' maps for each h) stay in the
// page: the ones not shown are stowed, `content-visibility: hidden`
// (styles/common.css, .is-stowed), which keeps their style and layout, so
// showing one again costs little. Taking a figure out of the page and putting
// it back rebuilt both (~8 ms for the learning map); style costs ~17 us per
// element on this page.
//
//   stow(el, true)      // hidden, its rendering state kept
//   prerender(els)      // the stowed ones among els styled and laid out now
//
// A figure built while the reader looks elsewhere (an idle callback) is laid
// out then too: shown for one forced layout inside one task, so never painted,
// then stowed again. Without it the first switch to it paid for its style and
// layout (multi-head: 6-14 ms, now 2.5-5).

export function stow(el, stowed) {
  el.classList.toggle('is-stowed', stowed);
}

export function prerender(els) {
  const stowed = els.filter((el) => el.classList.contains('is-stowed'));
  stowed.forEach((el) => el.classList.add('is-prerendering'));
  stowed[0]?.getBoundingClientRect();
  stowed.forEach((el) => el.classList.remove('is-prerendering'));
}
