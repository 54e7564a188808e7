// 3절 문구(한국어). HTML 사용 가능; $...$는 TeX(빌드할 때 MathML로);
// {name}은 실행 중에 계산한 값으로 채운다.
const R = String.raw;

export default {
  title: '가중치 행렬 읽기',
  lede: R`어텐션은 가중평균이고, 특이한 점은 그 가중치가 학습된 상수가 아니라 입력이 들어올 때마다 새로 계산된다는 것입니다. 가중치는 출력에 드러나지 않지만 꺼내서 그려 볼 수 있습니다. 「어텐션 가중치를 직접 꺼내 본다」 글은 주제 세 개를 나눠 가진 토큰 여섯 개로 이를 해 봅니다.`,
  setup: R`무엇이 구조에서 나오고 무엇이 학습에서 나오는지 섞이지 않도록 사영 행렬은 뺍니다. 곧 $Q = K = V = X$입니다. 임베딩 $x_0,\dots,x_5$는 $X = c\,M$($c$ = {factor})의 행입니다. $t_0$과 $t_3$이 한 주제(●), $t_1$과 $t_4$가 한 주제(■), $t_2$와 $t_5$가 한 주제(▲)입니다.`,
  panelTitle: '토큰 여섯 개, 주제 세 개',
  inputs: {
    hint: R`$M$의 성분이나 계수 $c$를 고쳐 보세요. 가중치가 곧바로 따라 바뀝니다.`,
    factor: '계수 c',
    factorShort: R`, $c$ =`,
    caption: R`행렬 $M$(토큰마다 한 행, $d = 4$)`,
    cell: 'M, 토큰 {token}, {i}번째 성분',
    error: '{message} 보이는 숫자는 마지막으로 올바르게 입력한 값에서 계산한 것입니다.',
  },
  heatmap: {
    caption: R`가중치 $A$: $i$행은 토큰 $t_i$가 바라보는 곳`,
    rowAxis: '쿼리 토큰 ↓',
    colAxis: '키 토큰 →',
  },
  gaze: {
    picker: '누구의 시선? (행 위에 마우스를 올려도 됩니다)',
    title: '{token}의 시선',
    self: '자기 자신',
    pair: '같은 주제 짝',
    summarySelf: R`{token} 토큰이 자기 자신에게 주는 가중치는 <b>{self}</b>, 같은 주제 짝 {pair}에게 주는 가중치는 <b>{pairWeight}</b>. 둘을 합치면 {topTwo}입니다. 나머지 네 토큰의 몫은 모두 합쳐 {rest}(각각 {restMin}~{restMax})이고, 짝은 그중 가장 작은 몫의 {ratio}배를 받습니다.`,
    summaryPair: R`{token} 토큰은 같은 주제 짝 {pair}에게 자기 자신보다 <em>더 많이</em> 줍니다. 짝에게 <b>{pairWeight}</b>, 자신에게 <b>{self}</b>. 둘을 합치면 {topTwo}이고, 나머지 네 토큰의 몫은 {rest}(각각 {restMin}~{restMax})입니다.`,
  },
  why: {
    title: '토큰이 자기 자신보다 짝을 더 보는 이유',
    intro: R`어텐션에는 "나는 나를 본다"는 규칙이 없습니다. 규칙은 유사도 하나뿐이고, 내적은 방향과 함께 크기도 잽니다.`,
    self: R`{token} 토큰에서는 자기 자신이 이깁니다. 자신과의 내적 $x\cdot x$ = {selfDot}, {pair} 토큰과의 내적은 {pairDot}입니다. 자기 길이(‖{token}‖ = {selfNorm})가 {pair}의 길이(‖{pair}‖ = {pairNorm}) 이상이고, 자기 자신보다 같은 방향을 가리키는 벡터는 없습니다(cos θ = 1).`,
    pair: R`{token} 토큰에서는 짝이 이깁니다. 짝과의 내적({token} · {pair} = <b>{pairDot}</b>)이 자신과의 내적({token} · {token} = ‖{token}‖² = <b>{selfDot}</b>)보다 큽니다. 두 벡터는 거의 같은 방향을 가리키고(cos θ = {cos}), {pair} 쪽이 더 깁니다(‖{pair}‖ = {pairNorm}, ‖{token}‖ = {selfNorm}). 크기가 내적에 들어가므로 더 긴 이웃이 자기 자신을 앞지릅니다.`,
    selfAligned: R`{token} 토큰에서는 자기 자신이 이깁니다. {pair} 쪽이 더 길지만(‖{pair}‖ = {pairNorm}, ‖{token}‖ = {selfNorm}) 두 벡터의 방향이 벌어져 있어서(cos θ = {cos}) 짝과의 내적({token} · {pair} = {pairDot})이 자신과의 내적({token} · {token} = ‖{token}‖² = {selfDot})에 못 미칩니다.`,
    tableCaption: R`고른 토큰의 내적과 노름(엔진이 계산한 로짓 $L = XX^\top$에서)`,
    columnsPlain: { dot: 'x_i · x_j', norm: 'x_j의 길이', cos: 'cos θ_ij', weight: '가중치 A_ij' },
    columns: {
      dot: R`$x_i\cdot x_j$`,
      norm: R`$\lVert x_j\rVert$`,
      cos: R`$\cos\theta_{ij}$`,
      weight: R`$A_{ij}$`,
    },
  },
  controls: {
    seed: R`$W_Q$, $W_K$의 시드`,
    newSeed: '새 시드',
  },
  symmetry: {
    title: R`$Q = K$로 둔 대가: 대칭인 로짓`,
    intro: R`$Q = K = X$이면 로짓 행렬 $L = XX^\top$는 정확히 대칭입니다. "$t_0$이 $t_3$을 보는 정도"와 "$t_3$이 $t_0$을 보는 정도"가 소프트맥스 전에는 같도록 강제됩니다. 실제 트랜스포머는 사영 $W_Q$와 $W_K$를 따로 두고, 그러면 더는 같지 않습니다.`,
    panelTitle: '구조상 대칭, 그리고 비대칭',
    sameTitle: R`$Q = K = X$`,
    separateTitle: R`서로 다른 무작위 $W_Q$, $W_K$`,
    measuredMax: R`계산값: $\max_{ij}\lvert L_{ij}-L_{ji}\rvert$ =`,
    measuredMedian: R`계산값: $\lVert L-L^\top\rVert_F/\lVert L\rVert_F$의 중앙값 =`,
    paths: '엔진의 기준 경로에서 계산했습니다. 이 경로는 내적을 배정밀도로, 늘 같은 순서로 더합니다. 같은 네 곱을 다른 순서로 더할 수도 있는 SIMD 경로에서는 {fast}입니다.',
    rowsDiffer: R`그래도 가중치는 대칭이 아닙니다. 행마다 따로 정규화하기 때문입니다. 로짓은 같아도($L_{03}$ = {l03}, $L_{30}$ = {l30}) 가중치는 다릅니다($A_{03}$ = {a03}, $A_{30}$ = {a30}).`,
    range: R`무작위 쌍 {pairs}개($d\times d$ 성분은 $\mathcal N(0, 1/d)$, 시드 {seed})에서 최소 {min}, 최대 {max}입니다. 첫 쌍에서 가장 큰 $\lvert L_{ij}-L_{ji}\rvert$는 {example}입니다. ($0$이면 대칭, $2$면 반대칭.)`,
    diffSymmetric: R`$Q = K = X$일 때 $L - L^\top$`,
    diffRandom: R`첫 번째 무작위 $W_Q$, $W_K$일 때 $L - L^\top$`,
  },
  after: R`<p>즉 서로 다른 $W_Q$와 $W_K$는 어떤 유사도를 볼지 고르는 데서 그치지 않고, 보는 방향에 앞뒤를 만듭니다. $t_i$는 $t_j$에 높은 점수를 주는데 $t_j$는 $t_i$에 낮은 점수를 줄 수 있게 됩니다. $Q = K$이면 두 점수는 늘 같고, 행마다 따로 정규화하기 때문에만 $A_{ij}$와 $A_{ji}$가 달라집니다. 위 패널이 보여 주는 그대로입니다.</p><p>모든 행의 합은 1입니다. 어텐션이 하는 일은 선택이 아니라 배분입니다. 여기서 학습된 것은 하나도 없습니다. 임베딩이 비슷하면 내적이 크고, 내적이 크면 큰 몫을 받습니다. 토큰이 시퀀스의 어디에 있는지는 전혀 관여하지 않았습니다. 이것이 <a href="#order">{§order}절</a>의 주제입니다.</p>`,
};
