// Static formulas of section 8, as TeX (MathML at build time).
export default {
  steps: String.raw`\begin{aligned} e_{tj}&=a\big(\roleq{s_{t-1}},\rolek{h_j}\big)\\ \alpha_{tj}&=\frac{\exp(e_{tj})}{\sum_{k}\exp(e_{tk})}\\ \roleo{c_t}&=\sum_{j}\alpha_{tj}\,\rolev{h_j}\end{aligned}`,
  luong: String.raw`\begin{aligned} \textit{dot}:\quad&\operatorname{score}(\roleq{s_t},\rolek{h_j})=\roleq{s_t}^{\top}\rolek{h_j}\\ \textit{general}:\quad&\operatorname{score}(\roleq{s_t},\rolek{h_j})=\roleq{s_t}^{\top}W_a\,\rolek{h_j}\\ \textit{concat}:\quad&\operatorname{score}(\roleq{s_t},\rolek{h_j})=v_a^{\top}\tanh\!\big(W_a[\roleq{s_t};\rolek{h_j}]\big)\end{aligned}`,
  bahdanauOrder: String.raw`\roleq{s_{t-1}}\;\to\;\alpha_t\;\to\;\roleo{c_t}\;\to\;s_t`,
  luongOrder: String.raw`\roleq{s_t}\;\to\;\alpha_t\;\to\;\roleo{c_t}\;\to\;\tilde{s}_t`,
  projection: String.raw`\frac{(\roleq{s_t}^{\top}W_Q)(\rolek{h_j}^{\top}W_K)^{\top}}{\sqrt{d_k}}=\roleq{s_t}^{\top}\,\underbrace{\frac{W_Q W_K^{\top}}{\sqrt{d_k}}}_{W_a}\,\rolek{h_j},\qquad W_Q,\,W_K\in\mathbb{R}^{d\times d_k}`,
  luongOutput: String.raw`\tilde{s}_t=\tanh\!\big(W_c[\roleo{c_t};\roleq{s_t}]\big)`,
};

export const inline = {
  bahdanau: String.raw`v_a^{\top}\tanh(W_a\roleq{s_{t-1}}+U_a\rolek{h_j})`,
  dot: String.raw`\roleq{s_t}^{\top}\rolek{h_j}`,
  general: String.raw`\roleq{s_t}^{\top}W_a\rolek{h_j}`,
  concat: String.raw`v_a^{\top}\tanh(W_a[\roleq{s_t};\rolek{h_j}])`,
  scaledDot: String.raw`\roleq{s_t}^{\top}\rolek{h_j}/\sqrt{d}`,
};
