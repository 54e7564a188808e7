// Static formulas of section "gradients", as TeX (MathML at build time).
export default {
  forward: String.raw`S=c\,\roleq{Q}\rolek{K}^{\top},\qquad P=\operatorname{softmax}(S),\qquad \roleo{O}=P\,\rolev{V},\qquad c=\tfrac{1}{\sqrt{d_k}}\ \text{or}\ 1`,
  backward: String.raw`\begin{aligned} d\rolev{V}&=P^{\top}d\roleo{O}, & dP&=d\roleo{O}\,\rolev{V}^{\top},\\ dS_{ij}&=P_{ij}\big(dP_{ij}-D_i\big), & D_i&=\textstyle\sum_j P_{ij}\,dP_{ij},\\ d\roleq{Q}&=c\;dS\,\rolek{K}, & d\rolek{K}&=c\;dS^{\top}\roleq{Q}\end{aligned}`,
  jacobian: String.raw`\frac{\partial p_i}{\partial s_j}=p_i\,(\delta_{ij}-p_j),\qquad J=\operatorname{diag}(p)-p\,p^{\top},\qquad dS_{i\cdot}=J\,dP_{i\cdot}`,
};
