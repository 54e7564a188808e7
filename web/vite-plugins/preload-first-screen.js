// Each page's first screen sooner: links in the HTML's head that start, in
// parallel with the page's own script, the downloads its first section waits
// for: the engine's SIMD build of the page's module (its Emscripten module and
// the .wasm, streamed and compiled as it arrives: the walkthrough's without
// learning, the second page's with every model; src/sections/pages.js,
// PAGES), the first section's code and its text and the common text in both
// languages. Without them the .wasm was requested only once the module graph
// had loaded. The build without SIMD is not preloaded: only browsers without
// SIMD fetch it.
//
//   plugins: [preloadFirstScreen()]          // every page of src/sections/pages.js
//   plugins: [preloadFirstScreen({ pages: { 'index.html': { learning: false, sections: ['worked-example'] } } })]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileStem } from '../src/engine/load-build.js';

const isEntryOf = (chunk, suffix) => chunk.type === 'chunk' && chunk.facadeModuleId?.replace(/\\/g, '/').endsWith(suffix);

// What each page's HTML file preloads: { 'index.html': { learning, sections: [first id] }, ... },
// read from src/sections/pages.js at build time (not bundled with the config:
// the registry's sections import CSS).
export async function firstScreens(web = resolve(import.meta.dirname, '..')) {
  const { PAGES, PAGE_NAMES, sectionsOf } = await import(/* @vite-ignore */ pathToFileURL(resolve(web, 'src', 'sections', 'pages.js')).href);
  return Object.fromEntries(PAGE_NAMES.map((name) => {
    const file = PAGES[name].file === './' ? 'index.html' : PAGES[name].file;
    return [file, { learning: PAGES[name].learning, sections: sectionsOf(name).slice(0, 1).map((s) => s.id) }];
  }));
}

export function preloadFirstScreen({ pages, languages = ['en', 'ko'] } = {}) {
  let screens = pages ?? null;
  return {
    name: 'attention:preload-first-screen',
    apply: 'build',
    async buildStart() { screens ??= await firstScreens(); },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const page = Object.keys(screens).find((file) => ctx.path?.endsWith(`/${file}`));
        if (!ctx.bundle || !page) return html;
        const { learning, sections } = screens[page];
        const stem = fileStem('simd', learning);
        const files = Object.values(ctx.bundle);
        const modules = [
          `/engine/wasm/${stem}.mjs`,
          ...sections.map((id) => `/sections/${id}/index.js`),
          ...languages.flatMap((lang) => ['common', ...sections].map((name) => `/i18n/${lang}/${name}.js`)),
        ].map((suffix) => files.find((f) => isEntryOf(f, suffix))).filter(Boolean);
        const wasm = files.find((f) => f.type === 'asset' && new RegExp(`^(?:.*/)?${stem}-[\\w-]+\\.wasm$`).test(f.fileName));
        const href = (fileName) => `./${fileName}`;
        return [
          ...(wasm ? [{ tag: 'link', attrs: { rel: 'preload', href: href(wasm.fileName), as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head' }] : []),
          ...modules.map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', href: href(chunk.fileName), crossorigin: '' }, injectTo: 'head' })),
        ];
      },
    },
  };
}
