// A page of the site (index.html, the walkthrough; learns.html, "How attention
// learns": src/sections/pages.js): header with the link to the other page,
// table of contents, and the page's sections of registry.js mounted in order.
// Every section gets the engine of its module (loaded once), its own strings,
// and a store that survives a language switch (so edits are kept).
import './styles/base.css';
import { reservedHeight } from './sections/registry.js';
import { PAGES, PAGE_NAMES, choosePage, pageAddress, sectionHref, sectionsOf } from './sections/pages.js';
import { LANGUAGES, chooseLanguage, loadLanguage } from './i18n/index.js';
import { interpolate, linkSections } from './i18n/lookup.js';
import { createAttention } from './engine/index.js';
import inlineWasm from './engine/inline-wasm.js';
import { h, html } from './lib/dom.js';
import { watchScrollRegions } from './lib/scroll-regions.js';
import { adoptStylesInto } from './lib/styles.js';
import { hashTarget, pageGetter, replaceSectionParams, queryString, shortenOverlongParams } from './lib/params.js';
import { mountSection } from './sections/mount-section.js';
import { embedPanel } from './components/embed-panel.js';
import { iframeSnippet, scriptSnippet } from './embed/embed-snippet.js';

const LANGUAGE_NAMES = { ko: '한국어', en: 'English' };

// The sections' and components' styles (constructable sheets) apply to the page.
adoptStylesInto(document);

const header = document.getElementById('site-header');
const main = document.getElementById('main');
const footer = document.getElementById('site-footer');
// The page's own (<body data-page>), or ?page= in the single file, which holds both.
const pageName = choosePage(location.search, document.body.dataset.page);
document.body.dataset.page = pageName;
const singleFile = Boolean(inlineWasm);
const sections = sectionsOf(pageName);
const ids = sections.map((s) => s.id);

// One frame per section, created once: the ids exist from the first paint.
const frames = sections.map((section, index) => {
  const el = h('section', {
    id: section.id,
    class: 'section',
    'aria-labelledby': `${section.id}-title`,
  });
  main.append(el);
  return { section, number: index + 1, el, body: null, store: {}, mounted: null };
});

// Each section reserves about its real height until it is built and while it
// is off screen (page.css: contain-intrinsic-size), so the scrollbar stays put.
function reserveHeights() {
  for (const f of frames) f.el.style.setProperty('--section-height', `${reservedHeight(f.section, innerWidth)}px`);
}
reserveHeights();
let resizeFrame = 0;
addEventListener('resize', () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(reserveHeights);
});

let engine = null;
let engineError = null;
// The single-file page carries the .wasm inline (base64); only the modules
// that are loaded get decoded.
const fromBase64 = (text) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
const engineOptions = inlineWasm
  ? { wasmBinary: Object.defineProperties({}, Object.fromEntries(Object.keys(inlineWasm).map((key) =>
    [key, { enumerable: true, get: () => fromBase64(inlineWasm[key]) }]))) }
  : {};
// The page's engine: the module of its sections (pages.js, PAGES: the
// walkthrough's without learning, the second page's with every model).
const pageLearning = PAGES[pageName].learning;
const engineReady = createAttention({ ...engineOptions, learning: pageLearning }).then(
  (e) => { engine = e; },
  (err) => { engineError = err; console.error(err); });
// The sections that need another module (registry.js: `learning`) get it,
// loaded when the first of them is mounted (after the first screen).
const learningEngines = new Map();   // 'basic' or true -> Promise<engine>
const engineFor = ({ learning = false }) => {
  if (learning === pageLearning) return Promise.resolve(engine);
  if (!learningEngines.has(learning)) learningEngines.set(learning, createAttention({ ...engineOptions, learning }));
  return learningEngines.get(learning);
};
// Every section's code starts loading at once, in parallel with the engine.
for (const s of sections) s.load().catch(() => {});   // a failure is shown by mountSection

// A parameter too long to be read is shortened in the address before anything
// is built (lib/params.js, shortenOverlongParams); it is still refused by name.
const shortened = shortenOverlongParams(location.search);
if (shortened !== location.search.replace(/^\?/, '')) {
  history.replaceState(history.state, '', `${shortened ? `?${shortened}` : location.pathname}${location.hash}`);
}

let currentLang = chooseLanguage(location.search, navigator.languages ?? [navigator.language]);
let renderToken = 0;

function sectionTitle(text, id) {
  return text.sections[id]?.title ?? id;
}

