// 5절 문구(한국어). HTML 사용 가능; $...$는 TeX; {name}은 실행 중에 채운다.
const R = String.raw;

export default {
  title: R`마스킹: 소프트맥스 전에 $-\infty$`,
  lede: R`마스크는 각 쿼리가 어떤 키를 볼 수 있는지 정합니다. 문장을 한 단어씩 써 나가는 디코더는 아직 쓰지 않은 뒷단어를 미리 보면 안 됩니다(<b>인과</b> 마스크). 길이를 맞추려고 패딩을 채운 문장에서는 패딩을 보면 안 됩니다(<b>패딩</b> 마스크). 둘 다 방법은 같습니다. 소프트맥스에 넣기 전에 가릴 점수를 $-\infty$로 바꿉니다. $e^{-\infty} = 0$이므로 그 가중치는 정확히 0이 되고, 그 행의 남은 가중치끼리 다시 합이 1이 됩니다.`,
  formula: R`$$\begin{gathered}w_{ij} = \frac{\exp(s_{ij} + M_{ij})}{\sum_{l} \exp(s_{il} + M_{il})} \\[0.6em] M_{ij} = \begin{cases} 0 & \text{쿼리 } i \text{가 키 } j \text{를 볼 수 있을 때} \\ -\infty & \text{가릴 때} \end{cases}\end{gathered}$$`,
  panelTitle: '토큰 다섯 개, 마스크 하나',
  tokens: ['나는', '배가', '정말', '고프다', '[PAD]'],
  controls: { mode: '마스크' },
  modes: { none: '없음', causal: '인과', padding: '패딩', custom: '직접' },
  modeNotes: {
    none: '마스크 없음: 모든 쿼리가 패딩까지 포함해 모든 키를 봅니다.',
    causal: R`인과 마스크: 쿼리 $i$는 키 $1$부터 $i$까지, 곧 자기 자신과 앞선 토큰만 봅니다. 위쪽 삼각형이 가려집니다.`,
    padding: '패딩 마스크: 마지막 토큰 [PAD]는 길이를 맞추려고 채운 자리일 뿐입니다. 어떤 쿼리도 이 토큰을 보면 안 되므로 그 열이 가려집니다.',
    custom: '직접 만든 마스크: 칸마다 정한 keep 행렬을 그대로 엔진에 보냅니다.',
  },
  hint: '가중치 칸을 누르면 가리거나 다시 엽니다. 화살표 키로 칸을 옮긴 뒤 Enter나 Space를 눌러도 됩니다.',
  error: '엔진이 이 마스크를 받지 않았습니다: {message}',
  matrices: {
    scaled: R`스케일한 점수 $S = \roleq{Q}\rolek{K}^\top/\sqrt{d_k}$`,
    masked: R`마스크를 더한 점수 $S + \rolem{M}$`,
    weights: '가중치 — 칸을 누르면 가려집니다',
    rowAxis: '쿼리 ↓',
    colAxis: '키 →',
    output: '출력',
  },
  cell: {
    open: '{weight}: {query} → {key}의 가중치. 누르면 가립니다.',
    masked: '0: {query} → {key}, 가려짐. 누르면 다시 엽니다.',
  },
  emptyRow: R`<strong>“{token}”: 모든 키가 가려졌습니다.</strong> 지수값이 모두 $e^{-\infty} = 0$이라 합도 0이고, 소프트맥스는 $0/0$이 됩니다. 엔진은 NaN 대신 이 쿼리의 가중치와 출력을 모두 0으로 돌려줍니다.`,
  breakdown: {
    title: '소프트맥스 한 행을 풀어 쓰기',
    row: '쿼리',
    masked: R`마스크된 점수 $s_j + M_j$`,
    exp: R`지수 $e^{s_j + M_j}$`,
    weight: R`가중치 $w_j$`,
    sum: '합',
    note: R`“{token}” 행에서 가려진 키는 합({sum})에 $e^{-\infty} = 0$을 더할 뿐입니다. 이 합으로 나누면 열린 칸의 가중치끼리 다시 합이 1이 됩니다.`,
    allMasked: R`“{token}” 행은 모든 키가 가려져 지수값의 합이 0입니다. 엔진은 0으로 나누지 않고 모든 가중치를 0으로 둡니다.`,
  },
  after: R`<p>마스크는 가중치가 아니라 점수에 씌웁니다. 소프트맥스 뒤에 가중치를 0으로 지우면 행의 합이 1이 아니게 됩니다. 소프트맥스 전에 점수를 $-\infty$로 바꾸면 소프트맥스가 알아서 다시 정규화합니다. 트랜스포머에서 인과 마스크는 디코더의 셀프 어텐션에 있고(<a href="#cross-attention">{§cross-attention}절</a>), 패딩 마스크는 길이가 다른 시퀀스를 한 묶음으로 처리하는 곳이면 어디에나 있습니다.</p>`,
};
