// Static formulas of section "bottleneck", as TeX (MathML at build time): the
// two models as the core computes them (cpp/src/models/rnn_model.cpp,
// bahdanau_model.cpp), in the walkthrough's role colours.
export default {
  plain: String.raw`\begin{aligned} h_j&=\operatorname{GRU}(x_j,\,h_{j-1}),\qquad \roleo{c}=h_S\\ s_0&=\roleo{c},\qquad s_t=\operatorname{GRU}(y_{t-1},\,s_{t-1})\\ p(y_t)&=\operatorname{softmax}(W s_t+b)\end{aligned}`,
  attentive: String.raw`\begin{aligned} e_{tj}&=v_a^{\top}\tanh\!\big(W_a\roleq{s_{t-1}}+U_a\rolek{h_j}\big),\qquad \alpha_{tj}=\frac{\exp(e_{tj})}{\sum_{k}\exp(e_{tk})}\\ \roleo{c_t}&=\sum_{j=1}^{S}\alpha_{tj}\,\rolev{h_j},\qquad s_t=\operatorname{GRU}\big([y_{t-1};\roleo{c_t}],\,s_{t-1}\big)\end{aligned}`,
};
