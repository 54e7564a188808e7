// 8절 문구(한국어). HTML 사용 가능; $...$는 TeX(빌드할 때 MathML로);
// {name}은 실행 중에 계산한 값으로 채운다.
const R = String.raw;

export default {
  title: '어텐션의 계보: Bahdanau, Luong, 그리고 내적',
  lede: R`어텐션은 트랜스포머에서 시작하지 않았습니다. 2015년 인코더–디코더 번역기에 처음 붙었고, 덕분에 디코더는 문장 전체를 고정 길이 벡터 하나에 욱여넣지 않아도 되었습니다. 인코더 상태를 전부 보관해 두었다가 단어를 하나 만들 때마다 새로 섞어 쓰는 것입니다. 그 뒤 어텐션은 여러 갈래로 나뉘었는데, 갈리는 곳은 대부분 한 군데, 디코더 상태와 인코더 상태의 점수를 어떻게 매기느냐입니다.`,
  steps: R`목표 단어 $t$마다 세 단계를 거치고, 이 세 단계는 계보의 모든 방식에서 같습니다. 디코더 상태를 각 인코더 상태 $h_j$와 견주어 점수를 매기고, 소프트맥스로 점수를 가중치로 바꾸고, 그 가중치로 인코더 상태를 섞어 컨텍스트 벡터 $c_t$를 만듭니다. Bahdanau의 형태로 쓰면 다음과 같습니다.`,
  luong: R`Bahdanau 외는 작은 신경망으로 점수를 매깁니다. 번역 모델과 함께 학습되는 <em>덧셈(additive)</em> 점수 $v_a^\top\tanh(W_a s_{t-1}+U_a h_j)$입니다. Luong 외는 점수를 꼭 그렇게 복잡하게 매겨야 하는지 묻고 세 가지를 비교했습니다(논문은 디코더 상태를 $h_t$, 인코더 상태를 $\bar h_s$로 쓰지만 이 페이지는 $s_t$와 $h_j$로 통일합니다).`,
  concatNote: R`<em>concat</em>은 다시 덧셈 점수입니다. $W_a[s;h]=W_1 s+W_2 h$이기 때문입니다. <em>dot</em>에는 파라미터가 전혀 없어서 두 상태가 같은 공간에 있을 때만 말이 됩니다. <em>general</em>은 그 사이에 학습되는 행렬을 끼웁니다. 트랜스포머의 스케일드 닷프로덕트는 Luong의 dot을 $\sqrt{d}$로 나눈 것입니다.`,
  panelTitle: '번역 예제 하나, 점수 함수 다섯 개',
  translatesTo: '번역:',
  hint: R`시드에서 뽑은 작은 무작위 상태입니다. <span lang="en">I</span>, <span lang="en">am</span>, <span lang="en">hungry</span>의 인코더 상태 $h_1, h_2, h_3$와 디코더 상태 $s_0,\dots,s_3$. 학습된 모델을 흉내 내려고, 각 디코더 상태는 그 단어가 옮기는 원문 단어의 인코더 상태 가까이에서 뽑습니다(나는 ↔ I, 배가 ↔ hungry, 고프다 ↔ am hungry). 파라미터 $W_a$, $U_a$, $v_a$도 무작위, 곧 학습되지 않은 값입니다.`,
  controls: { seed: '시드', newSeed: '새 시드' },
  states: {
    encoder: R`인코더 상태 $h_j$(키와 밸류)`,
    decoder: R`디코더 상태 $s_t$(쿼리)`,
    start: '(시작)',
    uses: {
      previous: R`<b>직전</b> 디코더 상태 $s_{t-1}$을 씀`,
      current: R`<b>현재</b> 디코더 상태 $s_t$를 씀`,
    },
  },
  methods: {
    bahdanau: { name: 'Bahdanau (additive)', caption: '정렬 행렬, Bahdanau additive' },
    dot: { name: 'Luong dot', caption: '정렬 행렬, Luong dot' },
    general: { name: 'Luong general', caption: '정렬 행렬, Luong general' },
    concat: { name: 'Luong concat', caption: '정렬 행렬, Luong concat' },
    scaledDot: { name: '스케일드 닷프로덕트', caption: '정렬 행렬, 스케일드 닷프로덕트' },
  },
  best: '가장 큰 가중치: {pairs}',
  reads: R`파라미터가 없는 점수, dot과 스케일드 닷프로덕트는 상태에 심어 둔 정렬을 그대로 읽어 냅니다. 가장 큰 가중치가 상태를 뽑은 자리에 놓입니다(나는 → I, 배가 → hungry, 고프다 → am 또는 hungry). 나머지는 학습되지 않은 무작위 파라미터를 거쳐 점수를 매기므로, 어디를 보는지가 아직 아무 뜻이 없습니다. 이 파라미터를 번역 모델과 함께 학습하는 이유입니다.`,
  readsNot: R`이 시드에서는 파라미터가 없는 점수, dot과 스케일드 닷프로덕트도 상태에 심어 둔 정렬(나는 → I, 배가 → hungry, 고프다 → am 또는 hungry)을 일부 놓칩니다. 상태와 함께 뽑은 잡음이 정렬보다 크기 때문입니다. 나머지는 학습되지 않은 무작위 파라미터를 거쳐 점수를 매기므로, 어디를 보는지가 아직 아무 뜻이 없습니다. 이 파라미터를 번역 모델과 함께 학습하는 이유입니다.`,
  shift: R`여기서 concat과 Bahdanau는 파라미터를 공유하므로 쓰는 상태만 다릅니다. 그래서 concat의 행은 Bahdanau의 행을 한 줄씩 위로 올린 것과 같습니다(최대 차이 {diff}, 계산값).`,
  order: {
    title: '어느 디코더 상태인가: 이전 것, 지금 것',
    intro: R`어느 상태를 쓰느냐가 디코더 안에서 어텐션의 자리를 정합니다. Bahdanau는 직전 단계의 상태로 점수를 매기므로, 이번 단계의 상태를 계산하려면 컨텍스트가 먼저 있어야 합니다. 어텐션이 순환 단계 안쪽에 끼어 있는 것입니다. Luong은 이번 단계의 상태를 먼저 만들고 나서 어텐션을 하므로, 순환 바깥의 후처리가 됩니다.`,
    bahdanau: 'Bahdanau',
    luong: 'Luong',
    after: R`Luong의 논문은 이 경로를 두고 "더 단순하다(simpler)"고 적었습니다. 논문은 두 가지를 더 제안합니다. 원문의 한 구간만 보는 <em>local</em> 어텐션, 그리고 $\tilde s_t$를 다음 단계의 입력에 함께 넣는 <em>input feeding</em>입니다.`,
  },
  summaryTitle: '계보를 한 표로',
  summaryIntro: R`「Attention 메커니즘 정리 - Seq2Seq에서 Transformer까지」 글은 이 계보를 한 표로 정리합니다. 모두 점수를 매기고, 소프트맥스로 정규화하고, 섞습니다. 달라지는 것은 점수를 매기는 방법, 그리고 쿼리, 키, 밸류를 어디서 가져오느냐입니다.`,
  summary: {
    caption: '점수 함수와 Q, K, V의 출처(그 글을 따라)',
    columns: ['종류', '점수 함수', 'Q의 출처', 'K, V의 출처', '출처 논문'],
    rows: [
      ['Bahdanau (additive)', R`$v_a^\top\tanh(W_a s_{t-1}+U_a h_j)$`, '디코더 직전 상태', '인코더 전체', 'Bahdanau et al. (2015)'],
      ['Luong dot', R`$s_t^\top h_j$`, '디코더 현재 상태', '인코더 전체', 'Luong et al. (2015)'],
      ['Luong general', R`$s_t^\top W_a h_j$`, '디코더 현재 상태', '인코더 전체', 'Luong et al. (2015)'],
      ['Luong concat', R`$v_a^\top\tanh(W_a[s_t;h_j])$`, '디코더 현재 상태', '인코더 전체', 'Luong et al. (2015)'],
      ['인코더 셀프 어텐션', R`$QK^\top/\sqrt{d_k}$`, '인코더 이전 층', '인코더 이전 층', 'Vaswani et al. (2017)'],
      ['마스크드 셀프 어텐션', R`$QK^\top/\sqrt{d_k}$, 뒤쪽 $-\infty$`, '디코더 이전 층', '디코더 이전 층', 'Vaswani et al. (2017)'],
      ['인코더–디코더 어텐션', R`$QK^\top/\sqrt{d_k}$`, '디코더 이전 층', '인코더 출력', 'Vaswani et al. (2017)'],
    ],
  },
  after: R`<p>뼈대는 처음부터 끝까지 하나입니다. 점수를 매기고, 소프트맥스로 비율을 만들고, 그 비율로 섞습니다. 달라지는 것은 점수를 어떻게 매기는지, 무엇을 보고 무엇을 가리는지뿐입니다. 마스킹은 <a href="#masking">{§masking}절</a>에서, 마지막 세 행인 셀프 어텐션과 크로스 어텐션은 <a href="#cross-attention">{§cross-attention}절</a>에서 다룹니다.</p><p>위의 가중치는 무작위입니다. 이 점수들로 번역기를 학습시키면 어떻게 되는지, 곧 Bahdanau와 Luong의 모델을 한 과제에 나란히 학습시킨 곡선과 학습된 정렬은 두 번째 페이지 <a href="#learns">어텐션은 어떻게 배우는가</a>에서 잽니다.</p>`,
};
