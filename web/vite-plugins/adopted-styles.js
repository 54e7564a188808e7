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
import { resolve, sep } from 'node:path';

const CSS_IMPORT = /^[ \t]*import\s+(['"])(\.{1,2}\/[^'"]+\.css)\1\s*;?[ \t]*$/gm;

export function adoptedStyles({ web }) {
  const registry = resolve(web, 'src', 'lib', 'styles.js').split(sep).join('/');
  const scoped = [resolve(web, 'src', 'components') + sep, resolve(web, 'src', 'sections') + sep];
  return {
    name: 'attn-adopted-styles',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!file.endsWith('.js') || !scoped.some((dir) => file.startsWith(dir))) return null;
      let count = 0;
      const registrations = [];
      const out = code.replace(CSS_IMPORT, (_, quote, path) => {
        const name = `__attnCss${count++}`;
        registrations.push(`${JSON.stringify(path)}`);
        return `import ${name} from ${JSON.stringify(`${path}?inline`)};`;
      });
      if (count === 0) return null;
      const calls = registrations.map((path, i) => `__attnRegisterStyles(__attnCss${i}, ${path});`).join(' ');
      return {
        code: `import { registerStyles as __attnRegisterStyles } from ${JSON.stringify(registry)};\n${out}\n${calls}\n`,
        map: null,
      };
    },
  };
}
