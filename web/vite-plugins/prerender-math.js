// Vite plugin: TeX -> MathML at build time, so readers never download temml.
//
// Two kinds of modules are rewritten. Both must be plain data (no imports):
//   *.tex.js              every exported string is one display formula, except
//                         in the export named `inline` (inline formulas);
//   i18n/<lang>/<name>.js every exported string may hold inline math `$...$`
//                         and display math `$$...$$` inside ordinary text.
// The module is evaluated in Node, its strings are converted, and the module is
// replaced by the same data with MathML in place of TeX. Bad TeX fails the build.
import temml from 'temml';

// Role colours inside formulas: \roleq{q} is drawn in the query colour, etc.
// (the classes are styled by web/src/styles/base.css).
const MACROS = {
  '\\roleq': '\\class{role-q}{#1}',
  '\\rolek': '\\class{role-k}{#1}',
  '\\rolev': '\\class{role-v}{#1}',
  '\\roleo': '\\class{role-o}{#1}',
  '\\rolem': '\\class{role-m}{#1}',
};

// A control character in TeX almost always means a lost backslash in a JS
// string ("\t" in "\times" became a tab): fail loudly instead of rendering junk.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|\t/;

// temml writes a few layout rules as style attributes, which the site's
// Content-Security-Policy refuses (style-src without 'unsafe-inline':
// web/vite-plugins/content-security-policy.js). Each becomes a class with the
// same declarations (web/src/styles/common.css, "temml's layout rules"). A
// style not listed here fails the build: add it there and here.
export const MATH_STYLE_CLASSES = Object.freeze({
  'display:block math;': 'tml-style-display-block',
  'padding-left:0em;padding-right:0em;': 'tml-style-pad-none',
  'padding-left:1em;padding-right:0em;': 'tml-style-pad-left',
  'margin-left:-0.1667em;': 'tml-style-negative-thin-space',
  'math-depth:0;': 'tml-style-depth-0',
});

// MathML with every style attribute replaced by its class.
export function withoutStyleAttributes(mathml, where = '') {
  return mathml.replace(/<([a-z]+)([^>]*?)\sstyle="([^"]*)"([^>]*)>/g, (tag, name, before, style, after) => {
    const added = MATH_STYLE_CLASSES[style];
    if (!added) throw new Error(`${where}: temml wrote style="${style}", which has no class in MATH_STYLE_CLASSES`);
    const attributes = `${before}${after}`;
    if (/\sclass="/.test(attributes)) return `<${name}${attributes.replace(/\sclass="([^"]*)"/, ` class="$1 ${added}"`)}>`;
    return `<${name}${attributes} class="${added}">`;
  });
}

export function texToMathML(tex, { display = false, where = '' } = {}) {
  if (CONTROL.test(tex)) {
    throw new Error(`${where}: TeX contains a control character (a backslash lost in a JS string?): ${JSON.stringify(tex)}`);
  }
  let mathml;
  try {
    mathml = temml.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      trust: true,
      macros: { ...MACROS },
    });
  } catch (err) {
    throw new Error(`${where}: cannot render TeX ${JSON.stringify(tex)}: ${err.message}`);
  }
  return withoutStyleAttributes(mathml, where);
}

// Replaces $$...$$ (display) and $...$ (inline) in running text; \$ is a dollar.
export function renderTextMath(text, where = '') {
  if (!text.includes('$')) return text;
  return text
    .replace(/\$\$([\s\S]+?)\$\$|(?<!\\)\$((?:\\\$|[^$])+?)\$/g, (_, display, inline) =>
      display !== undefined
        ? `<div class="formula">${texToMathML(display.trim(), { display: true, where })}</div>`
        : texToMathML(inline.trim(), { where }))
    .replace(/\\\$/g, '$');
}

function mapStrings(value, fn, path) {
  if (typeof value === 'string') return fn(value, path);
  if (Array.isArray(value)) return value.map((v, i) => mapStrings(v, fn, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn, `${path}.${k}`)]));
  }
  if (typeof value === 'function') throw new Error(`${path}: functions are not allowed in math/text modules`);
  return value;
}

async function evaluate(code, id) {
  if (/^\s*import\s/m.test(code)) throw new Error(`${id}: math and language modules must not import anything`);
  const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  return import(url);
}

export async function convertModule(code, id) {
  const file = id.split('?')[0];
  const kind = file.endsWith('.tex.js') ? 'tex' : /[\\/]i18n[\\/][a-z]{2}[\\/][^\\/]+\.js$/.test(file) ? 'text' : null;
  if (!kind) return null;
  const mod = await evaluate(code, file);
  const lines = [];
  for (const [name, value] of Object.entries(mod)) {
    const fn = kind === 'tex'
      ? (s, where) => texToMathML(s, { display: name !== 'inline', where })
      : (s, where) => renderTextMath(s, where);
    const json = JSON.stringify(mapStrings(value, fn, `${file}:${name}`));
    lines.push(name === 'default' ? `export default ${json};` : `export const ${name} = ${json};`);
  }
  return lines.join('\n') + '\n';
}

export function prerenderMath() {
  return {
    name: 'attn-prerender-math',
    enforce: 'pre',
    async transform(code, id) {
      const out = await convertModule(code, id);
      return out === null ? null : { code: out, map: null };
    },
  };
}
