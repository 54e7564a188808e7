// Loads language modules: i18n/<lang>/common.js and one module per section,
// i18n/<lang>/<section-id>.js. Each is its own small chunk, fetched on demand,
// so switching language loads only the other language's text.
import { translator } from './lookup.js';
import { SECTION_NUMBERS } from '../sections/pages.js';

export { LANGUAGES, chooseLanguage } from './lookup.js';

const modules = import.meta.glob('./*/*.js');

export function hasStrings(lang, name) {
  return `./${lang}/${name}.js` in modules;
}

// Resolves to the strings of `name` in `lang` (an empty object if that
// module does not exist).
export async function loadStrings(lang, name) {
  const load = modules[`./${lang}/${name}.js`];
  return load ? (await load()).default : {};
}

// { common, sections: { id: strings } } for one language. t(id) numbers the
// sections by their place on their own page ({§id}: src/sections/pages.js)
// and rewrites the links to sections of another page by `hrefOf` (id ->
// address or null; lookup.js, linkSections).
export async function loadLanguage(lang, sectionIds, { hrefOf = null } = {}) {
  const [common, ...rest] = await Promise.all([
    loadStrings(lang, 'common'),
    ...sectionIds.map((id) => loadStrings(lang, id)),
  ]);
  const sections = Object.fromEntries(sectionIds.map((id, i) => [id, rest[i]]));
  return { lang, common, sections, t: (id) => translator(sections[id] ?? {}, common, SECTION_NUMBERS, hrefOf) };
}
