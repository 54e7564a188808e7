// The site's two pages and which sections each shows (registry.js `page`):
//
//   walkthrough   index.html    the walkthrough (every section without `page`)
//   learns        learns.html   "How attention learns" (the sections with page: 'learns')
//
// Each page numbers its own sections from 1 and has its own table of contents;
// "section {§id}" in a text is the number of `id` on its own page, so a text
// that points to the other page says which ("section {§order} of the
// walkthrough"). A link to a section, <a href="#order">, is written the same
// whatever page the text is on: the page rewrites it to the other page's
// address where the section lives there (sectionHref). <a href="#learns"> and
// <a href="#walkthrough"> point to the top of a page.
//
// The single file (dist/attention.html, web/vite-plugins/single-file.js) holds
// both pages: ?page=learns shows the second (any page honours it, so that a
// widget's links, which open the single file, can name it).
import { sections } from './registry.js';

export const PAGES = Object.freeze({
  // `file`: its address next to the other page; `learning`: the engine the page
  // loads first (createAttention's `learning`: its sections' module), before
  // the sections that need another; `roles`: its hero shows the colours of
  // query, key, value, output and mask, which its sections use.
  walkthrough: Object.freeze({ file: './', learning: false, roles: true }),
  learns: Object.freeze({ file: 'learns.html', learning: true, roles: false }),
});
export const PAGE_NAMES = Object.freeze(Object.keys(PAGES));
export const DEFAULT_PAGE = 'walkthrough';

export const pageOf = (entry) => entry.page ?? DEFAULT_PAGE;
export const sectionsOf = (page) => sections.filter((s) => pageOf(s) === page);

// Each section's number on its own page, from 1: id -> number (for {§id}).
export const SECTION_NUMBERS = Object.freeze(Object.fromEntries(
  PAGE_NAMES.flatMap((page) => sectionsOf(page).map((s, i) => [s.id, i + 1]))));

// The page to show: ?page=<name> where it names one (the single file), else
// the page's own (<body data-page="learns">), else the walkthrough.
export function choosePage(search = '', own = '') {
  const asked = new URLSearchParams(search).get('page');
  if (Object.hasOwn(PAGES, asked)) return asked;
  return Object.hasOwn(PAGES, own) ? own : DEFAULT_PAGE;
}

// The address of `page` in `lang`, from a page of the site (`singleFile`
// false: learns.html, ./) or of the single file (its own address with ?page=).
export function pageAddress(page, { lang, singleFile = false }) {
  const query = new URLSearchParams();
  if (singleFile && page !== DEFAULT_PAGE) query.set('page', page);
  if (lang) query.set('lang', lang);
  const search = query.size ? `?${query}` : '';
  return singleFile ? search || '?' : `${PAGES[page].file}${search}`;
}

// Where <a href="#target"> goes when read on page `from`: null (left as
// written) for a section of `from` or an unknown id; the other page's address
// (with the section as its hash) for a section there; a page's address for
// #walkthrough or #learns.
export function sectionHref(target, { from, lang, singleFile = false }) {
  if (Object.hasOwn(PAGES, target)) return target === from ? '#main' : pageAddress(target, { lang, singleFile });
  const entry = sections.find((s) => s.id === target);
  if (!entry || pageOf(entry) === from) return null;
  return `${pageAddress(pageOf(entry), { lang, singleFile })}#${target}`;
}

// The same link in a widget, which opens the single file at `base` (an
// absolute address: AttentionDemo.walkthroughUrl) on the page that holds `target`.
export function addressIn(base, target) {
  const isPage = Object.hasOwn(PAGES, target);
  const entry = isPage ? null : sections.find((s) => s.id === target);
  const page = isPage ? target : entry ? pageOf(entry) : DEFAULT_PAGE;
  const url = new URL(base);
  if (page !== DEFAULT_PAGE) url.searchParams.set('page', page);
  url.hash = isPage ? '' : target;
  return url.href;
}
