// Static formulas of section 9, as TeX (MathML at build time).
export default {
  equivariance: String.raw`\begin{aligned}\operatorname{Attention}(PX)&=\operatorname{softmax}\!\left(\frac{P X X^{\top} P^{\top}}{\sqrt{d}}\right) P X\\&=P\,\operatorname{softmax}\!\left(\frac{X X^{\top}}{\sqrt{d}}\right) P^{\top} P X\\&=P\,\operatorname{Attention}(X)\end{aligned}`,
  encoding: String.raw`\begin{aligned}\mathrm{PE}_{(pos,\,2i)}&=\sin\!\left(pos/10000^{2i/d}\right)\\ \mathrm{PE}_{(pos,\,2i+1)}&=\cos\!\left(pos/10000^{2i/d}\right)\end{aligned}`,
};
