// 페이지 전체에서 쓰는 문구(한국어). HTML 사용 가능; $...$는 TeX이며 빌드할 때
// MathML로 바뀐다(web/vite-plugins/prerender-math.js).
export default {
  skip: '본문으로 건너뛰기',
  site: { mark: '계산해 보는 어텐션' },
  // 두 페이지(src/sections/pages.js). `name`은 두 페이지를 잇는 링크에 쓴다.
  pages: {
    walkthrough: {
      name: '계산해 보는 어텐션',
      meta: {
        title: '계산해 보는 어텐션',
        description: '어텐션 메커니즘을 직접 계산하며 배우는 인터랙티브 설명서. 모든 숫자는 WebAssembly로 컴파일한 C++ 어텐션 코어가 브라우저에서 계산합니다.',
      },
      title: '계산해 보는 어텐션',
      lede: '트랜스포머는 어디를 볼지 어떻게 정할까요? 점수 매기기, 소프트맥스, 섞기 — 직접 바꿔 볼 수 있는 숫자로 끝까지 따라갑니다.',
      how: '이 페이지의 모든 숫자는 WebAssembly로 컴파일한 C++ 어텐션 코어가 여러분의 브라우저에서 그 자리에서 계산합니다. 입력을 고치면 중간값이 모두 따라 바뀝니다. 교재에서 베껴 온 숫자는 하나도 없습니다. 이 가중치가 어떻게 학습되는지는 Seq2Seq부터 트랜스포머까지 두 번째 페이지 <a href="#learns">어텐션은 어떻게 배우는가</a>에서 다룹니다.',
    },
    learns: {
      name: '어텐션은 어떻게 배우는가',
      meta: {
        title: '어텐션은 어떻게 배우는가 — 계산해 보는 어텐션',
        description: 'Seq2Seq에서 트랜스포머까지, 학습으로 다시 따라가 보기. WebAssembly로 컴파일한 C++ 코어가 작은 모델을 브라우저에서 몇 초 만에 학습시킵니다.',
      },
      title: '어텐션은 어떻게 배우는가',
      lede: 'Seq2Seq에서 트랜스포머까지의 역사를 학습으로 다시 따라갑니다. 역사의 한 걸음마다 작은 모델을 여러분의 브라우저에서 학습시키고, 주장마다 그 모델이 잰 숫자로 보여 줍니다.',
      how: '여기 나오는 모델은 모두 <a href="#walkthrough">첫 페이지</a>의 숫자를 계산하는 바로 그 C++ 코어가 WebAssembly로 컴파일되어 여러분의 브라우저 백그라운드 스레드에서 그 자리에서 학습합니다. 결과를 설명하는 문장은 이 페이지에서 잰 숫자를 보고 고릅니다. 학습이 다르게 나오면 문장도 그렇게 말합니다.',
    },
  },
  pageLinks: { label: '페이지' },
  seedInvalid: '시드는 0부터 {max}까지의 정수입니다. 이 값은 쓰지 않고, 마지막으로 맞게 입력한 시드를 계속 씁니다.',
  lang: { label: '언어' },
  toc: { title: '차례' },
  pageEmpty: '이 페이지에는 아직 절이 없습니다.',
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
    summary: '내 페이지에 넣기',
    intro: '이 섹션을 지금 숫자 그대로 여러분의 웹 페이지에 넣을 수 있습니다. 아래 코드 가운데 하나를 페이지의 HTML에 붙여 넣으세요. 파일은 이 페이지가 있는 곳에서 불러옵니다. 직접 파일을 올려 쓰는 방법은 README에 있습니다.',
    script: '스크립트 태그와 요소(엄격한 Content-Security-Policy에서도 작동)',
    iframe: '또는 스크립트를 지우는 호스트를 위한 iframe(뒤따르는 몇 줄이 틀의 높이를 내용에 맞춥니다. 그 줄이 없으면 적어 둔 높이를 씁니다)',
    copy: '복사',
    copied: '클립보드에 복사했습니다.',
    copyFailed: '여기서는 복사하지 못했습니다. 코드를 선택해 복사하세요.',
    unknownSection: '알 수 없는 섹션 “{id}”입니다. 다음 중 하나를 쓰세요: {ids}.',
  },
  share: {
    invalid: '시작 값 일부({names})를 쓸 수 없어서, 이 예제는 기본 숫자로 시작합니다.',
  },
  actions: { reset: '처음 값으로' },
  // 입력 실수를 읽는 사람의 말로: {field}는 입력 칸의 이름(1부터 셈).
  errors: {
    notANumber: '{field|이} 숫자가 아닙니다. 0.5나 −2처럼 숫자를 입력하세요.',
    tooLarge: '{field|이} 너무 큽니다. 엔진은 단정밀도로 계산하므로 ±3.4 × 10³⁸ 근처가 한계입니다.',
    overflow: '값이 너무 큽니다. 점수나 출력이 단정밀도의 최댓값 ±3.4 × 10³⁸을 넘게 됩니다.',
  },
  // 엔진의 'translate' 과제: 독자가 그 모델에 문장을 입력하는 곳("learning", "decoding" 절).
  translateTask: {
    refused: '엔진이 이 문장을 받지 않았습니다: {message}',
    pattern: '문장은 모두 이 틀을 따릅니다(대괄호: 넣어도 빼도 됨, 대문자: 아래 묶음의 단어 하나).',
    groups: {
      ARTICLE: '관사', PREPOSITION: '전치사', ADJECTIVE: 'ADJECTIVE(형용사)', PERSON: 'PERSON(사람)', VERB: 'VERB(동사)',
      ADVERB: 'ADVERB(부사)', THING: 'THING(사물)', PLACE: 'PLACE(장소)', TIME: 'TIME(시간)',
    },
  },
  footer: '참고: Vaswani 외, <cite>Attention Is All You Need</cite>(2017); Bahdanau, Cho, Bengio(2015); Luong, Pham, Manning(2015); 그리고 어텐션을 다룬 한국어 글 다섯 편. 글에 나온 예제는 베끼지 않고 여기서 다시 계산했습니다.',
};
