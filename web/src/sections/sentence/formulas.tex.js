// Static formulas of section 4 (TeX, rendered to MathML at build time).
export default {
  steps: String.raw`\begin{aligned} \roleq{Q} = \rolek{K} = \rolev{V} &= X \\ A &= \frac{\roleq{Q}\rolek{K}^{\top}}{\sqrt{d_k}} \\ N &= \mathrm{softmax}(A) \\ \roleo{\mathrm{Attention}(Q, K, V)} &= N\,\rolev{V} \end{aligned}`,
};
