// One section mounted into a host element, the same way on the page
// (src/main.js) and in a widget (src/embed/attention-demo.js):
//
//   const mounted = await mountSection(root, {
//     entry,    // the section's line in registry.js: { id, load }
//     engine, text,   // text: loadLanguage(...) (src/i18n/index.js)
//     store,    // survives a re-mount (a language switch): the section keeps its state in it
//     read,     // name -> text or null: the section's inputs as text (URL parameters, attributes)
//     write,    // [[name, text], ...] -> void: the reader changed an input (the host writes
//               // the URL or fires attention-change); only states that read back, once each
//     current,  // () -> false once the host no longer wants this mount (a newer render)
//   });
//   mounted.rejected   // names of malformed inputs (a notice names them; defaults are used)
//   mounted.pairs()    // the section's inputs now, as text: [[name, text], ...] (defaults left out)
//   mounted.destroy()
//
// The section's codec (src/sections/<id>/params.js via src/lib/params.js)
// turns `read` into the starting state and the state back into text. A section
// that throws while mounting shows its message instead (the rest of the page
// keeps working), and so does a section whose code cannot be loaded.
import { h } from '../lib/dom.js';
import { interpolate } from '../i18n/lookup.js';
import { decodeSection, encodeSection } from '../lib/params.js';
import { showFullValues } from '../lib/full-value.js';

const showError = (root, err) => {
  console.error(err);
  root.replaceChildren(h('p', { class: 'input-error', role: 'alert', text: String(err?.message ?? err) }));
};

export async function mountSection(root, { entry, engine, text, store, read, write, current = () => true }) {
  const { id } = entry;
  let module;
  try {
    module = (await entry.load()).default;
  } catch (err) {
    if (current()) showError(root, err);
    return null;
  }
  if (!current()) return null;
  const codec = module.params;
  const c = text.common;
  let initial;
  let rejected = [];
  if (codec) ({ state: initial, rejected } = decodeSection(codec, read));
  root.replaceChildren();
  showFullValues(root);   // rounded numbers' tooltips
  if (rejected.length) {
    root.append(h('p', { class: 'share-notice', role: 'status', text: interpolate(c.share.invalid, { names: rejected.join(', ') }) }));
  }

  let written = codec ? encodeSection(codec, initial) : [];
  let last = JSON.stringify(written);
  const onChange = codec && write ? (state) => {
    const pairs = encodeSection(codec, state);
    // A state that would not read back (a number being typed) is not written.
    const readBack = decodeSection(codec, (name) => pairs.find(([k]) => k === name)?.[1] ?? null);
    if (readBack.rejected.length) return;
    const key = JSON.stringify(pairs);
    if (key === last) return;
    last = key;
    written = pairs;
    write(pairs);
  } : undefined;

  let instance = null;
  try {
    instance = module.mount(root, { engine, lang: text.lang, t: text.t(id), common: c, store, initial, onChange });
  } catch (err) {
    showError(root, err);
  }
  return {
    rejected,
    pairs: () => written,
    destroy() { instance?.destroy?.(); },
  };
}
