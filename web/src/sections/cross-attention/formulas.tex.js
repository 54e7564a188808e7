// Static formulas of section 7 (TeX, rendered to MathML at build time).
export default {
  cross: String.raw`\begin{gathered} \roleq{Q} = X_{\mathrm{dec}}\roleq{W^Q}, \quad \rolek{K} = X_{\mathrm{enc}}\rolek{W^K}, \quad \rolev{V} = X_{\mathrm{enc}}\rolev{W^V} \\ \underbrace{\mathrm{softmax}\!\left(\frac{\roleq{Q}\rolek{K}^{\top}}{\sqrt{d_k}}\right)}_{n \times m}\rolev{V} \end{gathered}`,
};
