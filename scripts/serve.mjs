// npm start's server: serves a folder (dist/) on 127.0.0.1 with the
// Content-Security-Policy the page must work under (scripts/lib/serve.mjs).
//   node scripts/serve.mjs [dir=dist] [port=8080]     (port 0 = any free port)
import { serve } from './lib/serve.mjs';

const [dir = 'dist', port = '8080'] = process.argv.slice(2);
const { url } = await serve(dir, Number(port));
console.log(`Serving ${dir}/ at ${url}  (Ctrl+C to stop)`);
