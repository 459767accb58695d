// Comparing today's code with a baseline in one run: pairs of passes in alternating order, so
// that load from other processes on the machine hits both sides of each pair alike; the figure
// is the median of the pairs' ratios.

/** The middle value of `xs` (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs `measure('new')` and `measure('baseline')` in `pairs` pairs, alternating which goes
 * first, and returns each side's times and each pair's ratio (new / baseline).
 */
export function pairedPasses(measure, pairs) {
  const times = { new: [], baseline: [] };
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 ? ['baseline', 'new'] : ['new', 'baseline'];
    const t = {};
    for (const which of order) t[which] = measure(which);
    times.new.push(t.new);
    times.baseline.push(t.baseline);
    ratios.push(t.new / t.baseline);
  }
  return { times, ratios };
}
