// Section 5 text (English). HTML allowed; $...$ is TeX; {name} filled at run time.
const R = String.raw;

export default {
  title: R`Masking: $-\infty$ before the softmax`,
  lede: R`A mask decides which keys each query may look at. A decoder writing a sentence word by word must not peek at words it has not written yet (a <b>causal</b> mask); sentences padded to a common length must not attend to the padding (a <b>padding</b> mask). Both work the same way: masked scores are set to $-\infty$ before the softmax. Since $e^{-\infty} = 0$, their weights are exactly 0, and the remaining weights of the row are renormalised to sum to 1.`,
  formula: R`$$\begin{gathered}w_{ij} = \frac{\exp(s_{ij} + M_{ij})}{\sum_{l} \exp(s_{il} + M_{il})} \\[0.6em] M_{ij} = \begin{cases} 0 & \text{if query } i \text{ may see key } j \\ -\infty & \text{if it is masked} \end{cases}\end{gathered}$$`,
  panelTitle: 'Five tokens, one mask',
  tokens: ['I', 'am', 'very', 'hungry', '[PAD]'],
  controls: { mode: 'Mask' },
  modes: { none: 'None', causal: 'Causal', padding: 'Padding', custom: 'Custom' },
  modeNotes: {
    none: 'No mask: every query sees every key, the padding included.',
    causal: R`Causal: query $i$ sees keys $1$ to $i$ — itself and what came before. The upper triangle is masked.`,
    padding: 'Padding: the last token, [PAD], only fills the sequence up to a common length. No query may attend to it, so its column is masked.',
    custom: 'Custom: your own keep-matrix, sent to the engine cell by cell.',
  },
  hint: 'Click a weight cell to mask or unmask it — or move with the arrow keys and press Enter or Space.',
  error: 'The engine refused this mask: {message}',
  matrices: {
    scaled: R`Scaled scores $S = \roleq{Q}\rolek{K}^\top/\sqrt{d_k}$`,
    masked: R`Masked scores $S + \rolem{M}$`,
    weights: 'Weights — click a cell to mask it',
    rowAxis: 'query ↓',
    colAxis: 'key →',
    output: 'Output',
  },
  cell: {
    open: '{weight}: {query} looks at {key}. Press to mask.',
    masked: '0: {query} looks at {key}, masked. Press to unmask.',
  },
  emptyRow: R`<strong>“{token}”: every key is masked.</strong> All its exponentials are $e^{-\infty} = 0$, so their sum is 0 and the softmax would be $0/0$. The engine returns zero weights and a zero output for this query instead of NaN.`,
  breakdown: {
    title: 'One row of the softmax, written out',
    row: 'Query',
    masked: R`masked score $s_j + M_j$`,
    exp: R`exponential $e^{s_j + M_j}$`,
    weight: R`weight $w_j$`,
    sum: 'sum',
    note: R`In the row of “{token}”, each masked key adds $e^{-\infty} = 0$ to the sum ({sum}); dividing by that sum renormalises the open weights to 1.`,
    allMasked: R`In the row of “{token}” every key is masked: the sum of exponentials is 0, and the engine sets every weight to 0 instead of dividing by zero.`,
  },
  after: R`<p>The mask acts on the scores, not on the weights. Zeroing weights after the softmax would leave rows that no longer sum to 1; setting scores to $-\infty$ before it lets the softmax renormalise by itself. In a Transformer the causal mask sits in the decoder’s self-attention (<a href="#cross-attention">section {§cross-attention}</a>); padding masks appear wherever sequences of different lengths share a batch.</p>`,
};