// The links between the two pages, the current one marked.
function pageLinks(text) {
  return h('nav', { class: 'page-links', 'aria-label': text.common.pageLinks.label },
    h('ul', {}, PAGE_NAMES.map((name) => h('li', {},
      h('a', {
        href: name === pageName ? '#main' : pageAddress(name, { lang: text.lang, singleFile }),
        ...(name === pageName ? { 'aria-current': 'page' } : {}),
        text: text.common.pages[name].name,
      })))));
}

function renderHeader(text) {
  const c = text.common;
  const p = c.pages[pageName];
  const switcher = h('div', { class: 'lang-switch', role: 'group', 'aria-label': c.lang.label },
    LANGUAGES.map((lang) => h('button', {
      type: 'button', lang, 'aria-pressed': String(lang === text.lang), dataset: { lang },
      on: { click: () => switchLanguage(lang) },
    }, LANGUAGE_NAMES[lang])));
  const status = h('p', { class: ['engine-status', engineError && 'is-error'], id: 'engine-status', role: 'status' });
  updateStatus(status, c);
  // (A page without sections says so in place of its sections: no empty contents.)
  const toc = frames.length === 0 ? null : h('nav', { class: 'toc', 'aria-labelledby': 'toc-title' },
    h('h2', { class: 'toc-title', id: 'toc-title', text: c.toc.title }),
    h('ol', {}, frames.map((f) => h('li', {},
      h('a', { href: `#${f.section.id}` },
        h('span', { class: 'toc-num', text: String(f.number) }),
        h('span', { class: 'toc-text' }, html('span', {}, sectionTitle(text, f.section.id))))))));
  const link = (value) => linkSections(value, hrefOf(text.lang));
  header.replaceChildren(
    h('div', { class: 'site-bar' }, h('span', { class: 'site-mark', text: c.site.mark }), pageLinks(text), switcher),
    h('div', { class: 'hero' },
      html('h1', {}, p.title),
      html('p', { class: 'hero-lede' }, link(p.lede)),
      html('p', {}, link(p.how)),
      PAGES[pageName].roles && h('ul', { class: 'hero-roles', 'aria-label': c.roles.legend },
        ['q', 'k', 'v', 'o', 'm'].map((r) => h('li', { class: `chip chip-${r}`, text: c.roles[r] }))),
      status),
    toc);
}

function updateStatus(el, c) {
  if (!el) return;
  if (engineError) el.textContent = interpolate(c.engine.failed, { message: engineError.message });
  else if (!engine) el.textContent = c.engine.loading;
  else el.textContent = engine.simd ? c.engine.readySimd : c.engine.readyBaseline;
}

function renderFrame(frame, text) {
  const { id } = frame.section;
  const c = text.common;
  const number = h('p', { class: 'section-number', 'aria-hidden': 'true', text: String(frame.number) });
  frame.body = h('div', { class: 'section-body' },
    h('p', { class: 'section-loading', text: engineError ? c.engine.sectionFailed : c.engine.sectionLoading }));
  const title = html('h2', { id: `${id}-title` }, sectionTitle(text, id));
  frame.embed = engineError ? null : embedPanel({ labels: c.embed, snippets: () => embedSnippets(frame, text.lang, title) });
  frame.el.replaceChildren(
    h('header', { class: 'section-head' }, number, title, frame.embed?.el),
    frame.body);
  // Until it is built, the section holds its reserved height (page.css), so
  // the browser does not remember it as a few lines tall.
  frame.el.classList.toggle('is-pending', !engineError);
}

// ---- "Embed this" ------------------------------------------------------------------
// The code that puts a section, as it is now, into another page: its inputs as
// the widget's attributes (or the iframe's URL). The embed folder sits next to
// this page (dist/embed/).
function embedSnippets(frame, lang, title) {
  const embedBase = new URL('embed/', location.href).href;
  const common = { embedBase, section: frame.section.id, lang, pairs: frame.mounted?.pairs() ?? [] };
  // The iframe's height for hosts that strip its script: the section's
  // measured height in a blog's column (about 720 px wide, or the screen's).
  const height = reservedHeight(frame.section, Math.min(innerWidth, 720));
  return {
    script: scriptSnippet(common),
    iframe: iframeSnippet({ ...common, title: title.textContent.trim(), height }),
  };
}

