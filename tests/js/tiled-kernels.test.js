// The tiled path's register-blocked kernels in WebAssembly (cpp/src/kernels/:
// the query block transposed with its rows along the lanes; tiles of 4 keys or
// features x 8 query rows in the SIMD build, one lane in the baseline; blocks of
// 64 queries x 64 keys), against the double-precision reference at every edge
// of a tile and of a block: query counts around the vector (4), the tile (8)
// and the block (64), key counts around the tile height (4) and the block,
// widths 1 to 65; every mask kind, hostile score sizes.
import { describe, it } from 'vitest';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, randomMatrix, seededRandom } from './engine-helpers.js';

const QUERIES = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 129];
const KEYS = [1, 2, 3, 4, 5, 63, 64, 65, 130];
const WIDTHS = [1, 5, 16, 64, 65];

describe.each(['simd', 'baseline'])('the %s build\'s tiled path against the reference', (build) => {
  it('at the edges of the tiles and the blocks, with every mask kind', async () => {
    const engine = await createTestingEngine({ build });
    const random = seededRandom(11);
    let trial = 0;
    for (const n of QUERIES) {
      for (const m of KEYS) {
        const dk = WIDTHS[trial % WIDTHS.length], dv = WIDTHS[(trial * 3 + 1) % WIDTHS.length];
        const keep = new Uint8Array(n * m).map(() => (random() < 0.6 ? 1 : 0));
        const mask = [undefined, 'causal', { validKeys: Math.ceil(m / 2) }, keep][trial % 4];
        const args = { q: randomMatrix(random, n, dk), k: randomMatrix(random, m, dk), v: randomMatrix(random, m, dv),
          n, m, dk, dv, mask };
        const label = `${build} n=${n} m=${m} dk=${dk} dv=${dv} mask ${trial % 4}`;
        expectClose(engine.attentionOutput({ ...args, path: 'tiled' }),
          engine.attentionOutput({ ...args, path: 'reference' }), label);
        trial += 1;
      }
    }
  });

  it('with scores in the hundreds (the running max rises block after block) and near the float limit', async () => {
    const engine = await createTestingEngine({ build });
    const random = seededRandom(12);
    for (const [n, m, spread] of [[9, 130, 30], [65, 65, 30], [5, 200, 1e17]]) {
      const d = 4;
      const k = randomMatrix(random, m, d, spread);
      for (let j = 0; j < m; j++) k[j * d] += j * spread / 10;   // later keys score higher
      const args = { q: randomMatrix(random, n, d, spread), k, v: randomMatrix(random, m, d), n, m, dk: d, dv: d };
      expectClose(engine.attentionOutput({ ...args, path: 'tiled' }),
        engine.attentionOutput({ ...args, path: 'reference' }), `${build} n=${n} m=${m} spread ${spread}`);
    }
  });
});
