// In-process circuit breaker against opossum and cockatiel, each wrapping the same trivial
// async function: calls per second on the success path (closed circuit) and the open path
// (every call refused). Exits non-zero if ours is slower than the faster of the two on
// either path. Run: node bench/breaker.bench.mjs [callsPerRound]
import CircuitBreakerOpossum from 'opossum';
import { ConsecutiveBreaker, circuitBreaker, handleAll } from 'cockatiel';
import { loadBreaker } from './guards/load-breaker.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const CALLS = Number(process.argv[2] ?? sized(200_000, 5_000));
const ROUNDS = sized(5, 2);
const trivial = async () => 42;

const { CircuitBreaker, systemClock } = await loadBreaker();

/** Calls `call` CALLS times in sequence; returns calls per second. */
async function measure(call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    try {
      await call();
    } catch {
      // the open path rejects every call
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return CALLS / seconds;
}

/** Best of ROUNDS, rounds interleaved across contenders so drift hits all alike. */
async function race(contenders) {
  const best = Object.fromEntries(Object.keys(contenders).map((k) => [k, 0]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, call] of Object.entries(contenders)) {
      best[name] = Math.max(best[name], await measure(call));
    }
  }
  return best;
}

function contenders(open) {
  const ours = new CircuitBreaker('bench', systemClock, { cooldownMs: 3_600_000 });
  const opossum = new CircuitBreakerOpossum(trivial, { resetTimeout: 3_600_000, timeout: false });
  const cockatiel = circuitBreaker(handleAll, {
    halfOpenAfter: 3_600_000,
    breaker: new ConsecutiveBreaker(5),
  });
  let isolation;
  if (open) {
    ours.trip('bench');
    opossum.open();
    isolation = cockatiel.isolate();
  }
  return {
    contenders: {
      gatehouse: () => ours.execute(trivial),
      opossum: () => opossum.fire(),
      cockatiel: () => cockatiel.execute(trivial),
    },
    dispose() {
      ours.dispose();
      opossum.shutdown();
      isolation?.dispose();
    },
  };
}

const fmt = (n) => `${(n / 1000).toFixed(0).padStart(7)}k calls/s`;
let failed = false;
console.log(
  `circuit breaker, ${CALLS} sequential calls per round, best of ${ROUNDS}, node ${process.version}`,
);
for (const path of ['success', 'open']) {
  const { contenders: c, dispose } = contenders(path === 'open');
  const best = await race(c);
  dispose();
  const rival = Math.max(best.opossum, best.cockatiel);
  console.log(`\n${path} path`);
  for (const [name, rate] of Object.entries(best)) {
    const ratio =
      name === 'gatehouse' ? '' : `  gatehouse/${name} = ${(best.gatehouse / rate).toFixed(2)}x`;
    console.log(`  ${name.padEnd(10)} ${fmt(rate)}${ratio}`);
  }
  if (best.gatehouse < rival) {
    failed = true;
    console.log(`  FAIL: gatehouse is slower than the faster rival on the ${path} path`);
  }
}
settleTargets(failed);
