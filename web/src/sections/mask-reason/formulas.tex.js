// Static formulas of section "mask-reason", as TeX (MathML at build time): the
// decoder's self-attention with the causal mask (cpp/src/attention, mask 'causal').
export default {
  mask: String.raw`\begin{aligned} A&=\operatorname{softmax}\!\Big(\frac{\roleq{Q}\rolek{K}^{\top}}{\sqrt{d_k}}+M\Big)\\ M_{ij}&=\begin{cases}0 & j\le i\\ -\infty & j>i\end{cases}\end{aligned}`,
};
