// Static formulas of section "family-trained", as TeX (MathML at build time):
// the variants as the core computes them (cpp/src/models/bahdanau_model.cpp,
// luong_model.cpp, layers/local_window.hpp), in the article's notation for
// Luong (decoder state h_t, encoder states h̄_s).
export default {
  bahdanau: String.raw`e_{tj}=v_a^{\top}\tanh\!\big(W_a\roleq{s_{t-1}}+U_a\rolek{h_j}\big),\qquad s_t=\operatorname{GRU}\big([y_{t-1};\roleo{c_t}],\,s_{t-1}\big)`,
  luong: String.raw`\begin{aligned} h_t&=\operatorname{GRU}(\mathrm{input}_t,\,h_{t-1}),\qquad \operatorname{score}(\roleq{h_t},\rolek{\bar h_s})=\begin{cases}\roleq{h_t}^{\top}\rolek{\bar h_s} & \textit{dot}\\ \roleq{h_t}^{\top}W_a\rolek{\bar h_s} & \textit{general}\\ v_a^{\top}\tanh\!\big(W_a\roleq{h_t}+U_a\rolek{\bar h_s}\big) & \textit{concat}\end{cases}\\ \roleo{c_t}&=\sum_{s}a_{ts}\,\rolev{\bar h_s},\qquad \tilde h_t=\tanh\!\big(W_c[\roleo{c_t};\roleq{h_t}]\big)\end{aligned}`,
  local: String.raw`p_t=S\cdot\sigma\!\big(v_p^{\top}\tanh(W_p\roleq{h_t})\big),\qquad a_{ts}\leftarrow a_{ts}\exp\!\Big(-\frac{(s-p_t)^2}{2\sigma^2}\Big),\quad \sigma=\frac{D}{2}`,
  feeding: String.raw`\mathrm{input}_t=[y_{t-1};\tilde h_{t-1}]\quad\text{(with input feeding)},\qquad \mathrm{input}_t=y_{t-1}\quad\text{(without)}`,
};
