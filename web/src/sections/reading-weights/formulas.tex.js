// Static formulas of section 3, as TeX (MathML at build time).
export default {
  weights: String.raw`\begin{gathered} \roleq{Q}=\rolek{K}=\rolev{V}=X\\ A=\operatorname{softmax}\!\left(\frac{X X^{\top}}{\sqrt{d}}\right),\qquad \roleo{\operatorname{Attention}(X)}=A\,X\end{gathered}`,
  dot: String.raw`\roleq{x_i}\cdot\rolek{x_j}=\lVert x_i\rVert\,\lVert x_j\rVert\cos\theta_{ij}`,
  symmetric: String.raw`\begin{aligned} L&=\roleq{Q}\rolek{K}^{\top}=XX^{\top}\\ L^{\top}&=\left(XX^{\top}\right)^{\top}=XX^{\top}=L\end{aligned}`,
  asymmetric: String.raw`\begin{aligned} L&=(XW_Q)(XW_K)^{\top}\\ &=X\,W_QW_K^{\top}X^{\top}\\ L^{\top}&=X\,W_KW_Q^{\top}X^{\top}\neq L\end{aligned}`,
  measure: String.raw`\frac{\lVert L-L^{\top}\rVert_F}{\lVert L\rVert_F}`,
};

export const inline = {
  embeddings: String.raw`X=c\,M`,
};
