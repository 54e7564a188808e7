// The embed build's styles (web/vite-plugins/adopted-styles.js): a widget lays
// out by its own width, so the sections' width media queries become container
// queries in the embed build, and no other media query changes.
import { expect, test } from 'vitest';
import { adoptedStyles, widthMediaToContainer } from '../../web/vite-plugins/adopted-styles.js';

test('width media queries become container queries, and only those', () => {
  expect(widthMediaToContainer('@media (min-width: 40rem) { a{} } @media (max-width: 30rem) and (min-width: 10rem) {b{}}'))
    .toBe('@container (min-width: 40rem) { a{} } @container (max-width: 30rem) and (min-width: 10rem) {b{}}');
  expect(widthMediaToContainer('@media (prefers-reduced-motion: reduce) { a{} }')).toBe('@media (prefers-reduced-motion: reduce) { a{} }');
});

// The plugin's rewrite of `import './x.css'` in a component or section module.
const web = new URL('../../web', import.meta.url).pathname;
const transform = (code) => adoptedStyles({ web }).transform(code, `${web}/src/components/example.js`);

test('each CSS import of a component becomes a registered sheet', () => {
  const out = transform("import './matrix.css';\nimport './heatmap.css';\nexport const x = 1;\n").code;
  expect(out).toContain('import __attnCss0 from "./matrix.css?inline";');
  expect(out).toContain('__attnRegisterStyles(__attnCss0, "./matrix.css"); __attnRegisterStyles(__attnCss1, "./heatmap.css");');
});

test('a CSS import the rewrite would miss stops the build, naming the file', () => {
  // A comment after the import once left line-chart.js and multi-head's cost
  // panel without their sheets in a widget: the build must not pass it by.
  expect(() => transform("import './matrix.css';   // tables\n")).toThrow(/example\.js: write each CSS import alone on its line/);
});
