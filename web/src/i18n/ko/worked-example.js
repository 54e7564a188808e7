// 1절 문구(한국어). HTML 사용 가능; $...$는 TeX(빌드할 때 MathML로);
// {name}은 실행 중에 계산한 값으로 채운다.
const R = String.raw;

export default {
  title: '점수, 소프트맥스, 섞기',
  lede: R`어텐션은 세 단계입니다. <span class="chip chip-q">쿼리</span>를 모든 <span class="chip chip-k">키</span>와 내적으로 비교하고, 소프트맥스로 그 점수를 양수이면서 합이 1인 가중치로 바꾼 다음, 그 가중치로 <span class="chip chip-v">밸류</span>를 섞어 <span class="chip chip-o">출력</span>을 만듭니다. 퀀타 매거진의 어텐션 칼럼을 수식으로 풀어 쓴 글이 손으로 계산한 예제, 곧 2차원($d_k = 2$)에서 쿼리 하나와 키 세 개로 계산 전체를 따라가 봅니다.`,
  perKeyIntro: R`쿼리를 행렬로 쌓으면 모든 쿼리를 한 번에 계산합니다. 쿼리 $q$ 하나에 대해 키별로 풀어 쓰면 같은 식은 다음과 같습니다.`,
  panelTitle: '직접 해 보기: 쿼리 하나, 키 세 개',
  hint: R`첫 번째 그림에서 쿼리 <b class="role-text-q"><i>q</i></b>를 끌어 보세요(Tab으로 선택한 뒤 화살표 키로도 움직입니다). 숫자를 고치거나 스케일링을 꺼도 됩니다. 엔진이 아래의 모든 값을 곧바로 다시 계산합니다.`,
  plots: {
    keysTitle: '쿼리와 키',
    keysDescription: '원점에서 뻗은 화살표로 그린 쿼리 q와 키 k1~k3. 각 키에는 가중치가 적혀 있고, 가중치가 클수록 굵게 그립니다.',
    keysCaption: R`<i>q</i>와 같은 쪽을 가리키는 키일수록 점수가 큽니다. 키 옆의 숫자는 그 키의 가중치입니다.`,
    handle: '쿼리 q: 끌거나 화살표 키로 움직이기',
    valuesTitle: '밸류와 출력',
    valuesDescription: '밸류 v1~v3와 출력 o. 출력은 밸류의 가중 평균이므로 밸류가 이루는 도형(점선) 밖으로 나가지 않습니다.',
    valuesCaption: R`출력 <i>o</i>는 밸류의 가중 평균이라 밸류가 이루는 도형(점선) 밖으로 나가지 않습니다. 처음 예제에서는 세 밸류가 한 직선 위에 있어서 <i>o</i>도 그 위에 있습니다.`,
  },
  inputs: {
    query: '쿼리',
    keys: '키',
    values: '밸류',
    queryCell: 'q의 {i}번째 성분',
    keyCell: '키 {j}의 {i}번째 성분',
    valueCell: '밸류 {j}의 {i}번째 성분',
    error: '{message} 보이는 숫자는 마지막으로 올바르게 입력한 값에서 계산한 것입니다.',
  },
  controls: {
    scalingName: 'd_k의 제곱근으로 나누기',
    scaling: R`$\sqrt{d_k}$로 나누기`,
  },
  steps: {
    caption: '모든 중간값',
    captionColumns: '모든 중간값, 키마다 한 행(Kᵀq는 쿼리마다 한 열)',
    total: '합',
    dot: '1 · 내적',
    scaled: '2 · 스케일',
    exp: '3 · 지수',
    weight: '4 · 정규화',
    mix: '5 · 섞기',
    scaleTitle: '스케일 계수 1/√d_k = {scale}',
    stable: R`여기서는 $e^{s_j}$ 값이 엔진의 단정밀도 수가 담을 수 있는 범위를 벗어나므로(너무 크거나, 너무 작아 자릿수를 잃으므로) 3행에는 엔진이 계산하는 $e^{s_j - \max s}$ 값을 보입니다. 모든 항을 같은 $e^{\max s}$로 나누므로 가중치는 그대로입니다.`,
  },
  convention: {
    legend: '쓰는 방식',
    rows: R`행으로: $\mathrm{softmax}(QK^\top)\,V$`,
    columns: R`열로: $V\,\mathrm{Softmax}(K^\top Q)$`,
    note: R`「스케일드 닷프로덕트 어텐션」 글은 토큰을 열로 쌓습니다. $Q$는 $d_k\times n$, $K$는 $d_k\times m$, $V$는 $d_v\times m$입니다. 그러면 $K^\top Q/\sqrt{d_k}$는 $m\times n$, 쿼리마다 한 열이고, $\mathrm{Softmax}$는 열마다 정규화하며, $V$를 곱하면 $d_v\times n$이 됩니다. 행으로 쓴 식을 전치한 것이어서($K^\top Q = (QK^\top)^\top$) 숫자는 하나도 바뀌지 않습니다. 위의 표는 행으로 쓴 표를 옆으로 눕힌 것이고, $o = Vw$는 $o = \sum_j w_j v_j$를 곱으로 쓴 것입니다.`,
    same: R`키를 쿼리로 넣어 엔진이 직접 계산한 $K^\top q$ = ({scores})는 행 $qK^\top$와 {m}개 모두 같습니다.`,
    differs: R`키를 쿼리로 넣어 엔진이 직접 계산한 $K^\top q$ = ({scores})는 행 $qK^\top$와 최대 {difference}만큼 다릅니다. 다른 순서로 더한 부동소수점 반올림입니다.`,
  },
  compare: {
    withoutScaling: R`$\sqrt{d_k}$ = {divisor|으로} 나누면 가중치가 평평해집니다. 나누지 않으면 같은 점수에서 가중치는 {weights}입니다.`,
    withScaling: R`스케일링을 꺼서 가중치가 더 뾰족합니다. $\sqrt{d_k}$ = {divisor|으로} 나누면 가중치는 {weights}입니다.`,
    same: R`여기서는 $\sqrt{d_k}$ = {divisor|으로} 나누어도 보이는 가중치가 바뀌지 않습니다. 나누든 나누지 않든 {weights}입니다.`,
  },
  after: R`<p>처음 예제에서 키 1과 키 3은 $q$ 쪽을 똑같이 가리키므로($q\cdot k_1 = q\cdot k_3$) 같은 가중치를 받습니다. 키 2는 $q$와 직교해서 점수가 0이지만 가중치는 0이 아닙니다. $e^0 = 1$이기 때문입니다. 정확한 산술에서는 소프트맥스가 가중치를 정확히 0으로 만들지 않습니다(단정밀도에서는 약 $10^{-45}$보다 작은 가중치가 0으로 반올림됩니다. $q = (1010, 0)$일 때처럼요). 일부러 0을 만드는 것은 마스크입니다(<a href="#masking">{§masking}절</a>).</p>
<p>출력은 밸류의 가중 평균이고, 쿼리와 잘 맞는 키의 밸류 쪽으로 끌려갑니다. 어텐션은 부드럽고 미분 가능한 조회인 셈입니다. 점수를 왜 $\sqrt{d_k}$로 나누는지는 <a href="#scaling">{§scaling}절</a>에서 다룹니다.</p>`,
};
