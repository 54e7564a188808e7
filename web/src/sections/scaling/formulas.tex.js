// Static formulas of section 2, as TeX (MathML at build time).
export default {
  mean: String.raw`\mathbb{E}\big[\roleq{q}\cdot\rolek{k}\big]=\sum_{i=1}^{d_k}\mathbb{E}[q_i]\,\mathbb{E}[k_i]=0`,
  variance: String.raw`\operatorname{Var}\big[\roleq{q}\cdot\rolek{k}\big]=\sum_{i=1}^{d_k}\operatorname{Var}[q_i k_i]=\sum_{i=1}^{d_k}\mathbb{E}\big[q_i^2\big]\,\mathbb{E}\big[k_i^2\big]=d_k`,
  scaled: String.raw`\operatorname{Var}\!\left[\frac{\roleq{q}\cdot\rolek{k}}{\sqrt{d_k}}\right]=\frac{1}{d_k}\operatorname{Var}\big[\roleq{q}\cdot\rolek{k}\big]=1`,
  jacobian: String.raw`\frac{\partial p_i}{\partial s_j}=p_i\,(\delta_{ij}-p_j),\qquad \operatorname{tr}J=\sum_{i} p_i\,(1-p_i)`,
  entropy: String.raw`H(p)=-\sum_{j=1}^{m} p_j\ln p_j\;\le\;\ln m`,
};
