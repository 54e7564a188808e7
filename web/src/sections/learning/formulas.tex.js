// Static formulas of section "learning", as TeX (MathML at build time).
export default {
  model: String.raw`\begin{gathered}\rolek{C}=E[x]+\mathrm{PE}\\ Y=\roleq{P}+\operatorname{MultiHead}(\roleq{P},\rolek{C},\rolev{C})\\ \hat y_t=\operatorname{softmax}(Y_t W+b)\end{gathered}`,
  loss: String.raw`L=-\frac{1}{BT}\sum_{b=1}^{B}\sum_{t=1}^{T}\ln \hat y_{b,t}\big[y_{b,t}\big]`,
};
