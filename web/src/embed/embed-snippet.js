// The code a blog author pastes to embed one section as it is now (the "Embed
// this" control of each section, src/components/embed-panel.js): the script tag
// and the element with the section's inputs as attributes, or an iframe of the
// embed route with the same inputs in its URL and the few lines that size it.
// Pure functions, no DOM: unit-tested in Node; the e2e test pastes the result
// into a page and checks the widget shows the same numbers.
//
//   scriptSnippet({ embedBase, section, lang, pairs })
//   iframeSnippet({ embedBase, section, lang, pairs, title, height })
// embedBase: the URL of the embed folder, ending in '/' (e.g. https://example.org/attention/embed/);
// pairs: [[name, text], ...], the section's inputs as its codec writes them.
import { queryString } from '../lib/params.js';

// "<script" is spelled in two parts: this module is inlined into a <script> of
// the single-file page (dist/attention.html), which a literal tag would end or
// be mistaken for.
const SCRIPT = 'scr' + 'ipt';

const escapeAttribute = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function scriptSnippet({ embedBase, section, lang, pairs = [] }) {
  const attributes = [['section', section], ['lang', lang], ...pairs]
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  return `<${SCRIPT} type="module" src="${escapeAttribute(`${embedBase}attention-embed.js`)}"></${SCRIPT}>\n`
    + `<attention-demo${attributes}></attention-demo>`;
}

// The iframe keeps `height` if the host strips scripts (no inner scrollbar at
// the width it was measured at); with the script, it takes the height the
// embed page posts ({ type: 'attention-demo:height', height }) whenever it changes.
export function iframeSnippet({ embedBase, section, lang, pairs = [], title, height }) {
  const src = `${embedBase}embed.html?${queryString([['section', section], ['lang', lang], ...pairs])}`;
  const origin = new URL(embedBase).origin;
  return `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" loading="lazy"\n`
    + `        style="width:100%;height:${Math.ceil(height)}px;border:0"></iframe>\n`
    + `${listenerSnippet(origin)}`;
}

// Sizes every iframe of the embed route on the page to its content.
export function listenerSnippet(origin) {
  return `<${SCRIPT}>\n`
    + 'addEventListener(\'message\', (event) => {\n'
    + `  if (event.origin !== '${origin}' || event.data?.type !== 'attention-demo:height') return;\n`
    + '  for (const frame of document.querySelectorAll(\'iframe\')) {\n'
    + '    if (frame.contentWindow === event.source) frame.style.height = `${event.data.height}px`;\n'
    + '  }\n'
    + '});\n'
    + `</${SCRIPT}>`;
}
