// 7절 문구(한국어). HTML 사용 가능; $...$는 TeX; {name}은 실행 중에 채운다.
const R = String.raw;
const prev = '인코더의 이전 층';
const decPrev = '디코더의 이전 층';

export default {
  title: '셀프 어텐션, 크로스 어텐션, 어텐션의 세 자리',
  lede: R`지금까지는 모든 토큰이 같은 시퀀스의 토큰을 보았습니다. 셀프 어텐션입니다. <b>크로스 어텐션</b>에서는 쿼리가 한 시퀀스에서, 키와 밸류는 다른 시퀀스에서 옵니다. 번역하는 디코더는 단어를 하나 쓸 때마다 원문의 어느 단어를 볼지 묻습니다. 계산은 똑같고 입력만 다릅니다. 그래서 모양이 달라집니다. 쿼리 $n$개와 키 $m$개에서 나오는 가중치 행렬은 정사각형이 아니라 $n \times m$입니다.`,
  example: R`여기서 인코더는 “I am very hungry”($m = 4$ 토큰)를 읽었고, 디코더는 “나는 배가 고프다”($n = 3$)를 쓰는 중입니다. 각 토큰에는 손으로 정한 특징 세 개(대략 “누구”, “상태”, “배고픔”)가 있고, 투영은 항등 행렬이라 $Q = X_{\mathrm{dec}}$, $K = V = X_{\mathrm{enc}}$입니다.`,
  panelTitle: '디코더의 쿼리, 인코더의 키와 밸류',
  inputs: {
    encoder: R`인코더 토큰 $X_{\mathrm{enc}}$ (키, 밸류)`,
    decoder: R`디코더 토큰 $X_{\mathrm{dec}}$ (쿼리)`,
    cell: '“{token}”의 특징 {c}',
    error: '{message} 보이는 숫자는 마지막으로 올바르게 입력한 값에서 계산한 것입니다.',
  },
  cross: {
    caption: '크로스 어텐션 가중치: 디코더 쿼리 × 인코더 키',
    rowAxis: '디코더 쿼리 ↓',
    colAxis: '인코더 키 →',
    output: '출력(디코더 토큰마다 한 행)',
    reading: '디코더의 {n}개 행은 각각 인코더 토큰 {m}개에 대한 분포이고, 합이 1입니다. 가장 강한 연결: {pairs}.',
  },
  compare: {
    title: '셀프 대 크로스',
    text: R`「트랜스포머의 어텐션 메커니즘: 셀프 어텐션, 크로스 어텐션, 멀티헤드」 글은 차이를 표 하나로 정리합니다. 식은 같고 $Q$, $K$, $V$를 어디서 가져오는지만 다릅니다.`,
    self: '셀프 어텐션',
    cross: '크로스 어텐션',
    qSelf: R`$X$`,
    kSelf: R`$X$`,
    vSelf: R`$X$`,
    qCross: R`$X_{\mathrm{dec}}$ (디코더)`,
    kCross: R`$X_{\mathrm{enc}}$ (인코더)`,
    vCross: R`$X_{\mathrm{enc}}$ (인코더)`,
  },
  places: {
    title: '트랜스포머 안의 세 자리',
    intro: R`트랜스포머는 같은 멀티헤드 어텐션을 세 자리에 씁니다. 계산 방법은 완전히 같고, $Q$, $K$, $V$를 어디서 가져오는지와 마스크를 쓰는지만 다릅니다. 아래의 히트맵은 모두 위 예제에서 그림의 연결대로 계산한 것입니다. 히트맵 1은 인코더 토큰에서, 2는 디코더 토큰에서, 3은 그 둘의 출력에서 나옵니다. 3의 쿼리는 2의 출력이고, 키와 밸류는 인코더의 출력, 곧 1의 출력입니다. (실제 트랜스포머는 각 층의 입력을 출력에 더하고 정규화하며 층을 여러 개 쌓지만, 여기서는 뺐습니다.)`,
    sketch: `<div class="sketch">
<div class="sketch-stack"><p class="sketch-name">인코더</p><div class="sketch-box">피드포워드</div><div class="sketch-box is-attention"><b>1</b>셀프 어텐션</div><div class="sketch-box">입력: I am very hungry</div></div>
<div class="sketch-stack"><p class="sketch-name">디코더</p><div class="sketch-box">피드포워드</div><div class="sketch-box is-attention"><b>3</b>인코더-디코더 어텐션</div><div class="sketch-box is-attention"><b>2</b>마스크드 셀프 어텐션</div><div class="sketch-box">입력: 나는 배가 …</div></div>
<p class="sketch-arrow">인코더의 출력(1의 출력)이 3의 K와 V가, 2의 출력이 3의 Q가 됩니다.</p></div>`,
    encoderSelf: {
      title: '인코더 셀프 어텐션',
      q: prev, k: prev, v: prev,
      text: '원문의 모든 토큰이 원문의 모든 토큰을 봅니다. 마스크는 없습니다.',
      mapCaption: '인코더 셀프 어텐션 가중치',
    },
    decoderSelf: {
      title: '디코더 마스크드 셀프 어텐션',
      q: decPrev, k: decPrev, v: decPrev,
      text: '번역문의 각 토큰은 자기 자신과 앞선 토큰만 봅니다. 인과 마스크입니다(<a href="#masking">{§masking}절</a>).',
      mapCaption: '디코더 마스크드 셀프 어텐션 가중치',
    },
    cross: {
      title: '인코더-디코더 어텐션',
      q: '2의 출력(마스크드 셀프 어텐션)', k: '인코더의 출력(1의 출력)', v: '인코더의 출력(1의 출력)',
      text: '번역문의 각 토큰이 원문을 봅니다. RNN 번역 모델에서 바다나우와 루옹의 어텐션이 하던 바로 그 일입니다.',
      mapCaption: '인코더-디코더 어텐션 가중치',
    },
  },
  after: R`<p>계산이 $n = m$을 가정하지 않으므로 구현 하나로 세 자리를 모두 처리합니다. 여기서도 위의 히트맵 셋을 같은 C++ 함수가 계산합니다. 디코더의 인과 마스크는 정답 문장 전체를 한 번에 넣는 학습 때 필요합니다. 문장을 생성할 때는 뒷토큰이 아직 존재하지 않으니까요.</p>`,
};
