// The page's first screen sooner: links in index.html's head that start, in
// parallel with the page's own script, the downloads the worked example waits
// for: the engine's SIMD build (its Emscripten module and the .wasm, streamed
// and compiled as it arrives), section 1's code and its text in both languages.
// Without them the .wasm was requested only once the module graph had loaded.
// The build without SIMD is not preloaded: only browsers without SIMD fetch it.
//
//   plugins: [preloadFirstScreen({ sections: ['worked-example'] })]
const isEntryOf = (chunk, suffix) => chunk.type === 'chunk' && chunk.facadeModuleId?.replace(/\\/g, '/').endsWith(suffix);

export function preloadFirstScreen({ sections = ['worked-example'], languages = ['en', 'ko'] } = {}) {
  return {
    name: 'attention:preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.path?.endsWith('/index.html')) return html;   // the walkthrough page only
        const files = Object.values(ctx.bundle);
        const modules = [
          '/engine/wasm/attention-simd.mjs',
          ...sections.map((id) => `/sections/${id}/index.js`),
          ...languages.flatMap((lang) => ['common', ...sections].map((name) => `/i18n/${lang}/${name}.js`)),
        ].map((suffix) => files.find((f) => isEntryOf(f, suffix))).filter(Boolean);
        const wasm = files.find((f) => f.type === 'asset' && /attention-simd-[\w-]+\.wasm$/.test(f.fileName));
        const href = (fileName) => `./${fileName}`;
        return [
          ...(wasm ? [{ tag: 'link', attrs: { rel: 'preload', href: href(wasm.fileName), as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head' }] : []),
          ...modules.map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', href: href(chunk.fileName), crossorigin: '' }, injectTo: 'head' })),
        ];
      },
    },
  };
}
