// "bottleneck" 절 문구(한국어). HTML 사용 가능; $...$는 TeX(빌드할 때 MathML로);
// {name}은 실행 중에 계산한 값으로, {§id}는 그 절의 번호로 채운다.
const R = String.raw;

export default {
  title: '병목: 문장 전체를 vector 하나에',
  lede: R`002번 글은 Seq2Seq에 대한 의문에서 시작합니다. encoder는 입력을 순서대로 읽어 마지막에 context vector $c$ 하나를 남기고, decoder는 그 $c$만 보고 출력을 만듭니다. 입력이 4단어여도 40단어여도 $c$의 크기는 똑같습니다. 글은 이 문제를 처음 지적하고 해결한 논문을 이렇게 인용합니다.`,
  quote: {
    lang: 'en',
    text: 'A potential issue with this encoder–decoder approach is that a neural network needs to be able to compress all the necessary information of a source sentence into a fixed-length vector. This may make it difficult for the neural network to cope with long sentences.',
    source: R`— Bahdanau, Cho and Bengio, <cite>Neural Machine Translation by Jointly Learning to Align and Translate</cite> (2015)`,
    gloss: R`글의 말로 하면 “필요한 정보를 전부 고정 길이 vector에 압축해야 한다는 것, 그래서 긴 문장을 다루기 어려워진다는 것이 핵심”입니다. 논문의 그림 2가 영어–프랑스어 번역에서 이를 보여 줍니다. 문장이 길어질수록 평범한 encoder–decoder의 BLEU 점수는 떨어지고, 어텐션을 쓴 모델은 버팁니다. 여기서는 같은 비교를 장난감 크기로 브라우저에서 직접 학습시킵니다. 아래의 수치는 논문의 것이 아니라 이 페이지가 잰 것입니다.`,
  },
  model: {
    plain: R`두 모델 모두 너비 $d_{\text{model}} = 32$인 GRU로 소스를 읽고, 출력을 한 토큰씩 쓰며, 각 단계는 직전에 쓴 토큰을 읽습니다. 평범한 모델(Sutskever 등과 Cho 등의 2014년 encoder–decoder)은 encoder의 마지막 상태에서 decoder를 시작하고, 그 밖에는 아무것도 받지 않습니다.`,
    attentive: R`Bahdanau의 모델은 encoder 상태 $h_j$를 모두 남겨 둡니다(양방향 GRU이므로 $h_j$는 위치 $j$의 앞뒤를 모두 압니다). 단계마다 그 전부를 decoder의 직전 상태 $s_{t-1}$과 견주어 점수를 매기고, 그 비율로 섞은 context $c_t$를 그 단계에 넣습니다.`,
    task: R`과제는 무작위 숫자열을 거꾸로 쓰는 것입니다. 문법은 필요 없고 기억만 있으면 됩니다. 처음 써야 할 숫자는 마지막에 읽은 것이고, 마지막에 써야 할 숫자는 처음 읽은 것이어서, 평범한 모델은 그것을 encoder의 모든 단계를 거쳐 들고 와야 합니다. 두 모델은 새로 만든 숫자열 32개씩으로 학습하다가, 한 번도 본 적 없는 숫자열에서 스스로 써 나갈 때(자기가 쓴 숫자가 다음 단계의 입력) 숫자의 {target} 이상을 맞히면 멈추고, 그러지 못하면 단계 예산이 다할 때 멈춥니다. 그다음 평가용 숫자열 전부로 평가합니다. 찍으면 열에 하나쯤 맞힙니다. 소스 길이는 {lengths}자리이고, 학습은 모두 {count}번, 백그라운드 스레드 두 개에서 두 개씩 돌아갑니다.`,
  },
  controls: {
    steps: '학습당 최대 단계',
    seed: '시드',
    newSeed: '새 시드',
  },
  buttons: { play: '전체 학습', stop: '멈춤' },
  models: {
    rnn: { short: '평범한 encoder–decoder' },
    bahdanau: { short: 'Bahdanau (어텐션)' },
  },
  sweep: {
    title: '길이에 따른 정확도, 여기서 학습한 결과',
    intro: '두 모델을 모든 길이에서, 같은 시드와 같은 단계 예산으로 학습합니다. 점은 그 학습이 끝나고 평가를 마치면 나타납니다.',
  },
  status: {
    idle: '“전체 학습”을 누르세요. 학습 {count}번을 두 개씩 돌립니다.',
    running: '학습 중… {count}번 중 {done}번 끝.',
    done: '끝: 학습 {count}번, 이 브라우저에서 {seconds}초.',
    stopped: '{count}번 중 {done}번을 마치고 멈췄습니다. 다시 학습하면 모두 처음부터 합니다.',
    failed: '학습이 실패했습니다: {message}',
  },
  chart: {
    title: '소스 길이에 따른 평가 정확도',
    description: '모델마다, 스스로 써 나갈 때 평가용 숫자를 맞힌 비율을 소스의 숫자 개수에 따라 그린 것.',
    caption: '소스 길이에 따른 평가 정확도(맞게 쓴 숫자의 비율)',
    xLabel: '소스 길이(자리)',
    yLabel: '평가 정확도',
  },
  runs: {
    caption: '학습마다: 학습하는 동안은 평가용 숫자열 앞쪽 {part}개에서의 정확도, 끝난 뒤에는 전부에서의 정확도.',
    length: '자리',
    waiting: '대기',
    starting: '시작하는 중…',
    training: '{step}단계: {accuracy}',
    evaluating: '{step}단계: 평가하는 중…',
    reached: '{accuracy} ({step}단계에 {target} 도달)',
    budget: '{accuracy} ({steps}단계 후)',
  },
  summary: {
    plain: {
      falls: '평범한 모델은 길이가 늘수록 떨어졌습니다. {first}자리에서 {from}, {last}자리에서 {to}입니다.',
      holds: '이번에는 평범한 모델도 모든 길이에서 버텼습니다. 가장 낮을 때도 {lowest}이고, {last}자리에서 {to}입니다.',
      flat: '이번에는 평범한 모델이 길이에 따라 크게 떨어지지 않았습니다. {first}자리에서 {from}, {last}자리에서 {to}입니다.',
      upTo: '{length}자리까지는 {holds} 이상을 지켰고, {next}자리에서는 {accuracy}였습니다.',
      never: '{first}자리에서부터 이미 {holds}에 못 미쳤습니다({accuracy}).',
    },
    attentive: {
      holds: '어텐션 모델은 모든 길이에서 버텼습니다. 가장 낮을 때도 {lowest}입니다.',
      falls: '어텐션 모델도 {lengths}자리에서 {holds} 아래로 떨어졌습니다(가장 낮은 값은 {at}자리의 {worst}).',
    },
    verdict: {
      figure: 'Bahdanau 등의 그림 2와 같은 모양이 여기서 재어졌습니다. vector 하나로는 긴 숫자열을 잃고, 어텐션은 잃지 않습니다.',
      not: '그러니 이번 학습은 논문의 그림 2와 같은 모양으로 나오지 않았습니다. 다른 시드나 더 큰 단계 예산으로 그 결과가 유지되는지 볼 수 있습니다.',
    },
    budget: {
      all: '어텐션 모델은 {steps}단계 안에 모든 길이에서 평가용 앞부분 기준 {target}에 이르렀고, 가장 늦어도 {slowest}단계였습니다. 평범한 모델은 {count}개 길이 중 {plainReached}개에서 이르렀습니다.',
      some: '{steps}단계 안에 평가용 앞부분 기준 {target}에 이른 길이는 {count}개 중 어텐션 모델이 {attentiveReached}개, 평범한 모델이 {plainReached}개입니다.',
    },
  },
  after: R`<p>어텐션 모델이 그저 더 커서 이기는 것이 아닙니다. decoder의 너비는 같습니다. 다른 것은 병목을 돌아가는 길이 있다는 점입니다. 단계마다 어텐션이 필요한 encoder 상태를 읽으므로, 소스 전체가 vector 하나에 들어갈 필요가 없습니다. <a href="#family-trained">{§family-trained}절</a>에서는 Bahdanau의 모델을 Luong의 변형들과 나란히 학습시키고, 각각 어디를 보도록 배웠는지 보여 줍니다.</p>`,
};
