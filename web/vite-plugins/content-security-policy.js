// The Content-Security-Policy the site ships, and the Vite plugin that puts it
// into every page it builds as <meta http-equiv="Content-Security-Policy">,
// so that any static host enforces it (a header needs the host's help).
// scripts/lib/serve.mjs sends the same policy as a header (npm start, the
// end-to-end tests). The single file (dist/attention.html) gets a policy of
// its own with the hashes of its inline script and style
// (./single-file.js, singleFilePolicy).
//
//   script-src 'self' 'wasm-unsafe-eval'   the page's own modules; compiling the .wasm
//   style-src 'self'                       its stylesheets; no inline style anywhere
//                                          (components set styles through CSSOM, and
//                                          temml's style attributes become classes:
//                                          ./prerender-math.js)
//   worker-src 'self'                      the sections' module workers (scaling, cost, ...)
//   img-src, font-src 'self' data:         the data: favicon
//   object-src, base-uri, form-action      nothing
// (frame-ancestors cannot be set from <meta>: a host that wants it sends a header.)
export const SITE_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "worker-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const META = /<meta http-equiv="Content-Security-Policy"[^>]*>\s*/gi;

// `html` with `policy` as the first element of its <head> (before any script
// or style, where a <meta> policy must come), replacing any policy it had.
export function withPolicy(html, policy) {
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const page = html.replace(META, '');
  if (!/<head>/i.test(page)) throw new Error('content-security-policy: the page has no <head>');
  return page.replace(/<head>(\s*)/i, (_, space) => `<head>${space}${tag}${space}`);
}

// Vite plugin: every HTML page of the build gets SITE_POLICY (not the dev server).
export function contentSecurityPolicy(policy = SITE_POLICY) {
  return {
    name: 'attn-content-security-policy',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html) => withPolicy(html, policy) },
  };
}
