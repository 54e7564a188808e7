// Static formulas of section "positions-trained", as TeX (MathML at build
// time): a token's input with its position (cpp/src/positional_encoding.cpp,
// the sinusoids of Vaswani et al. 2017; 'learned': p_i a trained vector).
export default {
  input: String.raw`\begin{aligned} x_i&=\operatorname{embed}(\text{token}_i)+p_i\\ p_{i,2k}&=\sin\!\big(i/10000^{2k/d}\big),\quad p_{i,2k+1}=\cos\!\big(i/10000^{2k/d}\big)\end{aligned}`,
};
