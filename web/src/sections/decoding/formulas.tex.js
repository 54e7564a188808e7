// Static formulas of section "decoding", as TeX (MathML at build time).
export default {
  // Greedy decoding: each step reads the tokens generated so far and the source.
  greedy: String.raw`y_t=\arg\max_{w}\;p\big(w\mid y_{<t},\,x_{1..S}\big),\qquad t=1,2,\ldots\ \text{until}\ \langle\text{end}\rangle`,
  // The transformer's step t with the cache: one new query, key and value row; the old rows are kept.
  cache: String.raw`\begin{gathered}K_{\le t}=\begin{bmatrix}K_{<t}\\ \rolek{k_t}\end{bmatrix},\quad V_{\le t}=\begin{bmatrix}V_{<t}\\ \rolev{v_t}\end{bmatrix}\\ o_t=\operatorname{softmax}\!\big(\roleq{q_t}\,K_{\le t}^{\top}/\sqrt{d_k}\big)\,V_{\le t}\end{gathered}`,
  // The recurrent decoder's step: one state carried forward, the same size at every step.
  recurrent: String.raw`s_t=\operatorname{GRU}\big(s_{t-1},\,[E(y_{t-1});\,c_t]\big),\qquad c_t=\sum_{j}\alpha_{tj}\,h_j`,
};
