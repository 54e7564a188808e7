// <attention-demo section="worked-example" lang="en" q="1,0" keys="1,0;0,1;1,1">:
// one section of the walkthrough as a widget, in its own shadow root.
//
// - `section` is a section id (src/sections/registry.js); `lang` is ko or en
//   (default: the page's <html lang>, then the browser's languages); `theme` is
//   light, dark or auto (default: the reader's prefers-color-scheme); `compact`
//   shows the interactive panels only, without the section's prose.
// - Links to other sections open the whole site (the single file next to the
//   embed folder, ../attention.html, unless AttentionDemo.walkthroughUrl says
//   otherwise) in a new tab, at the page that holds the section (?page=learns
//   for the second page's: src/sections/pages.js).
// - Every other attribute is one of the section's inputs, parsed by the same
//   codec as the page's links (src/sections/<id>/params.js via src/lib/params.js).
//   A malformed value falls back to the section's defaults with a notice.
// - Changing an attribute later updates the widget: `lang` and `theme` keep the
//   reader's edits; the section's inputs start it afresh from the new values.
// - Every widget of a page shares one engine (createAttention() loads each
//   .wasm build once per page) and one set of constructable stylesheets.
// - The section's code and text are imported only when a widget needs them.
// - Fires `attention-change` (detail: { section, params }) when the reader
//   changes an input: params are the attribute values that would reproduce it.
import { sections } from '../sections/registry.js';
import { LANGUAGES, chooseLanguage, loadLanguage } from '../i18n/index.js';
import { interpolate } from '../i18n/lookup.js';
import { excerpt } from '../lib/format.js';
import { createAttention } from '../engine/index.js';
import { mountSection } from '../sections/mount-section.js';
import { addressIn } from '../sections/pages.js';
import { adoptStylesInto, releaseStyles, sheetOf } from '../lib/styles.js';
import { watchScrollRegions } from '../lib/scroll-regions.js';
import { h, html, releaseRadioButtons, uid } from '../lib/dom.js';
import tokensCss from '../styles/tokens.css?inline';
import commonCss from '../styles/common.css?inline';
import demoCss from './attention-demo.css?inline';

const SECTION_PARAMS = new Set(sections.flatMap((s) => s.params ?? []));
const PRESENTATION = ['section', 'lang', 'theme', 'compact'];

let baseSheets = null;   // parsed once, shared by every widget
const base = () => (baseSheets ??= [sheetOf(tokensCss), sheetOf(commonCss), sheetOf(demoCss)]);

function languageFor(el) {
  const asked = el.getAttribute('lang')?.toLowerCase();
  if (LANGUAGES.includes(asked)) return asked;
  const pageLang = el.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang;
  return chooseLanguage('', [pageLang, ...(navigator.languages ?? [navigator.language])].filter(Boolean));
}

export class AttentionDemo extends HTMLElement {
  static get observedAttributes() { return [...PRESENTATION, ...SECTION_PARAMS]; }

  // Where "section 5" and the like point: set by attention-embed.js.
  static walkthroughUrl = null;

  #body;
  #scheduled = false;
  #token = 0;
  #store = {};
  #inputsKey = null;   // the section and its input attributes the store was built from
  #mounted = null;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    adoptStylesInto(shadow, base());
    this.#body = h('div', { class: 'ad', part: 'body' });
    shadow.append(this.#body);
    watchScrollRegions(shadow);
  }

  connectedCallback() {
    this.#schedule();
  }

  disconnectedCallback() {
    this.#mounted?.destroy();
    this.#mounted = null;
    this.#inputsKey = null;   // mounted again = built again
    releaseStyles(this.shadowRoot);
  }

  attributeChangedCallback(name, previous, value) {
    if (name === 'theme' || name === 'compact') return;   // CSS alone (attention-demo.css)
    if (previous !== value && this.isConnected) this.#schedule();
  }

  // Several attributes set in a row render once.
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#render().catch((err) => this.#fail(err));
    });
  }

  // The widget's content becomes `nodes`; the old content's radio buttons are
  // released first (releaseRadioButtons: otherwise Chromium keeps it alive).
  #replaceBody(...nodes) {
    releaseRadioButtons(this.#body);
    this.#body.replaceChildren(...nodes);
  }

  #fail(err) {
    console.error(err);
    this.#replaceBody(h('p', { class: 'input-error', role: 'alert', text: String(err?.message ?? err) }));
  }

  async #render() {
    const token = ++this.#token;
    adoptStylesInto(this.shadowRoot, base());   // again after a disconnect
    const id = this.getAttribute('section') ?? '';
    const lang = languageFor(this);
    const entry = sections.find((s) => s.id === id);
    const text = await loadLanguage(lang, entry ? [id] : []);
    if (token !== this.#token) return;
    const c = text.common;
    this.#body.lang = lang;
    if (!entry) {
      const known = sections.map((s) => s.id).join(', ');
      this.#replaceBody(h('p', { class: 'input-error', role: 'alert',
        text: interpolate(c.embed.unknownSection, { id: excerpt(id), ids: known }) }));
      return;
    }
    if (!this.#body.firstChild || this.#body.dataset.section !== id) {
      this.#replaceBody(h('p', { class: 'section-loading', text: c.engine.sectionLoading }));
    }
    entry.load().catch(() => {});   // in parallel with the engine; a failure is shown by mountSection
    const engine = await createAttention({ ...(entry.widgetBuild ? { build: entry.widgetBuild } : {}), learning: entry.learning ?? false });
    if (token !== this.#token) return;

    // The section's inputs are its attributes; a change of them starts it afresh.
    const names = entry.params ?? [];
    const inputsKey = JSON.stringify([id, names.map((n) => this.getAttribute(n))]);
    if (inputsKey !== this.#inputsKey) {
      this.#store = {};
      this.#inputsKey = inputsKey;
    }

    const t = text.t(id);
    const titleId = uid('ad-title');
    const root = h('div', { class: 'ad-section' });
    this.#mounted?.destroy();
    this.#body.dataset.section = id;
    this.#replaceBody(
      h('section', { class: 'ad-frame', 'aria-labelledby': titleId },
        html('h2', { class: 'ad-title', id: titleId }, t('title')),
        root));
    this.#mounted = await mountSection(root, {
      entry, engine, text, store: this.#store, current: () => token === this.#token,
      read: (name) => this.getAttribute(name),
      write: (pairs) => this.dispatchEvent(new CustomEvent('attention-change', { detail: { section: id, params: Object.fromEntries(pairs) } })),
    });
    if (token !== this.#token) return;
    this.#pointLinksAtWalkthrough(root);
    this.dataset.ready = lang;   // for tests and hosts: rendered and computed
    this.dispatchEvent(new CustomEvent('attention-ready', { detail: { section: id, lang, simd: engine.simd } }));
  }

  // "(section 5)" is #masking on the page; in a widget it opens the page of
  // the single file that holds it.
  #pointLinksAtWalkthrough(root) {
    const base = AttentionDemo.walkthroughUrl;
    for (const a of root.querySelectorAll('a[href^="#"]')) {
      if (!base) {
        a.replaceWith(...a.childNodes);
        continue;
      }
      a.href = addressIn(new URL(base, document.baseURI).href, a.getAttribute('href').slice(1));
      a.target = '_blank';
      a.rel = 'noopener';
    }
  }
}

if (!customElements.get('attention-demo')) customElements.define('attention-demo', AttentionDemo);
