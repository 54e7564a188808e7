// Static formulas of section "induction", as TeX (MathML at build time).
export default {
  // The attention-only decoder: each layer adds its heads' outputs to the residual stream.
  model: String.raw`\begin{gathered}x^{(0)}_i=E[t_i]+\mathrm{PE}_i\\ x^{(\ell)}=x^{(\ell-1)}+\sum_{h}A^{(\ell,h)}\,x^{(\ell-1)}\rolev{W_V^{(\ell,h)}}W_O^{(\ell,h)}\\ A^{(\ell,h)}=\operatorname{softmax}\Big(\operatorname{causal}\big(x^{(\ell-1)}\roleq{W_Q^{(\ell,h)}}\,(x^{(\ell-1)}\rolek{W_K^{(\ell,h)}})^{\top}/\sqrt{d_k}\big)\Big)\\ \hat y_i=\operatorname{softmax}\big(x^{(L)}_i W_U\big)\end{gathered}`,
  // headScores(): the two scores of a head's weights A (rows i read token t_i).
  scores: String.raw`\begin{gathered}\text{previous token}=\operatorname*{mean}_{i}\,A_{i,\,i-1}\\ \text{prefix match}=\operatorname*{mean}_{i\,:\,\exists j<i,\ t_j=t_i}\ \sum_{j<i,\ t_j=t_i}A_{i,\,j+1}\end{gathered}`,
  // The circuit: layer 1 copies the previous token into position j+1; layer 2 finds it by content.
  circuit: String.raw`\underbrace{\ldots\,t_j\;t_{j+1}\,\ldots}_{\text{first time}}\ \ldots\ \underbrace{t_i}_{=\,t_j}\ \longrightarrow\ \hat y_i=t_{j+1}`,
};
