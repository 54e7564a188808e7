// Static formulas of section 1, as TeX. Rendered to MathML at build time
// (display formulas, and the `inline` ones used as row labels).
export default {
  attention: String.raw`\mathrm{Attention}(\roleq{Q},\rolek{K},\rolev{V})=\mathrm{softmax}\!\left(\frac{\roleq{Q}\rolek{K}^{\top}}{\sqrt{d_k}}\right)\rolev{V}`,
  // article 000's column form: tokens as columns, Q d_k x n, K d_k x m, V d_v x m
  attentionColumns: String.raw`\mathrm{Attention}(\roleq{Q},\rolek{K},\rolev{V})=\rolev{V}\,\mathrm{Softmax}\!\left(\frac{\rolek{K}^{\top}\roleq{Q}}{\sqrt{d_k}}\right)`,
  perKey: String.raw`\begin{aligned} s_j &= \frac{\roleq{q}\cdot\rolek{k_j}}{\sqrt{d_k}} \\ w_j &= \frac{e^{s_j}}{\sum_{l} e^{s_l}} \\ \roleo{o} &= \sum_{j} w_j\,\rolev{v_j} \end{aligned}`,
};

export const inline = {
  dot: String.raw`\roleq{q}\cdot\rolek{k_j}`,
  scaled: String.raw`s_j=\frac{\roleq{q}\cdot\rolek{k_j}}{\sqrt{d_k}}`,
  unscaled: String.raw`s_j=\roleq{q}\cdot\rolek{k_j}`,
  exp: String.raw`e^{s_j}`,
  expStable: String.raw`e^{s_j-\max_l s_l}`,
  weight: String.raw`w_j=\frac{e^{s_j}}{\sum_l e^{s_l}}`,
  mix: String.raw`w_j\,\rolev{v_j}`,
};