// ---- the reader's inputs in the URL --------------------------------------------
// Each section reads its starting state from ?<id>.<name>=... (mountSection,
// through the section's codec) and writes its state back (debounced) whenever
// the reader changes it, so that a link reproduces what the reader saw.
const pendingParams = new Map();   // section id -> [[name, text], ...]
let urlTimer = 0;
function sectionChanged(frame, pairs) {
  frame.embed?.refresh();
  pendingParams.set(frame.section.id, pairs);
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, 250);
}
function writeUrl() {
  let search = location.search;
  for (const [id, pairs] of pendingParams) search = replaceSectionParams(search, id, pairs);
  pendingParams.clear();
  const query = search ? `?${search}` : '';
  if (query !== location.search) history.replaceState(history.state, '', `${query || location.pathname}${location.hash}`);
}

async function mountFrame(frame, text, token) {
  const current = () => token === renderToken && Boolean(engine);
  if (!current()) return;
  let sectionEngine;
  try {
    sectionEngine = await engineFor(frame.section);
  } catch (err) {
    console.error(err);
    if (current()) frame.body.replaceChildren(h('p', { class: 'input-error', role: 'alert', text: text.common.engine.sectionFailed }));
    frame.el.classList.remove('is-pending');
    return;
  }
  if (!current()) return;
  frame.mounted?.destroy();
  frame.mounted = await mountSection(frame.body, {
    entry: frame.section, engine: sectionEngine, text, store: frame.store, current,
    read: pageGetter(location.search, frame.section.id),
    write: (pairs) => sectionChanged(frame, pairs),
  });
  frame.el.classList.remove('is-pending');
  // Malformed parameters leave the URL: the section shows its defaults.
  if (frame.mounted?.rejected.length) sectionChanged(frame, []);
}

// Keeps the section being read at the same place on screen across a re-render.
function scrollAnchor() {
  const frame = frames.find((f) => f.el.getBoundingClientRect().bottom > 0);
  return frame ? { el: frame.el, top: frame.el.getBoundingClientRect().top } : null;
}
function restoreScroll(anchor) {
  if (!anchor || window.scrollY === 0) return;
  const delta = anchor.el.getBoundingClientRect().top - anchor.top;
  if (Math.abs(delta) > 1) window.scrollBy({ top: delta, behavior: 'instant' });
}

// Links to the other page's sections (and to the pages) in the texts.
const hrefOf = (lang) => (id) => sectionHref(id, { from: pageName, lang, singleFile });

async function render(lang) {
  const token = ++renderToken;
  const text = await loadLanguage(lang, ids, { hrefOf: hrefOf(lang) });
  if (token !== renderToken) return;
  const anchor = scrollAnchor();
  document.documentElement.lang = lang;
  document.title = text.common.pages[pageName].meta.title;
  document.querySelector('meta[name="description"]')?.setAttribute('content', text.common.pages[pageName].meta.description);
  document.querySelector('.skip-link').textContent = text.common.skip;
  renderHeader(text);
  footer.replaceChildren(html('p', {}, text.common.footer));
  if (frames.length === 0) main.replaceChildren(h('p', { class: 'page-empty prose', text: text.common.pageEmpty }));
  for (const frame of frames) renderFrame(frame, text);
  restoreScroll(anchor);
  await engineReady;
  if (token !== renderToken) return;
  updateStatus(document.getElementById('engine-status'), text.common);
  if (engineError) return;
  // The section a link points to (or the first) first, painted before the
  // rest is built; then the others, one task each, so no task blocks the page
  // for long.
  const first = frames.find((f) => f.section.id === hashTarget(location.hash)) ?? frames[0];
  for (const frame of first ? [first, ...frames.filter((f) => f !== first)] : []) {
    await mountFrame(frame, text, token);
    if (token !== renderToken) return;
    await (frame === first ? nextFrame() : nextTask());
  }
  restoreScroll(anchor);
  document.body.dataset.ready = lang;  // for the end-to-end tests
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function switchLanguage(lang) {
  if (lang === currentLang) return;
  currentLang = lang;
  const rest = [...new URLSearchParams(location.search)].filter(([k]) => k !== 'lang');
  history.replaceState(history.state, '', `?${queryString([['lang', lang], ...rest])}${location.hash}`);
  await render(lang);
  header.querySelector(`.lang-switch button[data-lang="${lang}"]`)?.focus();
}

watchScrollRegions(document.body);

render(currentLang).then(() => {
  // Anchors such as #masking point into content that did not exist at load.
  const target = hashTarget(location.hash);
  if (target) document.getElementById(target)?.scrollIntoView();
});
