// The embed build's styles (web/vite-plugins/adopted-styles.js): a widget lays
// out by its own width, so the sections' width media queries become container
// queries in the embed build, and no other media query changes.
import { expect, test } from 'vitest';
import { widthMediaToContainer } from '../../web/vite-plugins/adopted-styles.js';

test('width media queries become container queries, and only those', () => {
  expect(widthMediaToContainer('@media (min-width: 40rem) { a{} } @media (max-width: 30rem) and (min-width: 10rem) {b{}}'))
    .toBe('@container (min-width: 40rem) { a{} } @container (max-width: 30rem) and (min-width: 10rem) {b{}}');
  expect(widthMediaToContainer('@media (prefers-reduced-motion: reduce) { a{} }')).toBe('@media (prefers-reduced-motion: reduce) { a{} }');
});
