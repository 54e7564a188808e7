// 4절 문구(한국어). HTML 사용 가능; $...$는 TeX; {name}은 실행 중에 채운다.
const R = String.raw;

export default {
  title: '문장에 적용한 셀프 어텐션',
  lede: R`셀프 어텐션에서는 시퀀스가 자기 자신을 봅니다. 모든 토큰이 쿼리이면서 키이고 밸류입니다. 「트랜스포머의 어텐션 메커니즘: 셀프 어텐션, 크로스 어텐션, 멀티헤드」 글은 “Karina가 가게에 간다”를 <i>karina, is, to, the, store</i> 다섯 토큰과 2차원 임베딩으로 나타내고, 투영은 단순하게 $W^Q = W^K = W^V = I$로 두어 $Q = K = V = X$가 되게 합니다.`,
  panelTitle: '토큰 다섯 개, 모든 행렬',
  embeddings: {
    caption: R`임베딩 $X$ (고쳐 보세요)`,
    cell: '“{token}” 임베딩의 {c}번째 성분',
    error: '{message} 행렬은 마지막으로 올바르게 입력한 값에서 계산한 것입니다.',
  },
  matrices: {
    scores: R`점수 $\roleq{Q}\rolek{K}^\top$`,
    scaled: R`스케일한 점수 $A = \roleq{Q}\rolek{K}^\top/\sqrt{d_k}$`,
    weights: R`가중치 $N = \mathrm{softmax}(A)$`,
    rowAxis: '쿼리(행) ↓',
    colAxis: '키(열) →',
    output: R`출력 $\roleo{NV}$`,
  },
  observations: {
    identical: '{a|과} {b|은} 임베딩이 같아서 모든 행렬에서 두 행이 똑같습니다. 셀프 어텐션만으로는 둘을 구별할 수 없습니다(위치로는 구별할 수 있습니다. <a href="#order">{§order}절</a> 참고).',
    symmetry: R`$Q = K$이므로 점수는 대칭이지만 가중치는 대칭이 아닙니다. 행마다 따로 정규화하기 때문입니다.`,
    rowSums: '가중치의 각 행은 합이 1입니다(히트맵 아래의 표를 열면 행 합이 보입니다).',
    prefersOther: R`{token|은} 자기 자신에게 주는 {self}보다 많은 {other|을} {to}에 줍니다. $Q = K$이면 자기 점수는 $\lVert x\rVert^2$ = {norm2}인데, 상대 벡터가 더 길고 거의 같은 쪽을 가리켜서 $x\cdot x_{\text{other}}$ = {dot|이} 더 크기 때문입니다.`,
  },
  articleNote: {
    label: '원문 숫자에 대하여',
    scaledDiffers: R`<strong>원문에 대한 메모.</strong> 글의 임베딩(처음 값)으로 계산하면 글의 점수 행렬 $QK^\top$는 그 임베딩에서 나오는 값 그대로입니다. 스케일한 행렬 $A$는 $\sqrt{d}$($d$ = {d})를 소수 둘째 자리까지 반올림한 {divisor|으로} 나누었고, 그 반올림 안에서 맞습니다. 엔진처럼 $\sqrt{d}$ 자체로 나누면 {total}개 성분 가운데 {count}개가 소수 둘째 자리에서 다르게 보입니다. {differences}`,
    scaledSame: R`<strong>원문에 대한 메모.</strong> 글의 임베딩(처음 값)으로 계산하면 글의 점수 행렬 $QK^\top$는 그 임베딩에서 나오는 값 그대로입니다. 스케일한 행렬 $A$는 $\sqrt{d}$($d$ = {d})를 소수 둘째 자리까지 반올림한 {divisor|으로} 나누었지만, 소수 둘째 자리까지는 엔진처럼 $\sqrt{d}$ 자체로 나눈 값과 같게 보입니다.`,
    difference: 'QKᵀ = {score}인 곳({total}개 중 {cells}개)에서 글의 {score}/{divisor} = {articleFull|은} {article|으로}, 정확한 값 {exactFull|은} {exact|으로} 보입니다.',
    weights: '가중치와 출력은 그 점수에서 나온 값이 아닙니다. 적힌 가중치 행 가운데 하나는 합이 1도 되지 않습니다. 여기의 모든 숫자는 위의 임베딩에서 엔진이 계산한 것입니다. 임베딩을 고치면 모두 따라 바뀝니다.',
  },
  after: R`<p>출력의 각 행은 다섯 임베딩을 그 토큰의 $N$ 행으로 가중해 섞은 것입니다. $Q = K$일 때 토큰의 자기 점수는 $\lVert x_i\rVert^2$이지만, 이것이 가장 크다는 법은 없습니다. $x_j$가 더 길고 거의 같은 쪽을 가리키면 $x_i\cdot x_j$가 더 큽니다. 그런 일이 생기면 위의 메모가 알려 줍니다. 학습된 투영이 더하는 것은 방향입니다. $W^Q \neq W^K$이면 점수가 더는 대칭이 아니어서, 한 토큰이 다른 토큰에 높은 점수를 주어도 그 토큰이 같은 점수를 돌려주지 않을 수 있습니다(<a href="#reading-weights">{§reading-weights}절</a>).</p>`,
};
