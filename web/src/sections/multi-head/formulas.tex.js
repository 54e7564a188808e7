// Static formulas of section 6 (TeX, rendered to MathML at build time).
export default {
  heads: String.raw`\begin{aligned} \mathrm{head}_i &= \mathrm{Attention}\big(X\roleq{W_i^Q},\; X\rolek{W_i^K},\; X\rolev{W_i^V}\big) \\ \roleo{\mathrm{MultiHead}(X)} &= \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, \roleo{W^O} \\ d_k = d_v &= d_{\mathrm{model}} / h \end{aligned}`,
  cost: String.raw`h \cdot 2n^2 d_k \;=\; h \cdot 2n^2 \frac{d_{\mathrm{model}}}{h} \;=\; 2n^2 d_{\mathrm{model}}`,
};
