// "family-trained" 절 문구(한국어). HTML 사용 가능; $...$는 TeX(빌드할 때 MathML로);
// {name}은 실행 중에 계산한 값으로, {§id}는 그 절의 번호로 채운다.
const R = String.raw;

export default {
  title: '계보를 학습시키면',
  lede: R`<a href="#family">{§family}절</a>에서는 Bahdanau와 Luong의 점수를 무작위 가중치로 계산했습니다. 번역기에서는 그 가중치를 학습합니다. Bahdanau 외의 말로 하면 정렬 모델은 “다른 모든 구성 요소와 함께 학습”됩니다(<span lang="en">jointly trained with all the other components</span>). 여기서는 변형마다 같은 과제를 같은 시드에서 여러분의 브라우저로 나란히 학습시킵니다. 얼마나 빨리 배우는지, 그리고 어디를 보도록 배우는지를 봅니다.`,
  models: {
    bahdanau: R`Bahdanau의 모델은 인코더 상태를 디코더의 <em>직전</em> 상태 $s_{t-1}$과 견주어 점수를 매기고, 그렇게 만든 컨텍스트를 $s_t$를 만드는 단계에 넣습니다.`,
    luong: R`Luong의 모델은 현재 상태 $h_t$를 먼저 만들고, 그것과 견주어 점수를 매긴 다음, 컨텍스트를 나중에 출력 $\tilde h_t$에 넣습니다. 논문의 말대로 “계산 경로가 더 단순”합니다(<span lang="en">our computation path is simpler</span>). 여기서 인코더는 왼쪽에서 오른쪽으로 읽는 GRU 하나입니다. 점수는 세 가지입니다.`,
    local: R`<b>global</b> 창은 소스의 모든 위치에 점수를 매깁니다. <b>local-p</b> 창은 어디를 볼지 $p_t$를 먼저 예측하고, 그 둘레의 가우스 곡선으로 각 위치에 무게를 곱합니다($D$ = {half}). 논문에서처럼 곱한 뒤 합이 1이 되도록 다시 나누지는 않습니다.`,
    feeding: R`<b>입력 피딩(input feeding)</b>을 켜면 앞 단계의 출력 $\tilde h_{t-1}$이 직전 단어와 함께 다음 단계로 들어갑니다. 모델이 이미 어디를 보았는지 알 수 있게 하려는 것입니다.`,
    tasks: R`변형은 모두 너비 $d_{\text{model}}$ = {dModel}인 GRU 번역기이고, 문장 {batch}개씩 묶어 학습합니다. 학습에 쓰지 않은 평가용 문장에서 스스로 써 나갈 때 단어의 {target} 이상을 맞히면 멈추고(앞쪽 {examples}개로 {every}단계마다 잽니다), 그러지 못하면 {steps}단계에서 멈춥니다. 그다음 평가용 문장 전부로 잽니다. <b>번역</b>: 장난감 영어를 조사를 토큰으로 붙인 한국어 어순으로 옮기는 과제입니다. 형용사, 부사, 장소와 시간이 붙었다 빠졌다 하므로 문장마다 정렬이 움직입니다. <b>뒤집기</b>: 숫자 {length}개를 거꾸로 쓰는 과제로, 기준 정렬은 반대쪽 대각선입니다. 한 번에 변형을 {max}개까지, 백그라운드 스레드 두 개에서 두 개씩 학습합니다.`,
  },
  controls: {
    task: '과제',
    tasks: { translate: '영어 → 한국어', reverse: '숫자 {length}개 뒤집기' },
    seed: '시드',
    newSeed: '새 시드',
    modelsLegend: '모델',
    models: { bahdanau: 'Bahdanau (additive)', dot: 'Luong dot', general: 'Luong general', concat: 'Luong concat' },
    window: 'Luong의 창',
    windows: { global: 'global', local: 'local-p', both: '둘 다' },
    feeding: '입력 피딩',
    feedings: { on: '켬', off: '끔', both: '둘 다' },
    count: '학습할 변형: {count}개.',
    none: '모델을 하나 이상 고르세요.',
    tooMany: '변형이 {count}개가 됩니다. 여기서는 한 번에 {max}개까지만 학습합니다. 모델을 하나 끄거나, 창이나 입력 피딩을 하나만 고르세요.',
  },
  buttons: { play: '학습시키기', stop: '멈춤' },
  variants: {
    bahdanau: 'Bahdanau',
    luong: 'Luong {score} · {window} · {feeding}',
    scores: { dot: 'dot', general: 'general', concat: 'concat' },
    windows: { global: 'global', local: 'local-p' },
    feeding: { on: '피딩 켬', off: '피딩 끔' },
  },
  training: {
    title: '나란히 학습시킨 변형들',
    intro: '변형마다 같은 시드에서 시작하고 같은 종류의 문장을 봅니다. 곡선은 목표에 이른 곳에서 끝납니다.',
  },
  status: {
    idle: '“학습시키기”를 누르세요.',
    running: '학습 중… 변형 {count}개 중 {done}개 끝.',
    done: '끝: 변형 {count}개, 이 브라우저에서 {seconds}초.',
    stopped: '변형 {count}개 중 {done}개를 마치고 멈췄습니다. 다시 학습하면 모두 처음부터 합니다.',
    failed: '학습이 실패했습니다: {message}',
  },
  charts: {
    xLabel: '학습 단계',
    step: '단계',
    loss: {
      title: '단계에 따른 학습 손실',
      description: '평가한 단계마다 그 배치의 교차 엔트로피. 변형마다 선 하나, 로그 눈금.',
      caption: '학습 손실(교차 엔트로피, 로그 눈금)',
    },
    accuracy: {
      title: '단계에 따른 평가 정확도',
      description: '변형마다, 스스로 써 나갈 때 평가용 문장 앞쪽 64개의 단어를 맞힌 비율. 변형마다 선 하나.',
      caption: '평가 정확도(평가용 문장 앞쪽 64개에서 맞게 쓴 단어의 비율)',
    },
  },
  results: {
    caption: '평가용 앞부분에서 {target}에 이른 단계. 끝난 뒤에는 평가용 예제 전부에서의 정확도와, 가장 큰 어텐션 가중치가 기준 정렬의 토큰에 놓인 비율(평가용 예제 {examples}개).',
    variant: '변형',
    steps: '{target}에 이른 단계',
    accuracy: '평가 정확도',
    agreement: '정렬 일치율',
    waiting: '대기',
    training: '{step}단계: {accuracy}',
    notReached: '{steps}단계 안에 못 이룸',
  },
  maps: {
    intro: '변형마다 같은 시험 예제에서 어디를 보도록 배웠는지입니다(행: 모델이 쓰는 토큰, 열: 소스, 진할수록 큰 가중치). 점선 칸은 행마다 기준 정렬이 가리키는 소스 토큰입니다. local-p에서는 칸 아래의 선이 창이고, 세로 눈금이 예측한 위치 $p_t$입니다.',
    on: '가장 큰 가중치가 기준 정렬이 가리키는 곳에: {aligned}행 중 {on}행.',
    off: '그 한 칸 오른쪽에: {right}행, 한 칸 왼쪽에: {left}행.',
    window: '창의 중심이 그곳에서 {half}칸 안에: {aligned}행 중 {inside}행.',
    positionsTable: '예측한 위치를 표로 보기',
    output: '출력 단어',
    position: '예측한 위치 $p_t$(1부터)',
    reference: '기준 위치(1부터)',
  },
  summary: {
    and: ', ',
    separator: '; ',
    pair: '{score}: {a} 대 {b}',
    notReached: '{steps}단계 안에 못 이룸',
    reach: {
      all: '변형 {count}개가 모두 평가용 앞부분에서 {target}에 이르렀습니다. 가장 먼저 이른 것은 {fastest}({fastestSteps}단계), 가장 늦게 이른 것은 {slowest}({slowestSteps}단계)입니다.',
      one: '{variant|은} {steps}단계에 평가용 앞부분에서 {target}에 이르렀습니다.',
      some: '변형 {count}개 중 {reached}개가 {steps}단계 안에 평가용 앞부분에서 {target}에 이르렀고, {missed|은} 이르지 못했습니다(그중 가장 낮은 평가 정확도: {lowest}).',
      none: '변형 {count}개 중 어느 것도 {steps}단계 안에 평가용 앞부분에서 {target}에 이르지 못했습니다(가장 낮은 평가 정확도: {lowest}).',
    },
    alignment: {
      translate: '어디를 보는가: 평가용 문장 {examples}개에서 내용어의 가장 큰 가중치가 그 단어의 영어 원문 단어에 놓인 비율은 {low}({lowVariant})에서 {high}({highVariant})까지입니다.',
      reverse: '어디를 보는가: 평가용 숫자열 {examples}개에서 출력 숫자의 가장 큰 가중치가 그 숫자가 옮겨 쓰는 소스 숫자에 놓인 비율은 {low}({lowVariant})에서 {high}({highVariant})까지입니다.',
      one: {
        translate: '어디를 보는가: 평가용 문장 {examples}개에서 내용어의 가장 큰 가중치가 그 단어의 영어 원문 단어에 놓인 비율은 {share}입니다.',
        reverse: '어디를 보는가: 평가용 숫자열 {examples}개에서 출력 숫자의 가장 큰 가중치가 그 숫자가 옮겨 쓰는 소스 숫자에 놓인 비율은 {share}입니다.',
      },
    },
    elsewhere: '기준 정렬이 가리키는 곳을 보지 않고도 맞혔습니다: {variants|은} 출력의 {well} 이상을 맞게 썼지만, 가장 큰 가중치가 기준 위치에 놓인 것은 절반이 안 됩니다. 어텐션의 꼭대기만이 맞는 출력으로 가는 길은 아닙니다.',
    probe: {
      translate: '시험 문장의 정렬 행렬에서, 변형 {count}개를 통틀어 내용어의 가장 큰 가중치가 원문 단어에 놓인 행은 {aligned}행 중 {on}행, 한 단어 오른쪽은 {right}행, 한 단어 왼쪽은 {left}행입니다.',
      reverse: '시험 숫자열의 정렬 행렬에서, 변형 {count}개를 통틀어 가장 큰 가중치가 옮겨 쓸 숫자(반대쪽 대각선)에 놓인 행은 {aligned}행 중 {on}행, 그 한 칸 오른쪽(바로 전에 쓴 숫자)은 {right}행, 한 칸 왼쪽은 {left}행입니다.',
      one: {
        translate: '시험 문장의 정렬 행렬에서 내용어의 가장 큰 가중치가 원문 단어에 놓인 행은 {aligned}행 중 {on}행, 한 단어 오른쪽은 {right}행, 한 단어 왼쪽은 {left}행입니다.',
        reverse: '시험 숫자열의 정렬 행렬에서 가장 큰 가중치가 옮겨 쓸 숫자(반대쪽 대각선)에 놓인 행은 {aligned}행 중 {on}행, 그 한 칸 오른쪽(바로 전에 쓴 숫자)은 {right}행, 한 칸 왼쪽은 {left}행입니다.',
      },
    },
    shifted: {
      reverse: '시험 숫자열에서 {variants}의 가장 큰 가중치는 대부분 기준보다 한 칸 오른쪽, 곧 모델이 방금 쓴 소스 숫자에 놓입니다. 디코더는 그 숫자를 내용으로 찾아내고, 그 자리의 인코더 상태에서 이웃 숫자, 곧 다음에 쓸 숫자를 읽습니다.',
      translate: '시험 문장에서 {variants}의 가장 큰 가중치는 대부분 기준 단어보다 한 단어 오른쪽에 놓입니다.',
    },
    local: {
      translate: '{variants}의 local-p 창은 시험 문장의 단어 {total}개 중 {inside}개에서 기준 단어로부터 {half}칸 안에 중심을 두었습니다.',
      reverse: '{variants}의 local-p 창은 시험 숫자열의 숫자 {total}개 중 {inside}개에서 옮겨 쓸 숫자로부터 {half}칸 안에 중심을 두었습니다.',
    },
    pairs: {
      feeding: '{target}에 이른 단계, 입력 피딩을 켰을 때 대 껐을 때: {list}.',
      window: '{target}에 이른 단계, global 대 local-p: {list}.',
    },
  },
  after: R`<p>점수 함수는 작은 선택입니다. 더 크게 달라지는 것은 어텐션이 단계의 어디에 앉는지(상태를 만들기 전이면 Bahdanau, 만든 뒤면 Luong), 어디를 볼지 모델에게 알려 주는지(local-p), 한 단계에서 다음 단계로 무엇을 넘기는지(입력 피딩)입니다. 어텐션이 아예 없을 때와 비교해 이들 모두가 얻는 것은 <a href="#bottleneck">{§bottleneck}절</a>에서 볼 수 있습니다.</p>`,
};
