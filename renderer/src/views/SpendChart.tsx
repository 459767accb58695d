import { formatUsd } from '../util/format';

export interface Bar {
  label: string;
  value: number;
}

interface Props {
  title: string;
  bars: Bar[];
  /** A dashed line at this value (a budget), when given. */
  limit?: number | undefined;
  testId: string;
}

const WIDTH = 480;
const HEIGHT = 160;
const PAD = { top: 12, right: 8, bottom: 28, left: 48 };

/**
 * A small bar chart drawn as plain SVG (no chart library: the first load must stay small and
 * the CSP allows no inline styles). The table under it carries the same numbers for screen
 * readers and for copying.
 */
export function SpendChart({ title, bars, limit, testId }: Props) {
  const highest = Math.max(...bars.map((b) => b.value), 0);
  // A budget far above the spend would flatten every bar: then it is named, not drawn.
  const limitShown = limit !== undefined && limit > 0 && highest > 0 && limit <= highest * 4;
  const max = Math.max(limitShown ? limit : 0, highest * 1.1, 0.01);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = bars.length ? plotW / bars.length : plotW;
  const barW = Math.max(4, Math.min(40, step * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${title}: ${bars.map((b) => `${b.label} ${formatUsd(b.value)}`).join(', ') || 'no data'}`}
      >
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="axis" />
        <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className="tick">
          {formatUsd(max)}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="tick">
          $0
        </text>
        {bars.map((b, i) => {
          const x = PAD.left + i * step + (step - barW) / 2;
          const over = limit !== undefined && limit > 0 && b.value > limit;
          return (
            <g key={b.label}>
              {b.value > 0 && bars.length <= 16 && (
                <text x={x + barW / 2} y={y(b.value) - 3} textAnchor="middle" className="tick">
                  {formatUsd(b.value)}
                </text>
              )}
              <rect
                x={x}
                y={y(b.value)}
                width={barW}
                height={Math.max(0, y(0) - y(b.value))}
                className={over ? 'bar over' : 'bar'}
              >
                <title>{`${b.label}: ${formatUsd(b.value)}`}</title>
              </rect>
              {(bars.length <= 10 || i % Math.ceil(bars.length / 10) === 0) && (
                <text x={x + barW / 2} y={HEIGHT - 10} textAnchor="middle" className="tick">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
        {limitShown && (
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(limit)} y2={y(limit)} className="limit">
            <title>{`Budget ${formatUsd(limit)}`}</title>
          </line>
        )}
      </svg>
      {limit !== undefined && limit > 0 && !limitShown && (
        <p className="hint">Budget {formatUsd(limit)} per day (above this scale).</p>
      )}
      {highest === 0 && <p className="empty">No spend recorded yet.</p>}
    </figure>
  );
}
