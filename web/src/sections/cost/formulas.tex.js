// Static formulas of section 10, as TeX (MathML at build time).
export default {
  cost: String.raw`\underbrace{\roleq{Q}\rolek{K}^{\top}}_{n^2\ \text{dot products of length } d}\;\longrightarrow\;\underbrace{\operatorname{softmax}}_{n^2\ \text{exponentials}}\;\longrightarrow\;\underbrace{A\,\rolev{V}}_{n\,d\ \text{sums of } n\ \text{terms}}\qquad 4n^2d+O(n^2)=O(n^2 d)`,
};
