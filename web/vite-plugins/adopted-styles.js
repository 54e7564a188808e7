// Vite plugin: the CSS of the components and sections becomes constructable
// stylesheets, so that the same sheets style the page (document) and every
// embedded widget (its shadow root), and nothing leaks between them.
//
// In every module under web/src/components/ and web/src/sections/,
//   import './heatmap.css';
// is rewritten to
//   import css0 from './heatmap.css?inline';
//   import { registerStyles } from '<web/src/lib/styles.js>';
//   registerStyles(css0, './heatmap.css');
// registerStyles (web/src/lib/styles.js) makes one CSSStyleSheet per file and
// adopts it into each registered root: the page registers `document`, each
// <attention-demo> its shadow root. The page's own CSS (main.js -> styles/)
// stays an ordinary stylesheet <link>.
//
// containerQueries (the embed build): the components' and sections' width
// media queries, written for the page (@media (min-width: 40rem)), become
// container queries (@container (min-width: 40rem)), answered by the widget's
// box (.ad, container-type: inline-size): a widget in a 40rem blog column lays
// out as the page does on a 40rem screen, whatever the screen.
import { resolve, sep } from 'node:path';

const CSS_IMPORT = /^[ \t]*import\s+(['"])(\.{1,2}\/[^'"]+\.css)\1\s*;?[ \t]*$/gm;
// Any CSS import: one that CSS_IMPORT misses (a comment after it, two on a line)
// would silently become a plain <link> on the page and nothing in a widget.
const ANY_CSS_IMPORT = /^[ \t]*import\s+['"][^'"]+\.css['"]/gm;
// @media made only of (min-width: ...) / (max-width: ...) conditions.
const WIDTH_MEDIA = /@media\s+((?:\(\s*(?:min|max)-width\s*:[^()]*\)\s*(?:and\s+)?)+)\{/g;

export function widthMediaToContainer(css) {
  return css.replace(WIDTH_MEDIA, (_, conditions) => `@container ${conditions.trim()} {`);
}

export function adoptedStyles({ web, containerQueries = false }) {
  const registry = resolve(web, 'src', 'lib', 'styles.js').split(sep).join('/');
  const scoped = [resolve(web, 'src', 'components') + sep, resolve(web, 'src', 'sections') + sep];
  return {
    name: 'attn-adopted-styles',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!scoped.some((dir) => file.startsWith(dir))) return null;
      if (file.endsWith('.css')) return containerQueries ? { code: widthMediaToContainer(code), map: null } : null;
      if (!file.endsWith('.js')) return null;
      let count = 0;
      const registrations = [];
      const out = code.replace(CSS_IMPORT, (_, quote, path) => {
        const name = `__attnCss${count++}`;
        registrations.push(`${JSON.stringify(path)}`);
        return `import ${name} from ${JSON.stringify(`${path}?inline`)};`;
      });
      const all = code.match(ANY_CSS_IMPORT)?.length ?? 0;
      if (all !== count) {
        throw new Error(`${file}: write each CSS import alone on its line (import './x.css';), nothing after it`);
      }
      if (count === 0) return null;
      const calls = registrations.map((path, i) => `__attnRegisterStyles(__attnCss${i}, ${path});`).join(' ');
      return {
        code: `import { registerStyles as __attnRegisterStyles } from ${JSON.stringify(registry)};\n${out}\n${calls}\n`,
        map: null,
      };
    },
  };
}
