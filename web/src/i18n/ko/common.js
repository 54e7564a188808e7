// 페이지 전체에서 쓰는 문구(한국어). HTML 사용 가능; $...$는 TeX이며 빌드할 때
// MathML로 바뀐다(web/vite-plugins/prerender-math.js).
export default {
  meta: {
    title: '계산해 보는 어텐션',
    description: '어텐션 메커니즘을 직접 계산하며 배우는 인터랙티브 설명서. 모든 숫자는 WebAssembly로 컴파일한 C++ 어텐션 코어가 브라우저에서 계산합니다.',
  },
  skip: '본문으로 건너뛰기',
  site: {
    mark: '계산해 보는 어텐션',
    title: '계산해 보는 어텐션',
    lede: '트랜스포머는 어디를 볼지 어떻게 정할까요? 점수 매기기, 소프트맥스, 섞기 — 직접 바꿔 볼 수 있는 숫자로 끝까지 따라갑니다.',
    how: '이 페이지의 모든 숫자는 WebAssembly로 컴파일한 C++ 어텐션 코어가 여러분의 브라우저에서 그 자리에서 계산합니다. 입력을 고치면 중간값이 모두 따라 바뀝니다. 교재에서 베껴 온 숫자는 하나도 없습니다.',
  },
  lang: { label: '언어' },
  toc: { title: '차례', later: '(준비 중)' },
  engine: {
    loading: '어텐션 엔진(WebAssembly)을 불러오는 중…',
    readySimd: '엔진 준비 완료: WebAssembly SIMD 빌드가 모든 숫자를 계산합니다.',
    readyBaseline: '엔진 준비 완료: WebAssembly 빌드(SIMD 없음)가 모든 숫자를 계산합니다.',
    failed: '어텐션 엔진을 불러오지 못했습니다: {message}',
    sectionLoading: '불러오는 중…',
    sectionFailed: '이 예제에는 어텐션 엔진이 필요한데, 엔진을 불러오지 못했습니다.',
  },
  roles: {
    legend: '이 페이지에서 쓰는 색',
    q: '쿼리', k: '키', v: '밸류', o: '출력', m: '마스크',
  },
  table: {
    show: '숫자를 표로 보기',
    rowSum: '행 합',
    masked: '(가림)',
  },
  embed: {
    unknownSection: '알 수 없는 섹션 “{id}”입니다. 다음 중 하나를 쓰세요: {ids}.',
  },
  share: {
    invalid: '시작 값 일부({names})를 쓸 수 없어서, 이 예제는 기본 숫자로 시작합니다.',
  },
  actions: { reset: '처음 값으로' },
  placeholderNote: '이 절은 아직 쓰지 않았습니다. 이 자리에 들어갑니다.',
  placeholders: {
    scaling: {
      title: '왜 $\\sqrt{d_k}$로 나누나',
      summary: '분산 논증과 포화 실험을 시드에서 바로 돌려 봅니다. $d_k$가 커지면 내적이 커지고, 소프트맥스가 포화해 기울기가 사라집니다.',
    },
    'reading-weights': {
      title: '가중치 행렬 읽기',
      summary: '세 주제에 속한 여섯 토큰을 히트맵으로 봅니다. 각 행은 한 토큰의 시선이며, 토큰이 자기 자신보다 짝을 더 볼 수 있는 이유를 살핍니다.',
    },
    family: {
      title: '어텐션의 계보: 바다나우, 루옹, 내적',
      summary: '가법, 내적, general, concat 점수를 하나의 작은 번역 예제에서 나란히 계산하고 정렬 행렬을 봅니다.',
    },
    order: {
      title: '순서: 어텐션은 순서를 보지 못한다',
      summary: '토큰을 섞으면 출력도 똑같이 섞입니다. 위치 인코딩을 더하면 더는 그렇지 않습니다.',
    },
    cost: {
      title: '비용: 어텐션이 $O(n^2)$인 이유',
      summary: '시퀀스 길이에 따른 시간과 메모리를 여러분의 브라우저에서 직접 잽니다.',
    },
  },
  footer: '참고: Vaswani 외, <cite>Attention Is All You Need</cite>(2017); Bahdanau, Cho, Bengio(2015); Luong, Pham, Manning(2015); 그리고 어텐션을 다룬 한국어 글 다섯 편. 글에 나온 예제는 베끼지 않고 여기서 다시 계산했습니다.',
};
